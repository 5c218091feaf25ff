/**
 * @paykit/core/pure: everything `@paykit/core` exports except its Node/browser edge
 * (`fetchTransport`, `defaultRuntime`, `defaultSleep` and the defaulting `createClient`).
 * Nothing bundled from here reads `fetch`, a global timer or `globalThis`: the client is
 * `createClientWith`, over a transport, clock and sleep the host injects (the n8n nodes
 * bundle this entry). Webhooks use `node:crypto`.
 *
 * @since 0.1.0
 */

// -------------------------------------------------------------------------------------
// field errors and money
// -------------------------------------------------------------------------------------
export * from './FieldError.js'
export * as Money from './Money.js'
export { MoneyFromNumber } from './Money.js'

// -------------------------------------------------------------------------------------
// plain JSON out of (and into) any codec: amounts as JSON numbers
// -------------------------------------------------------------------------------------
export * as Json from './Json.js'
export type { JsonValue } from './Json.js'

// -------------------------------------------------------------------------------------
// resources (spec section 2) and their rules
// -------------------------------------------------------------------------------------
export * from './Token.js'
export * from './PaymentMethod.js'
export * from './Charge.js'
export * as Authentication from './Authentication.js'
export {
  AuthenticationStatus,
  FrameMessage,
  type FrameMessageOutput,
  FrameMessageType,
  isAuthenticationSuccess,
} from './Authentication.js'
export * as ChargeFlow from './ChargeFlow.js'
export type { ChargeFlowEvent, ChargeFlowState } from './ChargeFlow.js'
export * from './PaymentLink.js'
export * from './Order.js'
export {
  OrderStatus,
  orderStatuses,
  canTransition as canTransitionOrderStatus,
  isTerminal as isTerminalOrderStatus,
  reduce as reduceOrderStatus,
  transition as transitionOrderStatus,
} from './OrderStatus.js'
export * from './Problem.js'
export * from './TransitionError.js'

// -------------------------------------------------------------------------------------
// webhooks
// -------------------------------------------------------------------------------------
export * from './Webhook.js'

// -------------------------------------------------------------------------------------
// client (I/O, clock and sleep only through the injected runtime)
// -------------------------------------------------------------------------------------
export * from './Transport.js'
export * from './PaykitError.js'
export * from './Redaction.js'
export * as Retry from './Retry.js'
export { defaultRetryPolicy, noRetry, type RequestKind, type RetryPolicy } from './Retry.js'
export * from './TokenCache.js'
export * from './Concurrency.js'
export * from './ClientWith.js'
