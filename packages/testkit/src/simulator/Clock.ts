/**
 * The simulator clock: the caller's `now` plus an offset that `advanceClock` moves (the
 * expiry that runs on every request and every advance is in `Expiry`).
 *
 * @since 0.1.0
 */
import type { SimulatorState } from './State.js'

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * The simulator time, in epoch milliseconds, when the caller's clock reads `now`.
 *
 * @category destructors
 * @since 0.1.0
 */
export const clockMs = (state: SimulatorState, now: Date): number =>
  now.getTime() + state.clockOffsetMs

/**
 * The simulator time when the caller's clock reads `now`.
 *
 * @category destructors
 * @since 0.1.0
 */
export const clockOf = (state: SimulatorState, now: Date): Date => new Date(clockMs(state, now))

/**
 * ISO 8601 UTC with milliseconds and a trailing Z (spec 2.5 `createdAt`, 2.8 `created`).
 *
 * @category destructors
 * @since 0.1.0
 */
export const isoOf = (ms: number): string => new Date(ms).toISOString()
