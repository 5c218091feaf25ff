/**
 * @paykit/core/pure: everything `@paykit/core` exports except its Node/browser edge
 * (`fetchTransport`, `defaultRuntime`, `defaultSleep` and the defaulting `createClient`).
 * Nothing bundled from here reads `fetch`, a global timer or `globalThis`: the client is
 * `createClientWith`, over a transport, clock and sleep the host injects (the n8n nodes
 * bundle this entry). Nothing here needs Node either: it bundles for a browser. Webhook
 * signing and verification (`node:crypto`) are the server's entry, `@paykit/core/webhook`;
 * the event codec and the header constants are here too.
 *
 * @module @paykit/core/pure
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// field errors and money
// -------------------------------------------------------------------------------------
export * from './model/FieldError.js'
export * from './model/Messages.js'
export * as Money from './model/Money.js'
export { MoneyFromNumber } from './model/Money.js'

// -------------------------------------------------------------------------------------
// plain JSON out of (and into) any codec: amounts as JSON numbers
// -------------------------------------------------------------------------------------
export * as Json from './model/Json.js'
export type { JsonValue } from './model/Json.js'

// -------------------------------------------------------------------------------------
// resources (spec section 2) and their rules
// -------------------------------------------------------------------------------------
export * from './model/Token.js'
export * from './model/PaymentMethod.js'
export * from './model/Charge.js'
export * as Authentication from './machines/Authentication.js'
export {
  AuthenticationStatus,
  FrameMessage,
  type FrameMessageOutput,
  FrameMessageType,
  isAuthenticationSuccess,
} from './machines/Authentication.js'
export * as ChargeFlow from './machines/ChargeFlow.js'
export type { ChargeFlowEvent, ChargeFlowState } from './machines/ChargeFlow.js'
export * from './model/PaymentLink.js'
export * from './model/Order.js'
export * from './model/OrderStatus.js'
export * as OrderFlow from './machines/OrderFlow.js'
export * from './model/Problem.js'
export * from './machines/TransitionError.js'

// -------------------------------------------------------------------------------------
// webhook events (signing and verifying: `@paykit/core/webhook`)
// -------------------------------------------------------------------------------------
export * from './signing/WebhookEvent.js'
export type {
  WebhookBody,
  WebhookSignatureHeader,
  WebhookVerificationError,
  WebhookVerificationInput,
} from './signing/Webhook.js'

// -------------------------------------------------------------------------------------
// client (I/O, clock and sleep only through the injected runtime)
// -------------------------------------------------------------------------------------
export * from './client/Transport.js'
export * from './client/PaykitError.js'
export * from './client/Redaction.js'
export * as Retry from './client/Retry.js'
export { defaultRetryPolicy, noRetry, type RequestKind, type RetryPolicy } from './client/Retry.js'
export * from './client/TokenCache.js'
export * from './client/Concurrency.js'
export * from './client/Client.js'
export * from './client/ClientWith.js'
