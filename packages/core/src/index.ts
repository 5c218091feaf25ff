/**
 * @paykit/core: codecs, rules, exact money and state machines for the card-payment
 * service (no I/O), and a client over an injected transport.
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
// client (I/O only through the injected Transport)
// -------------------------------------------------------------------------------------
export * from './Transport.js'
export * from './FetchTransport.js'
export * from './PaykitError.js'
export * from './Redaction.js'
export * as Retry from './Retry.js'
export { defaultRetryPolicy, noRetry, type RequestKind, type RetryPolicy } from './Retry.js'
export * from './TokenCache.js'
export * from './Concurrency.js'
export * from './Client.js'
