/**
 * The simulator clock: the caller's `now` plus an offset that `advanceClock` moves, and
 * the expiry that runs on every request and every advance (authentications after 10
 * minutes, payment links after `expirationMinutes`; tokens are checked when used).
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

// -------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------

/**
 * PENDING authentications past their lifetime become EXPIRED (a recorded result never
 * changes).
 *
 * @category combinators
 * @since 0.1.0
 */
export const expireAuthentications = (state: SimulatorState, atMs: number): SimulatorState => {
  const due = Object.values(state.authentications).filter(
    (a) => a.status === 'PENDING' && a.expiresAtMs <= atMs,
  )
  if (due.length === 0) return state
  const authentications = { ...state.authentications }
  for (const a of due) authentications[a.id] = { ...a, status: 'EXPIRED' }
  return { ...state, authentications }
}
