import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { ExpirationMonth, ExpirationYear, Money, MoneyFromNumber } from '@paykit/core/pure'
import {
  amountFromInput,
  expirationMonthFromInput,
  expirationYearFromInput,
  paymentLinkRequestFromInput,
  wholeNumberFromInput,
} from '../../../../nodes/Paykit/v1/helpers/conversions.js'

const amount = amountFromInput('amount')

/** The exact decimal a JSON number decodes to through the core's Money codec. */
const decoded = (n: unknown): Money.Money => {
  const money = MoneyFromNumber.decode(n)
  if (E.isLeft(money)) throw new Error(`the core refused ${String(n)}`)
  return money.right
}

/** The JSON number the core writes for a converted amount. */
const sent = (value: unknown): number => MoneyFromNumber.encode(decoded(value))

const exactly = (text: string): Money.Money => {
  const money = Money.fromString(text)
  if (E.isLeft(money)) throw new Error(`not a decimal: ${text}`)
  return money.right
}

/**
 * A decimal text of at most `maxDigits` significant digits in its plain form
 * (`"1234.5"`, `"0.000125"`, `"125000"`), with the digits and the decimal places it has.
 */
const plainDecimal = (maxDigits: number) =>
  fc
    .record({
      digits: fc.integer({ min: 1, max: maxDigits }),
      places: fc.integer({ min: 0, max: 20 }),
      zeros: fc.integer({ min: 0, max: 10 }),
      seed: fc.bigInt({ min: 0n, max: 10n ** 40n }),
    })
    .map(({ digits, places, zeros, seed }) => {
      const significand = (seed % 10n ** BigInt(digits)).toString()
      const scaled = `${significand}${places === 0 ? '0'.repeat(zeros) : ''}`
      if (places === 0) return scaled.replace(/^0+(?=\d)/, '')
      const padded = scaled.padStart(places + 1, '0')
      return `${padded.slice(0, -places)}.${padded.slice(-places)}`
    })

/** How a form might write the same decimal: padded zeros and spaces around it. */
const asTyped = (text: string) =>
  fc
    .record({
      leading: fc.integer({ min: 0, max: 3 }),
      trailing: fc.integer({ min: 0, max: 3 }),
      before: fc.constantFrom('', ' ', '  ', '\t'),
      after: fc.constantFrom('', ' ', '\n'),
    })
    .map(
      ({ leading, trailing, before, after }) =>
        `${before}${'0'.repeat(leading)}${text}${text.includes('.') ? '0'.repeat(trailing) : ''}${after}`,
    )

describe('amountFromInput', () => {
  test.prop([plainDecimal(15).chain((text) => fc.tuple(fc.constant(text), asTyped(text)))])(
    'a decimal text of at most 15 significant digits converts to the Money of that very decimal, sent as a number that decodes to it',
    ([text, typed]) => {
      const result = amount(typed)
      expect(E.isRight(result)).toBe(true)
      if (E.isLeft(result)) return
      expect(Money.isMoney(result.right)).toBe(true)
      expect(Money.Eq.equals(decoded(result.right), exactly(text))).toBe(true)
      expect(Money.Eq.equals(decoded(sent(result.right)), exactly(text))).toBe(true)
    },
  )

  test.prop([plainDecimal(30)])(
    'any decimal text converts exactly or is refused naming the field: never rounded',
    (text) => {
      const result = amount(text)
      if (E.isRight(result))
        expect(Money.Eq.equals(decoded(result.right), exactly(text))).toBe(true)
      else
        expect(result.left).toEqual({
          path: 'amount',
          message: expect.stringContaining('refused rather than rounded'),
        })
    },
  )

  test.prop([fc.double()])('a number passes as it is', (n) => {
    const result = amount(n)
    expect(E.isRight(result) && Object.is(result.right, n)).toBe(true)
  })

  test.prop([fc.string().filter((s) => !/^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/.test(s))])(
    'a text that is no decimal is refused naming the field',
    (text) => {
      const result = amount(text)
      expect(E.isLeft(result) && result.left.path).toBe('amount')
      expect(E.isLeft(result) && result.left.message).toMatch(/^must be a number, like 25\.50/)
    },
  )

  it.each([
    ['25.50', 25.5],
    [' 25.5 ', 25.5],
    ['25', 25],
    ['007.10', 7.1],
    ['.5', 0.5],
    ['25.', 25],
    ['0', 0],
    ['-3', -3],
    ['9007199254740992', 9007199254740992],
    ['0.1', 0.1],
  ])('reads %j as the Money sent as %d', (text, n) => {
    const result = amount(text)
    expect(E.isRight(result) && Money.isMoney(result.right)).toBe(true)
    expect(E.map(sent)(result)).toEqual(E.right(n))
  })

  it.each([
    ['abc', 'must be a number, like 25.50 (got a text that is not a number)'],
    ['12abc', 'must be a number, like 25.50 (got a text that is not a number)'],
    ['1e3', 'must be a number, like 25.50 (got a text that is not a number)'],
    ['$25.50', 'must be a number, like 25.50 (got a text that is not a number)'],
    ['25.50 USD', 'must be a number, like 25.50 (got a text that is not a number)'],
    ['Infinity', 'must be a number, like 25.50 (got a text that is not a number)'],
    ['0x10', 'must be a number, like 25.50 (got a text that is not a number)'],
    ['1 000', 'must be a number, like 25.50 (got a text that is not a number)'],
    [
      '1,000.00',
      'must be a number, like 25.50, with a dot for decimals and no thousands separator (got a text with a comma)',
    ],
    [
      '25,50',
      'must be a number, like 25.50, with a dot for decimals and no thousands separator (got a text with a comma)',
    ],
    ['', 'must be a number, like 25.50 (got an empty text)'],
    ['   ', 'must be a number, like 25.50 (got an empty text)'],
  ])('refuses %j', (text, message) => {
    expect(amountFromInput('lineItems[2].product.price')(text)).toEqual(
      E.left({ path: 'lineItems[2].product.price', message }),
    )
  })

  it('refuses a text with more digits than a JSON number holds, saying how many, without the value', () => {
    const result = amount('12345678901234567890.12')
    expect(result).toEqual(
      E.left({
        path: 'amount',
        message:
          'has more digits than a JSON number holds exactly (22 significant digits; any amount of at most 15 is sent exactly), so it is refused rather than rounded',
      }),
    )
    // 2^53 + 1 rounds to 2^53 as a double.
    expect(E.isLeft(amount('9007199254740993'))).toBe(true)
    expect(E.isLeft(amount('0.1000000000000000055511151231257827'))).toBe(true)
  })

  it('never repeats the text it refuses', () => {
    for (const text of ['4242424242424242x', '4242,4242', '4242 4242 4242 4242']) {
      const result = amount(text)
      expect(E.isLeft(result) && result.left.message).not.toContain('4242')
    }
  })

  it.each([null, undefined, true, {}, [25.5]])('leaves %j for the core to judge', (value) => {
    expect(amount(value)).toEqual(E.right(value))
  })
})

describe('expirationMonthFromInput', () => {
  test.prop([
    fc.integer({ min: 1, max: 12 }),
    fc.constantFrom<(m: number) => unknown>(
      (m) => m,
      (m) => String(m),
      (m) => String(m).padStart(2, '0'),
      (m) => ` ${m} `,
    ),
  ])(
    'any month from 1 to 12, as a number or a text, becomes the two digits the core takes',
    (m, write) => {
      const month = expirationMonthFromInput(write(m))
      expect(ExpirationMonth.is(month)).toBe(true)
      expect(Number(month)).toBe(m)
    },
  )

  it.each([
    [9, '09'],
    ['9', '09'],
    [' 09 ', '09'],
    ['12', '12'],
    [12, '12'],
    ['13', '13'],
    [0, '00'],
  ])('reads %j as %j', (value, month) => {
    expect(expirationMonthFromInput(value)).toBe(month)
  })

  it.each(['009', '', 'sep', 9.5, -1, 100, null, undefined, true])(
    'leaves %j for the core to judge',
    (value) => {
      expect(expirationMonthFromInput(value)).toBe(value)
    },
  )
})

describe('expirationYearFromInput', () => {
  test.prop([fc.integer({ min: 0, max: 99 }), fc.boolean()])(
    'two digits, as a number or a text, become 20YY',
    (yy, asText) => {
      const text = String(yy).padStart(2, '0')
      const year = expirationYearFromInput(asText ? text : yy)
      if (!asText && yy < 10)
        expect(year).toBe(yy) // one digit: not a year
      else {
        expect(year).toBe(`20${text}`)
        expect(ExpirationYear.is(year)).toBe(true)
      }
    },
  )

  it.each([
    ['31', '2031'],
    [31, '2031'],
    ['2031', '2031'],
    [2031, '2031'],
    [' 2031 ', '2031'],
    ['00', '2000'],
  ])('reads %j as %j', (value, year) => {
    expect(expirationYearFromInput(value)).toBe(year)
  })

  it.each(['031', '5', 5, '20310', 20310, 2031.5, -31, '', 'next year', null, undefined])(
    'leaves %j for the core to judge',
    (value) => {
      expect(expirationYearFromInput(value)).toBe(value)
    },
  )
})

describe('paymentLinkRequestFromInput', () => {
  it('converts the amount and every one-time product price, naming each field it refuses', () => {
    const input = Object.freeze({
      amount: '40.80',
      orderReference: '25.50',
      lineItems: Object.freeze([
        Object.freeze({ sku: 'MUG-LOGO', quantity: 3 }),
        Object.freeze({ product: Object.freeze({ name: 'Poster', price: '18.90' }), quantity: 2 }),
        Object.freeze({ product: Object.freeze({ name: 'Pin', price: '1,50' }), quantity: 1 }),
        Object.freeze({ product: Object.freeze({ name: 'Cap', price: 3 }), quantity: 1 }),
      ]),
    })
    const { request, errors } = paymentLinkRequestFromInput(input)
    expect(request).toEqual({
      amount: exactly('40.8'),
      orderReference: '25.50',
      lineItems: [
        { sku: 'MUG-LOGO', quantity: 3 },
        { product: { name: 'Poster', price: exactly('18.9') }, quantity: 2 },
        { product: { name: 'Pin', price: '1,50' }, quantity: 1 },
        { product: { name: 'Cap', price: 3 }, quantity: 1 },
      ],
    })
    expect(errors).toEqual([
      { path: 'lineItems[2].product.price', message: expect.stringContaining('with a comma') },
    ])
    expect(input.amount).toBe('40.80')
  })

  it('converts quantities and expirationMinutes given as whole-number text; leaves other text for the core', () => {
    const { request, errors } = paymentLinkRequestFromInput({
      expirationMinutes: ' 60 ',
      lineItems: [
        { sku: 'MUG-LOGO', quantity: '3' },
        { product: { name: 'Poster', price: '18.90' }, quantity: '2' },
        { sku: 'PIN', quantity: '1.5' },
      ],
    })
    expect(request).toEqual({
      expirationMinutes: 60,
      lineItems: [
        { sku: 'MUG-LOGO', quantity: 3 },
        { product: { name: 'Poster', price: exactly('18.9') }, quantity: 2 },
        { sku: 'PIN', quantity: '1.5' },
      ],
    })
    expect(errors).toEqual([])
  })

  it('adds no field the item did not have, and leaves anything but a record alone', () => {
    expect(paymentLinkRequestFromInput({ lineItems: 'none' })).toEqual({
      request: { lineItems: 'none' },
      errors: [],
    })
    for (const value of [undefined, null, '25.50', [{ amount: '1' }]])
      expect(paymentLinkRequestFromInput(value)).toEqual({ request: value, errors: [] })
  })
})

describe('wholeNumberFromInput', () => {
  it('takes a whole number written as text, and nothing else', () => {
    expect(wholeNumberFromInput('3')).toBe(3)
    expect(wholeNumberFromInput(' 1440 ')).toBe(1440)
    for (const value of ['3.5', '-1', 'three', '', '1e3', 3, null, undefined])
      expect(wholeNumberFromInput(value)).toBe(value)
  })

  test.prop([fc.nat()])('any natural number written as text reads back as itself', (n) => {
    expect(wholeNumberFromInput(String(n))).toBe(n)
  })
})
