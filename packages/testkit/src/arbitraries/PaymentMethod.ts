/**
 * Arbitraries of the body of `POST /paymentmethods` (the core's `PaymentMethodRequest`):
 * valid cards (the test cards of the sandbox and any other number that passes the Luhn
 * check, a future expiry, a 3-4 digit CVV), and bodies broken in exactly one way. Also the
 * payment methods (`POST /paymentmethods` responses) that charges are made for.
 *
 * @since 0.2.0
 */
import {
  luhn,
  type CardOutput,
  type PaymentMethod,
  type PaymentMethodRequestOutput,
} from '@paykit/core/codecs'
import * as fc from 'fast-check'
import type * as t from 'io-ts'
import { testCardTable } from '../simulator/TestCards.js'
import type { Invalid } from './Common.js'
import { breakAt, notAString, notAnObject, removed, text } from './Common.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A card as a caller sends it: the core's card as JSON (`CardOutput`).
 *
 * @category model
 * @since 0.2.0
 */
export type CardInput = CardOutput

/**
 * Customer data as a caller sends it: the core's `customer` as JSON.
 *
 * @category model
 * @since 0.2.0
 */
export type CustomerInput = NonNullable<PaymentMethodRequestOutput['customer']>

/**
 * A `POST /paymentmethods` body as a caller sends it: the core's `PaymentMethodRequest`
 * as JSON (`PaymentMethodRequestOutput`), so a change of the core fails to compile here.
 *
 * @category model
 * @since 0.2.0
 */
export type PaymentMethodRequestInput = PaymentMethodRequestOutput

/**
 * Options of the payment-method arbitraries.
 *
 * @category model
 * @since 0.2.0
 */
export interface PaymentMethodArbitraryOptions {
  /** The date expiries are relative to (default: the time the arbitrary is built). */
  readonly now?: Date
}

/**
 * A payment method as `POST /paymentmethods` answers it (spec 2.3): the core's
 * `PaymentMethod` as JSON.
 *
 * @category model
 * @since 0.2.0
 */
export type PaymentMethodOutput = t.OutputOf<typeof PaymentMethod>

// -------------------------------------------------------------------------------------
// card numbers
// -------------------------------------------------------------------------------------

/**
 * The one digit that completes `partial` into a number passing the core's Luhn check.
 *
 * @example
 * ```ts
 * import { luhnCompletion } from '@paykit/testkit/arbitraries'
 * import { luhn } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(luhnCompletion('424242424242424'), '2') // 4242424242424242, a test card
 * assert.ok(luhn(`400000000000322${luhnCompletion('400000000000322')}`))
 * ```
 *
 * @category card numbers
 * @since 0.2.0
 */
export const luhnCompletion = (partial: string): string =>
  '0123456789'.split('').find((d) => luhn(`${partial}${d}`)) ?? '0'

/**
 * A card number of the sandbox's test-card table.
 *
 * @example
 * ```ts
 * import { testCardTable } from '@paykit/testkit'
 * import { testCardNumber } from '@paykit/testkit/arbitraries'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * const numbers = testCardTable.map((card) => card.number)
 * for (const number of fc.sample(testCardNumber(), 10)) assert.ok(numbers.includes(number))
 * ```
 *
 * @category card numbers
 * @since 0.2.0
 */
export const testCardNumber = (): fc.Arbitrary<string> =>
  fc.constantFrom(...testCardTable.map((card) => card.number))

/**
 * Any card number that passes the Luhn check: 12 to 19 digits, first digit 1-9 (3 AMEX,
 * 4 VISA, 5 MASTERCARD, 6 DISCOVER and the others UNKNOWN to the sandbox).
 *
 * @example
 * ```ts
 * import { luhnCardNumber } from '@paykit/testkit/arbitraries'
 * import { luhn } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 *
 * fc.assert(
 *   fc.property(luhnCardNumber(), (number) => /^[1-9]\d{11,18}$/.test(number) && luhn(number)),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category card numbers
 * @since 0.2.0
 */
export const luhnCardNumber = (): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.constantFrom('1', '2', '3', '4', '5', '6', '7', '8', '9'),
      fc.integer({ min: 10, max: 17 }).chain((length) =>
        fc.string({
          unit: fc.constantFrom(...'0123456789'),
          minLength: length,
          maxLength: length,
        }),
      ),
    )
    .map(([first, rest]) => `${first}${rest}`)
    .map((partial) => `${partial}${luhnCompletion(partial)}`)

/**
 * A valid card number as a caller may type it: a test card or any Luhn-valid number, now
 * and then in groups of four separated by spaces (the core accepts and removes them).
 *
 * @example
 * ```ts
 * import { cardNumber } from '@paykit/testkit/arbitraries'
 * import { luhn } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 *
 * // Digits, now and then in groups of four: valid once the spaces are removed.
 * fc.assert(
 *   fc.property(
 *     cardNumber(),
 *     (number) => /^[\d ]+$/.test(number) && luhn(number.replaceAll(' ', '')),
 *   ),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category card numbers
 * @since 0.2.0
 */
export const cardNumber = (): fc.Arbitrary<string> =>
  fc
    .oneof(testCardNumber(), luhnCardNumber())
    .chain((digits) =>
      fc.oneof(
        { arbitrary: fc.constant(digits), weight: 4 },
        { arbitrary: fc.constant((digits.match(/.{1,4}/g) ?? [digits]).join(' ')), weight: 1 },
      ),
    )

/**
 * A number that fails the Luhn check (a Luhn-valid number with its check digit changed).
 *
 * @example
 * ```ts
 * import { nonLuhnCardNumber } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { luhn, paymentMethodRequestAt } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * const now = new Date('2026-06-15T00:00:00Z')
 * fc.assert(
 *   fc.property(nonLuhnCardNumber(), (number) => {
 *     assert.ok(!luhn(number))
 *     const card = { number, expirationMonth: '12', expirationYear: '2030', cvv: '123' }
 *     const result = validate(paymentMethodRequestAt(now))({ card })
 *     assert.ok(result._tag === 'Left' && result.left.some((e) => e.path === 'card.number'))
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category card numbers
 * @since 0.2.0
 */
export const nonLuhnCardNumber = (): fc.Arbitrary<string> =>
  fc
    .tuple(fc.oneof(testCardNumber(), luhnCardNumber()), fc.integer({ min: 1, max: 9 }))
    .map(([digits, k]) => `${digits.slice(0, -1)}${(Number(digits.slice(-1)) + k) % 10}`)

// -------------------------------------------------------------------------------------
// expiry
// -------------------------------------------------------------------------------------

const monthsFrom = (now: Date, offset: number): { month: string; year: string } => {
  const index = now.getUTCFullYear() * 12 + now.getUTCMonth() + offset
  return {
    month: String((index % 12) + 1).padStart(2, '0'),
    year: String(Math.floor(index / 12)),
  }
}

/**
 * An expiry that is not in the past at `now` (UTC): the current month up to 20 years ahead.
 *
 * @example
 * ```ts
 * import { futureExpiry } from '@paykit/testkit/arbitraries'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * const now = new Date('2026-06-15T00:00:00Z')
 * fc.assert(
 *   fc.property(futureExpiry(now), ({ month, year }) => {
 *     assert.match(month, /^(0[1-9]|1[0-2])$/)
 *     assert.ok(Number(year) * 12 + Number(month) >= 2026 * 12 + 6) // June 2026 or later
 *     assert.ok(Number(year) <= 2046)
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category expiry
 * @since 0.2.0
 */
export const futureExpiry = (
  now: Date,
): fc.Arbitrary<{ readonly month: string; readonly year: string }> =>
  fc
    .oneof(fc.constant(0), fc.integer({ min: 0, max: 240 }))
    .map((offset) => monthsFrom(now, offset))

// -------------------------------------------------------------------------------------
// valid
// -------------------------------------------------------------------------------------

const digits = (min: number, max: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max })

/**
 * A CVV: 3 or 4 digits.
 *
 * @example
 * ```ts
 * import { Arbitraries } from '@paykit/testkit/arbitraries'
 * import fc from 'fast-check'
 *
 * fc.assert(
 *   fc.property(Arbitraries.cvv(), (code) => /^\d{3,4}$/.test(code)),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category valid
 * @since 0.2.0
 */
export const cvv = (): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 3, maxLength: 4 })

/**
 * Customer data: each field present or absent.
 *
 * @example
 * ```ts
 * import { Arbitraries, customer } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { paymentMethodRequestAt } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 *
 * const now = new Date('2026-06-15T00:00:00Z')
 * const accepted = validate(paymentMethodRequestAt(now))
 * fc.assert(
 *   fc.property(
 *     Arbitraries.card({ now }),
 *     customer(),
 *     (c, cu) => accepted({ card: c, customer: cu })._tag === 'Right',
 *   ),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category valid
 * @since 0.2.0
 */
export const customer = (): fc.Arbitrary<CustomerInput> =>
  fc.record(
    {
      id: text(36),
      name: text(80),
      email: fc.emailAddress(),
      phoneNumber: fc
        .tuple(fc.constantFrom('', '+'), digits(7, 15))
        .map(([plus, number]) => `${plus}${number}`),
    },
    { requiredKeys: [] },
  )

/**
 * A card: a valid number, an expiry not in the past at `now`, a 3-4 digit CVV, with and
 * without `cardHolder` and `singleUse`.
 *
 * @example
 * ```ts
 * import { Arbitraries } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { paymentMethodRequestAt } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 *
 * // Give the arbitrary and the validation the same date: expiries are relative to it.
 * const now = new Date('2026-06-15T00:00:00Z')
 * fc.assert(
 *   fc.property(
 *     Arbitraries.card({ now }),
 *     (c) => validate(paymentMethodRequestAt(now))({ card: c })._tag === 'Right',
 *   ),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category valid
 * @since 0.2.0
 */
export const card = (options: PaymentMethodArbitraryOptions = {}): fc.Arbitrary<CardInput> => {
  const now = options.now ?? new Date()
  return fc
    .tuple(
      cardNumber(),
      futureExpiry(now),
      cvv(),
      fc.record({ cardHolder: text(80), singleUse: fc.boolean() }, { requiredKeys: [] }),
    )
    .map(([number, { month, year }, code, rest]) => ({
      number,
      expirationMonth: month,
      expirationYear: year,
      cvv: code,
      ...rest,
    }))
}

/**
 * A valid `POST /paymentmethods` body, with and without `customer`.
 *
 * @example
 * ```ts
 * import { paymentMethodRequest } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { paymentMethodRequestAt } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 *
 * const now = new Date('2026-06-15T00:00:00Z')
 * fc.assert(
 *   fc.property(
 *     paymentMethodRequest({ now }),
 *     (body) => validate(paymentMethodRequestAt(now))(body)._tag === 'Right',
 *   ),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category valid
 * @since 0.2.0
 */
export const paymentMethodRequest = (
  options: PaymentMethodArbitraryOptions = {},
): fc.Arbitrary<PaymentMethodRequestInput> =>
  fc.record({ card: card(options), customer: customer() }, { requiredKeys: ['card'] })

/**
 * A payment method as the service answers it: one of the test cards (issuer country CRI,
 * USA or CAN), or any other issuer country (three letters).
 *
 * @example
 * ```ts
 * import { paymentMethod } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { PaymentMethod, requiresBillingInfo } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * fc.assert(
 *   fc.property(paymentMethod(), (pm) => validate(PaymentMethod)(pm)._tag === 'Right'),
 *   { numRuns: 20 },
 * )
 * // USA and CAN issuers (billingInfo required) come up too.
 * assert.ok(fc.sample(paymentMethod(), 200).some(requiresBillingInfo))
 * ```
 *
 * @category valid
 * @since 0.2.0
 */
export const paymentMethod = (): fc.Arbitrary<PaymentMethodOutput> =>
  fc
    .tuple(
      fc.uuid(),
      fc.oneof(
        fc.constantFrom(...testCardTable),
        fc.record({
          brand: fc.constantFrom('VISA', 'MASTERCARD', 'AMEX', 'DISCOVER', 'UNKNOWN'),
          issuerName: text(40),
          countryCode: fc.constantFrom('CRI', 'MEX', 'GBR', 'DEU', 'JPN', 'BRA', 'USA', 'CAN'),
        }),
      ),
    )
    .map(([id, { brand, issuerName, countryCode }]) => ({
      id,
      type: 'card',
      bin: { brand, issuerName, countryCode },
      success: true,
      message: 'Payment method created',
    }))

// -------------------------------------------------------------------------------------
// invalid
// -------------------------------------------------------------------------------------

const setAtYear = (base: PaymentMethodRequestInput, year: string): PaymentMethodRequestInput => ({
  ...base,
  card: { ...base.card, expirationYear: year },
})

/**
 * A `POST /paymentmethods` body broken in exactly one way, labelled with the field and the
 * rule: the body or `card` not an object; `card.number` missing, not digits, not 12-19
 * digits or failing the Luhn check; `card.expirationMonth` not `01`-`12`;
 * `card.expirationYear` not four digits; an expiry in the past at `now` (a past year at
 * `card.expirationYear`, a past month of this year at `card.expirationMonth`); `card.cvv`
 * not 3-4 digits; `card.cardHolder`, `card.singleUse`, `customer` or a customer field of
 * the wrong type.
 *
 * @example
 * ```ts
 * import { cardSecretsOf, invalidPaymentMethodRequest } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { paymentMethodRequestAt } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * const now = new Date('2026-06-15T00:00:00Z')
 * fc.assert(
 *   fc.property(invalidPaymentMethodRequest({ now }), ({ value, field, rule }) => {
 *     const result = validate(paymentMethodRequestAt(now))(value)
 *     assert.ok(result._tag === 'Left' && result.left.some((e) => e.path === field), rule)
 *     const secrets = cardSecretsOf(value)
 *     assert.ok(result.left.every((e) => !secrets.some((s) => e.message.includes(s))))
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category invalid
 * @since 0.2.0
 */
export const invalidPaymentMethodRequest = (
  options: PaymentMethodArbitraryOptions = {},
): fc.Arbitrary<Invalid> => {
  const now = options.now ?? new Date()
  const year = now.getUTCFullYear()
  const month = now.getUTCMonth() + 1
  return paymentMethodRequest({ now }).chain((base) => {
    const cardAt = (key: string, value: fc.Arbitrary<unknown>, rule: string) =>
      value.map((v) => breakAt(base, ['card', key], v, rule))
    const required = (key: string) =>
      fc.constant(breakAt(base, ['card', key], removed, `card.${key} is required`))
    const cases: Array<fc.Arbitrary<Invalid>> = [
      notAnObject.map((value): Invalid => ({ value, field: '', rule: 'body is an object' })),
      fc.constant(breakAt(base, ['card'], removed, 'card is required')),
      notAnObject.map((v) => breakAt(base, ['card'], v, 'card is an object')),
      required('number'),
      cardAt('number', notAString, 'card.number is a string'),
      cardAt('number', nonLuhnCardNumber(), 'card.number passes the Luhn check'),
      cardAt('number', fc.oneof(digits(1, 11), digits(20, 24)), 'card.number has 12 to 19 digits'),
      cardAt(
        'number',
        fc.constantFrom('4242-4242-4242-4242', '4242x424242424242', 'abcd', ''),
        'card.number is digits only',
      ),
      required('expirationMonth'),
      cardAt(
        'expirationMonth',
        fc.oneof(
          fc.constantFrom('00', '13', '1', '001', 'ab', ''),
          fc.integer({ min: 13, max: 99 }).map(String),
          fc.integer({ min: 1, max: 12 }),
        ),
        'card.expirationMonth is two digits 01-12',
      ),
      required('expirationYear'),
      cardAt(
        'expirationYear',
        fc.oneof(
          fc.constantFrom(String(year % 100), `0${year}`, 'abcd', ''),
          fc.constant(year + 1),
        ),
        'card.expirationYear is four digits',
      ),
      cardAt(
        'expirationYear',
        fc.integer({ min: 1000, max: year - 1 }).map(String),
        'card.expirationYear is not in the past',
      ),
      required('cvv'),
      cardAt(
        'cvv',
        fc.oneof(digits(0, 2), digits(5, 8), fc.constantFrom('12a', 'abcd', '1 23'), fc.integer()),
        'card.cvv is 3 or 4 digits',
      ),
      cardAt('cardHolder', notAString, 'card.cardHolder is a string'),
      cardAt('singleUse', fc.constantFrom('true', 1, 0, null), 'card.singleUse is a boolean'),
      notAnObject.map((v) => breakAt(base, ['customer'], v, 'customer is an object')),
      fc
        .tuple(fc.constantFrom('id', 'name', 'email', 'phoneNumber'), notAString)
        .map(([key, v]) => breakAt(base, ['customer', key], v, `customer.${key} is a string`)),
    ]
    if (month > 1) {
      cases.push(
        fc
          .integer({ min: 1, max: month - 1 })
          .map((m) =>
            breakAt(
              setAtYear(base, String(year)),
              ['card', 'expirationMonth'],
              String(m).padStart(2, '0'),
              'card.expirationMonth is not in the past',
            ),
          ),
      )
    }
    return fc.oneof(...cases)
  })
}

/**
 * The secrets of a payment-method input (its card number with and without spaces, and its
 * CVV): no error message may repeat them.
 *
 * @example
 * ```ts
 * import { cardSecretsOf } from '@paykit/testkit/arbitraries'
 * import assert from 'node:assert/strict'
 *
 * const body = {
 *   card: {
 *     number: '4242 4242 4242 4242',
 *     expirationMonth: '12',
 *     expirationYear: '2030',
 *     cvv: '123',
 *   },
 * }
 * assert.deepEqual(cardSecretsOf(body), ['4242 4242 4242 4242', '4242424242424242', '123'])
 * assert.deepEqual(cardSecretsOf({ card: 'not a card' }), [])
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const cardSecretsOf = (input: unknown): ReadonlyArray<string> => {
  const c =
    typeof input === 'object' && input !== null
      ? (input as { readonly card?: unknown }).card
      : undefined
  if (typeof c !== 'object' || c === null) return []
  const { number, cvv: code } = c as { readonly number?: unknown; readonly cvv?: unknown }
  const secrets: Array<string> = []
  if (typeof number === 'string' && number.replace(/\D/g, '').length >= 8) {
    secrets.push(number, number.replace(/\D/g, ''))
  }
  if (typeof code === 'string' && /^\d{3,4}$/.test(code)) secrets.push(code)
  return secrets
}
