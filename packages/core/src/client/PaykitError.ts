/**
 * Everything the client can fail with, as one tagged union. Every member carries a
 * `message` a person can act on and never a secret, token or card datum (the client
 * clears every error it returns with `redactError`, see `Redaction`).
 *
 * Every member carries `outcomeUnknown`, which means exactly: a request that changes the
 * service's state (`changesState`: `POST /paymentmethods`, `POST /charges`,
 * `POST /paymentlink/checkout`) may have been processed. It is true for such a request
 * whenever it may have left the process: the connection dropped or the time limit passed
 * after it was written, the service answered a status that is not 4xx (5xx, a 3xx the
 * client does not follow), or a 2xx the client cannot read (not JSON, off the contract).
 * It is false when the request provably never left (bad input, a refused connection, a
 * host name that did not resolve, a URL or port `fetch` refuses, a cancel before sending),
 * when the service refused it with a 4xx, and always for `POST /token` (it only issues an
 * access token: no merchant state changes, repeating it is harmless), for reads (GET) and
 * for a wait that ran out of time. `unknownOutcomeAdvice` says, per operation, what a
 * repeat costs and what to do.
 *
 * @since 0.2.0
 */
import type { FieldError, FieldErrorMap } from '../model/FieldError.js'
import { formatFieldErrors, fromErrorMap } from '../model/FieldError.js'
import type { ProblemDetails } from '../model/Problem.js'
import type { TransportFailure } from './Transport.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The problem details of an HTTP error; `errors` (the 400 map, field name -> messages) is
 * kept exactly as the service gave it, since the spec says names and structure vary.
 *
 * @category model
 * @since 0.2.0
 */
export type HttpProblem = ProblemDetails & { readonly errors?: FieldErrorMap }

/**
 * The input broke a rule; nothing was sent (so `outcomeUnknown` is always false).
 * `fieldErrors` name each field.
 *
 * @category model
 * @since 0.2.0
 */
export interface ValidationError {
  readonly _tag: 'ValidationError'
  readonly fieldErrors: ReadonlyArray<FieldError>
  readonly outcomeUnknown: false
  readonly message: string
}

/**
 * The service answered with an error status (other than a 401 cured by a fresh token).
 * `problem` is its problem-details body when it sent one. `outcomeUnknown` is true when a
 * request that changes state got a status that is not 4xx (a 5xx, an unfollowed 3xx): the
 * service may have processed it before failing. A 4xx is a refusal: false.
 *
 * @category model
 * @since 0.2.0
 */
export interface HttpError {
  readonly _tag: 'HttpError'
  readonly operation: string
  readonly status: number
  readonly problem?: HttpProblem
  readonly outcomeUnknown: boolean
  readonly message: string
}

/**
 * The service answered with a success status but a body that does not match the spec
 * (or is not JSON); `fieldErrors` name the fields of the response that do not match.
 * `outcomeUnknown` is true for a request that changes state: a 2xx says it was probably
 * processed, but the client cannot read the result (a charge's status, a link's order
 * code, a card's id).
 *
 * @category model
 * @since 0.2.0
 */
export interface DecodeError {
  readonly _tag: 'DecodeError'
  readonly operation: string
  readonly status: number
  readonly fieldErrors: ReadonlyArray<FieldError>
  readonly outcomeUnknown: boolean
  readonly message: string
}

/**
 * No HTTP response. `sent` says whether the request may have reached the service;
 * `outcomeUnknown` is true for a request that changes state and may have been sent (or,
 * when the caller opted in to repeats, whose earlier attempt may have been).
 *
 * @category model
 * @since 0.2.0
 */
export interface NetworkError {
  readonly _tag: 'NetworkError'
  readonly operation: string
  readonly sent: 'no' | 'maybe'
  readonly failure: TransportFailure
  readonly outcomeUnknown: boolean
  readonly message: string
}

/**
 * A time limit passed: a request got no response in time (`sent: 'maybe'`: for a request
 * that changes state `outcomeUnknown` is true), or a wait (`waitForOrderStatus`) did not
 * see the status it waited for (false: a wait only reads).
 *
 * @category model
 * @since 0.2.0
 */
export interface Timeout {
  readonly _tag: 'Timeout'
  readonly operation: string
  readonly timeoutMs: number
  readonly outcomeUnknown: boolean
  readonly message: string
}

/**
 * A 401 that a fresh access token did not cure (or a 401 on a credential the client
 * cannot refresh: the client credentials themselves or the API key; or any 401 when the
 * transport holds the credentials, which renewed them already: then `credential` is
 * `apiKey` on the payment-link endpoints and `accessToken` on the others).
 *
 * @category model
 * @since 0.2.0
 */
export interface Unauthorized {
  readonly _tag: 'Unauthorized'
  readonly operation: string
  readonly credential: 'clientCredentials' | 'accessToken' | 'apiKey'
  /** False (a 401 is a refusal) unless an earlier attempt of the call may have been processed. */
  readonly outcomeUnknown: boolean
  readonly message: string
}

/**
 * Every failure of the client.
 *
 * @category model
 * @since 0.2.0
 */
export type PaykitError =
  ValidationError | HttpError | DecodeError | NetworkError | Timeout | Unauthorized

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

// What a repeat costs and what to do, for each request that changes state.
const ADVICE: Readonly<Record<string, string>> = {
  'POST /charges':
    'The outcome is unknown: the charge may have been processed. Send the same charge again ' +
    'with the same order id, never a new one: the service refuses a second charge of an order ' +
    'that succeeded (FAILED with DUPLICATE_ORDER), so the repeat is safe and its answer tells ' +
    'the outcome.',
  'POST /paymentlink/checkout':
    'The outcome is unknown: the link may have been created. Creating it again is safe: it ' +
    'leaves at most an unused link, which expires. The service cannot look a link up by ' +
    'orderReference, so keep the order code of every link you send to a buyer and send only ' +
    'one per order.',
  'POST /paymentmethods':
    'The outcome is unknown: the card may have been registered. Registering it again is ' +
    'safe: it leaves at most an unused card id.',
}

/**
 * Whether `operation` (`METHOD path`, as errors name it) changes the service's state and
 * is not idempotent: `POST /paymentmethods`, `POST /charges` and
 * `POST /paymentlink/checkout`. Only these ever have `outcomeUnknown: true`. `POST /token`
 * is a POST but changes no merchant state (it issues an access token; repeating it is
 * harmless); a GET only reads.
 *
 * @example
 * ```ts
 * import { changesState } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(changesState('POST /charges'), true)
 * assert.equal(changesState('POST /paymentlink/checkout'), true)
 * assert.equal(changesState('POST /paymentmethods'), true)
 * assert.equal(changesState('POST /token'), false)
 * assert.equal(changesState('GET /paymentlink/order/OC00001001'), false)
 * ```
 *
 * @category rules
 * @since 0.2.0
 */
export const changesState = (operation: string): boolean =>
  Object.prototype.hasOwnProperty.call(ADVICE, operation)

/**
 * What to do when a request that changes state may have been processed, and what a repeat
 * costs: the sentence the client's messages end with when `outcomeUnknown` is true
 * (`undefined` for an operation that changes no state).
 * - a charge: send it again with the same order id; a second charge of an order that
 *   succeeded is refused (`DUPLICATE_ORDER`), so the repeat is safe and tells the outcome;
 * - a payment link: create it again; at most an unused link is left, which expires (the
 *   service has no lookup by `orderReference`: keep the order code of every link sent to a
 *   buyer, and send only one per order);
 * - a payment method: register it again; at most an unused card id is left.
 *
 * @example
 * ```ts
 * import { unknownOutcomeAdvice } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * assert.match(unknownOutcomeAdvice('POST /charges') ?? '', /same order id.*DUPLICATE_ORDER/)
 * assert.match(unknownOutcomeAdvice('POST /paymentlink/checkout') ?? '', /unused link/)
 * assert.match(unknownOutcomeAdvice('POST /paymentmethods') ?? '', /unused card id/)
 * assert.equal(unknownOutcomeAdvice('POST /token'), undefined)
 * ```
 *
 * @category rules
 * @since 0.2.0
 */
export const unknownOutcomeAdvice = (operation: string): string | undefined =>
  changesState(operation) ? ADVICE[operation] : undefined

/**
 * Whether an error status leaves the outcome of a request that changes state unknown:
 * every status but 4xx (a 4xx is the service refusing the request).
 */
const statusLeavesOutcomeUnknown = (status: number): boolean => status < 400 || status > 499

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Bad input, nothing sent. `what` names the input (`charge request`).
 *
 * @example
 * ```ts
 * import { validationError } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * const e = validationError(
 *   [{ path: 'order.amount', message: 'must be greater than 0' }],
 *   'charge request',
 * )
 * assert.equal(e._tag, 'ValidationError')
 * assert.equal(e.outcomeUnknown, false) // nothing left the process
 * assert.equal(
 *   e.message,
 *   'Invalid charge request, nothing was sent. Fix: order.amount: must be greater than 0',
 * )
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const validationError = (
  fieldErrors: ReadonlyArray<FieldError>,
  what = 'request',
): ValidationError => ({
  _tag: 'ValidationError',
  fieldErrors,
  outcomeUnknown: false,
  message: `Invalid ${what}, nothing was sent. Fix: ${formatFieldErrors(fieldErrors)}`,
})

const hint = (status: number): string =>
  status === 400
    ? 'Fix the fields named and send it again.'
    : status === 403
      ? 'The credential is not allowed to do this.'
      : status === 404
        ? 'Check the identifier in the path (for an order, the orderCode returned at link creation).'
        : status === 429
          ? 'Too many requests: wait and try again.'
          : status >= 500
            ? 'The service failed; try again later.'
            : 'See the status and problem details.'

/**
 * An error status. The message has the status, the problem's title and its field errors.
 * For a request that changes state answered with a status that is not 4xx (a 5xx, an
 * unfollowed 3xx) the outcome is unknown: `outcomeUnknown` is true and the message ends
 * with `unknownOutcomeAdvice`.
 *
 * @example
 * ```ts
 * import { httpError } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * const declined = httpError('POST /paymentmethods', 400, {
 *   title: 'Bad Request',
 *   status: 400,
 *   errors: { 'card.number': ['must pass the Luhn check'] },
 * })
 * assert.equal(declined.outcomeUnknown, false) // a 4xx: refused, not processed
 * assert.match(declined.message, /HTTP 400: Bad Request\. card\.number: must pass the Luhn check\./)
 *
 * // A link creation answered with 5xx may have created the link.
 * const failed = httpError('POST /paymentlink/checkout', 503)
 * assert.equal(failed.outcomeUnknown, true)
 * assert.match(failed.message, /the link may have been created\. Creating it again is safe/)
 * // A read answered with 5xx changed nothing.
 * assert.equal(httpError('GET /paymentlink/order/OC1', 503).outcomeUnknown, false)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const httpError = (operation: string, status: number, problem?: HttpProblem): HttpError => {
  const fields =
    problem?.errors === undefined ? '' : ` ${formatFieldErrors(fromErrorMap(problem.errors))}.`
  const title = problem === undefined ? '' : `: ${problem.title}`
  const advice =
    (statusLeavesOutcomeUnknown(status) ? unknownOutcomeAdvice(operation) : undefined) ??
    hint(status)
  return {
    _tag: 'HttpError',
    operation,
    status,
    ...(problem === undefined ? {} : { problem }),
    outcomeUnknown: changesState(operation) && statusLeavesOutcomeUnknown(status),
    message: `${operation} failed with HTTP ${status}${title}.${fields} ${advice}`,
  }
}

/**
 * A success status whose body does not match the spec. For a request that changes state
 * the outcome is unknown (probably processed, the result unreadable): `outcomeUnknown` is
 * true and the message ends with `unknownOutcomeAdvice`.
 *
 * @example
 * ```ts
 * import { decodeError } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * const e = decodeError('POST /token', 200, [{ path: 'expiresIn', message: 'must be a number' }])
 * assert.equal(e.outcomeUnknown, false)
 * assert.equal(
 *   e.message,
 *   'The response of POST /token (HTTP 200) does not match the service contract: ' +
 *     'expiresIn: must be a number. Check baseUrl points at the payment service.',
 * )
 * const link = decodeError('POST /paymentlink/checkout', 200, [
 *   { path: 'orderCode', message: 'is required' },
 * ])
 * assert.equal(link.outcomeUnknown, true)
 * assert.match(link.message, /orderCode: is required\. The outcome is unknown/)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const decodeError = (
  operation: string,
  status: number,
  fieldErrors: ReadonlyArray<FieldError>,
): DecodeError => {
  const advice = unknownOutcomeAdvice(operation)
  return {
    _tag: 'DecodeError',
    operation,
    status,
    fieldErrors,
    outcomeUnknown: advice !== undefined,
    message:
      `The response of ${operation} (HTTP ${status}) does not match the service contract: ` +
      `${formatFieldErrors(fieldErrors)}. ` +
      (advice ?? 'Check baseUrl points at the payment service.'),
  }
}

/**
 * No response. A request that was not sent says so (`outcomeUnknown` false); a request
 * that changes state and may have been sent has `outcomeUnknown: true`, and the message
 * ends with `unknownOutcomeAdvice`.
 *
 * @example
 * ```ts
 * import { networkError } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * const refused = networkError('POST /charges', 'no', 'refused', 'ECONNREFUSED')
 * assert.equal(refused.outcomeUnknown, false)
 * assert.equal(
 *   refused.message,
 *   'POST /charges got no response: the connection was refused (ECONNREFUSED). ' +
 *     'It was not sent; check baseUrl and the network, then try again.',
 * )
 * // A link creation whose connection dropped may have created the link.
 * const dropped = networkError('POST /paymentlink/checkout', 'maybe', 'reset')
 * assert.equal(dropped.outcomeUnknown, true)
 * assert.match(dropped.message, /the link may have been created/)
 * // A read that may have been sent changed nothing.
 * assert.equal(networkError('GET /paymentlink/order/OC1', 'maybe', 'reset').outcomeUnknown, false)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const networkError = (
  operation: string,
  sent: 'no' | 'maybe',
  failure: TransportFailure,
  detail = '',
): NetworkError => {
  const unknown = sent === 'maybe' ? unknownOutcomeAdvice(operation) : undefined
  const why = `${transportFailureText(failure)}${detail === '' ? '' : ` (${detail})`}`
  const advice =
    sent === 'no'
      ? 'It was not sent; check baseUrl and the network, then try again.'
      : (unknown ?? 'It may have reached the service; repeating it is harmless.')
  return {
    _tag: 'NetworkError',
    operation,
    sent,
    failure,
    outcomeUnknown: unknown !== undefined,
    message: `${operation} got no response: ${why}. ${advice}`,
  }
}

/**
 * A time limit passed. `operation` is the request (or the wait) that took too long; a
 * request that changes state may have been processed (`outcomeUnknown: true`).
 *
 * @example
 * ```ts
 * import { timeoutError } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * const e = timeoutError('POST /token', 30_000)
 * assert.equal(e.outcomeUnknown, false)
 * assert.equal(
 *   e.message,
 *   'POST /token did not finish within 30000 ms. Try again later or raise timeoutMs.',
 * )
 * assert.equal(timeoutError('POST /charges', 30_000).outcomeUnknown, true)
 * assert.equal(timeoutError('POST /paymentmethods', 30_000).outcomeUnknown, true)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const timeoutError = (operation: string, timeoutMs: number, detail = ''): Timeout => {
  const advice = unknownOutcomeAdvice(operation)
  return {
    _tag: 'Timeout',
    operation,
    timeoutMs,
    outcomeUnknown: advice !== undefined,
    message:
      `${operation} did not finish within ${timeoutMs} ms${detail === '' ? '' : ` (${detail})`}. ` +
      (advice ?? 'Try again later or raise timeoutMs.'),
  }
}

const byClient = (operation: string, credential: Unauthorized['credential']): string =>
  credential === 'clientCredentials'
    ? `${operation} was refused (HTTP 401): check the client id and client secret.`
    : credential === 'apiKey'
      ? `${operation} was refused (HTTP 401): check the API key.`
      : `${operation} was refused (HTTP 401) even with a fresh access token: check the credentials' permissions. It was not processed.`

// The client never saw the credential: it can name only the kind the endpoint takes.
const byTransport = (operation: string, credential: Unauthorized['credential']): string =>
  `${operation} was refused (HTTP 401) with the credential the transport added ` +
  (credential === 'apiKey'
    ? '(the API key, or the access token when no API key is set)'
    : '(the access token)') +
  ': check the credentials and their permissions. It was not processed.'

/**
 * A 401 the client cannot cure (`outcomeUnknown` false: the service refused the request).
 * `sentBy` is `'transport'` when the transport added the credential (and renewed it)
 * itself: the message then says so rather than naming what the client would have done.
 *
 * @example
 * ```ts
 * import { unauthorizedError } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(
 *   unauthorizedError('POST /token', 'clientCredentials').message,
 *   'POST /token was refused (HTTP 401): check the client id and client secret.',
 * )
 * // When the transport added the credential, the message names the kind the endpoint takes.
 * assert.match(
 *   unauthorizedError('POST /paymentlink/checkout', 'apiKey', 'transport').message,
 *   /with the credential the transport added \(the API key, or the access token/,
 * )
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const unauthorizedError = (
  operation: string,
  credential: Unauthorized['credential'],
  sentBy: 'client' | 'transport' = 'client',
): Unauthorized => ({
  _tag: 'Unauthorized',
  operation,
  credential,
  outcomeUnknown: false,
  message: (sentBy === 'client' ? byClient : byTransport)(operation, credential),
})

// -------------------------------------------------------------------------------------
// refinements
// -------------------------------------------------------------------------------------

const TAGS: ReadonlySet<string> = new Set([
  'ValidationError',
  'HttpError',
  'DecodeError',
  'NetworkError',
  'Timeout',
  'Unauthorized',
])

/**
 * Whether a value is a `PaykitError`.
 *
 * @example
 * ```ts
 * import { isPaykitError, timeoutError, transportError } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(isPaykitError(timeoutError('POST /token', 1000)), true)
 * // A transport error is not yet a client error: the client turns it into a NetworkError.
 * assert.equal(isPaykitError(transportError('reset')), false)
 * assert.equal(isPaykitError(new Error('boom')), false)
 * ```
 *
 * @category refinements
 * @since 0.2.0
 */
export const isPaykitError = (u: unknown): u is PaykitError =>
  typeof u === 'object' &&
  u !== null &&
  TAGS.has(String((u as { _tag?: unknown })._tag)) &&
  typeof (u as { message?: unknown }).message === 'string'

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * Pattern matching on the error's tag.
 *
 * @example
 * ```ts
 * import type { PaykitError } from '@paykit/core'
 * import { httpError, matchError, networkError, timeoutError } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * // Every error carries `outcomeUnknown`: "may the request have changed state?"
 * const next = (e: PaykitError): string =>
 *   e.outcomeUnknown
 *     ? 'resolve the outcome first (unknownOutcomeAdvice)'
 *     : matchError<string>({
 *         ValidationError: () => 'fix the input',
 *         HttpError: (h) => (h.status === 429 || h.status >= 500 ? 'retry later' : 'fix the request'),
 *         DecodeError: () => 'check baseUrl',
 *         NetworkError: () => 'retry later',
 *         Timeout: () => 'retry later',
 *         Unauthorized: () => 'check the credentials',
 *       })(e)
 * const errors: ReadonlyArray<PaykitError> = [
 *   networkError('POST /paymentlink/checkout', 'no', 'refused'), // never left
 *   timeoutError('POST /paymentlink/checkout', 30_000), // may have created the link
 *   httpError('POST /charges', 400), // refused by the service
 * ]
 * assert.deepEqual(errors.map(next), [
 *   'retry later',
 *   'resolve the outcome first (unknownOutcomeAdvice)',
 *   'fix the request',
 * ])
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const matchError =
  <R>(cases: {
    readonly [K in PaykitError['_tag']]: (e: Extract<PaykitError, { _tag: K }>) => R
  }) =>
  (e: PaykitError): R =>
    (cases[e._tag] as (e: PaykitError) => R)(e)

const FAILURES: Readonly<Record<TransportFailure, string>> = {
  refused: 'the connection was refused',
  dns: 'the host name did not resolve',
  reset: 'the connection dropped',
  timeout: 'no response in time',
  aborted: 'it was cancelled',
  body: 'the response could not be read',
  other: 'a network error occurred',
}

/**
 * What a transport failure is, in the words of a `NetworkError`'s message (after "got no
 * response: "), for a caller that words the rest of its message itself (the n8n node).
 *
 * @example
 * ```ts
 * import { networkError, transportFailureText } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(transportFailureText('refused'), 'the connection was refused')
 * const e = networkError('GET /paymentlink/order/OC1', 'maybe', 'reset')
 * assert.ok(e.message.includes(`got no response: ${transportFailureText('reset')}`))
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const transportFailureText = (failure: TransportFailure): string => FAILURES[failure]

/**
 * The error as an `Error` to throw (name = the tag, message = the message, the error in
 * `cause`), for code that throws rather than returns.
 *
 * @example
 * ```ts
 * import { toError, unauthorizedError } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * const e = unauthorizedError('POST /token', 'clientCredentials')
 * assert.throws(
 *   () => {
 *     throw toError(e)
 *   },
 *   { name: 'Unauthorized', message: e.message, cause: e },
 * )
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const toError = (e: PaykitError): Error => {
  const error = new Error(e.message, { cause: e })
  error.name = e._tag
  return error
}
