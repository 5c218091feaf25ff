/**
 * Every fast-check arbitrary of the testkit, as one module: `@paykit/testkit/arbitraries`
 * exports it as the namespace `Arbitraries` (`Arbitraries.card()`, `Arbitraries.amount(1, 100)`), where
 * the generic names of `common.ts` and `PaymentMethod.ts` (`amount`, `text`, `blank`,
 * `removed`, `card`, `cvv`) cannot be mistaken for anything else.
 *
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// arbitraries
// -------------------------------------------------------------------------------------
export * from './Common.js'
export * from './Token.js'
export * from './PaymentMethod.js'
export * from './Charge.js'
export * from './PaymentLink.js'
export * from './Order.js'
export * from './WebhookEvent.js'
export * from './Authentication.js'
export * from './Problem.js'
export * from './Money.js'
