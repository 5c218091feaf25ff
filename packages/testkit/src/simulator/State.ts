/**
 * The simulator's state: configuration, clock offset, tokens, payment methods, charges,
 * authentications, payment-link orders, the event log and the counters that number
 * them. Readonly data; every change makes a new state, without copying what did not
 * change: the records are persistent maps (`HashTrie`: an insert copies O(log n), older
 * states keep their entries), expiry reads a time index (`TimeIndex`) instead of scanning,
 * and the event log is bounded (`EventLog`). So a request costs the same whatever the
 * number of orders stored, and orders and tokens are dropped `retentionSeconds` after
 * they expire, which bounds the memory of a long-running sandbox.
 *
 * @since 0.2.0
 */
import type {
  AuthenticationStatus,
  Money,
  OrderLineItem,
  OrderStatus,
  Payment,
  Store,
  WebhookEvent,
} from '@paykit/core/pure'
import { EventLog } from './EventLog.js'
import { empty, lookup, type PersistentRecord } from './HashTrie.js'
import { TimeIndex } from './TimeIndex.js'
import {
  defaultCredentials,
  defaultProducts,
  defaultStore,
  type CatalogueProduct,
  type TestCardOutcome,
} from './TestCards.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * How a simulator is set up. Every member but `baseUrl` has a default: the credentials
 * of `defaultCredentials`, the `defaultProducts` catalogue, tokens living 3600 s,
 * request bodies of at most 1 MiB (1048576 bytes), orders and tokens kept 24 h past
 * their expiry, and the last 1000 events.
 *
 * @category model
 * @since 0.2.0
 */
export interface SimulatorOptions {
  /** The service's base URL; hosted pages and links are addresses below it. */
  readonly baseUrl: string
  readonly clientId?: string
  readonly clientSecret?: string
  readonly apiKey?: string
  readonly products?: ReadonlyArray<CatalogueProduct>
  readonly tokenLifetimeSeconds?: number
  readonly maxBodyBytes?: number
  /**
   * How long an order is kept after its link's expiry time (whatever its status), and an
   * access token after its expiry, in seconds of the simulator clock; then it is dropped
   * (`GET` of a dropped order is 404, a dropped token is not valid). Default 86400 (24 h);
   * `Infinity` keeps them forever.
   */
  readonly retentionSeconds?: number
  /** How many order events `eventsOf` keeps, the latest (default 1000). */
  readonly eventLogSize?: number
  /**
   * Added to every number of an id or order code the simulator gives (default 0: the first
   * event is `evt_000001`). A sandbox started again beside a store that keeps the ids of an
   * earlier start (a shop's database, n8n's replay memory) gives new ones with a larger
   * offset, instead of the same ids for other orders.
   */
  readonly idOffset?: number
}

/**
 * The options with every default filled in (`baseUrl` without a trailing slash).
 *
 * @category model
 * @since 0.2.0
 */
export interface SimulatorConfig {
  readonly baseUrl: string
  /** The path of `baseUrl` (`""` at the root), which request paths may carry. */
  readonly basePath: string
  readonly clientId: string
  readonly clientSecret: string
  readonly apiKey: string
  readonly products: ReadonlyArray<CatalogueProduct & { readonly productId: number }>
  readonly tokenLifetimeSeconds: number
  readonly maxBodyBytes: number
  readonly retentionSeconds: number
  readonly eventLogSize: number
  readonly store: Store
}

/**
 * An access token issued by `POST /token`.
 *
 * @category model
 * @since 0.2.0
 */
export interface TokenRecord {
  readonly accessToken: string
  readonly expiresAtMs: number
}

/**
 * A payment method. The card number and CVV are not kept: only what the sandbox needs.
 *
 * @category model
 * @since 0.2.0
 */
export interface PaymentMethodRecord {
  readonly id: string
  readonly brand: string
  readonly issuerName: string
  readonly countryCode: string
  readonly last4: string
  readonly outcome: TestCardOutcome
}

/**
 * A 3DS authentication, bound to the merchant order id and the card it was made for.
 *
 * @category model
 * @since 0.2.0
 */
export interface AuthenticationRecord {
  readonly id: string
  readonly orderId: string
  readonly cardId: string
  readonly amount: Money.Money
  readonly status: AuthenticationStatus
  readonly createdAtMs: number
  readonly expiresAtMs: number
}

/**
 * One `POST /charges` answered with a charge response (a 400 is not recorded).
 *
 * @category model
 * @since 0.2.0
 */
export interface ChargeRecord {
  readonly id: string
  /** The merchant's `order.id`. */
  readonly orderId: string
  readonly cardId: string
  readonly amount: Money.Money
  readonly status: 'FAILED' | 'SUCCEEDED' | 'AUTHENTICATION_REQUIRED'
  /** The `error.code` of a FAILED charge. */
  readonly errorCode: string | null
  readonly authenticationId: string | null
  /** The service's order id of a SUCCEEDED charge. */
  readonly serviceOrderId: string | null
  readonly authorizationCode: string | null
  readonly createdAt: string
}

/**
 * A payment-link order.
 *
 * @category model
 * @since 0.2.0
 */
export interface OrderRecord {
  readonly orderId: number
  readonly orderCode: string
  readonly orderReference: string | null
  readonly name: string
  readonly description: string | null
  readonly lineItems: ReadonlyArray<OrderLineItem>
  readonly subtotal: Money.Money
  readonly total: Money.Money
  readonly metadata: ReadonlyArray<{ readonly name: string; readonly value: string }>
  readonly successUrl: string | null
  readonly cancelUrl: string | null
  readonly locationCode: string | null
  readonly status: OrderStatus
  readonly payment: Payment | null
  readonly createdAtMs: number
  readonly expiresAtMs: number
}

/**
 * The numbers last given to each kind of identifier.
 *
 * @category model
 * @since 0.2.0
 */
export interface Counters {
  readonly token: number
  readonly paymentMethod: number
  readonly charge: number
  readonly authentication: number
  readonly order: number
  readonly event: number
  readonly product: number
}

/**
 * The whole simulated service.
 *
 * @category model
 * @since 0.2.0
 */
export interface SimulatorState {
  readonly config: SimulatorConfig
  /** The simulator clock is the caller's `now` plus this offset. */
  readonly clockOffsetMs: number
  /** By access token (read-only records backed by persistent maps, as the three below). */
  readonly tokens: PersistentRecord<TokenRecord>
  readonly paymentMethods: PersistentRecord<PaymentMethodRecord>
  readonly charges: ReadonlyArray<ChargeRecord>
  readonly authentications: PersistentRecord<AuthenticationRecord>
  /** By order code. */
  readonly orders: PersistentRecord<OrderRecord>
  /** The order events (read them with `eventsOf`). */
  readonly events: EventLog
  /** When links expire and orders and tokens are dropped, earliest first. */
  readonly deadlines: TimeIndex
  readonly counters: Counters
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * The largest request body accepted by default: 1 MiB.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_BODY_BYTES, initialState, Simulator } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * const state = initialState({ baseUrl: 'http://127.0.0.1:4010' })
 * assert.equal(state.config.maxBodyBytes, DEFAULT_MAX_BODY_BYTES) // 1 MiB
 * const body = JSON.stringify({ clientId: 'x'.repeat(DEFAULT_MAX_BODY_BYTES), clientSecret: 'x' })
 * const headers = { 'content-type': 'application/json' }
 * const [, response] = Simulator.handle(state, { method: 'POST', path: '/token', headers, body }, new Date())
 * assert.equal(response.status, 413)
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/**
 * Token lifetime by default (`expiresIn`), in seconds.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { DEFAULT_TOKEN_LIFETIME_SECONDS, initialState, Simulator } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * const state = initialState({ baseUrl: 'http://127.0.0.1:4010' })
 * const body = JSON.stringify(defaultCredentials) // clientId and clientSecret (apiKey is ignored)
 * const headers = { 'content-type': 'application/json' }
 * const [, response] = Simulator.handle(state, { method: 'POST', path: '/token', headers, body }, new Date())
 * assert.equal(JSON.parse(response.body).expiresIn, DEFAULT_TOKEN_LIFETIME_SECONDS) // 3600
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600

/**
 * How long a 3DS authentication stays PENDING before it expires, in milliseconds.
 *
 * @example
 * ```ts
 * import { defaultCredentials, testCards } from '@paykit/testkit'
 * import { advanceClock, AUTHENTICATION_LIFETIME_MS, initialState, Simulator } from '@paykit/testkit/simulator'
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
 * const { authentication } = post(
 *   '/charges',
 *   { order: { id: 'order-1', amount: 25 }, cardId },
 *   accessToken,
 * )
 * // A 3DS authentication left PENDING for 10 minutes expires.
 * const later = advanceClock(state, AUTHENTICATION_LIFETIME_MS, now)
 * assert.equal(state.authentications[authentication.id]?.status, 'PENDING')
 * assert.equal(later.authentications[authentication.id]?.status, 'EXPIRED')
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const AUTHENTICATION_LIFETIME_MS = 10 * 60 * 1000

/**
 * How long orders and tokens are kept past their expiry by default: 24 h, in seconds.
 *
 * @example
 * ```ts
 * import { DEFAULT_RETENTION_SECONDS, dropTimeOf, initialState } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * // An order (a token) is dropped 24 h after it expires, unless retentionSeconds says otherwise.
 * const state = initialState({ baseUrl: 'http://127.0.0.1:4010' })
 * assert.equal(state.config.retentionSeconds, DEFAULT_RETENTION_SECONDS)
 * assert.equal(dropTimeOf(state, 0), 24 * 3600 * 1000)
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const DEFAULT_RETENTION_SECONDS = 24 * 3600

/**
 * How many order events are kept by default.
 *
 * @example
 * ```ts
 * import { DEFAULT_EVENT_LOG_SIZE, initialState } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * const baseUrl = 'http://127.0.0.1:4010'
 * assert.equal(initialState({ baseUrl }).config.eventLogSize, DEFAULT_EVENT_LOG_SIZE) // 1000
 * assert.equal(initialState({ baseUrl, eventLogSize: 50 }).config.eventLogSize, 50)
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const DEFAULT_EVENT_LOG_SIZE = 1000

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const basePathOf = (baseUrl: string): string => {
  try {
    return new URL(baseUrl).pathname.replace(/\/+$/, '')
  } catch {
    return ''
  }
}

/**
 * A fresh simulator (also the reset): no tokens, cards, charges, orders or events, and
 * the clock at the caller's time.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { eventsOf, initialState } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * const state = initialState({ baseUrl: 'http://127.0.0.1:4010/', tokenLifetimeSeconds: 60 })
 * assert.equal(state.config.baseUrl, 'http://127.0.0.1:4010') // without the trailing slash
 * assert.equal(state.config.clientId, defaultCredentials.clientId)
 * assert.equal(state.config.tokenLifetimeSeconds, 60)
 * assert.equal(Object.keys(state.orders).length, 0)
 * assert.deepEqual(eventsOf(state), [])
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const initialState = (options: SimulatorOptions): SimulatorState => {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const first = options.idOffset ?? 0
  const products = (options.products ?? defaultProducts).map((p, i) => ({
    ...p,
    productId: p.productId ?? i + 1,
  }))
  return {
    config: {
      baseUrl,
      basePath: basePathOf(baseUrl),
      clientId: options.clientId ?? defaultCredentials.clientId,
      clientSecret: options.clientSecret ?? defaultCredentials.clientSecret,
      apiKey: options.apiKey ?? defaultCredentials.apiKey,
      products,
      tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      retentionSeconds: options.retentionSeconds ?? DEFAULT_RETENTION_SECONDS,
      eventLogSize: options.eventLogSize ?? DEFAULT_EVENT_LOG_SIZE,
      store: defaultStore,
    },
    clockOffsetMs: 0,
    tokens: empty(),
    paymentMethods: empty(),
    charges: [],
    authentications: empty(),
    orders: empty(),
    events: EventLog.empty(),
    deadlines: TimeIndex.empty,
    counters: {
      token: first,
      paymentMethod: first,
      charge: first,
      authentication: first,
      order: first,
      event: first,
      product: products.reduce((max, p) => Math.max(max, p.productId), 0),
    },
  }
}

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * The order events recorded so far, oldest first: the last `eventLogSize` (1000 by
 * default).
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
 * const paid = payOrder(state, orderCode, {}, now)
 * assert.ok(paid._tag === 'Right')
 * assert.deepEqual(eventsOf(state), [])
 * assert.deepEqual(
 *   eventsOf(paid.right).map((e) => [e.type, e.data.orderCode]),
 *   [['order.paid', orderCode]],
 * )
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const eventsOf = (state: SimulatorState): ReadonlyArray<WebhookEvent> =>
  state.events.last(state.config.eventLogSize)

/**
 * How many events were ever recorded (those dropped from the log included).
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { cancelOrder, eventCountOf, eventsOf, initialState, Simulator } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * const now = new Date('2026-06-15T12:00:00Z')
 * const headers = {
 *   'content-type': 'application/json',
 *   authorization: `Bearer ${defaultCredentials.apiKey}`,
 * }
 * // A log of one event: the count goes on when the log drops the older ones.
 * let state = initialState({ baseUrl: 'http://127.0.0.1:4010', eventLogSize: 1 })
 * for (const amount of [10, 20]) {
 *   const request = {
 *     method: 'POST',
 *     path: '/paymentlink/checkout',
 *     headers,
 *     body: `{"amount":${amount}}`,
 *   }
 *   const [created, response] = Simulator.handle(state, request, now)
 *   const cancelled = cancelOrder(created, JSON.parse(response.body).orderCode, now)
 *   assert.ok(cancelled._tag === 'Right')
 *   state = cancelled.right
 * }
 * assert.equal(eventCountOf(state), 2)
 * assert.equal(eventsOf(state).length, 1)
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const eventCountOf = (state: SimulatorState): number => state.events.total

/**
 * The events recorded after the first `count` (see {@link eventCountOf}), oldest first:
 * every event of the latest step is held, whatever `eventLogSize`.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { eventCountOf, eventsSince, finalizeOrder, initialState, payOrder, Simulator } from '@paykit/testkit/simulator'
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
 * const paid = payOrder(state, orderCode, {}, now)
 * assert.ok(paid._tag === 'Right')
 * const seen = eventCountOf(paid.right) // 1: order.paid
 * const finalized = finalizeOrder(paid.right, orderCode, now)
 * assert.ok(finalized._tag === 'Right')
 * assert.deepEqual(
 *   eventsSince(finalized.right, seen).map((e) => e.type),
 *   ['order.finalized'],
 * )
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const eventsSince = (state: SimulatorState, count: number): ReadonlyArray<WebhookEvent> =>
  state.events.since(count)

/**
 * The simulator time at which a record expiring at `expiresAtMs` is dropped, or
 * `undefined` when the retention is infinite.
 *
 * @example
 * ```ts
 * import { dropTimeOf, initialState } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * const baseUrl = 'http://127.0.0.1:4010'
 * assert.equal(dropTimeOf(initialState({ baseUrl, retentionSeconds: 60 }), 1_000), 61_000)
 * assert.equal(dropTimeOf(initialState({ baseUrl, retentionSeconds: Infinity }), 1_000), undefined)
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const dropTimeOf = (state: SimulatorState, expiresAtMs: number): number | undefined => {
  const at = expiresAtMs + state.config.retentionSeconds * 1000
  return Number.isFinite(at) ? at : undefined
}

/**
 * An identifier `<prefix>_<n>` with n zero-padded to six digits.
 *
 * @example
 * ```ts
 * import { idOf } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(idOf('pm', 42), 'pm_000042')
 * assert.equal(idOf('ord', 1_234_567), 'ord_1234567')
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const idOf = (prefix: string, n: number): string =>
  `${prefix}_${n.toString().padStart(6, '0')}`

/**
 * Takes the next number of a counter: the new state and the number.
 *
 * @example
 * ```ts
 * import { idOf, initialState, nextId } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * const state = initialState({ baseUrl: 'http://127.0.0.1:4010' })
 * const [next, n] = nextId(state, 'paymentMethod')
 * assert.equal(n, 1)
 * assert.equal(idOf('pm', n), 'pm_000001')
 * assert.equal(nextId(next, 'paymentMethod')[1], 2)
 * assert.equal(state.counters.paymentMethod, 0) // the state given is unchanged
 * ```
 *
 * @category combinators
 * @since 0.2.0
 */
export const nextId = (
  state: SimulatorState,
  counter: keyof Counters,
): readonly [SimulatorState, number] => {
  const n = state.counters[counter] + 1
  return [{ ...state, counters: { ...state.counters, [counter]: n } }, n]
}

/**
 * The entry of a record under `key`, only when the record itself has it (so a key such
 * as `__proto__` or `constructor` from a request never reaches the prototype). Internal: the
 * simulator's modules share it; the root does not export it.
 *
 * @category destructors
 * @since 0.2.0
 */
export const own = <A>(record: Readonly<Record<string, A>>, key: string): A | undefined =>
  lookup(record, key)
