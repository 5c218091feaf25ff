/**
 * The simulator clock: the caller's `now` plus an offset that `advanceClock` moves (the
 * expiry that runs on every request and every advance is in `Expiry`).
 *
 * @since 0.2.0
 */
import type { SimulatorState } from './State.js'

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * The simulator time, in epoch milliseconds, when the caller's clock reads `now`.
 *
 * @example
 * ```ts
 * import { advanceClock, clockMs, initialState } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * const now = new Date('2026-06-15T12:00:00Z')
 * const state = initialState({ baseUrl: 'http://127.0.0.1:4010' })
 * assert.equal(clockMs(state, now), now.getTime())
 * assert.equal(clockMs(advanceClock(state, 90_000, now), now), now.getTime() + 90_000)
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const clockMs = (state: SimulatorState, now: Date): number =>
  now.getTime() + state.clockOffsetMs

/**
 * The simulator time when the caller's clock reads `now`.
 *
 * @example
 * ```ts
 * import { advanceClock, clockOf, initialState } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * const now = new Date('2026-06-15T12:00:00Z')
 * const state = advanceClock(initialState({ baseUrl: 'http://127.0.0.1:4010' }), 3_600_000, now)
 * assert.equal(clockOf(state, now).toISOString(), '2026-06-15T13:00:00.000Z') // an hour ahead
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const clockOf = (state: SimulatorState, now: Date): Date => new Date(clockMs(state, now))

/**
 * ISO 8601 UTC with milliseconds and a trailing Z (spec 2.5 `createdAt`, 2.8 `created`).
 *
 * @example
 * ```ts
 * import { isoOf } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(isoOf(Date.UTC(2026, 5, 15, 12, 0, 0, 5)), '2026-06-15T12:00:00.005Z')
 * assert.equal(isoOf(0), '1970-01-01T00:00:00.000Z')
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const isoOf = (ms: number): string => new Date(ms).toISOString()
