/**
 * The service as a pure function: `handle(state, request, now)` gives the next state and
 * the answer, with no I/O and no clock of its own (the simulator time is `now` plus the
 * state's offset). Expiry runs first on every request. Nothing a request holds makes it
 * throw: an unexpected failure is a 500 problem-details answer with the state unchanged.
 *
 * Controls (pure, for tests, the nock handle and the sandbox's control endpoints) move
 * the clock, record a 3DS result, and pay, cancel or finalize an order.
 *
 * @since 0.1.0
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
  readonly pattern: RegExp
  readonly methods: Readonly<Record<string, Endpoint>>
}

const SEGMENT = '([^/]+)'

/** Every route of the service and of its hosted pages. */
const routes: ReadonlyArray<Route> = [
  { pattern: /^\/token$/, methods: { POST: postToken } },
  { pattern: /^\/paymentmethods$/, methods: { POST: postPaymentMethod } },
  { pattern: /^\/charges$/, methods: { POST: postCharge } },
  { pattern: /^\/paymentlink\/checkout$/, methods: { POST: postCheckout } },
  { pattern: new RegExp(`^/paymentlink/order/${SEGMENT}$`), methods: { GET: getOrder } },
  {
    pattern: new RegExp(`^/3ds/${SEGMENT}$`),
    methods: { GET: getAuthenticationPage, POST: postAuthenticationResult },
  },
  {
    pattern: new RegExp(`^/pay/${SEGMENT}$`),
    methods: { GET: getCheckoutPage, POST: postCheckoutForm },
  },
  { pattern: new RegExp(`^/pay/${SEGMENT}/voucher$`), methods: { GET: getVoucherPage } },
  { pattern: /^\/favicon\.ico$/, methods: { GET: getFavicon } },
]

const decode = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/** The path below the base URL's path, and the query string. */
const split = (
  state: SimulatorState,
  raw: string,
): { readonly path: string; readonly query: URLSearchParams } => {
  const q = raw.indexOf('?')
  let path = q < 0 ? raw : raw.slice(0, q)
  const query = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1))
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
 * @category combinators
 * @since 0.1.0
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
 * @category handle
 * @since 0.1.0
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
 * @category controls
 * @since 0.1.0
 */
export const advanceClock = (state: SimulatorState, ms: number, now: Date): SimulatorState => {
  const moved = { ...state, clockOffsetMs: state.clockOffsetMs + ms }
  return expire(moved, clockMs(moved, now))
}

/**
 * Records the result of a PENDING 3DS authentication, as the frame's buttons do. Left
 * for an unknown id or one that already has a result (or has expired).
 *
 * @category controls
 * @since 0.1.0
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
 * @category controls
 * @since 0.1.0
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
 * @category controls
 * @since 0.1.0
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
 * @category controls
 * @since 0.1.0
 */
export const finalizeOrder = (
  state: SimulatorState,
  orderCode: string,
  now: Date,
): E.Either<string, SimulatorState> => {
  const atMs = clockMs(state, now)
  return moveOrder(expire(state, atMs), orderCode, 'FINALIZED', atMs)
}
