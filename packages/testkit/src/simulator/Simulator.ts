/**
 * The service as a pure function: `handle(state, request, now)` gives the next state and
 * the answer, with no I/O and no clock of its own (the simulator time is `now` plus the
 * state's offset). Expiry runs first on every request. Nothing a request holds makes it
 * throw: an unexpected failure is a 500 problem-details answer with the state unchanged.
 *
 * Controls (pure, for tests, the nock handle and the sandbox's control endpoints) move
 * the clock, record a 3DS result, and pay, cancel or finalize an order.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import {
  getAuthenticationPage,
  postAuthenticationResult,
  recordAuthenticationResult,
  type AuthenticationResult,
} from './Authentications.js'
import { postCharge } from './Charges.js'
import { clockMs } from './Clock.js'
import { expire as expireDue } from './Expiry.js'
import { withinSizeLimit } from './Gates.js'
import type { SimRequest, SimResponse } from './Http.js'
import { moveOrder, payOrderAt, type OrderPayment } from './Orders.js'
import {
  getCheckoutPage,
  getOrder,
  getVoucherPage,
  postCheckout,
  postCheckoutForm,
} from './PaymentLinks.js'
import { getFavicon } from './Pages.js'
import { postPaymentMethod } from './PaymentMethods.js'
import { internalError, problem } from './Responses.js'
import type { Endpoint } from './Route.js'
import type { SimulatorState } from './State.js'

export { eventsOf, initialState, type SimulatorOptions, type SimulatorState } from './State.js'
export type { OrderPayment } from './Orders.js'
export type { AuthenticationResult } from './Authentications.js'
import { postToken } from './Tokens.js'

// -------------------------------------------------------------------------------------
// routes
// -------------------------------------------------------------------------------------

interface Route {
  /** What the path starts with (tested before the pattern, which is slower). */
  readonly prefix: string
  readonly pattern: RegExp
  readonly methods: Readonly<Record<string, Endpoint>>
}

const SEGMENT = '([^/]+)'

/** Every route of the service and of its hosted pages. */
const routes: ReadonlyArray<Route> = [
  { prefix: '/token', pattern: /^\/token$/, methods: { POST: postToken } },
  {
    prefix: '/paymentmethods',
    pattern: /^\/paymentmethods$/,
    methods: { POST: postPaymentMethod },
  },
  { prefix: '/charges', pattern: /^\/charges$/, methods: { POST: postCharge } },
  {
    prefix: '/paymentlink/checkout',
    pattern: /^\/paymentlink\/checkout$/,
    methods: { POST: postCheckout },
  },
  {
    prefix: '/paymentlink/order/',
    pattern: new RegExp(`^/paymentlink/order/${SEGMENT}$`),
    methods: { GET: getOrder },
  },
  {
    prefix: '/3ds/',
    pattern: new RegExp(`^/3ds/${SEGMENT}$`),
    methods: { GET: getAuthenticationPage, POST: postAuthenticationResult },
  },
  {
    prefix: '/pay/',
    pattern: new RegExp(`^/pay/${SEGMENT}$`),
    methods: { GET: getCheckoutPage, POST: postCheckoutForm },
  },
  {
    prefix: '/pay/',
    pattern: new RegExp(`^/pay/${SEGMENT}/voucher$`),
    methods: { GET: getVoucherPage },
  },
  { prefix: '/favicon.ico', pattern: /^\/favicon\.ico$/, methods: { GET: getFavicon } },
]

const decode = (segment: string): string | undefined => {
  if (!segment.includes('%')) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

// The query of a path without one: endpoints only read it, so every such request shares it.
const NO_QUERY = new URLSearchParams()

/** The path below the base URL's path, and the query string. */
const split = (
  state: SimulatorState,
  raw: string,
): { readonly path: string; readonly query: URLSearchParams } => {
  const q = raw.indexOf('?')
  let path = q < 0 ? raw : raw.slice(0, q)
  const query = q < 0 ? NO_QUERY : new URLSearchParams(raw.slice(q + 1))
  const base = state.config.basePath
  if (base !== '' && (path === base || path.startsWith(`${base}/`))) path = path.slice(base.length)
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1)
  return { path: path === '' ? '/' : path, query }
}

// -------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------

/**
 * Runs the expiry due at simulator time `atMs`: PENDING authentications past 10 minutes
 * become EXPIRED, unpaid links past `expirationMinutes` become CANCELLED (emitting
 * `order.cancelled`), orders and tokens past their expiry plus `retentionSeconds` are
 * dropped. Reads only the deadlines due (a time index), never every record.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { eventsOf, initialState, Simulator } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * const now = new Date('2026-06-15T12:00:00Z')
 * const headers = {
 *   'content-type': 'application/json',
 *   authorization: `Bearer ${defaultCredentials.apiKey}`,
 * }
 * const body = JSON.stringify({ amount: 10, expirationMinutes: 1 })
 * const request = { method: 'POST', path: '/paymentlink/checkout', headers, body }
 * const [state, response] = Simulator.handle(
 *   initialState({ baseUrl: 'http://127.0.0.1:4010' }),
 *   request,
 *   now,
 * )
 * const { orderCode } = JSON.parse(response.body)
 * const later = Simulator.expire(state, now.getTime() + 61_000) // past the link's minute
 * assert.equal(later.orders[orderCode]?.status, 'CANCELLED')
 * assert.equal(eventsOf(later).at(-1)?.type, 'order.cancelled')
 * assert.equal(state.orders[orderCode]?.status, 'PENDING')
 * ```
 *
 * @category combinators
 * @since 0.2.0
 */
export const expire = (state: SimulatorState, atMs: number): SimulatorState =>
  expireDue(state, atMs)

const route = (
  state: SimulatorState,
  request: SimRequest,
  atMs: number,
): readonly [SimulatorState, SimResponse] => {
  const { path, query } = split(state, request.path)
  const size = withinSizeLimit(state, request)
  if (E.isLeft(size)) return [state, size.left]
  for (const r of routes) {
    if (!path.startsWith(r.prefix)) continue
    const m = r.pattern.exec(path)
    if (m === null) continue
    const params = m.slice(1).map(decode)
    if (params.some((p) => p === undefined))
      return [state, problem(404, 'The path is not a valid address.')]
    const method = request.method.toUpperCase()
    // HEAD is GET without the body (RFC 9110 9.3.2), and safe: its state change is dropped.
    const head = method === 'HEAD' && Object.hasOwn(r.methods, 'GET')
    const key = head ? 'GET' : method
    const endpoint = Object.hasOwn(r.methods, key) ? r.methods[key] : undefined
    if (endpoint === undefined) {
      const methods = Object.keys(r.methods)
      const allowed = (Object.hasOwn(r.methods, 'GET') ? [...methods, 'HEAD'] : methods).join(', ')
      return [
        state,
        problem(405, `${method} is not allowed here; use ${allowed}.`, { allow: allowed }),
      ]
    }
    const result = endpoint({
      state,
      request,
      atMs,
      params: params as ReadonlyArray<string>,
      query,
    })
    return head ? [state, result[1]] : result
  }
  return [state, problem(404, 'No endpoint of the service has this address.')]
}

// -------------------------------------------------------------------------------------
// handle
// -------------------------------------------------------------------------------------

/**
 * Answers one request at the caller's time `now` (the simulator time is `now` plus the
 * clock offset): expiry first, then the endpoint. Total: never throws.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { initialState, Simulator } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * const state = initialState({ baseUrl: 'http://127.0.0.1:4010' })
 * const body = JSON.stringify({
 *   clientId: defaultCredentials.clientId,
 *   clientSecret: defaultCredentials.clientSecret,
 * })
 * const request = {
 *   method: 'POST',
 *   path: '/token',
 *   headers: { 'content-type': 'application/json' },
 *   body,
 * }
 * const [next, response] = Simulator.handle(state, request, new Date())
 * assert.equal(response.status, 200)
 * assert.equal(JSON.parse(response.body).tokenType, 'Bearer')
 * assert.equal(Object.keys(next.tokens).length, 1)
 * assert.equal(Object.keys(state.tokens).length, 0) // pure: the state given is unchanged
 * const [, notFound] = Simulator.handle(next, { ...request, path: '/nowhere' }, new Date())
 * assert.equal(notFound.status, 404)
 * ```
 *
 * @category handle
 * @since 0.2.0
 */
export const handle = (
  state: SimulatorState,
  request: SimRequest,
  now: Date,
): readonly [SimulatorState, SimResponse] => {
  try {
    const atMs = clockMs(state, now)
    return route(expire(state, atMs), request, atMs)
  } catch {
    return [state, internalError()]
  }
}

// -------------------------------------------------------------------------------------
// controls
// -------------------------------------------------------------------------------------

/**
 * Moves the simulator clock `ms` forward (a negative `ms` moves it back) and runs the
 * expiry due at the new time.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { advanceClock, clockOf, initialState, Simulator } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * const now = new Date('2026-06-15T12:00:00Z')
 * const headers = {
 *   'content-type': 'application/json',
 *   authorization: `Bearer ${defaultCredentials.apiKey}`,
 * }
 * const body = JSON.stringify({ amount: 10, expirationMinutes: 1 })
 * const request = { method: 'POST', path: '/paymentlink/checkout', headers, body }
 * const [state, response] = Simulator.handle(
 *   initialState({ baseUrl: 'http://127.0.0.1:4010' }),
 *   request,
 *   now,
 * )
 * const { orderCode } = JSON.parse(response.body)
 * const moved = advanceClock(state, 2 * 60_000, now) // two minutes on, without waiting
 * assert.equal(clockOf(moved, now).toISOString(), '2026-06-15T12:02:00.000Z')
 * assert.equal(moved.orders[orderCode]?.status, 'CANCELLED') // its one-minute link expired
 * ```
 *
 * @category controls
 * @since 0.2.0
 */
export const advanceClock = (state: SimulatorState, ms: number, now: Date): SimulatorState => {
  const moved = { ...state, clockOffsetMs: state.clockOffsetMs + ms }
  return expire(moved, clockMs(moved, now))
}

/**
 * Records the result of a PENDING 3DS authentication, as the frame's buttons do. Left
 * for an unknown id or one that already has a result (or has expired).
 *
 * @example
 * ```ts
 * import { defaultCredentials, testCards } from '@paykit/testkit'
 * import { completeAuthentication, initialState, Simulator } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * const now = new Date('2026-06-15T12:00:00Z')
 * let state = initialState({ baseUrl: 'http://127.0.0.1:4010' })
 * const post = (path: string, body: unknown, token = '') => {
 *   const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` }
 *   const [next, response] = Simulator.handle(
 *     state,
 *     { method: 'POST', path, headers, body: JSON.stringify(body) },
 *     now,
 *   )
 *   state = next
 *   return JSON.parse(response.body)
 * }
 * const { accessToken } = post('/token', defaultCredentials)
 * const card = {
 *   number: testCards.authentication.number,
 *   expirationMonth: '12',
 *   expirationYear: '2030',
 *   cvv: '123',
 * }
 * const { id: cardId } = post('/paymentmethods', { card }, accessToken)
 * const order = { id: 'order-1', amount: 25 }
 * const { authentication } = post('/charges', { order, cardId }, accessToken) // AUTHENTICATION_REQUIRED
 * // The buyer passes 3DS (as the frame's "success" button does); then the charge succeeds.
 * const done = completeAuthentication(state, authentication.id, 'success', now)
 * assert.ok(done._tag === 'Right')
 * state = done.right
 * assert.equal(
 *   post('/charges', { order, cardId, authenticationId: authentication.id }, accessToken).status,
 *   'SUCCEEDED',
 * )
 * assert.equal(completeAuthentication(state, authentication.id, 'failed', now)._tag, 'Left') // final
 * ```
 *
 * @category controls
 * @since 0.2.0
 */
export const completeAuthentication = (
  state: SimulatorState,
  authenticationId: string,
  result: AuthenticationResult,
  now: Date,
): E.Either<string, SimulatorState> =>
  recordAuthenticationResult(expire(state, clockMs(state, now)), authenticationId, result)

/**
 * Pays a PENDING payment-link order as the checkout page does (the `success` test card
 * and a sandbox buyer unless given): PAID, `payment` recorded, `order.paid` emitted.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { eventsOf, initialState, payOrder, Simulator } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * const now = new Date('2026-06-15T12:00:00Z')
 * const headers = {
 *   'content-type': 'application/json',
 *   authorization: `Bearer ${defaultCredentials.apiKey}`,
 * }
 * const request = { method: 'POST', path: '/paymentlink/checkout', headers, body: '{"amount":10}' }
 * const [state, response] = Simulator.handle(
 *   initialState({ baseUrl: 'http://127.0.0.1:4010' }),
 *   request,
 *   now,
 * )
 * const { orderCode } = JSON.parse(response.body)
 * const paid = payOrder(state, orderCode, { buyer: { name: 'Ada Lovelace' } }, now)
 * assert.ok(paid._tag === 'Right')
 * assert.equal(paid.right.orders[orderCode]?.status, 'PAID')
 * assert.equal(paid.right.orders[orderCode]?.payment?.buyer.name, 'Ada Lovelace')
 * assert.equal(eventsOf(paid.right).at(-1)?.type, 'order.paid')
 * assert.equal(payOrder(state, 'no-such-order', {}, now)._tag, 'Left')
 * ```
 *
 * @category controls
 * @since 0.2.0
 */
export const payOrder = (
  state: SimulatorState,
  orderCode: string,
  payment: OrderPayment = {},
  now: Date,
): E.Either<string, SimulatorState> => {
  const atMs = clockMs(state, now)
  return payOrderAt(expire(state, atMs), orderCode, payment, atMs)
}

/**
 * Cancels a PENDING payment-link order: CANCELLED, `order.cancelled` emitted.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { cancelOrder, eventsOf, initialState, Simulator } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * const now = new Date('2026-06-15T12:00:00Z')
 * const headers = {
 *   'content-type': 'application/json',
 *   authorization: `Bearer ${defaultCredentials.apiKey}`,
 * }
 * const request = { method: 'POST', path: '/paymentlink/checkout', headers, body: '{"amount":10}' }
 * const [state, response] = Simulator.handle(
 *   initialState({ baseUrl: 'http://127.0.0.1:4010' }),
 *   request,
 *   now,
 * )
 * const { orderCode } = JSON.parse(response.body)
 * const cancelled = cancelOrder(state, orderCode, now)
 * assert.ok(cancelled._tag === 'Right')
 * assert.equal(cancelled.right.orders[orderCode]?.status, 'CANCELLED')
 * assert.equal(eventsOf(cancelled.right).at(-1)?.type, 'order.cancelled')
 * assert.equal(cancelOrder(cancelled.right, orderCode, now)._tag, 'Left') // no longer PENDING
 * ```
 *
 * @category controls
 * @since 0.2.0
 */
export const cancelOrder = (
  state: SimulatorState,
  orderCode: string,
  now: Date,
): E.Either<string, SimulatorState> => {
  const atMs = clockMs(state, now)
  return moveOrder(expire(state, atMs), orderCode, 'CANCELLED', atMs)
}

/**
 * Finalizes a PAID payment-link order: FINALIZED, `order.finalized` emitted.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { pipe } from 'fp-ts/lib/function.js'
 * import { defaultCredentials } from '@paykit/testkit'
 * import { finalizeOrder, initialState, payOrder, Simulator } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * const now = new Date('2026-06-15T12:00:00Z')
 * const headers = {
 *   'content-type': 'application/json',
 *   authorization: `Bearer ${defaultCredentials.apiKey}`,
 * }
 * const request = { method: 'POST', path: '/paymentlink/checkout', headers, body: '{"amount":10}' }
 * const [state, response] = Simulator.handle(
 *   initialState({ baseUrl: 'http://127.0.0.1:4010' }),
 *   request,
 *   now,
 * )
 * const { orderCode } = JSON.parse(response.body)
 * const finalized = pipe(
 *   payOrder(state, orderCode, {}, now),
 *   E.flatMap((paid) => finalizeOrder(paid, orderCode, now)),
 * )
 * assert.ok(finalized._tag === 'Right')
 * assert.equal(finalized.right.orders[orderCode]?.status, 'FINALIZED')
 * assert.equal(finalizeOrder(state, orderCode, now)._tag, 'Left') // PENDING: not paid yet
 * ```
 *
 * @category controls
 * @since 0.2.0
 */
export const finalizeOrder = (
  state: SimulatorState,
  orderCode: string,
  now: Date,
): E.Either<string, SimulatorState> => {
  const atMs = clockMs(state, now)
  return moveOrder(expire(state, atMs), orderCode, 'FINALIZED', atMs)
}
