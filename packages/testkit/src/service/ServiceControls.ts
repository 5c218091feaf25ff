/**
 * The controls a test has over a running fake of the service, the same for the nock mock
 * and the HTTP sandbox: read its state and logs, move its clock, inject faults, and act as
 * the buyer (3DS frame, hosted checkout) or the merchant portal would.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as Faults from './Faults.js'
import type { AuthenticationResult, LiveService, ServiceEvent } from './LiveService.js'
import type { LoggedRequest } from './RequestLog.js'
import type { OrderPayment } from '../simulator/Orders.js'
import type { SimulatorState } from '../simulator/State.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Controls of a running fake. The acting ones throw an `Error` saying why when the
 * simulator refuses the move (an unknown authentication id or order code, a result already
 * recorded, an order that is no longer PENDING, ...).
 *
 * @category model
 * @since 0.2.0
 */
export interface ServiceControls {
  /** The simulator's current state. */
  readonly state: () => SimulatorState
  /** The webhook events emitted so far. */
  readonly events: () => ReadonlyArray<ServiceEvent>
  /** Every request received, with credentials and card data redacted. */
  readonly requests: () => ReadonlyArray<LoggedRequest>
  /** Moves the simulator clock forward by `ms` milliseconds. */
  readonly advanceClock: (ms: number) => void
  /** Adds a fault for the requests of `target` (all when omitted); `times` limits it. */
  readonly injectFault: (
    fault: Faults.Fault,
    target?: Faults.Target & { readonly times?: number },
  ) => void
  /** Adds `ms` milliseconds of latency for the requests of `target` (all when omitted). */
  readonly setLatency: (ms: number, target?: Faults.Target & { readonly times?: number }) => void
  /** Removes every fault and latency. */
  readonly clearFaults: () => void
  /** Records a 3DS result for an authentication, as the frame's buttons do. */
  readonly completeAuthentication: (authenticationId: string, result: AuthenticationResult) => void
  /** Pays a payment-link order, as the hosted checkout does (success card unless given). */
  readonly payOrder: (orderCode: string, payment?: OrderPayment) => void
  /** Cancels a payment-link order. */
  readonly cancelOrder: (orderCode: string) => void
  /** Finalizes a paid order. */
  readonly finalizeOrder: (orderCode: string) => void
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const orThrow = (result: E.Either<string, void>): void => {
  if (E.isLeft(result)) throw new Error(result.left)
}

/**
 * The controls of a live service, its refusals thrown as errors.
 *
 * @example
 * ```ts
 * import { controlsOf, makeLiveService } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 * import * as E from 'fp-ts/lib/Either.js'
 *
 * const live = makeLiveService({ baseUrl: 'http://paykit.test' })
 * assert.deepEqual(live.cancelOrder('OC99999999'), E.left('no order has code OC99999999'))
 * const controls = controlsOf(live) // the same moves, the Left thrown as an Error
 * assert.throws(() => controls.cancelOrder('OC99999999'), { message: 'no order has code OC99999999' })
 * controls.setLatency(200, { path: '/charges' })
 * assert.deepEqual(live.faults().rules, [{ fault: { kind: 'latency', ms: 200 }, path: '/charges' }])
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const controlsOf = (live: LiveService): ServiceControls => ({
  state: live.state,
  events: live.events,
  requests: live.requests,
  advanceClock: live.advanceClock,
  injectFault: live.injectFault,
  setLatency: (ms, target) => live.injectFault({ kind: 'latency', ms }, target),
  clearFaults: live.clearFaults,
  completeAuthentication: (id, result) => orThrow(live.completeAuthentication(id, result)),
  payOrder: (code, payment) => orThrow(live.payOrder(code, payment)),
  cancelOrder: (code) => orThrow(live.cancelOrder(code)),
  finalizeOrder: (code) => orThrow(live.finalizeOrder(code)),
})
