import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { validate } from '../../src/model/FieldError.js'
import {
  PaymentMethod,
  PaymentMethodRequest,
  cardBrand,
  cardLast4,
  luhn,
  maskCardNumber,
  paymentMethodRequestAt,
} from '../../src/model/PaymentMethod.js'

const NOW = new Date('2026-06-15T12:00:00.000Z')
const decodeAt = validate(paymentMethodRequestAt(NOW))

/** The digit that makes `prefix + digit` pass the Luhn check. */
const checkDigit = (prefix: string): string => {
  for (let d = 0; d <= 9; d++) if (luhn(`${prefix}${d}`)) return String(d)
  throw new Error('unreachable')
}

const luhnNumber = fc
  .string({ unit: fc.constantFrom(...'0123456789'), minLength: 11, maxLength: 18 })
  .map((prefix) => `${prefix}${checkDigit(prefix)}`)

const pad2 = (n: number): string => String(n).padStart(2, '0')

/** A month/year not in the past at NOW. */
const futureExpiry = fc.oneof(
  fc.record({
    expirationMonth: fc.integer({ min: 6, max: 12 }).map(pad2),
    expirationYear: fc.constant('2026'),
  }),
  fc.record({
    expirationMonth: fc.integer({ min: 1, max: 12 }).map(pad2),
    expirationYear: fc.integer({ min: 2027, max: 2099 }).map(String),
  }),
)

const cvv = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 3, maxLength: 4 })

const validRequest = fc
  .record(
    {
      card: fc.record(
        {
          number: luhnNumber,
          expiry: futureExpiry,
          cvv,
          cardHolder: fc.string(),
          singleUse: fc.boolean(),
        },
        { requiredKeys: ['number', 'expiry', 'cvv'] },
      ),
      customer: fc.record(
        { id: fc.string(), name: fc.string(), email: fc.string(), phoneNumber: fc.string() },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ['card'] },
  )
  .map(({ card: { expiry, ...card }, ...rest }) => ({ ...rest, card: { ...card, ...expiry } }))

const sample = {
  customer: {
    id: 'cus_123',
    name: 'Ana Mora',
    email: 'ana@example.com',
    phoneNumber: '+50688887777',
  },
  card: {
    number: '4242424242424242',
    expirationMonth: '12',
    expirationYear: '2030',
    cvv: '123',
    cardHolder: 'ANA MORA',
    singleUse: false,
  },
}

const withCard = (card: Record<string, unknown>) => ({
  ...sample,
  card: { ...sample.card, ...card },
})

const paths = (r: E.Either<ReadonlyArray<{ path: string }>, unknown>): ReadonlyArray<string> =>
  E.isLeft(r) ? r.left.map((e) => e.path) : []

describe('luhn', () => {
  it.each([
    '4242424242424242',
    '4111111111111111',
    '5555555555554444',
    '4000000000003220',
    '4000008400000027',
    '4000000000009995',
    '4000000000000002',
    '378282246310005',
  ])('accepts the test card %s', (n) => expect(luhn(n)).toBe(true))

  it('refuses a wrong check digit, non-digits and the empty string', () => {
    expect(luhn('4242424242424241')).toBe(false)
    expect(luhn('4242-4242-4242-4242')).toBe(false)
    expect(luhn('')).toBe(false)
  })

  test.prop([luhnNumber, fc.nat(), fc.integer({ min: 1, max: 9 })])(
    'detects every single-digit error',
    (number, at, delta) => {
      const i = at % number.length
      const changed = (Number(number.charAt(i)) + delta) % 10
      const broken = `${number.slice(0, i)}${changed}${number.slice(i + 1)}`
      expect(luhn(number)).toBe(true)
      expect(luhn(broken)).toBe(false)
    },
  )
})

describe('cardBrand, cardLast4, maskCardNumber', () => {
  it('names the brand by the first digit (docs/service.md#test-cards)', () => {
    expect(cardBrand('378282246310005')).toBe('AMEX')
    expect(cardBrand('4242424242424242')).toBe('VISA')
    expect(cardBrand('5555555555554444')).toBe('MASTERCARD')
    expect(cardBrand('6011111111111117')).toBe('DISCOVER')
    expect(cardBrand('1234567812345670')).toBe('UNKNOWN')
    expect(cardBrand('')).toBe('UNKNOWN')
    expect(cardBrand('4242 4242 4242 4242')).toBe('VISA')
  })

  it('shows only the last four digits', () => {
    expect(cardLast4('4242 4242 4242 1234')).toBe('1234')
    expect(maskCardNumber('4242424242421234')).toBe('**** 1234')
    expect(maskCardNumber('1234')).toBe('****')
  })

  test.prop([fc.string({ unit: fc.constantFrom(...'0123456789 '), maxLength: 25 })])(
    'a masked number never shows more than four digits',
    (n) => {
      expect(maskCardNumber(n).replace(/\D/g, '').length).toBeLessThanOrEqual(4)
    },
  )
})

describe('PaymentMethodRequest', () => {
  it('decodes the spec sample shape', () => {
    expect(decodeAt(sample)).toEqual(E.right(sample))
  })

  it('needs only the card number, expiry and cvv', () => {
    const card = {
      number: '4242424242424242',
      expirationMonth: '06',
      expirationYear: '2026',
      cvv: '1234',
    }
    expect(decodeAt({ card })).toEqual(E.right({ card }))
  })

  it('strips unknown fields at every level and spaces in the number', () => {
    const r = decodeAt({
      ...sample,
      extra: 1,
      customer: { ...sample.customer, vip: true },
      card: { ...sample.card, number: '4242 4242 4242 4242', pin: '0000' },
    })
    expect(r).toEqual(E.right(sample))
  })

  it.each([
    ['4242424242424241', 'fails the Luhn check', { code: 'luhn' }],
    ['4242-4242-4242-4242', 'must contain only digits (and spaces)', { code: 'digits' }],
    ['42424242424', 'must have 12 to 19 digits', { code: 'digitCount', minimum: 12, maximum: 19 }],
    [
      '42424242424242424242',
      'must have 12 to 19 digits',
      { code: 'digitCount', minimum: 12, maximum: 19 },
    ],
    ['', 'is required', { code: 'required' }],
    ['   ', 'is required', { code: 'required' }],
    [
      4242424242424242,
      'must be a string, got a number',
      {
        code: 'type',
        expected: ['string'],
        received: 'number',
      },
    ],
  ])('refuses card.number %j at card.number', (number, message, issue) => {
    expect(decodeAt(withCard({ number }))).toEqual(
      E.left([{ path: 'card.number', message, ...issue }]),
    )
  })

  it.each(['1', '00', '13', '6', 'ab'])('refuses expirationMonth %s', (expirationMonth) => {
    expect(paths(decodeAt(withCard({ expirationMonth })))).toEqual(['card.expirationMonth'])
  })

  it.each(['30', '20300', 'abcd'])('refuses expirationYear %s', (expirationYear) => {
    expect(paths(decodeAt(withCard({ expirationYear })))).toEqual(['card.expirationYear'])
  })

  it('refuses a past year at card.expirationYear only', () => {
    expect(decodeAt(withCard({ expirationYear: '2025', expirationMonth: '12' }))).toEqual(
      E.left([{ path: 'card.expirationYear', message: 'the card has expired', code: 'expired' }]),
    )
  })

  it('refuses a past month of the current year at card.expirationMonth only', () => {
    expect(decodeAt(withCard({ expirationYear: '2026', expirationMonth: '05' }))).toEqual(
      E.left([{ path: 'card.expirationMonth', message: 'the card has expired', code: 'expired' }]),
    )
  })

  it('accepts the current month (a card is valid through its expiry month)', () => {
    expect(E.isRight(decodeAt(withCard({ expirationYear: '2026', expirationMonth: '06' })))).toBe(
      true,
    )
  })

  it('PaymentMethodRequest checks the expiry against the current date', () => {
    const year = new Date().getUTCFullYear()
    const decode = validate(PaymentMethodRequest)
    expect(paths(decode(withCard({ expirationYear: String(year - 1) })))).toEqual([
      'card.expirationYear',
    ])
    expect(E.isRight(decode(withCard({ expirationYear: String(year + 1) })))).toBe(true)
  })

  it.each(['12', '12345', 'abc', '12 '])('refuses cvv "%s" at card.cvv', (c) => {
    expect(decodeAt(withCard({ cvv: c }))).toEqual(
      E.left([{ path: 'card.cvv', message: 'must be 3 or 4 digits', code: 'cvv' }]),
    )
  })

  it.each([
    ['expirationMonth', 'must be two digits from 01 to 12', 'expiryMonth', '13'],
    ['expirationYear', 'must be four digits', 'expiryYear', '30'],
  ])('refuses %s with its own code', (field, message, code, value) => {
    expect(decodeAt(withCard({ [field]: value }))).toEqual(
      E.left([{ path: `card.${field}`, message, code }]),
    )
  })

  it.each(['number', 'expirationMonth', 'expirationYear', 'cvv'])(
    'says an empty or blank %s is required, and one of another type is a type error',
    (field) => {
      for (const blank of ['', ' ', '\t'])
        expect(decodeAt(withCard({ [field]: blank }))).toEqual(
          E.left([{ path: `card.${field}`, message: 'is required', code: 'required' }]),
        )
      expect(decodeAt(withCard({ [field]: 12 }))).toEqual(
        E.left([
          {
            path: `card.${field}`,
            message: 'must be a string, got a number',
            code: 'type',
            expected: ['string'],
            received: 'number',
          },
        ]),
      )
    },
  )

  it('names each missing required field', () => {
    expect(paths(decodeAt({}))).toEqual(['card'])
    expect(decodeAt({ card: {} })).toEqual(
      E.left(
        ['number', 'expirationMonth', 'expirationYear', 'cvv'].map((f) => ({
          path: `card.${f}`,
          message: 'is required',
          code: 'required',
        })),
      ),
    )
  })

  it('names a wrongly typed optional field', () => {
    expect(paths(decodeAt({ ...sample, customer: { email: 7 } }))).toEqual(['customer.email'])
    expect(paths(decodeAt(withCard({ singleUse: 'yes' })))).toEqual(['card.singleUse'])
  })

  it('reports every broken field at once', () => {
    expect(
      paths(decodeAt(withCard({ number: '4242424242424241', cvv: '1', expirationYear: '2020' }))),
    ).toEqual(['card.number', 'card.cvv', 'card.expirationYear'])
  })

  test.prop([validRequest])('valid requests decode Right', (req) => {
    expect(decodeAt(req)).toEqual(E.right(req))
  })

  test.prop([validRequest])('decode . encode . decode = decode', (req) => {
    const codec = paymentMethodRequestAt(NOW)
    const once = decodeAt(req)
    expect(E.isRight(once)).toBe(true)
    if (E.isRight(once)) expect(decodeAt(codec.encode(once.right))).toEqual(once)
  })

  test.prop([
    fc.string({ unit: fc.constantFrom(...'0123456789 '), minLength: 12, maxLength: 23 }),
    fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 3, maxLength: 6 }),
    fc.record({ expirationMonth: fc.string(), expirationYear: fc.string() }),
  ])('errors never contain the card number or the CVV', (number, code, expiry) => {
    // `customer: 5` makes every input a Left; the card fields may or may not be broken.
    const r = decodeAt({ card: { number, cvv: code, ...expiry }, customer: 5 })
    expect(E.isLeft(r)).toBe(true)
    const text = JSON.stringify(r)
    expect(text).not.toContain(number.replace(/ /g, ''))
    expect(text).not.toContain(number.trim())
    expect(text).not.toContain(code)
  })

  test.prop([fc.anything()])('validate never throws and every error names a path', (u) => {
    const r = decodeAt(u)
    if (E.isLeft(r)) {
      expect(r.left.length).toBeGreaterThan(0)
      for (const e of r.left) expect(typeof e.path).toBe('string')
    }
  })
})

describe('PaymentMethod (response)', () => {
  const response = {
    id: 'pm_8f3a',
    type: 'card',
    bin: { brand: 'VISA', issuerName: 'Banco Sandbox', countryCode: 'CRI' },
    success: true,
    message: 'Payment method created',
  }

  it('decodes the spec shape and tolerates unknown fields', () => {
    expect(validate(PaymentMethod)(response)).toEqual(E.right(response))
    const extra = { ...response, livemode: false, bin: { ...response.bin, level: 'GOLD' } }
    expect(E.isRight(validate(PaymentMethod)(extra))).toBe(true)
  })

  it('names the missing field', () => {
    const { countryCode: _, ...bin } = response.bin
    expect(paths(validate(PaymentMethod)({ ...response, bin }))).toEqual(['bin.countryCode'])
    expect(paths(validate(PaymentMethod)({ ...response, id: '' }))).toEqual(['id'])
  })

  test.prop([fc.anything()])('validate never throws', (u) => {
    expect(() => validate(PaymentMethod)(u)).not.toThrow()
  })
})

describe('hostile inputs', () => {
  const cyclic: Record<string, unknown> = {}
  cyclic['card'] = cyclic
  const throwing = {
    card: Object.defineProperty({}, 'number', {
      enumerable: true,
      get() {
        throw new Error('boom')
      },
    }),
  }
  it.each<[string, unknown]>([
    ['a cyclic object', cyclic],
    ['a throwing getter', throwing],
    ['a bigint', { card: { ...sample.card, number: 4242424242424242n } }],
  ])('validate never throws on %s', (_, u) => {
    const r = decodeAt(u)
    expect(E.isLeft(r)).toBe(true)
    expect(JSON.stringify(E.isLeft(r) ? r.left : [])).not.toContain('4242424242424242')
  })
})
