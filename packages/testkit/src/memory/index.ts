/**
 * `@paykit/testkit/memory`: the simulator in process with no network, a `Transport` for
 * the core's client answered on the spot (no socket, no interceptor, no timer).
 *
 * @module @paykit/testkit/memory
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// the in-memory service
// -------------------------------------------------------------------------------------
export * from './memoryPaymentService.js'
