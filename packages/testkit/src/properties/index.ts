/**
 * `@paykit/testkit/properties`: property suites of a validation function and of a client
 * (fast-check, any runner). The same suites as vitest `describe` blocks are
 * `@paykit/testkit/vitest`.
 *
 * @module @paykit/testkit/properties
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------
export * from './Validation.js'
export * from './Token.js'
export * from './PaymentMethod.js'
export * from './Charge.js'
export * from './PaymentLink.js'
export * from './Http.js'
