/**
 * The simulator behind nock: persistent, stateful interceptors for every path and method
 * of one origin (the API and the hosted pages), for native fetch and any Node HTTP client.
 *
 * @since 0.2.0
 */
import { createRequire } from 'node:module'
import { Readable } from 'node:stream'
import type Nock from 'nock'
import { truncatedPart } from '../service/Faults.js'
import { makeLiveService, type LiveServiceOptions } from '../service/LiveService.js'
import { logEntry, type LoggedRequest } from '../service/RequestLog.js'
import { controlsOf, type ServiceControls } from '../service/ServiceControls.js'
import type { SimRequest } from '../simulator/Http.js'
import {
  makeWebhookOutbox,
  type WebhookOutbox,
  type WebhookOutboxOptions,
} from '../service/WebhookDelivery.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Options of {@link mockPaymentService}: the simulator's options (`baseUrl` is the origin,
 * and optional path prefix, that gets intercepted) and the wall clock.
 *
 * @category model
 * @since 0.2.0
 */
export type MockPaymentServiceOptions = LiveServiceOptions

/**
 * The handle of an installed mock. Control methods throw an `Error` saying why when the
 * simulator refuses (an unknown authentication id or order code, a result already
 * recorded, ...).
 *
 * @category model
 * @since 0.2.0
 */
export interface PaymentServiceMock extends ServiceControls {
  /** The base URL the mock answers on. */
  readonly baseUrl: string
  /** Back to the initial state: no tokens, orders, events, faults or request log. */
  readonly reset: () => void
  /**
   * The requests that reached no endpoint of the service: an unknown route (the simulator's
   * 404 or 405 for a path or method it does not serve), or a path of the origin outside
   * `baseUrl`'s path prefix (answered 501: no mock matched).
   */
  readonly unexpectedRequests: () => ReadonlyArray<LoggedRequest>
  /** Throws, listing them, when {@link unexpectedRequests} is not empty. */
  readonly assertNoUnexpectedRequests: () => void
  /** nock's pending mocks of this origin (the interceptors never hit yet). */
  readonly pendingMocks: () => ReadonlyArray<string>
  /** An outbox delivering this mock's webhook events to `options.handler` (see `makeWebhookOutbox`). */
  readonly webhooks: (options: WebhookOutboxOptions) => WebhookOutbox
  /** Removes the interceptors and releases every held request and timer. */
  readonly restore: () => void
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * Longest a `hang` holds a request: past any sensible client timeout, yet bounded.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import { HANG_MS, mockPaymentService } from '@paykit/testkit/nock'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(HANG_MS, 10 * 60 * 1000)
 * const mock = mockPaymentService({ baseUrl: 'https://paykit.test' })
 * try {
 *   mock.injectFault(Faults.hang, { times: 1 })
 *   const timeout = new AbortController() // the client's timeout fires long before HANG_MS
 *   setTimeout(() => timeout.abort(), 100) // (AbortSignal.timeout's timer would not keep a script alive)
 *   const signal = timeout.signal
 *   await assert.rejects(fetch('https://paykit.test/token', { method: 'POST', signal }), {
 *     name: 'AbortError',
 *   })
 * } finally {
 *   mock.restore() // releases the held request and its timer
 * }
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const HANG_MS = 10 * 60 * 1000

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const

/**
 * The routes the simulator serves, below the base URL's path, as the unmatched answer lists them.
 *
 * @example
 * ```ts
 * import { MOCK_ROUTES, unmatchedProblem } from '@paykit/testkit/nock'
 * import assert from 'node:assert/strict'
 *
 * assert.ok(MOCK_ROUTES.includes('POST /charges'))
 * assert.ok(MOCK_ROUTES.includes('GET /paymentlink/order/{orderCode}'))
 * const { detail } = unmatchedProblem('https://paykit.test/v1', 'GET', '/v2/token')
 * assert.ok(detail.includes(MOCK_ROUTES.join(', ')))
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const MOCK_ROUTES: ReadonlyArray<string> = [
  'POST /token',
  'POST /paymentmethods',
  'POST /charges',
  'POST /paymentlink/checkout',
  'GET /paymentlink/order/{orderCode}',
  'GET|POST /3ds/{id}',
  'GET|POST /pay/{orderCode}',
  'GET /pay/{orderCode}/voucher',
]

// -------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------

const networkError = (code: string, message: string): Error =>
  Object.assign(new Error(message), { code })

const basePathOf = (url: URL): string => url.pathname.replace(/\/+$/, '')

/** Whether `path` (with query) lies under the base URL's path prefix. */
const isUnder = (prefix: string, path: string): boolean =>
  prefix === '' || path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`)

/**
 * Whether an answer says the route itself is unknown (not, e.g., an unknown order).
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { isUnknownRoute, mockPaymentService } from '@paykit/testkit/nock'
 * import assert from 'node:assert/strict'
 *
 * const mock = mockPaymentService({ baseUrl: 'https://paykit.test' })
 * try {
 *   const route = await fetch('https://paykit.test/refunds', { method: 'POST' })
 *   assert.equal(isUnknownRoute(route.status, await route.text()), true)
 *   const order = await fetch('https://paykit.test/paymentlink/order/OC99999999', {
 *     headers: { authorization: `Bearer ${defaultCredentials.apiKey}` },
 *   })
 *   assert.equal(order.status, 404)
 *   assert.equal(isUnknownRoute(order.status, await order.text()), false) // a known route
 *   assert.deepEqual(mock.unexpectedRequests().map((r) => r.path), ['/refunds'])
 * } finally {
 *   mock.restore()
 * }
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const isUnknownRoute = (status: number, body: string): boolean => {
  if (status === 405) return true
  if (status !== 404) return false
  try {
    const problem = JSON.parse(body) as { readonly title?: unknown; readonly detail?: unknown }
    return /no endpoint/i.test(String(problem.detail))
  } catch {
    return false
  }
}

/**
 * The answer to a request on the mock's origin that no interceptor of the mock matches (a
 * path outside `baseUrl`'s path prefix): 501 Not Implemented problem details whose
 * `title` (which the core client puts in its error message) says that no mock matched,
 * with the method and path, and whose `detail` gives what the mock serves (its `baseUrl`
 * and routes), instead of nock's bare 501. (Not 421: fetch repeats a 421 by itself.)
 *
 * @example
 * ```ts
 * import { mockPaymentService, unmatchedProblem } from '@paykit/testkit/nock'
 * import assert from 'node:assert/strict'
 *
 * const mock = mockPaymentService({ baseUrl: 'https://paykit.test/v1' })
 * try {
 *   const res = await fetch('https://paykit.test/v2/token', { method: 'POST' }) // wrong prefix
 *   assert.equal(res.status, 501)
 *   assert.deepEqual(await res.json(), unmatchedProblem(mock.baseUrl, 'POST', '/v2/token'))
 *   assert.equal(
 *     unmatchedProblem(mock.baseUrl, 'POST', '/v2/token').title,
 *     'No mock matched POST /v2/token: mockPaymentService serves https://paykit.test/v1 only',
 *   )
 * } finally {
 *   mock.restore()
 * }
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const unmatchedProblem = (
  baseUrl: string,
  method: string,
  path: string,
): {
  readonly type: string
  readonly title: string
  readonly status: 501
  readonly detail: string
} => ({
  type: 'about:blank',
  title: `No mock matched ${method} ${path}: mockPaymentService serves ${baseUrl} only`,
  status: 501,
  detail:
    `mockPaymentService answers requests under ${baseUrl} (${MOCK_ROUTES.join(', ')}); ` +
    `${method} ${path} is outside it. Point the client's baseUrl at ${baseUrl}.`,
})

/**
 * nock, loaded on the first mock: nock takes over `fetch` and `http` as it loads, and MSW 3
 * then refuses to start (`Failed to replace a global value at "fetch"`), so importing
 * `@paykit/testkit` must not load it. `require(esm)`: the testkit's Node floor has it.
 */
const loadNock = (): typeof Nock =>
  (createRequire(import.meta.url)('nock') as { readonly default: typeof Nock }).default

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Installs persistent nock interceptors for every path and method under `baseUrl` that
 * answer with the simulator, and returns the handle to inspect and steer it. Call
 * `restore()` when done: in a test file once, in `afterAll` (`reset()` in `afterEach`), since
 * a restored mock intercepts nothing any more.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { createClient } from '@paykit/core'
 * import { defaultCredentials } from '@paykit/testkit'
 * import { mockPaymentService } from '@paykit/testkit/nock'
 * import assert from 'node:assert/strict'
 *
 * const mock = mockPaymentService({ baseUrl: 'https://paykit.test' })
 * try {
 *   const client = createClient({ baseUrl: mock.baseUrl, credentials: defaultCredentials })
 *   const link = await client.createPaymentLink({ amount: 19.99 })()
 *   assert.ok(E.isRight(link))
 *   mock.payOrder(link.right.orderCode) // as the buyer on the hosted checkout
 *   const order = await client.getOrder(link.right.orderCode)()
 *   assert.ok(E.isRight(order) && order.right.orderStatus === 'PAID')
 *   assert.deepEqual(mock.events().map((e) => e.type), ['order.paid'])
 *   mock.assertNoUnexpectedRequests()
 * } finally {
 *   mock.restore() // in a test file: once, in afterAll
 * }
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const mockPaymentService = (options: MockPaymentServiceOptions): PaymentServiceMock => {
  const base = new URL(options.baseUrl)
  const prefix = basePathOf(base)
  const service = makeLiveService(options)
  let unknown: Array<LoggedRequest> = []
  const held = new Set<{ readonly timer: NodeJS.Timeout; readonly release: () => void }>()

  /**
   * Waits `ms`, or until `restore()`; true when released early by `restore()`. A hang's
   * timer is unref'd so that it never keeps the process alive; a latency's is not, so a
   * script awaiting a slow answer does not exit early.
   */
  const wait = (ms: number, keepAlive: boolean): Promise<boolean> =>
    new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          held.delete(entry)
          resolve(false)
        }, ms),
        release: () => resolve(true),
      }
      if (!keepAlive) entry.timer.unref()
      held.add(entry)
    })

  const reply = async (
    request: Request,
  ): Promise<readonly [number, unknown, Record<string, string>]> => {
    const url = new URL(request.url)
    const headers: Record<string, string> = {}
    request.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value
    })
    const simRequest: SimRequest = {
      method: request.method.toUpperCase(),
      path: `${url.pathname}${url.search}`,
      headers,
      body: request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text(),
    }
    const { decision, response } = service.exchange(simRequest)
    const logged = service.requests().at(-1)
    if (logged !== undefined && isUnknownRoute(response.status, response.body)) unknown.push(logged)
    if (decision.latencyMs > 0 && (await wait(decision.latencyMs, true)))
      throw networkError('ECONNRESET', 'socket hang up')
    switch (decision.failure?.kind) {
      case 'connectionReset':
        throw networkError('ECONNRESET', 'read ECONNRESET')
      case 'hang':
        await wait(HANG_MS, false)
        throw networkError('ECONNRESET', 'socket hang up')
      case 'truncatedBody': {
        const part = truncatedPart(response.body)
        const stream = new Readable({
          read() {
            this.push(part)
            this.destroy(networkError('ECONNRESET', 'response truncated: connection reset'))
          },
        })
        const length = String(Buffer.byteLength(response.body, 'utf8'))
        return [response.status, stream, { ...response.headers, 'content-length': length }]
      }
      default:
        return [response.status, response.body, { ...response.headers }]
    }
  }

  const nock = loadNock()
  const scope = nock(base.origin).persist()
  const interceptors = METHODS.map((method) => {
    const interceptor = scope.intercept((path: string) => isUnder(prefix, path), method)
    interceptor.reply((request: Request) => reply(request))
    return interceptor
  })
  // Everything else on this origin: without these nock answers a bare 501, which a client
  // reports as a failing service with nothing to go on. Say instead that no mock matched, and what the mock serves.
  const unmatched = METHODS.map((method) => {
    const interceptor = scope.intercept((path: string) => !isUnder(prefix, path), method)
    interceptor.reply(async (request: Request) => {
      const url = new URL(request.url)
      const path = `${url.pathname}${url.search}`
      const headers: Record<string, string> = {}
      request.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value
      })
      const body = method === 'GET' || method === 'HEAD' ? '' : await request.text()
      unknown.push(
        logEntry(
          { method, path, headers, body },
          (options.now ?? (() => new Date()))(),
          501,
          undefined,
        ),
      )
      const problem = unmatchedProblem(options.baseUrl, method, url.pathname)
      return [
        501,
        method === 'HEAD' ? '' : JSON.stringify(problem),
        { 'content-type': 'application/problem+json; charset=utf-8' },
      ] as const
    })
    return interceptor
  })

  const unexpectedRequests = (): ReadonlyArray<LoggedRequest> => [...unknown]

  return {
    baseUrl: options.baseUrl,
    ...controlsOf(service),
    reset: () => {
      service.reset()
      unknown = []
    },
    unexpectedRequests,
    assertNoUnexpectedRequests: () => {
      const unexpected = unexpectedRequests()
      if (unexpected.length > 0)
        throw new Error(
          `unexpected requests to ${options.baseUrl}: ${unexpected.map((r) => `${r.method} ${r.path}`).join(', ')}`,
        )
    },
    pendingMocks: () => scope.pendingMocks(),
    webhooks: (outbox) => makeWebhookOutbox(service, outbox),
    restore: () => {
      for (const interceptor of [...interceptors, ...unmatched]) nock.removeInterceptor(interceptor)
      for (const entry of held) {
        clearTimeout(entry.timer)
        entry.release()
      }
      held.clear()
    },
  }
}
