/**
 * `@paykit/testkit/model`: model-based tests of a user's own integration. fast-check draws
 * stories (the buyer pays, links are created and paid, the network fails in the ways that
 * hurt, time passes, webhooks arrive late, twice, out of order or not at all), plays each
 * against the simulator (in memory by default; also the nock mock or the sandbox) and the
 * integration together, and checks the built-in invariants after each step and once the
 * world is quiet. A failure is shrunk to the shortest story and printed as numbered steps,
 * every secret redacted.
 *
 * The common path is `checkModel(options)`, or `stories(options)` in
 * `@fast-check/vitest`'s `test.prop`; `Steps` writes a story by hand, `Invariants` holds
 * the built-in checks.
 *
 * @module @paykit/testkit/model
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// the adapter
// -------------------------------------------------------------------------------------
export type * from './Integration.js'

// -------------------------------------------------------------------------------------
// running: one runner, one arbitrary
// -------------------------------------------------------------------------------------
export {
  checkModel,
  stories,
  type ModelOptions,
  type ModelReport,
  type OrderInput,
  type Story,
} from './Run.js'
export {
  InvariantBroken,
  type World,
  type CardKind,
  type Forgery,
  type ServiceKind,
  type ThreeDsEnding,
  type WebhookMove,
} from './World.js'

// -------------------------------------------------------------------------------------
// stories by hand, invariants of one's own
// -------------------------------------------------------------------------------------
export * as Steps from './Steps.js'
export * as Invariants from './Invariants.js'
export type { Step } from './Steps.js'
export type {
  ForgedDelivery,
  Invariant,
  Observation,
  ServiceOrder,
  ViewedOrder,
} from './Invariants.js'
