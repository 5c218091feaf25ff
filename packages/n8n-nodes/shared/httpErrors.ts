/**
 * Reading what n8n's request helpers throw. They wrap the HTTP client's error (in
 * `NodeApiError`, in `cause`, in `reason`), so the status and the socket error code are
 * found by a short walk over those wrappers rather than at one fixed place.
 */
import type { TransportFailure } from '@paykit/core/pure'

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const WRAPPERS = ['cause', 'reason', 'error', 'response'] as const

/** The error and the errors it wraps, outermost first, at most a few levels deep. */
const layers = (error: unknown): ReadonlyArray<Readonly<Record<string, unknown>>> => {
  const out: Array<Readonly<Record<string, unknown>>> = []
  const visit = (value: unknown, depth: number): void => {
    if (typeof value !== 'object' || value === null || depth > 4) return
    const record = value as Readonly<Record<string, unknown>>
    if (out.includes(record)) return
    out.push(record)
    for (const key of WRAPPERS) visit(record[key], depth + 1)
  }
  visit(error, 0)
  return out
}

const asStatus = (value: unknown): number | undefined => {
  const n = typeof value === 'string' ? Number(value) : value
  return typeof n === 'number' && Number.isInteger(n) && n >= 100 && n <= 599 ? n : undefined
}

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/** The HTTP status a thrown request error carries, if the service answered at all. */
export const statusOf = (error: unknown): number | undefined => {
  for (const layer of layers(error)) {
    const status = asStatus(layer.status) ?? asStatus(layer.statusCode) ?? asStatus(layer.httpCode)
    if (status !== undefined) return status
  }
  return undefined
}

const FAILURES: ReadonlyArray<readonly [RegExp, TransportFailure]> = [
  [/^ECONNREFUSED$/, 'refused'],
  [/^(ENOTFOUND|EAI_AGAIN)$/, 'dns'],
  [/^(ECONNABORTED|ETIMEDOUT|ESOCKETTIMEDOUT|UND_ERR_.*TIMEOUT)$/, 'timeout'],
  [/^(ERR_CANCELED|ABORT_ERR)$/, 'aborted'],
  [/^(ECONNRESET|EPIPE|ERR_SOCKET_CLOSED|UND_ERR_SOCKET)$/, 'reset'],
]

/** What went wrong below HTTP, from the socket error code of a thrown request error. */
export const failureOf = (error: unknown): TransportFailure => {
  for (const layer of layers(error)) {
    if (layer.name === 'AbortError' || layer.name === 'CanceledError') return 'aborted'
    const code = typeof layer.code === 'string' ? layer.code : undefined
    if (code === undefined) continue
    const found = FAILURES.find(([pattern]) => pattern.test(code))
    if (found !== undefined) return found[1]
  }
  return 'other'
}
