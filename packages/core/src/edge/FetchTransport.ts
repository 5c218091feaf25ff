/**
 * A `Transport` over the global `fetch` of Node 24 (undici), with a per-request timeout
 * that covers the headers and the body, and errors sorted by whether the request may have
 * reached the service.
 *
 * @since 0.1.0
 */
import type * as TE from 'fp-ts/lib/TaskEither.js'
import * as E from 'fp-ts/lib/Either.js'
import type { Transport, TransportError, TransportResponse } from '../client/Transport.js'
import { transportError } from '../client/Transport.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Options of the fetch transport: the `fetch` to use (the global one by default) and the
 * timeout of a request that gives none of its own (30 s by default).
 *
 * @category model
 * @since 0.1.0
 */
export interface FetchTransportOptions {
  readonly fetch?: typeof globalThis.fetch
  readonly timeoutMs?: number
}

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

const NOT_SENT_CODES: Readonly<Record<string, 'refused' | 'dns'>> = {
  ECONNREFUSED: 'refused',
  EHOSTUNREACH: 'refused',
  ENETUNREACH: 'refused',
  UND_ERR_CONNECT_TIMEOUT: 'refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NONAME: 'dns',
}

/** The error codes in an error's `cause` chain (undici nests them, sometimes in an AggregateError). */
const codesOf = (u: unknown, depth = 0): ReadonlyArray<string> => {
  if (depth > 5 || typeof u !== 'object' || u === null) return []
  const { code, cause, errors } = u as { code?: unknown; cause?: unknown; errors?: unknown }
  return [
    ...(typeof code === 'string' ? [code] : []),
    ...codesOf(cause, depth + 1),
    ...(Array.isArray(errors) ? errors.flatMap((e) => codesOf(e, depth + 1)) : []),
  ]
}

/**
 * Sorts what `fetch` (or reading the body) threw into a `TransportError`. A connection
 * that was never made is `sent: 'no'`; once the connection exists anything may have been
 * sent. `timedOut` and `aborted` say which signal fired, so a timeout is never mistaken
 * for a caller's cancel. Only error codes are kept, never messages (they can hold URLs).
 *
 * @category destructors
 * @since 0.1.0
 */
export const classifyFetchError = (
  error: unknown,
  signals: { readonly timedOut: boolean; readonly aborted: boolean; readonly reading: boolean },
): TransportError => {
  if (signals.timedOut) return transportError('timeout', 'no response within the time limit')
  if (signals.aborted) return transportError('aborted', 'cancelled by the caller')
  const codes = codesOf(error)
  if (!signals.reading) {
    for (const code of codes) {
      const failure = NOT_SENT_CODES[code]
      if (failure !== undefined) return transportError(failure, code)
    }
    // A URL that fetch refuses to parse never left the process.
    if (error instanceof TypeError && codes.length === 0 && /url/i.test(error.message))
      return transportError('other', 'invalid URL', 'no')
  }
  const detail = codes[0] ?? (error instanceof Error ? error.name : 'unknown error')
  return transportError(signals.reading ? 'body' : 'reset', detail)
}

const headersOf = (headers: Headers): Record<string, string> => {
  const out: Record<string, string> = {}
  headers.forEach((value, name) => {
    out[name.toLowerCase()] = value
  })
  return out
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A transport over `fetch`. Each request gets `AbortSignal.timeout(timeoutMs)` combined
 * with the caller's signal (`AbortSignal.any`), so a hung server ends in a `timeout` error
 * and a caller's cancel in an `aborted` one. It never rejects.
 *
 * @category constructors
 * @since 0.1.0
 */
export const fetchTransport =
  (options: FetchTransportOptions = {}): Transport =>
  (request): TE.TaskEither<TransportError, TransportResponse> =>
  async () => {
    const doFetch = options.fetch ?? globalThis.fetch
    const timeout = AbortSignal.timeout(request.timeoutMs ?? options.timeoutMs ?? 30_000)
    const signal =
      request.signal === undefined ? timeout : AbortSignal.any([timeout, request.signal])
    const state = () => ({
      timedOut: timeout.aborted,
      aborted: request.signal?.aborted === true,
    })
    if (request.signal?.aborted === true)
      return E.left(transportError('aborted', 'cancelled before sending', 'no'))
    let response: Response
    try {
      response = await doFetch(request.url, {
        method: request.method,
        headers: request.headers,
        signal,
        redirect: 'manual',
        ...(request.body === undefined ? {} : { body: request.body }),
      })
    } catch (error) {
      return E.left(classifyFetchError(error, { ...state(), reading: false }))
    }
    try {
      const body = await response.text()
      return E.right({ status: response.status, headers: headersOf(response.headers), body })
    } catch (error) {
      return E.left(classifyFetchError(error, { ...state(), reading: true }))
    }
  }
