/**
 * Payment methods (spec 4.2, 2.2, 2.3): card data in, a payment method identifier out.
 *
 * The card rules (Luhn, expiry, CVV) run before anything is sent, and the simulator uses
 * the same codec. No error message ever contains the card number or the CVV.
 *
 * Required fields (the spec does not say): `card.number`, `card.expirationMonth`,
 * `card.expirationYear`, `card.cvv`. Optional: `card.cardHolder`, `card.singleUse`,
 * `customer` and each of its fields (plain strings; e-mail and phone are not checked).
 *
 * @since 0.2.0
 */
import * as t from 'io-ts'
import {
  NonEmptyString,
  exactStruct,
  failure,
  failureAt,
  requiredOrType,
  withInputRule,
} from '../internal/codec.js'
import type { FieldIssue } from '../internal/issue.js'
import { hinted } from '../internal/schemaHint.js'

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/**
 * Whether a string of digits passes the Luhn (mod 10) check. Anything that is not a
 * non-empty string of digits fails.
 *
 * @example
 * ```ts
 * import { luhn } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(luhn('4242424242424242'), true)
 * assert.equal(luhn('4242424242424241'), false)
 * assert.equal(luhn('4242 4242'), false) // digits only
 * ```
 *
 * @category rules
 * @since 0.2.0
 */
export const luhn = (number: string): boolean => {
  if (!/^\d+$/.test(number)) return false
  let sum = 0
  let double = false
  for (let i = number.length - 1; i >= 0; i--) {
    let d = number.charCodeAt(i) - 48
    if (double) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
    double = !double
  }
  return sum % 10 === 0
}

/**
 * Whether a card expiring at the end of `month` (1-12) of `year` is still valid at `now`
 * (compared in UTC): a card is valid through the last day of its expiry month.
 *
 * @example
 * ```ts
 * import { isExpiryCurrent } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * const now = new Date('2026-11-24T12:00:00Z')
 * assert.equal(isExpiryCurrent(11, 2026, now), true) // valid through the end of its month
 * assert.equal(isExpiryCurrent(10, 2026, now), false)
 * assert.equal(isExpiryCurrent(1, 2027, now), true)
 * ```
 *
 * @category rules
 * @since 0.2.0
 */
export const isExpiryCurrent = (month: number, year: number, now: Date): boolean =>
  year > now.getUTCFullYear() || (year === now.getUTCFullYear() && month >= now.getUTCMonth() + 1)

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A card network, from the number's first digit (the sandbox's rule,
 * docs/service.md#test-cards).
 *
 * @category model
 * @since 0.2.0
 */
export type CardBrand = 'AMEX' | 'VISA' | 'MASTERCARD' | 'DISCOVER' | 'UNKNOWN'

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

const digitsOf = (number: string): string => number.replace(/\D/g, '')

/**
 * The brand of a card number by its first digit: 3 AMEX, 4 VISA, 5 MASTERCARD,
 * 6 DISCOVER, anything else UNKNOWN.
 *
 * @example
 * ```ts
 * import { cardBrand } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(cardBrand('4242 4242 4242 4242'), 'VISA')
 * assert.equal(cardBrand('5555555555554444'), 'MASTERCARD')
 * assert.equal(cardBrand('9999'), 'UNKNOWN')
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const cardBrand = (number: string): CardBrand => {
  switch (digitsOf(number).charAt(0)) {
    case '3':
      return 'AMEX'
    case '4':
      return 'VISA'
    case '5':
      return 'MASTERCARD'
    case '6':
      return 'DISCOVER'
    default:
      return 'UNKNOWN'
  }
}

/**
 * The last four digits of a card number (fewer when it has fewer), the only part that
 * is safe to show.
 *
 * @example
 * ```ts
 * import { cardLast4 } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(cardLast4('4242 4242 4242 4242'), '4242')
 * assert.equal(cardLast4('12'), '12')
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const cardLast4 = (number: string): string => digitsOf(number).slice(-4)

/**
 * A card number for display: `**** 4242`. Never more than the last four digits, and
 * nothing of a number shorter than 8 digits (`****`).
 *
 * @example
 * ```ts
 * import { maskCardNumber } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(maskCardNumber('4000000000003220'), '**** 3220')
 * assert.equal(maskCardNumber('1234567'), '****') // too short to show any of it
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const maskCardNumber = (number: string): string =>
  digitsOf(number).length < 8 ? '****' : `**** ${cardLast4(number)}`

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

const REQUIRED: FieldIssue = { code: 'required' }
const DIGITS: FieldIssue = { code: 'digits' }
const MIN_DIGITS = 12
const MAX_DIGITS = 19
const DIGIT_COUNT: FieldIssue = { code: 'digitCount', minimum: MIN_DIGITS, maximum: MAX_DIGITS }
const CARD_DIGITS = new RegExp(`^\\d{${MIN_DIGITS},${MAX_DIGITS}}$`)
/** The form of a card number a pattern can say: its digits, spaces anywhere. */
const CARD_NUMBER_FORM = new RegExp(`^ *(?:\\d *){${MIN_DIGITS},${MAX_DIGITS}}$`)
const LUHN: FieldIssue = { code: 'luhn' }
const EXPIRED: FieldIssue = { code: 'expired' }

/**
 * A card number: digits, with spaces allowed between groups (removed on decode), 12 to
 * 19 digits, passing the Luhn check; an empty or blank one is `required`.
 * Messages never repeat the number.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { CardNumber } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(validate(CardNumber)('4242 4242 4242 4242'), E.right('4242424242424242'))
 * // the message never repeats the number
 * assert.deepEqual(
 *   validate(CardNumber)('4242424242424241'),
 *   E.left([{ path: '', message: 'fails the Luhn check', code: 'luhn' }]),
 * )
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const CardNumber: t.Type<string, string, unknown> = hinted(
  new t.Type<string, string, unknown>(
    'CardNumber',
    (u): u is string => typeof u === 'string' && CARD_DIGITS.test(u) && luhn(u),
    (u, c) => {
      if (typeof u !== 'string') return failure(u, c, requiredOrType(u, 'string'))
      if (u.trim() === '') return failure(u, c, REQUIRED)
      const digits = u.replace(/ /g, '')
      if (!/^\d+$/.test(digits)) return failure(u, c, DIGITS)
      if (digits.length < MIN_DIGITS || digits.length > MAX_DIGITS)
        return failure(u, c, DIGIT_COUNT)
      if (!luhn(digits)) return failure(u, c, LUHN)
      return t.success(digits)
    },
    t.identity,
  ),
  // The form a pattern can say; the Luhn check it cannot.
  { type: 'string', pattern: CARD_NUMBER_FORM, issue: LUHN },
)

/**
 * A string matching `re`; one that is absent or blank is `required`, another string
 * `issue`, a value of another kind a type error.
 */
const pattern = (re: RegExp, issue: FieldIssue, name: string): t.Type<string, string, unknown> =>
  hinted(
    new t.Type<string, string, unknown>(
      name,
      (u): u is string => typeof u === 'string' && re.test(u),
      (u, c) =>
        typeof u === 'string' && re.test(u)
          ? t.success(u)
          : failure(
              u,
              c,
              typeof u !== 'string'
                ? requiredOrType(u, 'string')
                : u.trim() === ''
                  ? REQUIRED
                  : issue,
            ),
      t.identity,
    ),
    { type: 'string', pattern: re, issue },
  )

/**
 * Expiry month: two digits, `01` to `12`.
 *
 * @example
 * ```ts
 * import { ExpirationMonth } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(ExpirationMonth.is('09'), true)
 * assert.equal(ExpirationMonth.is('9'), false)
 * assert.equal(ExpirationMonth.is('13'), false)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const ExpirationMonth = pattern(
  /^(0[1-9]|1[0-2])$/,
  { code: 'expiryMonth' },
  'ExpirationMonth',
)

/**
 * Expiry year: four digits.
 *
 * @example
 * ```ts
 * import { ExpirationYear } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(ExpirationYear.is('2030'), true)
 * assert.equal(ExpirationYear.is('30'), false)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const ExpirationYear = pattern(/^\d{4}$/, { code: 'expiryYear' }, 'ExpirationYear')

/**
 * Card security code: 3 or 4 digits. Messages never repeat it.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { Cvv } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Cvv.is('123'), true)
 * assert.equal(Cvv.is('1234'), true)
 * assert.deepEqual(
 *   validate(Cvv)('12'),
 *   E.left([{ path: '', message: 'must be 3 or 4 digits', code: 'cvv' }]),
 * )
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const Cvv = pattern(/^\d{3,4}$/, { code: 'cvv' }, 'Cvv')

const CardShape = exactStruct(
  {
    number: CardNumber,
    expirationMonth: ExpirationMonth,
    expirationYear: ExpirationYear,
    cvv: Cvv,
  },
  { cardHolder: t.string, singleUse: t.boolean },
  'Card',
)

const expiryErrors =
  (now: Date) =>
  (u: unknown, c: t.Context): ReadonlyArray<t.ValidationError> => {
    if (!t.UnknownRecord.is(u)) return []
    const { expirationMonth: month, expirationYear: year } = u
    if (!ExpirationYear.is(year)) return []
    if (Number(year) < now.getUTCFullYear()) return [failureAt(u, c, ['expirationYear'], EXPIRED)]
    if (!ExpirationMonth.is(month) || isExpiryCurrent(Number(month), Number(year), now)) return []
    return [failureAt(u, c, ['expirationMonth'], EXPIRED)]
  }

/**
 * The card of a payment-method request with its expiry checked against `now`: a past
 * year fails at `expirationYear`, a past month of the current year at `expirationMonth`.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { cardAt } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const card = {
 *   number: '4242424242424242',
 *   expirationMonth: '10',
 *   expirationYear: '2026',
 *   cvv: '123',
 * }
 * assert.ok(E.isRight(validate(cardAt(new Date('2026-10-31T23:59:59Z')))(card)))
 * assert.deepEqual(
 *   validate(cardAt(new Date('2026-11-01T00:00:00Z')))(card),
 *   E.left([{ path: 'expirationMonth', message: 'the card has expired', code: 'expired' }]),
 * )
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const cardAt = (now: Date): t.Type<Card, CardOutput, unknown> =>
  withInputRule(CardShape, expiryErrors(now), 'Card')

/**
 * The `customer` of a payment-method request: `id`, `name`, `email` and `phoneNumber`, each
 * an optional string.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { Customer } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const customer = { name: 'Ada Lovelace', email: 'ada@example.com' }
 * assert.deepEqual(validate(Customer)(customer), E.right(customer))
 * assert.ok(E.isLeft(validate(Customer)({ name: 42 })))
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const Customer = exactStruct(
  {},
  { id: t.string, name: t.string, email: t.string, phoneNumber: t.string },
  'Customer',
)

/**
 * Body of `POST /paymentmethods` (spec 2.2) with the card's expiry checked against `now`
 * (inject it for pure, repeatable decoding). Unknown fields are stripped.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { paymentMethodRequestAt } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const check = validate(paymentMethodRequestAt(new Date('2026-11-24T00:00:00Z')))
 * const request = check({
 *   card: {
 *     number: '4242 4242 4242 4242',
 *     expirationMonth: '12',
 *     expirationYear: '2030',
 *     cvv: '123',
 *   },
 *   customer: { email: 'buyer@example.com' },
 * })
 * assert.ok(E.isRight(request))
 * assert.equal(request.right.card.number, '4242424242424242')
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const paymentMethodRequestAt = (
  now: Date,
): t.Type<PaymentMethodRequest, PaymentMethodRequestOutput, unknown> =>
  exactStruct({ card: cardAt(now) }, { customer: Customer }, 'PaymentMethodRequest')

/**
 * Body of `POST /paymentmethods` (spec 2.2), the expiry checked against the current date
 * read at each decode (use `paymentMethodRequestAt` for a fixed date).
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { PaymentMethodRequest, formatFieldErrors } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const checked = validate(PaymentMethodRequest)({
 *   card: { number: '4242424242424241', expirationMonth: '13', expirationYear: '2030', cvv: '12' },
 * })
 * assert.ok(E.isLeft(checked))
 * const message = formatFieldErrors(checked.left)
 * assert.match(message, /card\.number: fails the Luhn check/)
 * assert.match(message, /card\.cvv: must be 3 or 4 digits/)
 * assert.doesNotMatch(message, /424242/) // no card data in messages
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const PaymentMethodRequest: t.Type<
  PaymentMethodRequest,
  PaymentMethodRequestOutput,
  unknown
> = new t.Type<PaymentMethodRequest, PaymentMethodRequestOutput, unknown>(
  'PaymentMethodRequest',
  (u): u is PaymentMethodRequest => paymentMethodRequestAt(new Date()).is(u),
  (u, c) => paymentMethodRequestAt(new Date()).validate(u, c),
  (a) => paymentMethodRequestAt(new Date()).encode(a),
)

/**
 * Card BIN information of a payment method (spec 2.3).
 *
 * @example
 * ```ts
 * import { Bin } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Bin.is({ brand: 'VISA', issuerName: 'Banco Sandbox', countryCode: 'CRI' }), true)
 * assert.equal(Bin.is({ brand: 'VISA' }), false)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const Bin = t.type({ brand: t.string, issuerName: t.string, countryCode: t.string }, 'Bin')

/**
 * Response of `POST /paymentmethods` (spec 2.3). Unknown fields are tolerated.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { PaymentMethod } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const response = validate(PaymentMethod)({
 *   id: 'pm_1',
 *   type: 'card',
 *   bin: { brand: 'VISA', issuerName: 'Banco Sandbox', countryCode: 'CRI' },
 *   success: true,
 *   message: 'created',
 * })
 * assert.ok(E.isRight(response))
 * assert.equal(response.right.bin.brand, 'VISA')
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const PaymentMethod = t.type(
  { id: NonEmptyString, type: t.string, bin: Bin, success: t.boolean, message: t.string },
  'PaymentMethod',
)

// -------------------------------------------------------------------------------------
// model (derived from the codecs)
// -------------------------------------------------------------------------------------

/**
 * Card data as decoded: the number is digits only.
 *
 * @category model
 * @since 0.2.0
 */
export type Card = t.TypeOf<typeof CardShape>

/**
 * Card data as sent.
 *
 * @category model
 * @since 0.2.0
 */
export type CardOutput = t.OutputOf<typeof CardShape>

/**
 * Customer data of a payment-method request (all optional).
 *
 * @category model
 * @since 0.2.0
 */
export type Customer = t.TypeOf<typeof Customer>

/**
 * A payment-method request as decoded.
 *
 * @category model
 * @since 0.2.0
 */
export interface PaymentMethodRequest {
  readonly card: Card
  readonly customer?: Customer
}

/**
 * A payment-method request as sent.
 *
 * @category model
 * @since 0.2.0
 */
export interface PaymentMethodRequestOutput {
  readonly card: CardOutput
  readonly customer?: t.OutputOf<typeof Customer>
}

/**
 * Card BIN information: brand, issuer and issuer country (three letters).
 *
 * @category model
 * @since 0.2.0
 */
export type Bin = t.TypeOf<typeof Bin>

/**
 * A payment method: its `id` is the `cardId` of a charge.
 *
 * @category model
 * @since 0.2.0
 */
export type PaymentMethod = t.TypeOf<typeof PaymentMethod>
