/**
 * The client's only door to the network: a function from a plain request description to a
 * response or a transport error. The fetch transport ships for Node (`DefaultRuntime`); the
 * n8n node passes one built on n8n's request helpers; tests pass an in-memory one.
 *
 * @since 0.2.0
 */
import type * as TE from 'fp-ts/lib/TaskEither.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The credential a request needs: `none` (`POST /token`), `accessToken` (cards and
 * charges) or `paymentLink` (the payment-link endpoints: the API key when one is
 * configured, else the access token). A transport that authenticates requests itself
 * reads it to choose what to add.
 *
 * @category model
 * @since 0.2.0
 */
export type TransportCredential = 'none' | 'accessToken' | 'paymentLink'

/**
 * One HTTP request as the client describes it. `url` is absolute; `body` is the raw JSON
 * text; `timeoutMs` bounds the whole exchange (headers and body); `signal` lets the caller
 * cancel it; `credential` says which credential the endpoint needs (the client always sets
 * it; with `credentials: 'transport'` the request carries no `authorization` and the
 * transport adds it).
 *
 * @category model
 * @since 0.2.0
 */
export interface TransportRequest {
  readonly method: 'GET' | 'POST'
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
  readonly signal?: AbortSignal
  readonly timeoutMs?: number
  readonly credential?: TransportCredential
}

/**
 * One HTTP response: any status (the client, not the transport, judges it), header names
 * in lower case, and the raw body text.
 *
 * @category model
 * @since 0.2.0
 */
export interface TransportResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * What went wrong below HTTP:
 * - `refused`: nobody accepted the connection; `dns`: the host name did not resolve;
 * - `reset`: the connection dropped; `timeout`: `timeoutMs` passed; `aborted`: the caller's
 *   signal fired; `body`: the response body could not be read; `other`: anything else.
 *
 * @category model
 * @since 0.2.0
 */
export type TransportFailure =
  'refused' | 'dns' | 'reset' | 'timeout' | 'aborted' | 'body' | 'other'

/**
 * A request that got no HTTP response. `sent` says whether the service may have received
 * it: `'no'` only when the connection was never made (refused, DNS), `'maybe'` otherwise.
 * A request that is `'maybe'` sent must not be repeated unless it is safe to repeat.
 * `detail` is a short technical note (an error code), never request data.
 *
 * @category model
 * @since 0.2.0
 */
export interface TransportError {
  readonly _tag: 'TransportError'
  readonly failure: TransportFailure
  readonly sent: 'no' | 'maybe'
  readonly detail: string
}

/**
 * A transport: sends one request, resolves with any HTTP response or a `TransportError`.
 * It never rejects and never retries by itself (the client decides what is safe to repeat).
 *
 * @category model
 * @since 0.2.0
 */
export type Transport = (
  request: TransportRequest,
) => TE.TaskEither<TransportError, TransportResponse>

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A transport error. `sent` follows from the failure unless given: a refused connection or
 * an unknown host was not sent; every other failure may have been.
 *
 * @example
 * ```ts
 * import { transportError } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * // A refused connection never reached the service; a dropped one may have.
 * assert.equal(transportError('refused', 'ECONNREFUSED').sent, 'no')
 * assert.deepEqual(transportError('reset', 'ECONNRESET'), {
 *   _tag: 'TransportError',
 *   failure: 'reset',
 *   sent: 'maybe',
 *   detail: 'ECONNRESET',
 * })
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const transportError = (
  failure: TransportFailure,
  detail = '',
  sent: 'no' | 'maybe' = failure === 'refused' || failure === 'dns' ? 'no' : 'maybe',
): TransportError => ({ _tag: 'TransportError', failure, sent, detail })

// -------------------------------------------------------------------------------------
// refinements
// -------------------------------------------------------------------------------------

/**
 * Whether a value is a `TransportError`.
 *
 * @example
 * ```ts
 * import { isTransportError, transportError } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(isTransportError(transportError('timeout')), true)
 * assert.equal(isTransportError(new Error('timeout')), false)
 * ```
 *
 * @category refinements
 * @since 0.2.0
 */
export const isTransportError = (u: unknown): u is TransportError =>
  typeof u === 'object' && u !== null && (u as { _tag?: unknown })._tag === 'TransportError'
