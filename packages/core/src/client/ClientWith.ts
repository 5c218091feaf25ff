/**
 * The client of the payment service: one `TaskEither<PaykitError, A>` per endpoint over an
 * injected `Transport`. Every call validates its input with the core's codecs before
 * anything is sent, decodes the response, refreshes the access token once on a 401, and
 * repeats only what is safe to repeat (never a charge that may have reached the service,
 * nor a card, nor a link unless the caller opted in: their errors say `outcomeUnknown`).
 * No error, and no record given to `onExchange`, carries a secret, token or card datum.
 * This module wires the endpoints (their model is `Client`) over a runtime (transport,
 * clock, sleep) that is only injected: it touches no global timer and no `fetch`, so it
 * can be bundled where those are forbidden (`@paykit/core/pure`). `createClient`
 * (`edge/DefaultClient`) fills the runtime from `DefaultRuntime`. A call is run by
 * `ClientCall`, the 3DS flow is `ChargeWith3ds` and the poll of an order is
 * `WaitForOrderStatus`.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import type { ChargeRequest, ChargeResponse } from '../model/Charge.js'
import {
  ChargeRequest as ChargeRequestCodec,
  ChargeResponse as ChargeResponseCodec,
} from '../model/Charge.js'
import { chargeRequestFor } from '../model/Charge.js'
import { validate } from '../model/FieldError.js'
import { OrderDetails as OrderDetailsCodec } from '../model/Order.js'
import {
  PaymentLinkRequest as PaymentLinkRequestCodec,
  PaymentLinkResponse as PaymentLinkResponseCodec,
} from '../model/PaymentLink.js'
import {
  PaymentMethod as PaymentMethodCodec,
  PaymentMethodRequest as PaymentMethodRequestCodec,
} from '../model/PaymentMethod.js'
import { NonEmptyString } from '../internal/codec.js'
import { chargeWith3ds as runChargeWith3ds } from './ChargeWith3ds.js'
import type { ChargeOptions, Client, ClientConfigWithRuntime } from './Client.js'
import type { Call } from './ClientCall.js'
import { cardSecrets, createCaller } from './ClientCall.js'
import { waitForOrderStatus } from './WaitForOrderStatus.js'

// -------------------------------------------------------------------------------------
// internals
// -------------------------------------------------------------------------------------

const PAYMENT_METHODS = 'POST /paymentmethods'
const CHARGES = 'POST /charges'
const CHECKOUT = 'POST /paymentlink/checkout'

const OrderCode = NonEmptyString
// Built once, not per call (`validate` looks up the codec's compiled fast path).
const validateOrderCode = validate(OrderCode)
const decodeOrderDetails = validate(OrderDetailsCodec)
const decodeCharge = validate(ChargeResponseCodec)
const decodePaymentMethod = validate(PaymentMethodCodec)
const decodePaymentLink = validate(PaymentLinkResponseCodec)

const chargeCall = (
  request: ChargeRequest,
  codec: t.Encoder<ChargeRequest, unknown>,
  signal: AbortSignal | undefined,
): Call<ChargeResponse> => ({
  operation: CHARGES,
  kind: 'charge',
  method: 'POST',
  path: '/charges',
  body: codec.encode(request),
  auth: 'accessToken',
  decode: decodeCharge,
  optIn: false,
  signal,
  secrets: [],
})

const chargeCodecFor = (options: ChargeOptions) =>
  options.paymentMethod === undefined ? ChargeRequestCodec : chargeRequestFor(options.paymentMethod)

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A client of the service at `baseUrl` over the runtime given in `config` (transport,
 * `now`, `sleep`), and nothing else: no global timer, no `fetch`. Nothing is sent until a
 * method's task runs; the first call that needs a token fetches it (unless the transport
 * holds the credentials).
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import * as TE from 'fp-ts/lib/TaskEither.js'
 * import { createClientWith, type Transport, type TransportRequest } from '@paykit/core/pure'
 * import assert from 'node:assert/strict'
 *
 * // An in-memory transport that adds the credential itself (as n8n's credentials do).
 * const sent: Array<TransportRequest> = []
 * const transport: Transport = (request) => {
 *   sent.push(request)
 *   const link = { orderCode: 'OC1', orderId: 1, paymentLinkUrl: 'https://pay.example/OC1' }
 *   return TE.right({ status: 200, headers: {}, body: JSON.stringify(link) })
 * }
 * const client = createClientWith({
 *   baseUrl: 'https://api.paykit.example',
 *   credentials: 'transport',
 *   transport,
 *   now: () => Date.now(),
 *   sleep: () => Promise.resolve(), // nothing here retries or waits
 * })
 * const link = await client.createPaymentLink({ amount: 19.99 })()
 * assert.ok(E.isRight(link) && link.right.orderCode === 'OC1')
 * assert.equal(sent[0]?.url, 'https://api.paykit.example/paymentlink/checkout')
 * assert.equal(sent[0]?.credential, 'paymentLink')
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const createClientWith = (config: ClientConfigWithRuntime): Client => {
  const { run, invalid, clean, getToken, now, sleep } = createCaller(config)

  const createPaymentMethod: Client['createPaymentMethod'] = (request, options = {}) => {
    const extra = cardSecrets(request)
    const input = validate(PaymentMethodRequestCodec)(request)
    if (E.isLeft(input)) return invalid('payment method request', extra)(input.left)
    return run({
      operation: PAYMENT_METHODS,
      kind: 'paymentMethod',
      method: 'POST',
      path: '/paymentmethods',
      body: PaymentMethodRequestCodec.encode(input.right),
      auth: 'accessToken',
      decode: decodePaymentMethod,
      optIn: false,
      signal: options.signal,
      secrets: extra,
    })
  }

  const charge: Client['charge'] = (request, options = {}) => {
    const codec = chargeCodecFor(options)
    const input = validate(codec)(request)
    if (E.isLeft(input)) return invalid('charge request', [])(input.left)
    return run(chargeCall(input.right, codec, options.signal))
  }

  const chargeValidated: Client['chargeValidated'] = (request, options = {}) =>
    run(chargeCall(request, ChargeRequestCodec, options.signal))

  const createValidatedPaymentLink: Client['createValidatedPaymentLink'] = (
    request,
    options = {},
  ) =>
    run({
      operation: CHECKOUT,
      kind: 'paymentLink',
      method: 'POST',
      path: '/paymentlink/checkout',
      body: PaymentLinkRequestCodec.encode(request),
      auth: 'paymentLink',
      decode: decodePaymentLink,
      optIn: options.retry === true,
      signal: options.signal,
      secrets: [],
    })

  const createPaymentLink: Client['createPaymentLink'] = (request, options = {}) => {
    const input = validate(PaymentLinkRequestCodec)(request)
    if (E.isLeft(input)) return invalid('payment link request', [])(input.left)
    return createValidatedPaymentLink(input.right, options)
  }

  const getOrder: Client['getOrder'] = (orderCode, options = {}) => {
    const input = validateOrderCode(orderCode)
    if (E.isLeft(input))
      return invalid('order code', [])(input.left.map((e) => ({ ...e, path: 'orderCode' })))
    return run({
      operation: `GET /paymentlink/order/${input.right}`,
      kind: 'read',
      method: 'GET',
      path: `/paymentlink/order/${encodeURIComponent(input.right)}`,
      auth: 'paymentLink',
      decode: decodeOrderDetails,
      optIn: false,
      signal: options.signal,
      secrets: [],
    })
  }

  const chargeWith3ds: Client['chargeWith3ds'] = (request, authenticate, options = {}) => {
    const codec = chargeCodecFor(options)
    const input = validate(codec)(request)
    if (E.isLeft(input)) return invalid('charge request', [])(input.left)
    return runChargeWith3ds({
      charge: (next) => run(chargeCall(next, codec, options.signal)),
      authenticate,
      invalid,
      clean,
      maxAuthentications: options.maxAuthentications ?? 3,
      maxFrameMessages: options.maxFrameMessages ?? 10,
    })(input.right)
  }

  return {
    getToken,
    createPaymentMethod,
    charge,
    chargeValidated,
    createPaymentLink,
    createValidatedPaymentLink,
    getOrder,
    chargeWith3ds,
    waitForOrderStatus: waitForOrderStatus({ getOrder, invalid, now, sleep }),
  }
}
