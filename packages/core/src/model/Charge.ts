/**
 * Charges (spec 4.3, 2.4, 2.5, 3.1): charge a payment method for an order; the response
 * is FAILED, SUCCEEDED or AUTHENTICATION_REQUIRED (3DS, see `ChargeFlow`).
 *
 * Required fields of a charge request (the spec does not say): `order.id`,
 * `order.amount` (> 0) and `cardId`; `order.description` and `order.name` are optional;
 * `authenticationId` may be absent, which reads as null (the first attempt) and is sent
 * as null; `billingInfo` is optional except for USA and CAN cards (`chargeRequestFor`).
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { hinted } from '../internal/schemaHint.js'
import * as Money from './Money.js'
import { MoneyFromNumber } from './Money.js'
import {
  HttpUrl,
  IsoDateTime,
  NonEmptyString,
  exactStruct,
  failure,
  failureAt,
  nullAsAbsent,
  nullOr,
  withDefault,
  requiredOrType,
  withInputRule,
} from '../internal/codec.js'

// -------------------------------------------------------------------------------------
// codecs: request
// -------------------------------------------------------------------------------------

/**
 * An amount to charge: a JSON number decoded as exact `Money`, greater than 0.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { ChargeAmount } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const amount = validate(ChargeAmount)(25.5)
 * assert.ok(E.isRight(amount))
 * assert.equal(Money.toCents(amount.right), 2550n)
 * assert.deepEqual(
 *   validate(ChargeAmount)(0),
 *   E.left([
 *     { path: '', message: 'must be greater than 0', code: 'minimum', minimum: 0, inclusive: false },
 *   ]),
 * )
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const ChargeAmount = Money.PositiveMoney

/**
 * The order being paid (spec 2.4 `order`). Unknown fields are stripped.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { ChargeOrderRequest } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const order = validate(ChargeOrderRequest)({ id: 'order-1', amount: 25.5, color: 'red' })
 * assert.ok(E.isRight(order))
 * assert.equal('color' in order.right, false) // unknown fields are stripped
 * assert.deepEqual(
 *   validate(ChargeOrderRequest)({ amount: 25.5 }),
 *   E.left([{ path: 'id', message: 'is required', code: 'required' }]),
 * )
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const ChargeOrderRequest = exactStruct(
  { id: NonEmptyString, amount: ChargeAmount },
  { description: t.string, name: t.string },
  'ChargeOrderRequest',
)

/**
 * A country code of ISO 3166 alpha-2 or alpha-3 form (two or three letters), read in any
 * case and decoded upper-case; a blank one is `required`.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { CountryCode } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(validate(CountryCode)(' usa '), E.right('USA'))
 * assert.deepEqual(validate(CountryCode)('cr'), E.right('CR'))
 * assert.ok(E.isLeft(validate(CountryCode)('Costa Rica')))
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const CountryCode: t.Type<string, string, unknown> = hinted(
  new t.Type<string, string, unknown>(
    'CountryCode',
    (u): u is string => typeof u === 'string' && /^[A-Z]{2,3}$/.test(u),
    (u, c) =>
      typeof u === 'string' && /^[A-Za-z]{2,3}$/.test(u.trim())
        ? t.success(u.trim().toUpperCase())
        : failure(
            u,
            c,
            typeof u !== 'string'
              ? requiredOrType(u, 'string')
              : u.trim() === ''
                ? { code: 'required' }
                : { code: 'countryCode' },
          ),
    t.identity,
  ),
  // Read trimmed and in any case.
  { type: 'string', pattern: /^\s*[A-Za-z]{2,3}\s*$/, issue: { code: 'countryCode' } },
)

/**
 * Billing data (spec 2.4 `billingInfo`): country code, state code and zip code, all
 * non-empty. Unknown fields are stripped.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { BillingInfo } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const billing = validate(BillingInfo)({ countryCode: 'usa', stateCode: 'NY', zipCode: '10001' })
 * assert.deepEqual(billing, E.right({ countryCode: 'USA', stateCode: 'NY', zipCode: '10001' }))
 * assert.deepEqual(
 *   validate(BillingInfo)({ countryCode: 'USA', stateCode: ' ', zipCode: '10001' }),
 *   E.left([{ path: 'stateCode', message: 'is required', code: 'required' }]), // blank is empty
 * )
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const BillingInfo = exactStruct(
  { countryCode: CountryCode, stateCode: NonEmptyString, zipCode: NonEmptyString },
  {},
  'BillingInfo',
)

/**
 * Body of `POST /charges` (spec 2.4) without the issuer rule: `billingInfo` is optional
 * here, and `null` reads as absent (use `chargeRequestFor` to require it for USA and CAN
 * cards). Unknown fields are stripped.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { ChargeRequest } from '@paykit/core/codecs'
 * import { Json } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const request = validate(ChargeRequest)({
 *   order: { id: 'order-1', amount: 25.5 },
 *   cardId: 'pm_1',
 *   billingInfo: null, // reads as absent
 * })
 * assert.ok(E.isRight(request))
 * assert.equal(request.right.authenticationId, null) // absent: the first attempt
 * assert.equal(
 *   Json.stringify(ChargeRequest)(request.right),
 *   '{"order":{"id":"order-1","amount":25.5},"cardId":"pm_1","authenticationId":null}',
 * )
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const ChargeRequest = nullAsAbsent(
  exactStruct(
    {
      order: ChargeOrderRequest,
      cardId: NonEmptyString,
      authenticationId: withDefault(nullOr(NonEmptyString), null),
    },
    { billingInfo: BillingInfo },
    'ChargeRequest',
  ),
  'billingInfo',
)

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/**
 * Issuer countries whose cards need `billingInfo` (spec 2.4 rule).
 *
 * @example
 * ```ts
 * import { BILLING_INFO_COUNTRIES, requiresBillingInfo } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(BILLING_INFO_COUNTRIES, ['USA', 'CAN'])
 * assert.ok(
 *   BILLING_INFO_COUNTRIES.every((countryCode) => requiresBillingInfo({ bin: { countryCode } })),
 * )
 * ```
 *
 * @category rules
 * @since 0.2.0
 */
export const BILLING_INFO_COUNTRIES: ReadonlyArray<string> = ['USA', 'CAN']

/**
 * Whether a charge of this payment method needs `billingInfo`: its issuer country
 * (`bin.countryCode`, compared without regard to case) is USA or CAN.
 *
 * @example
 * ```ts
 * import { requiresBillingInfo } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(requiresBillingInfo({ bin: { countryCode: 'usa' } }), true)
 * assert.equal(requiresBillingInfo({ bin: { countryCode: 'CRI' } }), false)
 * ```
 *
 * @category rules
 * @since 0.2.0
 */
export const requiresBillingInfo = (paymentMethod: {
  readonly bin: { readonly countryCode: string }
}): boolean => BILLING_INFO_COUNTRIES.includes(paymentMethod.bin.countryCode.trim().toUpperCase())

/**
 * Body of `POST /charges` for a given payment method: `ChargeRequest` plus the issuer
 * rule, `billingInfo` required (error at `billingInfo`) when the card was issued in USA
 * or CAN.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { chargeRequestFor } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const body = { order: { id: 'order-1', amount: 25.5 }, cardId: 'pm_1' }
 * // a card issued in the USA needs billingInfo; one from Costa Rica does not
 * const usCard = { bin: { countryCode: 'USA' } }
 * assert.deepEqual(
 *   validate(chargeRequestFor(usCard))(body),
 *   E.left([
 *     {
 *       path: 'billingInfo',
 *       message: 'is required when the card issuer is in USA or CAN',
 *       code: 'requiredForCountry',
 *       countries: ['USA', 'CAN'],
 *     },
 *   ]),
 * )
 * assert.ok(E.isRight(validate(chargeRequestFor({ bin: { countryCode: 'CRI' } }))(body)))
 * const billingInfo = { countryCode: 'USA', stateCode: 'NY', zipCode: '10001' }
 * assert.ok(E.isRight(validate(chargeRequestFor(usCard))({ ...body, billingInfo })))
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const chargeRequestFor = (paymentMethod: {
  readonly bin: { readonly countryCode: string }
}): t.Type<ChargeRequest, ChargeRequestOutput, unknown> =>
  requiresBillingInfo(paymentMethod)
    ? withInputRule(
        ChargeRequest,
        (u, c) =>
          t.UnknownRecord.is(u) && (u['billingInfo'] === undefined || u['billingInfo'] === null)
            ? [
                failureAt(u, c, ['billingInfo'], {
                  code: 'requiredForCountry',
                  countries: BILLING_INFO_COUNTRIES,
                }),
              ]
            : [],
        'ChargeRequest',
      )
    : ChargeRequest

// -------------------------------------------------------------------------------------
// codecs: response
// -------------------------------------------------------------------------------------

/**
 * Why a charge failed (spec 2.5 `error`, 7.1): a code such as `FRAUD_PREVENT` and a message.
 *
 * @example
 * ```ts
 * import { ChargeError } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(
 *   ChargeError.is({ code: 'FRAUD_PREVENT', message: 'declined by the fraud check' }),
 *   true,
 * )
 * assert.equal(ChargeError.is({ code: 'FRAUD_PREVENT' }), false)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const ChargeError = t.type({ code: t.string, message: t.string }, 'ChargeError')

/**
 * The 3DS authentication a charge asks for (spec 2.5 `authentication`): the address to
 * open in the frame (absolute http(s)) and the authentication identifier.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { ChargeAuthentication } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const auth = { url: 'https://pay.example.com/3ds/auth_1', id: 'auth_1' }
 * assert.deepEqual(validate(ChargeAuthentication)(auth), E.right(auth))
 * assert.deepEqual(
 *   validate(ChargeAuthentication)({ ...auth, url: '/3ds/auth_1' }),
 *   E.left([{ path: 'url', message: 'must be an absolute http(s) URL', code: 'url' }]),
 * )
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const ChargeAuthentication = t.type(
  { url: HttpUrl, id: NonEmptyString },
  'ChargeAuthentication',
)

/**
 * The paid order of a SUCCEEDED charge (spec 2.5 `order`): the service's `id`, the
 * merchant's `reference` (its `order.id`), `amount` as `Money`, `currency`,
 * `authorizationCode`.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { ChargeOrder } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const order = validate(ChargeOrder)({
 *   id: 'ord_1',
 *   reference: 'order-1',
 *   amount: 25.5,
 *   currency: 'USD',
 *   authorizationCode: 'A1B2C3',
 * })
 * assert.ok(E.isRight(order))
 * assert.equal(Money.toString(order.right.amount, 2), '25.50')
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const ChargeOrder = t.type(
  {
    id: t.string,
    reference: t.string,
    amount: MoneyFromNumber,
    currency: t.string,
    authorizationCode: t.string,
  },
  'ChargeOrder',
)

/**
 * The statuses of a charge response (spec 2.5).
 *
 * @example
 * ```ts
 * import { CHARGE_STATUSES, type ChargeStatus } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * const isChargeStatus = (s: string): s is ChargeStatus =>
 *   (CHARGE_STATUSES as ReadonlyArray<string>).includes(s)
 * assert.equal(isChargeStatus('AUTHENTICATION_REQUIRED'), true)
 * assert.equal(isChargeStatus('PENDING'), false)
 * ```
 *
 * @category model
 * @since 0.2.0
 */
export const CHARGE_STATUSES = ['FAILED', 'SUCCEEDED', 'AUTHENTICATION_REQUIRED'] as const

const nullWhen = (status: ChargeStatus): t.Type<null, null, unknown> =>
  hinted(
    new t.Type<null, null, unknown>(
      'null',
      (u): u is null => u === null,
      (u, c) =>
        u === null
          ? t.success(null)
          : failure(
              u,
              c,
              u === undefined ? { code: 'required' } : { code: 'nullForStatus', status },
            ),
      t.identity,
    ),
    { type: 'null' },
  )

/**
 * A FAILED charge response: `error` non-null; `authentication` and `order` null.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { ChargeFailed } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const failed = {
 *   status: 'FAILED',
 *   message: 'Charge failed',
 *   error: { code: 'CARD_DECLINED', message: 'The card was declined' },
 *   authentication: null,
 *   order: null,
 *   createdAt: '2026-11-24T12:00:00.000Z',
 * }
 * assert.ok(E.isRight(validate(ChargeFailed)(failed)))
 * assert.deepEqual(
 *   validate(ChargeFailed)({ ...failed, error: null }),
 *   E.left([
 *     {
 *       path: 'error',
 *       message: 'must be an object, got null',
 *       code: 'type',
 *       expected: ['object'],
 *       received: 'null',
 *     },
 *   ]),
 * )
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const ChargeFailed = t.type(
  {
    status: t.literal('FAILED'),
    message: t.string,
    error: ChargeError,
    authentication: nullWhen('FAILED'),
    order: nullWhen('FAILED'),
    createdAt: IsoDateTime,
  },
  'ChargeFailed',
)

/**
 * A SUCCEEDED charge response: `order` non-null; `error` and `authentication` null.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { ChargeSucceeded } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const succeeded = validate(ChargeSucceeded)({
 *   status: 'SUCCEEDED',
 *   message: 'Charge succeeded',
 *   error: null,
 *   authentication: null,
 *   order: {
 *     id: 'ord_1',
 *     reference: 'order-1',
 *     amount: 25.5,
 *     currency: 'USD',
 *     authorizationCode: 'A1',
 *   },
 *   createdAt: '2026-11-24T12:00:00.000Z',
 * })
 * assert.ok(E.isRight(succeeded))
 * assert.equal(Money.toCents(succeeded.right.order.amount), 2550n)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const ChargeSucceeded = t.type(
  {
    status: t.literal('SUCCEEDED'),
    message: t.string,
    error: nullWhen('SUCCEEDED'),
    authentication: nullWhen('SUCCEEDED'),
    order: ChargeOrder,
    createdAt: IsoDateTime,
  },
  'ChargeSucceeded',
)

/**
 * An AUTHENTICATION_REQUIRED charge response: `authentication` non-null; `error` and
 * `order` null.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { ChargeAuthenticationRequired } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const required = validate(ChargeAuthenticationRequired)({
 *   status: 'AUTHENTICATION_REQUIRED',
 *   message: 'Authentication required',
 *   error: null,
 *   authentication: { url: 'https://pay.example.com/3ds/auth_1', id: 'auth_1' },
 *   order: null,
 *   createdAt: '2026-11-24T12:00:00.000Z',
 * })
 * assert.ok(E.isRight(required))
 * assert.equal(required.right.authentication.id, 'auth_1')
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const ChargeAuthenticationRequired = t.type(
  {
    status: t.literal('AUTHENTICATION_REQUIRED'),
    message: t.string,
    error: nullWhen('AUTHENTICATION_REQUIRED'),
    authentication: ChargeAuthentication,
    order: nullWhen('AUTHENTICATION_REQUIRED'),
    createdAt: IsoDateTime,
  },
  'ChargeAuthenticationRequired',
)

const byStatus = {
  FAILED: ChargeFailed,
  SUCCEEDED: ChargeSucceeded,
  AUTHENTICATION_REQUIRED: ChargeAuthenticationRequired,
} as const

const isChargeStatus = (u: unknown): u is ChargeStatus =>
  typeof u === 'string' && (CHARGE_STATUSES as ReadonlyArray<string>).includes(u)

/**
 * Response of `POST /charges` (spec 2.5): a union on `status`, decoded by the codec of
 * that status only, so errors name the field that breaks it (`error: must be null when
 * status is SUCCEEDED`); an unknown status fails at `status`. Unknown fields are tolerated.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { ChargeResponse } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const response = {
 *   status: 'SUCCEEDED',
 *   message: 'Charge succeeded',
 *   error: { code: 'CARD_DECLINED', message: 'The card was declined' },
 *   authentication: null,
 *   order: {
 *     id: 'ord_1',
 *     reference: 'order-1',
 *     amount: 25.5,
 *     currency: 'USD',
 *     authorizationCode: 'A1',
 *   },
 *   createdAt: '2026-11-24T12:00:00.000Z',
 * }
 * // decoded by the codec of its status only: the error names the field that breaks it
 * assert.deepEqual(
 *   validate(ChargeResponse)(response),
 *   E.left([
 *     {
 *       path: 'error',
 *       message: 'must be null when status is SUCCEEDED',
 *       code: 'nullForStatus',
 *       status: 'SUCCEEDED',
 *     },
 *   ]),
 * )
 * assert.ok(E.isRight(validate(ChargeResponse)({ ...response, error: null })))
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const ChargeResponse: t.Type<ChargeResponse, ChargeResponseOutput, unknown> = hinted(
  new t.Type<ChargeResponse, ChargeResponseOutput, unknown>(
    'ChargeResponse',
    (u): u is ChargeResponse =>
      t.UnknownRecord.is(u) && isChargeStatus(u['status']) && byStatus[u['status']].is(u),
    (u, c) => {
      if (!t.UnknownRecord.is(u)) return failure(u, c, requiredOrType(u, 'object'))
      const status = u['status']
      if (!isChargeStatus(status))
        return E.left([
          failureAt(
            u,
            c,
            ['status'],
            status === undefined
              ? { code: 'required' }
              : { code: 'oneOf', values: CHARGE_STATUSES },
          ),
        ])
      return byStatus[status].validate(u, c) as t.Validation<ChargeResponse>
    },
    (a) =>
      a.status === 'FAILED'
        ? ChargeFailed.encode(a)
        : a.status === 'SUCCEEDED'
          ? ChargeSucceeded.encode(a)
          : ChargeAuthenticationRequired.encode(a),
  ),
  { alternatives: [ChargeFailed, ChargeSucceeded, ChargeAuthenticationRequired] },
)

// -------------------------------------------------------------------------------------
// model (derived from the codecs)
// -------------------------------------------------------------------------------------

/**
 * The order of a charge request, amount as `Money`.
 *
 * @category model
 * @since 0.2.0
 */
export type ChargeOrderRequest = t.TypeOf<typeof ChargeOrderRequest>

/**
 * Billing data of a charge request.
 *
 * @category model
 * @since 0.2.0
 */
export type BillingInfo = t.TypeOf<typeof BillingInfo>

/**
 * A charge request as decoded (amount as `Money`, `authenticationId` string or null).
 *
 * @category model
 * @since 0.2.0
 */
export type ChargeRequest = t.TypeOf<typeof ChargeRequest>

/**
 * A charge request as sent (amount as a JSON number).
 *
 * @category model
 * @since 0.2.0
 */
export type ChargeRequestOutput = t.OutputOf<typeof ChargeRequest>

/**
 * A charge status: FAILED, SUCCEEDED or AUTHENTICATION_REQUIRED.
 *
 * @category model
 * @since 0.2.0
 */
export type ChargeStatus = (typeof CHARGE_STATUSES)[number]

/**
 * The `error` of a FAILED charge.
 *
 * @category model
 * @since 0.2.0
 */
export type ChargeError = t.TypeOf<typeof ChargeError>

/**
 * The `authentication` of an AUTHENTICATION_REQUIRED charge: frame `url` and `id`.
 *
 * @category model
 * @since 0.2.0
 */
export type ChargeAuthentication = t.TypeOf<typeof ChargeAuthentication>

/**
 * The `order` of a SUCCEEDED charge, amount as `Money`.
 *
 * @category model
 * @since 0.2.0
 */
export type ChargeOrder = t.TypeOf<typeof ChargeOrder>

/**
 * A FAILED charge response.
 *
 * @category model
 * @since 0.2.0
 */
export type ChargeFailed = t.TypeOf<typeof ChargeFailed>

/**
 * A SUCCEEDED charge response.
 *
 * @category model
 * @since 0.2.0
 */
export type ChargeSucceeded = t.TypeOf<typeof ChargeSucceeded>

/**
 * An AUTHENTICATION_REQUIRED charge response.
 *
 * @category model
 * @since 0.2.0
 */
export type ChargeAuthenticationRequired = t.TypeOf<typeof ChargeAuthenticationRequired>

/**
 * A charge response as decoded: one of the three statuses.
 *
 * @category model
 * @since 0.2.0
 */
export type ChargeResponse = ChargeFailed | ChargeSucceeded | ChargeAuthenticationRequired

/**
 * A charge response as JSON (amounts as numbers).
 *
 * @category model
 * @since 0.2.0
 */
export type ChargeResponseOutput =
  | t.OutputOf<typeof ChargeFailed>
  | t.OutputOf<typeof ChargeSucceeded>
  | t.OutputOf<typeof ChargeAuthenticationRequired>
