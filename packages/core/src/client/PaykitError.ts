/**
 * Everything the client can fail with, as one tagged union. Every member carries a
 * `message` a person can act on and never a secret, token or card datum (the client
 * clears every error it returns with `redactError`, see `Redaction`).
 *
 * @since 0.1.0
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
 * @since 0.1.0
 */
export type HttpProblem = ProblemDetails & { readonly errors?: FieldErrorMap }

/**
 * The input broke a rule; nothing was sent. `fieldErrors` name each field.
 *
 * @category model
 * @since 0.1.0
 */
export interface ValidationError {
  readonly _tag: 'ValidationError'
  readonly fieldErrors: ReadonlyArray<FieldError>
  readonly message: string
}

/**
 * The service answered with an error status (other than a 401 cured by a fresh token).
 * `problem` is its problem-details body when it sent one. `outcomeUnknown` is true for a
 * charge answered with 5xx: the service may have processed it before failing, so check
 * the order before charging again.
 *
 * @category model
 * @since 0.1.0
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
 * `outcomeUnknown` is true for a charge: a 2xx says it was processed, but the client
 * cannot read how (approved or declined), so check the order before charging again.
 *
 * @category model
 * @since 0.1.0
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
 * `outcomeUnknown` is true for a charge that may have been processed.
 *
 * @category model
 * @since 0.1.0
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
 * A time limit passed: a request got no response in time (`sent: 'maybe'`), or a wait
 * (`waitForOrderStatus`) did not see the status it waited for.
 *
 * @category model
 * @since 0.1.0
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
 * @since 0.1.0
 */
export interface Unauthorized {
  readonly _tag: 'Unauthorized'
  readonly operation: string
  readonly credential: 'clientCredentials' | 'accessToken' | 'apiKey'
  readonly message: string
}

/**
 * Every failure of the client.
 *
 * @category model
 * @since 0.1.0
 */
export type PaykitError =
  ValidationError | HttpError | DecodeError | NetworkError | Timeout | Unauthorized

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const CHARGE_UNKNOWN =
  'The outcome is unknown: the charge may have been processed. Check the order before charging it again.'

const isCharge = (operation: string): boolean => operation === 'POST /charges'

/**
 * Bad input, nothing sent. `what` names the input (`charge request`).
 *
 * @example
 * ```ts
 * import { validationError } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * const e = validationError(
 *   [{ path: 'order.amount', message: 'must be greater than 0' }],
 *   'charge request',
 * )
 * assert.equal(e._tag, 'ValidationError')
 * assert.equal(
 *   e.message,
 *   'Invalid charge request, nothing was sent. Fix: order.amount: must be greater than 0',
 * )
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const validationError = (
  fieldErrors: ReadonlyArray<FieldError>,
  what = 'request',
): ValidationError => ({
  _tag: 'ValidationError',
  fieldErrors,
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
 * For a charge answered with 5xx the outcome is unknown: `outcomeUnknown` is true and
 * the message says so.
 *
 * @example
 * ```ts
 * import { httpError } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * const declined = httpError('POST /paymentmethods', 400, {
 *   title: 'Bad Request',
 *   status: 400,
 *   errors: { 'card.number': ['must pass the Luhn check'] },
 * })
 * assert.equal(declined.outcomeUnknown, false)
 * assert.match(declined.message, /HTTP 400: Bad Request\. card\.number: must pass the Luhn check\./)
 *
 * // A charge answered with 5xx may have been processed.
 * const failed = httpError('POST /charges', 503)
 * assert.equal(failed.outcomeUnknown, true)
 * assert.match(failed.message, /Check the order before charging it again\./)
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const httpError = (operation: string, status: number, problem?: HttpProblem): HttpError => {
  const fields =
    problem?.errors === undefined ? '' : ` ${formatFieldErrors(fromErrorMap(problem.errors))}.`
  const title = problem === undefined ? '' : `: ${problem.title}`
  const outcomeUnknown = isCharge(operation) && status >= 500
  const advice = outcomeUnknown ? CHARGE_UNKNOWN : hint(status)
  return {
    _tag: 'HttpError',
    operation,
    status,
    ...(problem === undefined ? {} : { problem }),
    outcomeUnknown,
    message: `${operation} failed with HTTP ${status}${title}.${fields} ${advice}`,
  }
}

/**
 * A success status whose body does not match the spec. For a charge the outcome is
 * unknown: `outcomeUnknown` is true and the message says so.
 *
 * @example
 * ```ts
 * import { decodeError } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * const e = decodeError('POST /token', 200, [{ path: 'expiresIn', message: 'must be a number' }])
 * assert.equal(e.outcomeUnknown, false)
 * assert.equal(
 *   e.message,
 *   'The response of POST /token (HTTP 200) does not match the service contract: ' +
 *     'expiresIn: must be a number. Check baseUrl points at the payment service.',
 * )
 * assert.equal(decodeError('POST /charges', 200, []).outcomeUnknown, true)
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const decodeError = (
  operation: string,
  status: number,
  fieldErrors: ReadonlyArray<FieldError>,
): DecodeError => ({
  _tag: 'DecodeError',
  operation,
  status,
  fieldErrors,
  outcomeUnknown: isCharge(operation),
  message:
    `The response of ${operation} (HTTP ${status}) does not match the service contract: ` +
    `${formatFieldErrors(fieldErrors)}.` +
    (isCharge(operation) ? ` ${CHARGE_UNKNOWN}` : ' Check baseUrl points at the payment service.'),
})

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
 * No response. For a charge that may have been sent, the message says the outcome is
 * unknown and the order must be checked before charging it again.
 *
 * @example
 * ```ts
 * import { networkError } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * const refused = networkError('GET /paymentlink/order/ord_1', 'no', 'refused', 'ECONNREFUSED')
 * assert.equal(
 *   refused.message,
 *   'GET /paymentlink/order/ord_1 got no response: the connection was refused (ECONNREFUSED). ' +
 *     'It was not sent; check baseUrl and the network, then try again.',
 * )
 * // A charge whose connection dropped may have been processed.
 * assert.equal(networkError('POST /charges', 'maybe', 'reset').outcomeUnknown, true)
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const networkError = (
  operation: string,
  sent: 'no' | 'maybe',
  failure: TransportFailure,
  detail = '',
): NetworkError => {
  const outcomeUnknown = sent === 'maybe' && isCharge(operation)
  const why = `${FAILURES[failure]}${detail === '' ? '' : ` (${detail})`}`
  const advice =
    sent === 'no'
      ? 'It was not sent; check baseUrl and the network, then try again.'
      : outcomeUnknown
        ? CHARGE_UNKNOWN
        : 'It may have reached the service.'
  return {
    _tag: 'NetworkError',
    operation,
    sent,
    failure,
    outcomeUnknown,
    message: `${operation} got no response: ${why}. ${advice}`,
  }
}

/**
 * A time limit passed. `operation` is the request (or the wait) that took too long.
 *
 * @example
 * ```ts
 * import { timeout } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * const e = timeout('POST /token', 30_000)
 * assert.equal(e.outcomeUnknown, false)
 * assert.equal(
 *   e.message,
 *   'POST /token did not finish within 30000 ms. Try again later or raise timeoutMs.',
 * )
 * assert.equal(timeout('POST /charges', 30_000).outcomeUnknown, true)
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const timeout = (operation: string, timeoutMs: number, detail = ''): Timeout => {
  const outcomeUnknown = isCharge(operation)
  return {
    _tag: 'Timeout',
    operation,
    timeoutMs,
    outcomeUnknown,
    message:
      `${operation} did not finish within ${timeoutMs} ms${detail === '' ? '' : ` (${detail})`}. ` +
      (outcomeUnknown ? CHARGE_UNKNOWN : 'Try again later or raise timeoutMs.'),
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
 * A 401 the client cannot cure. `sentBy` is `'transport'` when the transport added the
 * credential (and renewed it) itself: the message then says so rather than naming what
 * the client would have done.
 *
 * @example
 * ```ts
 * import { unauthorized } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(
 *   unauthorized('POST /token', 'clientCredentials').message,
 *   'POST /token was refused (HTTP 401): check the client id and client secret.',
 * )
 * // When the transport added the credential, the message names the kind the endpoint takes.
 * assert.match(
 *   unauthorized('POST /paymentlink/checkout', 'apiKey', 'transport').message,
 *   /with the credential the transport added \(the API key, or the access token/,
 * )
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const unauthorized = (
  operation: string,
  credential: Unauthorized['credential'],
  sentBy: 'client' | 'transport' = 'client',
): Unauthorized => ({
  _tag: 'Unauthorized',
  operation,
  credential,
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
 * import { isPaykitError, timeout, transportError } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(isPaykitError(timeout('POST /token', 1000)), true)
 * // A transport error is not yet a client error: the client turns it into a NetworkError.
 * assert.equal(isPaykitError(transportError('reset')), false)
 * assert.equal(isPaykitError(new Error('boom')), false)
 * ```
 *
 * @category refinements
 * @since 0.1.0
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
 * import { matchError, networkError, timeout, type PaykitError } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * const retryLater = matchError<boolean>({
 *   ValidationError: () => false,
 *   HttpError: (e) => e.status === 429 || (e.status >= 500 && !e.outcomeUnknown),
 *   DecodeError: () => false,
 *   NetworkError: (e) => !e.outcomeUnknown,
 *   Timeout: (e) => !e.outcomeUnknown,
 *   Unauthorized: () => false,
 * })
 * const errors: ReadonlyArray<PaykitError> = [
 *   networkError('POST /token', 'no', 'refused'),
 *   timeout('POST /charges', 30_000),
 * ]
 * assert.deepEqual(errors.map(retryLater), [true, false])
 * ```
 *
 * @category destructors
 * @since 0.1.0
 */
export const matchError =
  <R>(cases: {
    readonly [K in PaykitError['_tag']]: (e: Extract<PaykitError, { _tag: K }>) => R
  }) =>
  (e: PaykitError): R =>
    (cases[e._tag] as (e: PaykitError) => R)(e)

/**
 * The error as an `Error` to throw (name = the tag, message = the message, the error in
 * `cause`), for code that throws rather than returns.
 *
 * @example
 * ```ts
 * import { toError, unauthorized } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * const e = unauthorized('POST /token', 'clientCredentials')
 * assert.throws(
 *   () => {
 *     throw toError(e)
 *   },
 *   { name: 'Unauthorized', message: e.message, cause: e },
 * )
 * ```
 *
 * @category destructors
 * @since 0.1.0
 */
export const toError = (e: PaykitError): Error => {
  const error = new Error(e.message, { cause: e })
  error.name = e._tag
  return error
}
