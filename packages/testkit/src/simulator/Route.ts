/**
 * What an endpoint of the simulator is: a function from the request in context (state,
 * simulator time, path parameters, query) to the next state and the answer.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import type { SimRequest, SimResponse } from './Http.js'
import type { SimulatorState } from './State.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A request in context: the state after expiry, the simulator time, the decoded path
 * parameters and the query string.
 *
 * @category model
 * @since 0.2.0
 */
export interface Context {
  readonly state: SimulatorState
  readonly request: SimRequest
  readonly atMs: number
  readonly params: ReadonlyArray<string>
  readonly query: URLSearchParams
}

/**
 * The next state and the answer.
 *
 * @category model
 * @since 0.2.0
 */
export type Result = readonly [SimulatorState, SimResponse]

/**
 * An endpoint.
 *
 * @category model
 * @since 0.2.0
 */
export type Endpoint = (context: Context) => Result

// -------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------

/**
 * Runs `f` on a gate's Right, or answers its Left with the state unchanged.
 *
 * @category combinators
 * @since 0.2.0
 */
export const through =
  <A>(state: SimulatorState, gate: E.Either<SimResponse, A>) =>
  (f: (a: A) => Result): Result =>
    E.isLeft(gate) ? [state, gate.left] : f(gate.right)
