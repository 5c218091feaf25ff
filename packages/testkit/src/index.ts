/**
 * @paykit/testkit: a fake of the card-payment service (one pure simulator, behind nock
 * and behind a real HTTP sandbox), the sandbox's test cards and credentials, fast-check
 * arbitraries and properties. The vitest suites are in `@paykit/testkit/vitest`, so this
 * root loads without vitest.
 *
 * Every module is exported whole (`export *`), except `Faults` (a namespace: its
 * combinator names are generic) and the few names a module shares with `@paykit/core`,
 * which are renamed here. The arbitraries and the simulator are also namespaces,
 * `Arbitraries` and `Simulator`: their generic names (`amount`, `text`, `blank`, `removed`,
 * `card`, `cvv`, `handle`, `expire`) are only there, so those modules are listed by name
 * below. No name of this root means something else in `@paykit/core`;
 * the names both export (`ChargeRequestInput`, `LineItemInput`, `PaymentLinkRequestInput`,
 * `REDACTED`, `redactBody`, `redactHeaders`) are the core's own.
 *
 * @module @paykit/testkit
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// the Node.js floor: evaluated before any module that loads nock
// -------------------------------------------------------------------------------------
import './engines/NodeVersion.js'
export * from './engines/NodeVersion.js'

// -------------------------------------------------------------------------------------
// test cards, credentials, store and catalogue
// -------------------------------------------------------------------------------------
export * from './simulator/TestCards.js'

// -------------------------------------------------------------------------------------
// simulator (pure)
// -------------------------------------------------------------------------------------
export * from './simulator/Http.js'
// Not `handle`, `expire` (`Simulator.handle`) nor the helper `own`: generic names.
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
} from './simulator/State.js'
export {
  advanceClock,
  cancelOrder,
  completeAuthentication,
  finalizeOrder,
  payOrder,
} from './simulator/Simulator.js'
export * as Simulator from './simulator/Simulator.js'
export * from './simulator/Clock.js'
// Orders and Authentications also hold the endpoints; `Buyer` there is not the core's.
export { orderDetailsOf, type OrderPayment } from './simulator/Orders.js'
export { frameMessageOf, type AuthenticationResult } from './simulator/Authentications.js'

// -------------------------------------------------------------------------------------
// adapters: faults, request log, the live service, nock, the sandbox
// -------------------------------------------------------------------------------------
export * as Faults from './service/Faults.js'
export type {
  Fault,
  Failure,
  Latency,
  Target as FaultTarget,
  FaultInjection,
} from './service/Faults.js'
export * from './service/ServiceControls.js'
export {
  DEFAULT_REQUEST_LOG_SIZE,
  makeRequestLog,
  redactPath,
  type LoggedRequest,
  type RequestLog,
} from './service/RequestLog.js'
export * from './service/RequestAssertions.js'
export type { PersistentRecord } from './simulator/HashTrie.js'
export type { Deadline, DeadlineKind, TimeIndex } from './simulator/TimeIndex.js'
export type { EventLog } from './simulator/EventLog.js'
// `Exchange` is the core client's `onExchange` record: the live service's is `ServiceExchange`.
export {
  makeLiveService,
  type Exchange as ServiceExchange,
  type LiveService,
  type LiveServiceOptions,
  type ServiceEvent,
} from './service/LiveService.js'
export * from './nock/mockPaymentService.js'
export * from './sandbox/startSandbox.js'
export * from './sandbox/Webhooks.js'
export * from './sandbox/Control.js'
export * from './sandbox/spawnSandbox.js'
export * from './sandbox/startWebhookReceiver.js'
export * from './service/WebhookDelivery.js'
export * from './memory/memoryPaymentService.js'
export { REDACTED, redactBody, redactHeaders } from '@paykit/core'

// -------------------------------------------------------------------------------------
// arbitraries (fast-check): valid requests, and invalid ones labelled with field and rule
// -------------------------------------------------------------------------------------
// Not `amount`, `text`, `blank`, `removed`, `card`, `cvv` (`Arbitraries.card`): generic names.
export {
  asciiOfLength,
  breakAt,
  httpUrl,
  httpUrlOfLength,
  type Invalid,
  isoDateTime,
  type Key,
  namedFields,
  notANumber,
  notAnObject,
  notAString,
  pathOfKeys,
  removeAt,
  setAt,
  textOfLength,
} from './arbitraries/Common.js'
export * from './arbitraries/Token.js'
export {
  type CardInput,
  cardNumber,
  cardSecretsOf,
  customer,
  type CustomerInput,
  futureExpiry,
  invalidPaymentMethodRequest,
  luhnCardNumber,
  luhnCompletion,
  nonLuhnCardNumber,
  paymentMethod,
  type PaymentMethodArbitraryOptions,
  type PaymentMethodOutput,
  paymentMethodRequest,
  type PaymentMethodRequestInput,
  testCardNumber,
} from './arbitraries/PaymentMethod.js'
export * from './arbitraries/Charge.js'
export * from './arbitraries/PaymentLink.js'
export * from './arbitraries/Order.js'
export * from './arbitraries/WebhookEvent.js'
export * from './arbitraries/Authentication.js'
export * from './arbitraries/Problem.js'
export * as Arbitraries from './arbitraries/index.js'

// -------------------------------------------------------------------------------------
// properties (fast-check, any runner); the vitest suites are `@paykit/testkit/vitest`
// -------------------------------------------------------------------------------------
export * from './properties/Validation.js'
export * from './properties/Token.js'
export * from './properties/PaymentMethod.js'
export * from './properties/Charge.js'
export * from './properties/PaymentLink.js'
export * from './properties/Http.js'

// -------------------------------------------------------------------------------------
// the buyer, without a browser: 3DS and the checkout page
// -------------------------------------------------------------------------------------
export * from './buyer/Authenticate.js'
export * from './buyer/payOnCheckoutPage.js'
