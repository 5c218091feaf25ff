/**
 * `@paykit/testkit/simulator`: the pure simulator of the service,
 * `Simulator.handle(state, request, now) -> [state, response]`, its state and records and
 * its clock. No I/O and no Node built-in: it runs in a browser too. The
 * generic names (`handle`, `expire`) are only in the namespace `Simulator`.
 *
 * @module @paykit/testkit/simulator
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// requests and responses
// -------------------------------------------------------------------------------------
export * from './Http.js'

// -------------------------------------------------------------------------------------
// state
// -------------------------------------------------------------------------------------
// Not the helper `own`: a generic name.
export {
  AUTHENTICATION_LIFETIME_MS,
  type AuthenticationRecord,
  type ChargeRecord,
  type Counters,
  DEFAULT_EVENT_LOG_SIZE,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_RETENTION_SECONDS,
  DEFAULT_TOKEN_LIFETIME_SECONDS,
  dropTimeOf,
  eventCountOf,
  eventsOf,
  eventsSince,
  idOf,
  initialState,
  nextId,
  type OrderRecord,
  type PaymentMethodRecord,
  type SimulatorConfig,
  type SimulatorOptions,
  type SimulatorState,
  type TokenRecord,
} from './State.js'
export type { PersistentRecord } from './HashTrie.js'
export type { Deadline, DeadlineKind, TimeIndex } from './TimeIndex.js'
export type { EventLog } from './EventLog.js'

// -------------------------------------------------------------------------------------
// transitions: `handle` and `expire` only as `Simulator.handle`, `Simulator.expire`
// -------------------------------------------------------------------------------------
export {
  advanceClock,
  cancelOrder,
  completeAuthentication,
  finalizeOrder,
  payOrder,
} from './Simulator.js'
export * as Simulator from './Simulator.js'
export * from './Clock.js'
// Orders and Authentications also hold the endpoints; `Buyer` there is not the core's.
export { orderDetailsOf, type OrderPayment } from './Orders.js'
export { frameMessageOf, type AuthenticationResult } from './Authentications.js'
