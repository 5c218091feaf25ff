/**
 * The request log both adapters keep: what came in and what went out, with credentials
 * and card data redacted (by the core's `redactHeaders` and `redactBody`, plus the
 * configured secrets anywhere in the path, query, headers and body) so that the log can
 * be printed in a test failure. It is a ring: the last `size` requests (default 1000).
 *
 * Redaction happens when a request is written, never later (no secret is ever held), but
 * only where something can hide: an empty body and a header or path without a digit run,
 * a JSON-looking value or a configured secret are kept as they are without calling the
 * core.
 *
 * @since 0.2.0
 */
import { REDACTED, redactBody, redactHeaders, redactValue } from '@paykit/core/client'
import type { SimRequest } from '../simulator/Http.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One request as the log keeps it. `status` is the status sent (`undefined` when the
 * answer was lost to an injected fault, named in `fault`).
 *
 * @category model
 * @since 0.2.0
 */
export interface LoggedRequest {
  readonly at: string
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly status: number | undefined
  readonly fault: string | undefined
}

/**
 * A ring of the last `size` log entries.
 *
 * @category model
 * @since 0.2.0
 */
export interface RequestLog {
  /** How many entries it keeps. */
  readonly size: number
  /** Adds an entry, dropping the oldest when full. */
  readonly add: (entry: LoggedRequest) => void
  /** The entries held, oldest first (a copy). */
  readonly entries: () => ReadonlyArray<LoggedRequest>
  /** Drops every entry. */
  readonly clear: () => void
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * How many requests the log keeps by default.
 *
 * @example
 * ```ts
 * import { DEFAULT_REQUEST_LOG_SIZE, makeRequestLog } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(DEFAULT_REQUEST_LOG_SIZE, 1000)
 * assert.equal(makeRequestLog().size, DEFAULT_REQUEST_LOG_SIZE)
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const DEFAULT_REQUEST_LOG_SIZE = 1000

// The headers the core hides whole or keeps only the scheme of.
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'cookie',
  'set-cookie',
])

// The shortest run the core's card-number pattern redacts: 13 digits, maybe grouped.
const DIGIT_RUN = /\d(?:[ -]?\d){12}/

// Names whose value is a secret in a query string or a malformed JSON body.
const SECRET_NAME =
  /secret|token|password|passwd|api[-_]?key|authorization|cvv|cvc|securitycode|cardnumber|^number$|card\]?\[number/i

// `"name": value` in JSON text, the value maybe cut short (a body missing its end).
const JSON_PAIR = /"((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*"?|[^\s,}\]]+)/g

// -------------------------------------------------------------------------------------
// redaction
// -------------------------------------------------------------------------------------

// The variants of each secrets array seen (an adapter passes the same array every time).
const variantsCache = new WeakMap<ReadonlyArray<string>, ReadonlyArray<string>>()

/** The secrets to look for: each as given and percent-encoded (as in a path or query). */
const variantsOf = (secrets: ReadonlyArray<string>): ReadonlyArray<string> => {
  if (secrets.length === 0) return secrets
  const cached = variantsCache.get(secrets)
  if (cached !== undefined) return cached
  const out = new Set<string>()
  for (const s of secrets) {
    if (s.length < 3) continue
    out.add(s)
    out.add(encodeURIComponent(s))
  }
  const variants = [...out]
  variantsCache.set(secrets, variants)
  return variants
}

const mayHide = (text: string, secrets: ReadonlyArray<string>): boolean => {
  if (DIGIT_RUN.test(text)) return true
  for (const s of secrets) if (text.includes(s)) return true
  return false
}

// `<scheme> <credential>`: the scheme is kept (as the core's `redactHeaders` does).
const SCHEME = /^(\S+)\s+\S/
const SCHEME_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization'])

/**
 * A credential header as the core's `redactHeaders` hides it, without calling it when
 * the scheme holds nothing to hide (the common `Bearer <token>`).
 */
const redactCredential = (
  name: string,
  lower: string,
  value: string,
  secrets: ReadonlyArray<string>,
): string => {
  if (SCHEME_HEADERS.has(lower)) {
    const scheme = SCHEME.exec(value)?.[1]
    if (scheme === undefined) return REDACTED
    if (!mayHide(scheme, secrets)) return `${scheme} ${REDACTED}`
  }
  return redactHeaders({ [name]: value }, secrets)[name] ?? REDACTED
}

/** The configured secrets and card numbers of free text (the core's text rule). */
const redactText = (text: string, secrets: ReadonlyArray<string>): string =>
  mayHide(text, secrets) ? (redactValue(text, secrets) as string) : text

const redactHeaderValues = (
  headers: Readonly<Record<string, string>>,
  secrets: ReadonlyArray<string>,
): Readonly<Record<string, string>> => {
  const out: Record<string, string> = {}
  for (const name of Object.keys(headers)) {
    const value = headers[name] ?? ''
    const lower = name.toLowerCase()
    out[name] = CREDENTIAL_HEADERS.has(lower)
      ? redactCredential(name, lower, value, secrets)
      : mayHide(value, secrets) || /^\s*[[{]/.test(value)
        ? (redactHeaders({ [name]: value }, secrets)[name] ?? REDACTED)
        : value
  }
  return out
}

// The parse of a JSON text, or `NOT_JSON`.
const NOT_JSON: unique symbol = Symbol('not JSON')
const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return NOT_JSON
  }
}

// The core's `redactValue` gives up past this depth (and hides the rest).
const MAX_DEPTH = 32

/**
 * Whether the core's `redactValue` would leave `value` (parsed JSON) as it is: no key
 * named like a secret (a superset of the core's names: every `number` counts), no key,
 * string or number holding a configured secret or a digit run, nothing too deep, and no
 * `__proto__` key (which the core's copy turns into a prototype).
 */
const holdsNothing = (value: unknown, secrets: ReadonlyArray<string>, depth: number): boolean => {
  if (typeof value === 'string') return !mayHide(value, secrets)
  if (typeof value === 'number') return !mayHide(String(value), secrets)
  if (typeof value !== 'object' || value === null) return true
  if (depth > MAX_DEPTH) return false
  if (Array.isArray(value)) {
    for (const x of value) if (!holdsNothing(x, secrets, depth + 1)) return false
    return true
  }
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || SECRET_NAME.test(key) || mayHide(key, secrets)) return false
    if (!holdsNothing((value as Record<string, unknown>)[key], secrets, depth + 1)) return false
  }
  return true
}

/** JSON text that does not parse: the values of secret-named fields hidden by hand. */
const redactMalformedJson = (body: string): string =>
  body.replace(JSON_PAIR, (pair, name: string, colon: string) =>
    SECRET_NAME.test(name) ? `"${name}"${colon}"${REDACTED}"` : pair,
  )

/**
 * The body as the core's `redactBody` writes it (JSON re-serialized with its secrets
 * hidden), a malformed JSON body with its secret-named fields hidden first. JSON that
 * holds nothing to hide is parsed once and written back without the core's walk.
 */
const redactRequestBody = (body: string, secrets: ReadonlyArray<string>): string => {
  if (body === '') return body
  if (!/^\s*[[{]/.test(body)) return redactBody(body, secrets)
  const value = parsed(body)
  if (value === NOT_JSON) return redactBody(redactMalformedJson(body), secrets)
  return holdsNothing(value, secrets, 0) ? JSON.stringify(value) : redactBody(body, secrets)
}

const redactQuery = (query: string, secrets: ReadonlyArray<string>): string =>
  query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      if (eq < 0) return redactText(pair, secrets)
      const rawName = pair.slice(0, eq)
      let name = rawName
      try {
        name = decodeURIComponent(rawName.replaceAll('+', ' '))
      } catch {
        // Kept as written.
      }
      return SECRET_NAME.test(name)
        ? `${redactText(rawName, secrets)}=${REDACTED}`
        : redactText(pair, secrets)
    })
    .join('&')

/**
 * The path and query of a request with the configured secrets and card numbers hidden,
 * and the value of every secret-named query parameter (`client_secret`, `access_token`,
 * `apiKey`, `cvv`, ...).
 *
 * @example
 * ```ts
 * import { redactPath } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(
 *   redactPath('/token?client_secret=s3cret&page=2'),
 *   '/token?client_secret=[redacted]&page=2',
 * )
 * assert.equal(redactPath('/keys/my-api-key/x', ['my-api-key']), '/keys/[redacted]/x')
 * assert.equal(redactPath('/cards/4242424242424242'), '/cards/[redacted]')
 * ```
 *
 * @category redaction
 * @since 0.2.0
 */
export const redactPath = (path: string, secrets: ReadonlyArray<string> = []): string =>
  redactPathWith(path, variantsOf(secrets))

const redactPathWith = (path: string, known: ReadonlyArray<string>): string => {
  const q = path.indexOf('?')
  if (q < 0) return redactText(path, known)
  return `${redactText(path.slice(0, q), known)}?${redactQuery(path.slice(q + 1), known)}`
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

// The last time written and its ISO text: requests in the same millisecond share it.
let lastAtMs = NaN
let lastAtIso = ''
const isoAt = (at: Date): string => {
  const ms = at.getTime()
  if (ms !== lastAtMs) {
    lastAtIso = at.toISOString()
    lastAtMs = ms
  }
  return lastAtIso
}

/**
 * The log entry of `request`, redacted: credentials, card data, secret-named fields
 * (also in a body that is not well-formed JSON and in the query string), and every
 * occurrence of `secrets` (the configured client secret, API key, webhook secret).
 *
 * @category constructors
 * @since 0.2.0
 */
export const logEntry = (
  request: SimRequest,
  at: Date,
  status: number | undefined,
  fault: string | undefined,
  secrets: ReadonlyArray<string> = [],
): LoggedRequest => {
  const known = variantsOf(secrets)
  return {
    at: isoAt(at),
    method: request.method,
    path: redactPathWith(request.path, known),
    headers: redactHeaderValues(request.headers, known),
    body: redactRequestBody(request.body, known),
    status,
    fault,
  }
}

/**
 * An empty ring keeping the last `size` entries (an integer >= 1).
 *
 * @example
 * ```ts
 * import { makeRequestLog, type LoggedRequest } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * const log = makeRequestLog(2)
 * for (const path of ['/a', '/b', '/c']) {
 *   const at = new Date().toISOString()
 *   const entry: LoggedRequest = { at, method: 'GET', path, headers: {}, body: '', status: 200, fault: undefined }
 *   log.add(entry)
 * }
 * assert.deepEqual(log.entries().map((e) => e.path), ['/b', '/c']) // the latest two
 * assert.throws(() => makeRequestLog(0), RangeError)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const makeRequestLog = (size: number = DEFAULT_REQUEST_LOG_SIZE): RequestLog => {
  if (!Number.isSafeInteger(size) || size < 1)
    throw new RangeError(`the request log size must be an integer >= 1, not ${size}`)
  let ring: Array<LoggedRequest> = []
  let next = 0
  return {
    size,
    add: (entry) => {
      if (ring.length < size) ring.push(entry)
      else ring[next] = entry
      next = (next + 1) % size
    },
    entries: () =>
      ring.length < size ? ring.slice() : [...ring.slice(next), ...ring.slice(0, next)],
    clear: () => {
      ring = []
      next = 0
    },
  }
}
