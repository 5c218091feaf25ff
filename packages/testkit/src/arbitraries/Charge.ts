/**
 * Arbitraries of the body of `POST /charges` (the core's `ChargeRequest` and
 * `chargeRequestFor(paymentMethod)`): valid charges with and without `billingInfo`
 * (alpha-2 and alpha-3 country codes), and charges broken in exactly one way; and of its
 * answer (the core's `ChargeResponse`), in every status.
 *
 * @since 0.2.0
 */
import type { ChargeRequestInput } from '@paykit/core/client'
import {
  CHARGE_STATUSES,
  requiresBillingInfo,
  type BillingInfo,
  type ChargeResponseOutput,
  type ChargeStatus,
  type PaymentMethod,
} from '@paykit/core/codecs'
import * as fc from 'fast-check'
import { idOf } from '../simulator/State.js'
import type * as t from 'io-ts'
import type { Invalid } from './Common.js'
import {
  amount,
  blank,
  breakAt,
  isoDateTime,
  notANumber,
  notAString,
  notAnObject,
  removed,
  text,
} from './Common.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Billing information as a caller sends it: the core's `BillingInfo` as JSON.
 *
 * @category model
 * @since 0.2.0
 */
export type BillingInfoInput = t.OutputOf<typeof BillingInfo>

/**
 * A `POST /charges` body as a caller sends it (amounts as JSON numbers,
 * `authenticationId` absent, null or an id): the core's `ChargeRequestInput`, re-exported.
 *
 * @category model
 * @since 0.2.0
 */
export type { ChargeRequestInput } from '@paykit/core/client'

/**
 * What a charge needs of a payment method: its `id` and its issuer's country (the core's
 * `PaymentMethod`, narrowed).
 *
 * @category model
 * @since 0.2.0
 */
export type ChargedPaymentMethod = {
  readonly id: PaymentMethod['id']
  readonly bin: Pick<PaymentMethod['bin'], 'countryCode'>
}

// -------------------------------------------------------------------------------------
// parts
// -------------------------------------------------------------------------------------

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const DIGITS = '0123456789'
const chars = (alphabet: string, minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength, maxLength })

const ALPHA_2 = ['US', 'CA', 'CR', 'MX', 'GB', 'DE', 'FR', 'ES', 'JP', 'BR', 'PA', 'NI']
const ALPHA_3 = ['USA', 'CAN', 'CRI', 'MEX', 'GBR', 'DEU', 'FRA', 'ESP', 'JPN', 'BRA', 'PAN', 'NIC']

/**
 * An ISO 3166 country code, alpha-2 or alpha-3, now and then in lower case (the core
 * reads any case).
 *
 * @example
 * ```ts
 * import { countryCode } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { BillingInfo } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * fc.assert(
 *   fc.property(countryCode(), (code) => {
 *     assert.match(code, /^([A-Z]{2,3}|[a-z]{2,3})$/)
 *     const billing = { countryCode: code, stateCode: 'SJ', zipCode: '10101' }
 *     assert.equal(validate(BillingInfo)(billing)._tag, 'Right')
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category parts
 * @since 0.2.0
 */
export const countryCode = (): fc.Arbitrary<string> =>
  fc
    .tuple(fc.constantFrom(...ALPHA_2, ...ALPHA_3), fc.nat(9))
    .map(([code, n]) => (n === 0 ? code.toLowerCase() : code))

/**
 * Billing data: a country code (alpha-2 or alpha-3), a state code and a zip code.
 *
 * @example
 * ```ts
 * import { billingInfo } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { BillingInfo } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 *
 * fc.assert(
 *   fc.property(billingInfo(), (billing) => validate(BillingInfo)(billing)._tag === 'Right'),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category parts
 * @since 0.2.0
 */
export const billingInfo = (): fc.Arbitrary<BillingInfoInput> =>
  fc.record({
    countryCode: countryCode(),
    stateCode: fc.oneof(chars(UPPER, 2, 2), text(10)),
    zipCode: fc.oneof(
      chars(DIGITS, 5, 5),
      fc
        .tuple(chars(UPPER, 1, 1), chars(DIGITS, 1, 1))
        .map(([l, d]) => `${l}${d}${l} ${d}${l}${d}`),
      text(10),
    ),
  })

/**
 * The order of a charge: an id, an amount greater than 0 (two decimals at most), with and
 * without `description` and `name`.
 *
 * @example
 * ```ts
 * import { chargeOrder } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { ChargeRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * fc.assert(
 *   fc.property(chargeOrder(), (order) => {
 *     assert.ok(order.amount > 0)
 *     assert.equal(validate(ChargeRequest)({ order, cardId: 'pm_000001' })._tag, 'Right')
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category parts
 * @since 0.2.0
 */
export const chargeOrder = (): fc.Arbitrary<ChargeRequestInput['order']> =>
  fc
    .tuple(
      text(64),
      fc.oneof(fc.constant(0.01), amount(1, 100_000_000)),
      fc.record({ description: text(200), name: text(100) }, { requiredKeys: [] }),
    )
    .map(([id, value, rest]) => ({ id, amount: value, ...rest }))

// -------------------------------------------------------------------------------------
// valid
// -------------------------------------------------------------------------------------

const charge = (
  cardId: fc.Arbitrary<string>,
  billing: 'required' | 'optional',
): fc.Arbitrary<ChargeRequestInput> =>
  fc
    .tuple(
      chargeOrder(),
      cardId,
      fc.record(
        {
          authenticationId: fc.oneof(fc.constant(null), fc.uuid()),
          billingInfo: billingInfo(),
        },
        { requiredKeys: billing === 'required' ? ['billingInfo'] : [] },
      ),
    )
    .map(([order, id, rest]) => ({ order, cardId: id, ...rest }))

/**
 * A valid `POST /charges` body for the core's `ChargeRequest` (no issuer rule): with and
 * without `billingInfo`, `authenticationId` absent, null or an id.
 *
 * @example
 * ```ts
 * import { chargeRequest } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { ChargeRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 *
 * fc.assert(
 *   fc.property(chargeRequest(), (body) => validate(ChargeRequest)(body)._tag === 'Right'),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category valid
 * @since 0.2.0
 */
export const chargeRequest = (): fc.Arbitrary<ChargeRequestInput> =>
  charge(fc.oneof(fc.uuid(), text(64)), 'optional')

/**
 * A valid `POST /charges` body for `paymentMethod` (the core's
 * `chargeRequestFor(paymentMethod)`): its `id` as `cardId`, and `billingInfo` always
 * present when the issuer is in USA or CAN, present or absent otherwise.
 *
 * @example
 * ```ts
 * import { chargeRequestForPaymentMethod } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { chargeRequestFor } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * // A card issued in the USA: billingInfo is always there.
 * const usaCard = { id: 'pm_000001', bin: { countryCode: 'USA' } }
 * fc.assert(
 *   fc.property(chargeRequestForPaymentMethod(usaCard), (body) => {
 *     assert.equal(body.cardId, 'pm_000001')
 *     assert.ok(body.billingInfo !== undefined && body.billingInfo !== null)
 *     assert.equal(validate(chargeRequestFor(usaCard))(body)._tag, 'Right')
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category valid
 * @since 0.2.0
 */
export const chargeRequestForPaymentMethod = (
  paymentMethod: ChargedPaymentMethod,
): fc.Arbitrary<ChargeRequestInput> =>
  charge(
    fc.constant(paymentMethod.id),
    requiresBillingInfo(paymentMethod) ? 'required' : 'optional',
  )

// -------------------------------------------------------------------------------------
// invalid
// -------------------------------------------------------------------------------------

const invalidCharge = (
  valid: fc.Arbitrary<ChargeRequestInput>,
  needsBillingInfo: boolean,
): fc.Arbitrary<Invalid> => {
  const at = (
    keys: ReadonlyArray<string>,
    value: fc.Arbitrary<unknown>,
    rule: string,
    base: fc.Arbitrary<ChargeRequestInput> = valid,
  ): fc.Arbitrary<Invalid> => fc.tuple(base, value).map(([b, v]) => breakAt(b, keys, v, rule))
  // Requests that carry billingInfo, so that one of its fields can be broken.
  const withBilling = fc
    .tuple(valid, billingInfo())
    .map(([b, info]) => ({ ...b, billingInfo: b.billingInfo ?? info }))
  const missingOrBlank = fc.oneof(blank, notAString, fc.constant(removed))
  const cases: Array<fc.Arbitrary<Invalid>> = [
    notAnObject.map((value): Invalid => ({ value, field: '', rule: 'body is an object' })),
    at(['order'], fc.constant(removed), 'order is required'),
    at(['order'], notAnObject, 'order is an object'),
    at(['order', 'id'], missingOrBlank, 'order.id is a non-empty string'),
    at(['order', 'amount'], fc.oneof(fc.constant(0), amount(-100_000_000, 0)), 'order.amount > 0'),
    at(
      ['order', 'amount'],
      fc.oneof(
        notANumber,
        fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY),
        fc.constant(removed),
      ),
      'order.amount is a finite number',
    ),
    at(['order', 'description'], notAString, 'order.description is a string'),
    at(['order', 'name'], notAString, 'order.name is a string'),
    at(['cardId'], missingOrBlank, 'cardId is a non-empty string'),
    at(
      ['authenticationId'],
      fc.oneof(
        blank,
        notAString.filter((v) => v !== null),
      ),
      'authenticationId is null or a non-empty string',
    ),
    // null reads as absent (the core's ChargeRequest), so only non-null non-objects break it.
    at(
      ['billingInfo'],
      notAnObject.filter((v) => v !== null),
      'billingInfo is an object',
    ),
    at(
      ['billingInfo', 'countryCode'],
      fc.oneof(
        fc.constantFrom('U', 'USAA', 'U1', '12', 'U S', ''),
        notAString,
        fc.constant(removed),
      ),
      'billingInfo.countryCode is ISO 3166 alpha-2 or alpha-3',
      withBilling,
    ),
    at(
      ['billingInfo', 'stateCode'],
      missingOrBlank,
      'billingInfo.stateCode is a non-empty string',
      withBilling,
    ),
    at(
      ['billingInfo', 'zipCode'],
      missingOrBlank,
      'billingInfo.zipCode is a non-empty string',
      withBilling,
    ),
  ]
  if (needsBillingInfo) {
    cases.push(
      at(
        ['billingInfo'],
        fc.constantFrom(removed, null),
        'billingInfo is required for a USA or CAN card',
      ),
    )
  }
  return fc.oneof(...cases)
}

/**
 * A `POST /charges` body broken in exactly one way for the core's `ChargeRequest`: the
 * body, `order` or `billingInfo` not an object; `order.id` or `cardId` missing or blank;
 * `order.amount` not > 0 or not a finite number; `order.description` / `order.name` not
 * strings; `authenticationId` blank or not a string; a `billingInfo.countryCode` that is
 * not two or three letters; `billingInfo.stateCode` / `zipCode` missing or blank.
 *
 * @example
 * ```ts
 * import { invalidChargeRequest } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { ChargeRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * fc.assert(
 *   fc.property(invalidChargeRequest(), ({ value, field, rule }) => {
 *     const result = validate(ChargeRequest)(value)
 *     assert.ok(result._tag === 'Left' && result.left.some((e) => e.path === field), rule)
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category invalid
 * @since 0.2.0
 */
export const invalidChargeRequest = (): fc.Arbitrary<Invalid> =>
  invalidCharge(chargeRequest(), false)

/**
 * A `POST /charges` body for `paymentMethod` broken in exactly one way: every case of
 * `invalidChargeRequest`, and for a USA or CAN issuer a missing `billingInfo`.
 *
 * @example
 * ```ts
 * import { invalidChargeRequestFor } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { chargeRequestFor } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * const canadaCard = { id: 'pm_000002', bin: { countryCode: 'CAN' } }
 * const validateCharge = validate(chargeRequestFor(canadaCard))
 * fc.assert(
 *   fc.property(invalidChargeRequestFor(canadaCard), ({ value, field, rule }) => {
 *     const result = validateCharge(value)
 *     assert.ok(result._tag === 'Left' && result.left.some((e) => e.path === field), rule)
 *   }),
 *   { numRuns: 20 },
 * )
 * // A missing billingInfo is among the cases for a CAN issuer.
 * const rules = fc.sample(invalidChargeRequestFor(canadaCard), 300).map((i) => i.rule)
 * assert.ok(rules.includes('billingInfo is required for a USA or CAN card'))
 * ```
 *
 * @category invalid
 * @since 0.2.0
 */
export const invalidChargeRequestFor = (
  paymentMethod: ChargedPaymentMethod,
): fc.Arbitrary<Invalid> =>
  invalidCharge(chargeRequestForPaymentMethod(paymentMethod), requiresBillingInfo(paymentMethod))

// -------------------------------------------------------------------------------------
// responses
// -------------------------------------------------------------------------------------

/**
 * Options of {@link chargeResponse}: the statuses to draw from (all three by default), the
 * order charged (its `id` becomes a success's `order.reference`, its `amount` the
 * amount), and the service's address of a 3DS frame.
 *
 * @category model
 * @since 0.2.0
 */
export interface ChargeResponseArbitraryOptions {
  readonly statuses?: ReadonlyArray<ChargeStatus>
  readonly order?: { readonly id: string; readonly amount: number }
  readonly baseUrl?: string
}

/**
 * The failure codes the sandbox answers a FAILED charge with
 * (docs/service.md#71-a-charge-that-fails).
 *
 * @example
 * ```ts
 * import { CHARGE_FAILURE_CODES } from '@paykit/testkit/arbitraries'
 * import assert from 'node:assert/strict'
 *
 * assert.ok(CHARGE_FAILURE_CODES.includes('FRAUD_PREVENT')) // the spec's sample code
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const CHARGE_FAILURE_CODES: ReadonlyArray<string> = [
  'FRAUD_PREVENT',
  'CARD_DECLINED',
  'AUTHENTICATION_FAILED',
  'DUPLICATE_ORDER',
]

const serviceId = (prefix: string): fc.Arbitrary<string> =>
  fc.integer({ min: 1, max: 999_999 }).map((n) => idOf(prefix, n))

/**
 * A `POST /charges` answer as JSON, in one of `statuses`, with the fields spec 2.5 sets
 * for that status and every other one null: FAILED with an `error` (a sandbox code),
 * SUCCEEDED with the `order` (`reference` the merchant's order id), AUTHENTICATION_REQUIRED
 * with the `authentication` (`url` the service's 3DS frame of `id`).
 *
 * @example
 * ```ts
 * import { chargeResponse } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { ChargeResponse } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * const order = { id: 'o1', amount: 12.5 }
 * fc.assert(
 *   fc.property(chargeResponse({ order }), (json) => {
 *     const response = validate(ChargeResponse)(json)
 *     assert.ok(response._tag === 'Right')
 *     if (response.right.status === 'SUCCEEDED') assert.equal(response.right.order.reference, 'o1')
 *     if (response.right.status === 'FAILED') assert.equal(response.right.order, null)
 *   }),
 *   { numRuns: 30 },
 * )
 * ```
 *
 * @category responses
 * @since 0.2.0
 */
export const chargeResponse = (
  options: ChargeResponseArbitraryOptions = {},
): fc.Arbitrary<ChargeResponseOutput> => {
  const statuses = options.statuses ?? CHARGE_STATUSES
  if (statuses.length === 0) throw new RangeError('chargeResponse: statuses is empty')
  const baseUrl = options.baseUrl ?? 'http://127.0.0.1:4010'
  const order = options.order
  const orderArb =
    order === undefined
      ? fc.record({ id: text(64), amount: amount(1, 100_000_000) })
      : fc.constant(order)
  const byStatus: Record<ChargeStatus, fc.Arbitrary<ChargeResponseOutput>> = {
    FAILED: fc
      .record({ code: fc.constantFrom(...CHARGE_FAILURE_CODES), createdAt: isoDateTime() })
      .map(({ code, createdAt }) => ({
        status: 'FAILED' as const,
        message: 'The charge failed',
        error: { code, message: `The charge was refused: ${code}` },
        authentication: null,
        order: null,
        createdAt,
      })),
    SUCCEEDED: fc
      .record({
        order: orderArb,
        id: serviceId('ord'),
        currency: fc.constantFrom('USD', 'CRC', 'MXN'),
        authorizationCode: fc.integer({ min: 100_000, max: 999_999 }).map(String),
        createdAt: isoDateTime(),
      })
      .map(({ order: charged, id, currency, authorizationCode, createdAt }) => ({
        status: 'SUCCEEDED' as const,
        message: 'The charge succeeded',
        error: null,
        authentication: null,
        order: { id, reference: charged.id, amount: charged.amount, currency, authorizationCode },
        createdAt,
      })),
    AUTHENTICATION_REQUIRED: fc
      .record({ id: serviceId('auth'), createdAt: isoDateTime() })
      .map(({ id, createdAt }) => ({
        status: 'AUTHENTICATION_REQUIRED' as const,
        message: 'The card requires 3DS authentication',
        error: null,
        authentication: { url: `${baseUrl}/3ds/${id}`, id },
        order: null,
        createdAt,
      })),
  }
  return fc.oneof(...statuses.map((status) => byStatus[status]))
}
