/**
 * `@paykit/testkit/model`: model-based tests of a user's own integration. fast-check draws
 * stories (the buyer pays, links are created and paid, the network fails in the ways that
 * hurt, time passes, webhooks arrive late, twice, out of order or not at all), plays each
 * against the simulator (in memory by default; also the nock mock or the sandbox) and the
 * integration together, and checks the built-in invariants after each step and once the
 * world is quiet. A failure is shrunk to the shortest story and printed as numbered steps.
 *
 * @module @paykit/testkit/model
 * @since 0.1.0
 */
export * from './Integration.js'
export * from './Invariants.js'
export * from './World.js'
export * from './Commands.js'
export * from './Run.js'
