/**
 * 3DS without a browser: an `Authenticate` for the core client's `chargeWith3ds` that does
 * what the buyer does in the fake service's frame (records a result with `POST
 * <authentication.url>` and JSON `{ "result" }`, or closes the frame) and yields the frame
 * messages the frame would have posted, and `headlessFrame`, the same messages posted to a
 * window for a listener (the core's `listenForFrameMessage`) to pick from.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { validate, type PaykitError } from '@paykit/core'
import {
  decodeError,
  fetchTransport,
  httpError,
  networkError,
  timeoutError,
  type Authenticate,
  type Transport,
  type TransportRequest,
} from '@paykit/core/client'
import { FrameMessage, type FrameMessageOutput } from '@paykit/core/machines'
import type { AuthenticationResult } from '../simulator/Authentications.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Options of `authenticateHeadless`: the transport (the core's fetch transport by default;
 * it goes through nock too) and a time limit.
 *
 * @category model
 * @since 0.2.0
 */
export interface HeadlessAuthenticateOptions {
  readonly transport?: Transport
  readonly timeoutMs?: number
}

/**
 * How the buyer's 3DS ends:
 *
 * - `'success' | 'failed' | 'error' | 'expired'`: the buyer finishes; the frame posts the
 *   result's message (SUCCESS `authentication.complete`, the others `authentication.failed`).
 * - `{ pendingFirst: result }`: the frame first posts a message with `Status: 'PENDING'`
 *   (and `MessageType: 'authentication.complete'`, the one a listener that reads only the
 *   type would act on), then the result is recorded and its message posted.
 * - `{ otherAuthenticationFirst: result }`: a message for another authentication (the
 *   same order and amount, `SUCCESS`, `AuthenticationId` `other-<id>`) arrives first, then
 *   the result's. A correct listener ignores the first.
 * - `'abandon'`: the buyer closes the frame. Nothing is recorded (the authentication stays
 *   PENDING until it expires) and no message comes.
 *
 * @category model
 * @since 0.2.0
 */
export type HeadlessEnding =
  | AuthenticationResult
  | 'abandon'
  | { readonly pendingFirst: AuthenticationResult }
  | { readonly otherAuthenticationFirst: AuthenticationResult }

/**
 * What {@link headlessFrame} posts messages to: a window, or any `EventTarget`.
 *
 * @category model
 * @since 0.2.0
 */
export interface FrameWindow {
  readonly dispatchEvent: (event: Event) => boolean
}

/**
 * Options of {@link headlessFrame}: those of `authenticateHeadless`, and the window to
 * post the frame's messages to (as `MessageEvent`s from the frame URL's origin).
 *
 * @category model
 * @since 0.2.0
 */
export interface HeadlessFrameOptions extends HeadlessAuthenticateOptions {
  readonly window?: FrameWindow
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

const RESULTS: ReadonlyArray<AuthenticationResult> = ['success', 'failed', 'error', 'expired']

/**
 * Every {@link HeadlessEnding}: the four results, each after a PENDING message and each
 * after a message for another authentication, and `'abandon'` (13 in all), for a
 * `fc.constantFrom(...headlessEndings)`.
 *
 * @example
 * ```ts
 * import { headlessEndings } from '@paykit/testkit/buyer'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(headlessEndings.length, 13)
 * assert.ok(headlessEndings.includes('abandon'))
 * assert.deepEqual(headlessEndings[4], { pendingFirst: 'success' })
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const headlessEndings: ReadonlyArray<HeadlessEnding> = [
  ...RESULTS,
  ...RESULTS.map((result) => ({ pendingFirst: result })),
  ...RESULTS.map((result) => ({ otherAuthenticationFirst: result })),
  'abandon',
]

// -------------------------------------------------------------------------------------
// the frame, over HTTP
// -------------------------------------------------------------------------------------

interface Frame {
  readonly operation: string
  readonly timeoutMs: number
  /** Sends one request to the frame; the parsed JSON of a 200. */
  readonly call: (
    request: Omit<TransportRequest, 'timeoutMs'>,
  ) => TE.TaskEither<PaykitError, unknown>
}

const frameOf = (id: string, options: HeadlessAuthenticateOptions): Frame => {
  const operation = `3DS authentication ${id}`
  const timeoutMs = options.timeoutMs ?? 10_000
  const send = options.transport ?? fetchTransport({ timeoutMs })
  return {
    operation,
    timeoutMs,
    call: (request) =>
      pipe(
        send({ ...request, timeoutMs }),
        TE.mapLeft((e): PaykitError =>
          e.failure === 'timeout'
            ? timeoutError(operation, timeoutMs)
            : networkError(operation, e.sent, e.failure, e.detail),
        ),
        TE.chainEitherK((response): E.Either<PaykitError, unknown> => {
          if (response.status !== 200) return E.left(httpError(operation, response.status))
          try {
            return E.right(JSON.parse(response.body) as unknown)
          } catch {
            return E.left(
              decodeError(operation, response.status, [{ path: '', message: 'must be JSON' }]),
            )
          }
        }),
      ),
  }
}

const decodedMessage =
  (frame: Frame) =>
  (body: unknown): E.Either<PaykitError, FrameMessage> =>
    pipe(
      validate(FrameMessage)(body),
      E.mapLeft((errors) => decodeError(frame.operation, 200, errors)),
    )

/**
 * A message about the authentication as the frame shows it (`GET` as JSON; nothing is
 * recorded): PENDING, a success for another authentication, or the result recorded before.
 */
const viewMessage = (
  frame: Frame,
  url: string,
  id: string,
  kind: 'pending' | 'other' | 'recorded',
): TE.TaskEither<PaykitError, FrameMessage> =>
  pipe(
    frame.call({ method: 'GET', url, headers: { accept: 'application/json' } }),
    TE.chainEitherK((body) => {
      const view = body as {
        readonly status?: unknown
        readonly orderId?: unknown
        readonly orderAmount?: unknown
      }
      const status = kind === 'pending' ? 'PENDING' : kind === 'other' ? 'SUCCESS' : view.status
      return decodedMessage(frame)({
        MessageType:
          status === 'PENDING' || status === 'SUCCESS'
            ? 'authentication.complete'
            : 'authentication.failed',
        Status: status,
        AuthenticationId: kind === 'other' ? `other-${id}` : id,
        OrderId: view.orderId,
        OrderAmount: view.orderAmount,
      })
    }),
  )

/**
 * Records `result` as the frame's buttons do; the message the frame then posts. When a
 * result was recorded before (the authentication expired meanwhile, say: 409), the frame
 * shows that one and posts its message.
 */
const record = (
  frame: Frame,
  url: string,
  id: string,
  result: AuthenticationResult,
): TE.TaskEither<PaykitError, FrameMessage> =>
  pipe(
    frame.call({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ result }),
    }),
    TE.chainEitherK(decodedMessage(frame)),
    TE.orElse((error) =>
      error._tag === 'HttpError' && error.status === 409
        ? viewMessage(frame, url, id, 'recorded')
        : TE.left(error),
    ),
  )

/** The result an ending records in the end (none when the buyer abandons). */
const resultOf = (ending: HeadlessEnding): AuthenticationResult | undefined =>
  typeof ending === 'string'
    ? ending === 'abandon'
      ? undefined
      : ending
    : 'pendingFirst' in ending
      ? ending.pendingFirst
      : ending.otherAuthenticationFirst

const firstOf = (ending: HeadlessEnding): 'pending' | 'other' | undefined =>
  typeof ending === 'string' ? undefined : 'pendingFirst' in ending ? 'pending' : 'other'

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The buyer's side of one 3DS authentication, ended as `ending` says: does on the fake
 * service what the buyer does (records the result, or nothing when abandoning) and
 * resolves with the messages the frame posts, in order (none when abandoning). With
 * `window`, each is also posted there as a `MessageEvent` from the frame URL's origin, for
 * a listener such as the core's `listenForFrameMessage` to pick from.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { listenForFrameMessage, type MessageTarget } from '@paykit/core/browser'
 * import { createClient } from '@paykit/core'
 * import { defaultCredentials, testCards } from '@paykit/testkit'
 * import { startSandbox } from '@paykit/testkit/sandbox'
 * import { headlessFrame } from '@paykit/testkit/buyer'
 * import assert from 'node:assert/strict'
 *
 * const sandbox = await startSandbox()
 * try {
 *   const client = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
 *   const expirationYear = String(new Date().getUTCFullYear() + 2)
 *   const card = { number: testCards.authentication.number, expirationMonth: '12', expirationYear, cvv: '123' }
 *   const method = await client.createPaymentMethod({ card })()
 *   assert.ok(E.isRight(method))
 *   const charged = await client.charge({ order: { id: 'o-3ds', amount: 9 }, cardId: method.right.id })()
 *   assert.ok(E.isRight(charged) && charged.right.status === 'AUTHENTICATION_REQUIRED')
 *   const { url, id } = charged.right.authentication
 *
 *   const window = new EventTarget() // the merchant page's window
 *   const heard = listenForFrameMessage({ url, authenticationId: id, timeoutMs: 5_000, window: window as MessageTarget })()
 *   const posted = await headlessFrame({ otherAuthenticationFirst: 'success' }, { window })(url, id)()
 *   assert.ok(E.isRight(posted) && posted.right.length === 2)
 *   const message = await heard // the listener ignored the message for another authentication
 *   assert.ok(E.isRight(message) && message.right.AuthenticationId === id && message.right.Status === 'SUCCESS')
 * } finally {
 *   await sandbox.close()
 * }
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const headlessFrame =
  (ending: HeadlessEnding, options: HeadlessFrameOptions = {}) =>
  (url: string, id: string): TE.TaskEither<PaykitError, ReadonlyArray<FrameMessageOutput>> => {
    const frame = frameOf(id, options)
    const result = resultOf(ending)
    const first = firstOf(ending)
    /** Encodes the messages as posted (JSON) and posts each to the window. */
    const post = (messages: ReadonlyArray<FrameMessage>): ReadonlyArray<FrameMessageOutput> => {
      const origin = new URL(url).origin
      const posted = messages.map((message) => FrameMessage.encode(message))
      for (const data of posted)
        options.window?.dispatchEvent(new MessageEvent('message', { origin, data }))
      return posted
    }
    if (result === undefined) return TE.right(post([]))
    return pipe(
      first === undefined
        ? TE.right([])
        : pipe(
            viewMessage(frame, url, id, first),
            TE.map((m) => [m]),
          ),
      TE.chain((before) =>
        pipe(
          record(frame, url, id, result),
          TE.map((last) => [...before, last]),
        ),
      ),
      TE.map(post),
    )
  }

/**
 * An `Authenticate` that ends every 3DS authentication as `ending` says (`success` by
 * default), yielding the frame's messages one per call as the core's `chargeWith3ds` asks
 * for them: with `pendingFirst` the PENDING message, then (the flow still awaiting) the
 * result's; with `otherAuthenticationFirst` the message for another authentication first
 * (the core's flow refuses it and does not repeat the charge); with `'abandon'` a
 * `Timeout` at once (no message will come; nothing is recorded). The result is recorded
 * only when its message is asked for, so a charge repeated on the PENDING message finds
 * the authentication not yet successful.
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
 * try {
 *   const client = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
 *   const expirationYear = String(new Date().getUTCFullYear() + 2)
 *   const card = { number: testCards.authentication.number, expirationMonth: '12', expirationYear, cvv: '123' }
 *   const method = await client.createPaymentMethod({ card })()
 *   assert.ok(E.isRight(method))
 *   const request = { order: { id: 'order-7', amount: 40 }, cardId: method.right.id }
 *   // The buyer clicks Fail in the 3DS frame: the charge is not repeated.
 *   const flow = await client.chargeWith3ds(request, authenticateHeadless('failed'))()
 *   assert.ok(E.isRight(flow) && flow.right._tag === 'AuthenticationFailed')
 *   assert.equal(sandbox.requests().filter((r) => r.path === '/charges').length, 1)
 *   // PENDING first, then SUCCESS: the flow waits for the final message, then charges again.
 *   const again = { order: { id: 'order-8', amount: 40 }, cardId: method.right.id }
 *   const waited = await client.chargeWith3ds(again, authenticateHeadless({ pendingFirst: 'success' }))()
 *   assert.ok(E.isRight(waited) && waited.right._tag === 'Succeeded')
 * } finally {
 *   await sandbox.close()
 * }
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const authenticateHeadless = (
  ending: HeadlessEnding = 'success',
  options: HeadlessAuthenticateOptions = {},
): Authenticate => {
  // How many messages each authentication has yielded (an ending with a first message).
  const yielded = new Map<string, number>()
  return (url, id) => {
    const frame = frameOf(id, options)
    const result = resultOf(ending)
    if (result === undefined) return TE.left(timeoutError(frame.operation, frame.timeoutMs))
    const first = firstOf(ending)
    const n = yielded.get(id) ?? 0
    yielded.set(id, n + 1)
    return first !== undefined && n === 0
      ? viewMessage(frame, url, id, first)
      : record(frame, url, id, result)
  }
}
