/**
 * The model of the client: the `Client` interface (one `TaskEither` per endpoint), its
 * config and runtime, the options of each call and the inputs as a caller writes them.
 * A leaf of the client layer: `ClientWith` builds a `Client`, `ClientCall` runs its calls,
 * `ChargeWith3ds` and `WaitForOrderStatus` are two of its methods; all of them import these
 * types from here, so the client's modules form no cycle.
 *
 * @since 0.2.0
 */
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { ChargeRequest, ChargeResponse, ChargeRequestOutput } from '../model/Charge.js'
import type { ChargeFlowState } from '../machines/ChargeFlow.js'
import type { FrameMessage } from '../machines/Authentication.js'
import type { OrderDetails } from '../model/Order.js'
import type { OrderStatus } from '../model/OrderStatus.js'
import type { PaykitError } from './PaykitError.js'
import type {
  PaymentLinkRequest,
  PaymentLinkRequestJson,
  PaymentLinkResponse,
} from '../model/PaymentLink.js'
import type { PaymentMethod, PaymentMethodRequestOutput } from '../model/PaymentMethod.js'
import type { RetryPolicy } from './Retry.js'
import type { Transport, TransportError, TransportResponse } from './Transport.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The credentials of a client: client id and secret (for `POST /token` and the access
 * token), an API key (for the payment-link endpoints), or both. With an API key the
 * payment-link calls use it; without one they use the access token.
 *
 * @category model
 * @since 0.2.0
 */
export interface Credentials {
  readonly clientId?: string
  readonly clientSecret?: string
  readonly apiKey?: string
}

/**
 * One attempt of one call as `onExchange` sees it, with `Authorization`, `clientSecret`,
 * `accessToken`, the API key, the card number and the CVV replaced by `[redacted]`
 * (`Authorization` keeps its scheme: `Bearer [redacted]`).
 *
 * @category model
 * @since 0.2.0
 */
export interface Exchange {
  readonly operation: string
  readonly attempt: number
  readonly request: {
    readonly method: string
    readonly url: string
    readonly headers: Readonly<Record<string, string>>
    readonly body?: string
  }
  readonly response?: TransportResponse
  readonly error?: TransportError
  readonly durationMs: number
}

/**
 * A pause: resolves after `ms` milliseconds of the client's clock, or at once when `signal`
 * aborts; it never rejects. A fake for tests must let concurrent sleeps overlap (resolve
 * each when its clock reaches it): `waitForOrderStatus` sleeps until its deadline while a
 * poll runs, so a sleep that resolves at once ends every wait at its first poll.
 *
 * @category model
 * @since 0.2.0
 */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>

/**
 * Everything a client does I/O and tells time with: the transport, `now` (milliseconds
 * since the epoch) and `sleep` (retry backoff, polling and the deadline of a wait).
 * `defaultRuntime()` (`DefaultRuntime`) is fetch, `Date.now` and `setTimeout`.
 *
 * @category model
 * @since 0.2.0
 */
export interface ClientRuntime {
  readonly transport: Transport
  readonly now: () => number
  readonly sleep: Sleep
}

/**
 * How to build a client. `credentials` are the client's own, or `'transport'` when the
 * transport authenticates every request itself (then the client never calls `POST /token`,
 * sets no `Authorization` and takes a 401 as final; each request's `credential` says what
 * the transport must add). `timeoutMs` bounds each HTTP attempt (30 s by default); `retry`
 * tunes the backoff of what is safe to repeat; `onExchange` sees every attempt, redacted
 * (a hook that throws is ignored); `transport`, `now` and `sleep` are the runtime
 * (`createClient` fills what is left out from `defaultRuntime()`).
 *
 * @category model
 * @since 0.2.0
 */
export interface ClientConfig extends Partial<ClientRuntime> {
  readonly baseUrl: string
  readonly credentials: Credentials | 'transport'
  readonly timeoutMs?: number
  readonly retry?: Partial<RetryPolicy>
  readonly onExchange?: (exchange: Exchange) => void
}

/**
 * The config of `createClientWith`: a `ClientConfig` whose runtime is all given.
 *
 * @category model
 * @since 0.2.0
 */
export interface ClientConfigWithRuntime
  extends Omit<ClientConfig, keyof ClientRuntime>, ClientRuntime {}

/**
 * Options every call takes: a signal to cancel it.
 *
 * @category model
 * @since 0.2.0
 */
export interface CallOptions {
  readonly signal?: AbortSignal
}

/**
 * Options of `charge`: with `paymentMethod`, the charge is validated by
 * `chargeRequestFor(paymentMethod)` (billingInfo required for USA and CAN cards).
 *
 * @category model
 * @since 0.2.0
 */
export interface ChargeOptions extends CallOptions {
  readonly paymentMethod?: { readonly bin: { readonly countryCode: string } }
}

/**
 * Options of `createPaymentLink`: `retry: true` opts in to repeating a link creation that
 * may have reached the service (a dropped connection, a timeout, a 5xx). A repeat can
 * leave one more link for the order, which the caller never sees: unused, it expires.
 * Without it such an attempt is not repeated and fails with `outcomeUnknown: true`; with
 * it, an error after such an attempt also has `outcomeUnknown: true`, whatever the last
 * attempt met.
 *
 * @category model
 * @since 0.2.0
 */
export interface PaymentLinkOptions extends CallOptions {
  readonly retry?: boolean
}

/**
 * Options of `chargeWith3ds`: those of `charge`, and how many 3DS authentications and
 * frame messages per authentication to go through before stopping (3 and 10).
 *
 * @category model
 * @since 0.2.0
 */
export interface ChargeWith3dsOptions extends ChargeOptions {
  readonly maxAuthentications?: number
  readonly maxFrameMessages?: number
}

/**
 * Options of `waitForOrderStatus`: give up after `timeoutMs`; poll first after
 * `intervalMs`, then 1.5 times longer each time up to `maxIntervalMs` (10 x intervalMs).
 *
 * @category model
 * @since 0.2.0
 */
export interface WaitOptions extends CallOptions {
  readonly timeoutMs: number
  readonly intervalMs: number
  readonly maxIntervalMs?: number
}

/**
 * A charge request as the caller writes it (amounts as numbers); `authenticationId` may
 * be left out (null: the first attempt).
 *
 * @category model
 * @since 0.2.0
 */
export type ChargeRequestInput = Omit<ChargeRequestOutput, 'authenticationId'> & {
  readonly authenticationId?: string | null
}

type LineItemJson = NonNullable<PaymentLinkRequestJson['lineItems']>[number]

/**
 * A line item as the caller writes it: `product.requiresShipping` may be left out.
 *
 * @category model
 * @since 0.2.0
 */
export type LineItemInput = LineItemJson extends infer L
  ? L extends { readonly product: infer P }
    ? Omit<L, 'product'> & {
        readonly product: Omit<P, 'requiresShipping'> & { readonly requiresShipping?: boolean }
      }
    : L
  : never

/**
 * A payment-link request as the caller writes it; `orderName`, `expirationMinutes` and
 * `product.requiresShipping` may be left out (their defaults apply).
 *
 * @category model
 * @since 0.2.0
 */
export type PaymentLinkRequestInput = Omit<
  PaymentLinkRequestJson,
  'orderName' | 'expirationMinutes' | 'lineItems'
> & {
  readonly orderName?: string
  readonly expirationMinutes?: number
  readonly lineItems?: ReadonlyArray<LineItemInput>
}

/**
 * What the 3DS step is: open `url` in a frame and yield the frame message posted for
 * authentication `id` (the browser listener of `@paykit/core`'s browser entry does this).
 *
 * @category model
 * @since 0.2.0
 */
export type Authenticate = (url: string, id: string) => TE.TaskEither<PaykitError, FrameMessage>

/**
 * The client: one method per endpoint, the 3DS flow and a poll of an order's status.
 *
 * @category model
 * @since 0.2.0
 */
export interface Client {
  /**
   * A valid access token (`POST /token`, cached; one request shared by concurrent calls).
   * With `credentials: 'transport'` a `ValidationError` at `credentials`: the transport
   * holds the token.
   *
   * @example
   * ```ts
   * import * as E from 'fp-ts/lib/Either.js'
   * import { createClient } from '@paykit/core'
   * import { defaultCredentials } from '@paykit/testkit'
   * import { startSandbox } from '@paykit/testkit/sandbox'
   * import assert from 'node:assert/strict'
   *
   * const sandbox = await startSandbox()
   * const client = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
   * const [a, b] = await Promise.all([client.getToken()(), client.getToken()()])
   * assert.ok(E.isRight(a))
   * assert.deepEqual(b, a) // one token, one POST /token
   * assert.equal(sandbox.requests().filter((r) => r.path === '/token').length, 1)
   * await sandbox.close()
   * ```
   */
  readonly getToken: (options?: CallOptions) => TE.TaskEither<PaykitError, string>
  /**
   * `POST /paymentmethods`: registers a card. Never retried once it may have been sent: such
   * an error has `outcomeUnknown: true` (registering the card again leaves at most an
   * unused card id).
   *
   * @example
   * ```ts
   * import * as E from 'fp-ts/lib/Either.js'
   * import { createClient } from '@paykit/core'
   * import { defaultCredentials, testCards } from '@paykit/testkit'
   * import { startSandbox } from '@paykit/testkit/sandbox'
   * import assert from 'node:assert/strict'
   *
   * const sandbox = await startSandbox()
   * const client = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
   * const expirationYear = String(new Date().getUTCFullYear() + 2)
   * const card = {
   *   number: testCards.success.number,
   *   expirationMonth: '12',
   *   expirationYear,
   *   cvv: '123',
   * }
   * const created = await client.createPaymentMethod({ card })()
   * assert.ok(E.isRight(created))
   * assert.deepEqual(created.right.bin, {
   *   brand: 'VISA',
   *   issuerName: 'Banco Sandbox',
   *   countryCode: 'CRI',
   * })
   * // A card that fails the Luhn check is refused before anything is sent.
   * const refused = await client.createPaymentMethod({
   *   card: { ...card, number: '4242424242424241' },
   * })()
   * assert.ok(E.isLeft(refused) && refused.left._tag === 'ValidationError')
   * assert.equal(refused.left.fieldErrors[0]?.path, 'card.number')
   * await sandbox.close()
   * ```
   */
  readonly createPaymentMethod: (
    request: PaymentMethodRequestOutput,
    options?: CallOptions,
  ) => TE.TaskEither<PaykitError, PaymentMethod>
  /**
   * `POST /charges`. A FAILED or AUTHENTICATION_REQUIRED charge is a `Right` (the service
   * answered); a charge that may have reached the service is never repeated: its error has
   * `outcomeUnknown: true`, and sending the same charge again with the same order id is
   * safe (a second charge of an order that succeeded is FAILED with `DUPLICATE_ORDER`).
   *
   * @example
   * ```ts
   * import * as E from 'fp-ts/lib/Either.js'
   * import { createClient } from '@paykit/core'
   * import { defaultCredentials, testCards } from '@paykit/testkit'
   * import { startSandbox } from '@paykit/testkit/sandbox'
   * import assert from 'node:assert/strict'
   *
   * const sandbox = await startSandbox()
   * const client = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
   * const expirationYear = String(new Date().getUTCFullYear() + 2)
   * const card = {
   *   number: testCards.declined.number,
   *   expirationMonth: '12',
   *   expirationYear,
   *   cvv: '123',
   * }
   * const method = await client.createPaymentMethod({ card })()
   * assert.ok(E.isRight(method))
   * const charged = await client.charge({
   *   order: { id: 'order-1', amount: 25.5 },
   *   cardId: method.right.id,
   * })()
   * // A declined card is an answer, not an error: a Right with status FAILED.
   * assert.ok(E.isRight(charged) && charged.right.status === 'FAILED')
   * assert.equal(charged.right.error?.code, 'CARD_DECLINED')
   * await sandbox.close()
   * ```
   */
  readonly charge: (
    request: ChargeRequestInput,
    options?: ChargeOptions,
  ) => TE.TaskEither<PaykitError, ChargeResponse>
  /**
   * `charge` for a request already validated: the decoded `ChargeRequest` that
   * `validate(ChargeRequest)` (or `validate(chargeRequestFor({ bin }))`) gives, amounts as
   * `Money`, sent as it is without validating it again. For a caller that validates before
   * sending (the n8n node checks every item first): one validation per charge, not two.
   * Errors and the never-repeated rule are those of `charge`.
   *
   * @example
   * ```ts
   * import * as E from 'fp-ts/lib/Either.js'
   * import { createClient, validate } from '@paykit/core'
   * import { ChargeRequest } from '@paykit/core/codecs'
   * import { defaultCredentials, testCards } from '@paykit/testkit'
   * import { startSandbox } from '@paykit/testkit/sandbox'
   * import assert from 'node:assert/strict'
   *
   * const sandbox = await startSandbox()
   * const client = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
   * const expirationYear = String(new Date().getUTCFullYear() + 2)
   * const card = {
   *   number: testCards.success.number,
   *   expirationMonth: '12',
   *   expirationYear,
   *   cvv: '123',
   * }
   * const method = await client.createPaymentMethod({ card })()
   * assert.ok(E.isRight(method))
   * const request = validate(ChargeRequest)({
   *   order: { id: 'order-7', amount: 25.5 },
   *   cardId: method.right.id,
   * })
   * assert.ok(E.isRight(request)) // the errors, if any, are the caller's to report
   * const charged = await client.chargeValidated(request.right)()
   * assert.ok(E.isRight(charged) && charged.right.status === 'SUCCEEDED')
   * await sandbox.close()
   * ```
   *
   * @since 0.2.0
   */
  readonly chargeValidated: (
    request: ChargeRequest,
    options?: CallOptions,
  ) => TE.TaskEither<PaykitError, ChargeResponse>
  /**
   * `POST /paymentlink/checkout` (the API key when configured, else the access token). A
   * creation that may have reached the service is repeated only with `{ retry: true }`;
   * its error has `outcomeUnknown: true` (see `PaymentLinkOptions`).
   *
   * @example
   * ```ts
   * import * as E from 'fp-ts/lib/Either.js'
   * import { createClient } from '@paykit/core'
   * import { defaultCredentials } from '@paykit/testkit'
   * import { startSandbox } from '@paykit/testkit/sandbox'
   * import assert from 'node:assert/strict'
   *
   * const sandbox = await startSandbox()
   * const client = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
   * const link = await client.createPaymentLink({
   *   orderReference: 'cart-42',
   *   lineItems: [{ sku: 'MUG-LOGO', quantity: 2 }],
   * })()
   * assert.ok(E.isRight(link))
   * assert.equal(link.right.paymentLinkUrl, `${sandbox.url}/pay/${link.right.orderCode}`)
   * await sandbox.close()
   * ```
   */
  readonly createPaymentLink: (
    request: PaymentLinkRequestInput,
    options?: PaymentLinkOptions,
  ) => TE.TaskEither<PaykitError, PaymentLinkResponse>
  /**
   * `createPaymentLink` for a request already validated: the decoded `PaymentLinkRequest`
   * that `validate(PaymentLinkRequest)` gives (defaults applied, amounts as `Money`), sent
   * as it is without validating it again. For a caller that validates before sending (the
   * n8n node checks every item before any request): one validation per request, not two.
   * Retries, errors and `PaymentLinkOptions` are those of `createPaymentLink`.
   *
   * @example
   * ```ts
   * import * as E from 'fp-ts/lib/Either.js'
   * import { createClient, validate } from '@paykit/core'
   * import { PaymentLinkRequest } from '@paykit/core/codecs'
   * import { defaultCredentials } from '@paykit/testkit'
   * import { startSandbox } from '@paykit/testkit/sandbox'
   * import assert from 'node:assert/strict'
   *
   * const sandbox = await startSandbox()
   * const client = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
   * const request = validate(PaymentLinkRequest)({ amount: 19.99, orderReference: 'cart-42' })
   * assert.ok(E.isRight(request)) // the errors, if any, are the caller's to report
   * const link = await client.createValidatedPaymentLink(request.right)()
   * assert.ok(E.isRight(link))
   * assert.equal(link.right.paymentLinkUrl, `${sandbox.url}/pay/${link.right.orderCode}`)
   * await sandbox.close()
   * ```
   *
   * @since 0.2.0
   */
  readonly createValidatedPaymentLink: (
    request: PaymentLinkRequest,
    options?: PaymentLinkOptions,
  ) => TE.TaskEither<PaykitError, PaymentLinkResponse>
  /**
   * `GET /paymentlink/order/{orderCode}` (retried on network errors and 5xx).
   *
   * @example
   * ```ts
   * import * as E from 'fp-ts/lib/Either.js'
   * import { createClient } from '@paykit/core'
   * import { defaultCredentials } from '@paykit/testkit'
   * import { startSandbox } from '@paykit/testkit/sandbox'
   * import assert from 'node:assert/strict'
   *
   * const sandbox = await startSandbox()
   * const client = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
   * const link = await client.createPaymentLink({
   *   lineItems: [{ sku: 'MUG-LOGO', quantity: 2 }],
   * })()
   * assert.ok(E.isRight(link))
   * const order = await client.getOrder(link.right.orderCode)()
   * assert.ok(E.isRight(order))
   * assert.equal(order.right.orderStatus, 'PENDING')
   * assert.equal(order.right.total.toString(), '17') // 2 x 8.50, exact (Money)
   * const unknown = await client.getOrder('OC99999999')()
   * assert.ok(
   *   E.isLeft(unknown) && unknown.left._tag === 'HttpError' && unknown.left.status === 404,
   * )
   * await sandbox.close()
   * ```
   */
  readonly getOrder: (
    orderCode: string,
    options?: CallOptions,
  ) => TE.TaskEither<PaykitError, OrderDetails>
  /**
   * A charge through 3DS: charges, and while the service asks for authentication, calls
   * `authenticate(url, id)` and repeats the charge only after `authentication.complete`
   * with Status SUCCESS for that id. Resolves with the last state of the charge flow
   * (Succeeded, Failed or AuthenticationFailed; AwaitingAuthentication when the bounds
   * of the options were reached).
   *
   * @example
   * ```ts
   * import * as E from 'fp-ts/lib/Either.js'
   * import { createClient } from '@paykit/core'
   * import { defaultCredentials, testCards } from '@paykit/testkit'
   * import { startSandbox } from '@paykit/testkit/sandbox'
   * import { authenticateHeadless } from '@paykit/testkit/buyer'
   * import assert from 'node:assert/strict'
   *
   * const sandbox = await startSandbox()
   * const client = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
   * const expirationYear = String(new Date().getUTCFullYear() + 2)
   * const card = {
   *   number: testCards.authentication.number,
   *   expirationMonth: '12',
   *   expirationYear,
   *   cvv: '123',
   * }
   * const method = await client.createPaymentMethod({ card })()
   * assert.ok(E.isRight(method))
   * // In a browser, authenticate opens the frame (`@paykit/core/browser`); here the testkit
   * // clicks Complete in the sandbox's frame.
   * const request = { order: { id: 'order-1', amount: 25.5 }, cardId: method.right.id }
   * const flow = await client.chargeWith3ds(request, authenticateHeadless('success'))()
   * assert.ok(E.isRight(flow) && flow.right._tag === 'Succeeded')
   * assert.equal(flow.right.request.authenticationId, 'auth_000001') // the retry after 3DS
   * await sandbox.close()
   * ```
   */
  readonly chargeWith3ds: (
    request: ChargeRequestInput,
    authenticate: Authenticate,
    options?: ChargeWith3dsOptions,
  ) => TE.TaskEither<PaykitError, ChargeFlowState>
  /**
   * Polls an order until its status is one of `statuses`, or a `Timeout` error.
   *
   * @example
   * ```ts
   * import * as E from 'fp-ts/lib/Either.js'
   * import { createClient } from '@paykit/core'
   * import { defaultCredentials } from '@paykit/testkit'
   * import { startSandbox } from '@paykit/testkit/sandbox'
   * import assert from 'node:assert/strict'
   *
   * const sandbox = await startSandbox()
   * const client = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
   * const link = await client.createPaymentLink({ amount: 19.99 })()
   * assert.ok(E.isRight(link))
   * const { orderCode } = link.right
   * setTimeout(() => sandbox.payOrder(orderCode), 50) // the buyer pays at the checkout
   * const paid = await client.waitForOrderStatus(orderCode, ['PAID', 'CANCELLED'], {
   *   timeoutMs: 5_000,
   *   intervalMs: 20,
   * })()
   * assert.ok(E.isRight(paid))
   * assert.equal(paid.right.orderStatus, 'PAID')
   * await sandbox.close()
   * ```
   */
  readonly waitForOrderStatus: (
    orderCode: string,
    statuses: ReadonlyArray<OrderStatus>,
    options: WaitOptions,
  ) => TE.TaskEither<PaykitError, OrderDetails>
}
