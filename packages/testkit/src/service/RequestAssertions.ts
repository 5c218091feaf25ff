/**
 * `verify`-style assertions over a request log (as WireMock's `verify` or nock's
 * `isDone`, but counting): how many requests of a fake matched a pattern, and an assertion
 * that fails with a readable message listing them. They read the same redacted log on the
 * nock mock, the sandbox and any service that keeps a {@link RequestLog}, so a message
 * never shows a secret or a card number.
 *
 * @since 0.2.0
 */
import type { LoggedRequest, RequestLog } from './RequestLog.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Where requests are read from: the entries themselves, a fake's handle (the nock mock,
 * the sandbox, a live service: anything with `requests()`), or a {@link RequestLog}.
 *
 * @category model
 * @since 0.2.0
 */
export type RequestSource =
  | ReadonlyArray<LoggedRequest>
  | { readonly requests: () => ReadonlyArray<LoggedRequest> }
  | Pick<RequestLog, 'entries'>

/**
 * A JSON value any part of which a body must hold: objects match when each key given
 * matches (other keys are ignored), arrays and scalars when equal.
 *
 * @category model
 * @since 0.2.0
 */
export type BodyPattern =
  | string
  | number
  | boolean
  | null
  | ReadonlyArray<BodyPattern>
  | { readonly [key: string]: BodyPattern }

/**
 * What a request must be to count; every field given must match.
 *
 * - `method`: the method, any case.
 * - `path`: the path without its query, exactly, where a `:name` segment matches any
 *   segment (`/paymentlink/order/:orderCode`); or a `RegExp` tried on the path with its query.
 * - `body`: a {@link BodyPattern} the parsed JSON body must hold, or a predicate over the
 *   parsed body (the text when it is not JSON). The body is the log's: redacted, so a card
 *   number or a secret reads `[redacted]`.
 * - `status`: the status answered (`undefined` matches a request whose answer a fault lost).
 * - `description`: words for a `body` predicate in a failure message (`for order o1`).
 *
 * @category model
 * @since 0.2.0
 */
export interface RequestPattern {
  readonly method?: string
  readonly path?: string | RegExp
  readonly body?: BodyPattern | ((body: unknown) => boolean)
  readonly status?: number | undefined
  readonly description?: string
}

/**
 * How many matching requests are expected: exactly `n`, or between `atLeast` and `atMost`.
 *
 * @category model
 * @since 0.2.0
 */
export type RequestCount = number | { readonly atLeast?: number; readonly atMost?: number }

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

const entriesOf = (source: RequestSource): ReadonlyArray<LoggedRequest> =>
  Array.isArray(source)
    ? (source as ReadonlyArray<LoggedRequest>)
    : 'requests' in source
      ? source.requests()
      : (source as Pick<RequestLog, 'entries'>).entries()

const parsedBody = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

const holds = (value: unknown, pattern: BodyPattern): boolean => {
  if (pattern === null || typeof pattern !== 'object') return Object.is(value, pattern)
  if (Array.isArray(pattern))
    return (
      Array.isArray(value) &&
      value.length === pattern.length &&
      pattern.every((p: BodyPattern, i) => holds(value[i], p))
    )
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const record = value as Readonly<Record<string, unknown>>
  return Object.entries(pattern).every(
    ([key, p]) => Object.hasOwn(record, key) && holds(record[key], p as BodyPattern),
  )
}

const pathMatches = (path: string, pattern: string | RegExp): boolean => {
  if (typeof pattern !== 'string') return new RegExp(pattern.source, pattern.flags).test(path)
  const bare = path.split('?', 1)[0] ?? ''
  if (!pattern.includes('/:')) return bare === pattern
  const want = pattern.split('/')
  const got = bare.split('/')
  return (
    want.length === got.length &&
    want.every((segment, i) => (segment.startsWith(':') ? got[i] !== '' : segment === got[i]))
  )
}

/**
 * Whether one logged request matches `pattern`.
 *
 * @example
 * ```ts
 * import { requestMatches, type LoggedRequest } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * const entry: LoggedRequest = {
 *   at: '2026-01-01T00:00:00.000Z',
 *   method: 'GET',
 *   path: '/paymentlink/order/OC1?x=1',
 *   headers: {},
 *   body: '',
 *   status: 200,
 *   fault: undefined,
 * }
 * assert.ok(requestMatches(entry, { method: 'get', path: '/paymentlink/order/:orderCode' }))
 * assert.ok(!requestMatches(entry, { status: 404 }))
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const requestMatches = (entry: LoggedRequest, pattern: RequestPattern): boolean => {
  if (pattern.method !== undefined && entry.method.toUpperCase() !== pattern.method.toUpperCase())
    return false
  if (pattern.path !== undefined && !pathMatches(entry.path, pattern.path)) return false
  if ('status' in pattern && entry.status !== pattern.status) return false
  if (pattern.body === undefined) return true
  const body = parsedBody(entry.body)
  return typeof pattern.body === 'function' ? pattern.body(body) : holds(body, pattern.body)
}

/**
 * The requests of `source` that match `pattern`, oldest first.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { matchingRequests } from '@paykit/testkit/service'
 * import { mockPaymentService } from '@paykit/testkit/nock'
 * import assert from 'node:assert/strict'
 *
 * const mock = mockPaymentService({ baseUrl: 'https://paykit.test' })
 * try {
 *   const { clientId, clientSecret } = defaultCredentials
 *   await fetch('https://paykit.test/token', { method: 'POST', body: JSON.stringify({ clientId, clientSecret }) })
 *   const [token] = matchingRequests(mock, { method: 'POST', path: '/token' })
 *   assert.equal(token?.body, '{"clientId":"sandbox-client","clientSecret":"[redacted]"}')
 * } finally {
 *   mock.restore()
 * }
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const matchingRequests = (
  source: RequestSource,
  pattern: RequestPattern,
): ReadonlyArray<LoggedRequest> => entriesOf(source).filter((e) => requestMatches(e, pattern))

/**
 * How many requests of `source` match `pattern`.
 *
 * @example
 * ```ts
 * import { countRequests, makeLiveService } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * const live = makeLiveService({ baseUrl: 'https://paykit.test' })
 * for (const id of ['o1', 'o1', 'o2']) {
 *   const body = JSON.stringify({ order: { id, amount: 5 }, cardId: 'pm_x', authenticationId: null })
 *   live.exchange({ method: 'POST', path: '/charges', headers: {}, body })
 * }
 * assert.equal(countRequests(live, { method: 'POST', path: '/charges' }), 3)
 * assert.equal(countRequests(live, { path: '/charges', body: { order: { id: 'o1' } } }), 2)
 * assert.equal(countRequests(live, { body: (b) => (b as { cardId?: string }).cardId === 'pm_y' }), 0)
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const countRequests = (source: RequestSource, pattern: RequestPattern): number =>
  matchingRequests(source, pattern).length

// -------------------------------------------------------------------------------------
// assertions
// -------------------------------------------------------------------------------------

// A failure message lists at most this many requests, and this much of each body.
const LISTED = 20
const BODY_CHARS = 200

const describePattern = (pattern: RequestPattern): string => {
  const words = [pattern.method?.toUpperCase() ?? 'request']
  if (pattern.path !== undefined) words.push(String(pattern.path))
  if (pattern.description !== undefined) words.push(pattern.description)
  else if (pattern.body !== undefined)
    words.push(
      typeof pattern.body === 'function'
        ? 'with a body as given'
        : `with body ${JSON.stringify(pattern.body)}`,
    )
  if ('status' in pattern) words.push(`answered ${pattern.status ?? 'nothing'}`)
  return words.join(' ')
}

const describeCount = (count: RequestCount): string => {
  if (typeof count === 'number') return String(count)
  const { atLeast, atMost } = count
  if (atLeast !== undefined && atMost !== undefined) return `${atLeast} to ${atMost}`
  return atLeast !== undefined ? `at least ${atLeast}` : `at most ${atMost ?? Infinity}`
}

const countFits = (n: number, count: RequestCount): boolean =>
  typeof count === 'number'
    ? n === count
    : n >= (count.atLeast ?? 0) && n <= (count.atMost ?? Infinity)

/**
 * One logged request on one line: method, path, what was answered, the body (redacted as
 * the log keeps it, cut at 200 characters).
 *
 * @example
 * ```ts
 * import { requestLine } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * const entry = {
 *   at: '2026-01-01T00:00:00.000Z',
 *   method: 'POST',
 *   path: '/charges',
 *   headers: {},
 *   body: '{"order":{"id":"o1"}}',
 *   status: undefined,
 *   fault: 'connectionReset',
 * }
 * assert.equal(requestLine(entry), 'POST /charges -> connectionReset {"order":{"id":"o1"}}')
 * ```
 *
 * @category assertions
 * @since 0.2.0
 */
export const requestLine = (entry: LoggedRequest): string => {
  const answer =
    entry.fault !== undefined && entry.status === undefined
      ? entry.fault
      : `${entry.status ?? 'no answer'}${entry.fault !== undefined ? ` (${entry.fault})` : ''}`
  const body = entry.body.length > BODY_CHARS ? `${entry.body.slice(0, BODY_CHARS)}...` : entry.body
  return `${entry.method} ${entry.path} -> ${answer}${body === '' ? '' : ` ${body}`}`
}

const listed = (entries: ReadonlyArray<LoggedRequest>): string =>
  [
    ...entries.slice(0, LISTED).map((e, i) => `\n  ${i + 1}. ${requestLine(e)}`),
    entries.length > LISTED ? `\n  ... and ${entries.length - LISTED} more` : '',
  ].join('')

/**
 * Fails, with a message listing what was seen, unless the number of requests of `source`
 * matching `pattern` is `count` (default 1; or a range). With none matching it lists every
 * request seen instead. Bodies are the log's, redacted.
 *
 * @example
 * ```ts
 * import { makeLiveService, verifyRequests } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * const live = makeLiveService({ baseUrl: 'https://paykit.test' })
 * const body = JSON.stringify({ order: { id: 'o1', amount: 5 }, cardId: 'pm_x', authenticationId: null })
 * live.exchange({ method: 'POST', path: '/charges', headers: {}, body })
 * live.exchange({ method: 'POST', path: '/charges', headers: {}, body })
 *
 * const o1 = { method: 'POST', path: '/charges', body: { order: { id: 'o1' } }, description: 'for order o1' }
 * verifyRequests(live, o1, 2)
 * verifyRequests(live, o1, { atMost: 2 })
 * assert.throws(() => verifyRequests(live, o1), {
 *   message: /^expected 1 POST \/charges for order o1, saw 2:\n {2}1\. POST \/charges -> 401 /,
 * })
 * ```
 *
 * @category assertions
 * @since 0.2.0
 */
export const verifyRequests = (
  source: RequestSource,
  pattern: RequestPattern,
  count: RequestCount = 1,
): void => {
  const all = entriesOf(source)
  const matching = all.filter((e) => requestMatches(e, pattern))
  if (countFits(matching.length, count)) return
  const expected = `expected ${describeCount(count)} ${describePattern(pattern)}`
  throw new Error(
    matching.length === 0
      ? `${expected}, saw none among ${all.length} request${all.length === 1 ? '' : 's'}:${listed(all)}`
      : `${expected}, saw ${matching.length}:${listed(matching)}`,
  )
}
