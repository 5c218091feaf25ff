/**
 * The error of a state machine's reducer when an event does not apply in a state
 * (shared by the order status, authentication status and charge-flow reducers).
 *
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * An event that does not apply in a state: both named, and a message a person can read.
 *
 * @category model
 * @since 0.2.0
 */
export interface TransitionError {
  readonly _tag: 'TransitionError'
  readonly state: string
  readonly event: string
  readonly message: string
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A `TransitionError` for `event` refused in `state`.
 *
 * @example
 * ```ts
 * import { transitionError } from '@paykit/core/machines'
 * import assert from 'node:assert/strict'
 *
 * const error = transitionError('CANCELLED', 'PAID', 'order status CANCELLED is terminal')
 * assert.deepEqual(error, {
 *   _tag: 'TransitionError',
 *   state: 'CANCELLED',
 *   event: 'PAID',
 *   message: 'order status CANCELLED is terminal',
 * })
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const transitionError = (
  state: string,
  event: string,
  message: string,
): TransitionError => ({
  _tag: 'TransitionError',
  state,
  event,
  message,
})
