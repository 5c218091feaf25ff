/**
 * The imperative shell both adapters share: one mutable cell holding the pure simulator's
 * state, the fault plan and the request log. An adapter only turns its transport's request
 * into a `SimRequest`, calls `exchange`, and carries out the answer and the fault.
 *
 * The cell is the only mutable thing: each request swaps in the simulator's next state
 * (which shares everything unchanged with the previous one, so a swap copies nothing
 * large), the log is a ring of the last `requestLogSize` requests, and the new events
 * are found by count, not by comparing logs.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import type { WebhookEvent } from '@paykit/core/webhook'
import * as Faults from './Faults.js'
import { logEntry, makeRequestLog, type LoggedRequest } from './RequestLog.js'
import type { SimRequest, SimResponse } from '../simulator/Http.js'
import type { AuthenticationResult } from '../simulator/Authentications.js'
import type { OrderPayment } from '../simulator/Orders.js'
import * as Sim from '../simulator/Simulator.js'
import {
  eventCountOf,
  eventsOf,
  eventsSince,
  initialState,
  type SimulatorOptions,
  type SimulatorState,
} from '../simulator/State.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The simulator's options plus the wall clock (the simulator adds its own offset).
 *
 * @category model
 * @since 0.2.0
 */
export interface LiveServiceOptions extends SimulatorOptions {
  /** The wall clock; `() => new Date()` unless given. */
  readonly now?: () => Date
  /** How many requests `requests()` keeps, the latest (default 1000; at least 1). */
  readonly requestLogSize?: number
  /**
   * More secrets the request log must never hold (the sandbox's webhook secret); the
   * client secret and API key are always redacted.
   */
  readonly secrets?: ReadonlyArray<string>
}

export type { AuthenticationResult }

/**
 * A webhook event of the simulator's log.
 *
 * @category model
 * @since 0.2.0
 */
export type ServiceEvent = WebhookEvent

/**
 * The answer to one request: what the fault plan decided and the response to send (the
 * simulator's, or the fault's replacement: `Faults.answerOf`). With `connectionReset` or
 * `hang` the adapter sends nothing; with `truncatedBody` it sends part of `response`.
 *
 * @category model
 * @since 0.2.0
 */
export interface Exchange {
  readonly decision: Faults.Decision
  readonly response: SimResponse
}

/**
 * The live service: current state, fault plan and log behind one interface.
 *
 * @category model
 * @since 0.2.0
 */
export interface LiveService {
  /** Answers one request (fault plan first, then the simulator unless the fault prevents it). */
  readonly exchange: (request: SimRequest) => Exchange
  /** The simulator's current state. */
  readonly state: () => SimulatorState
  /** Every webhook event emitted so far. */
  readonly events: () => ReadonlyArray<ServiceEvent>
  /** The last `requestLogSize` requests received (1000 by default), redacted. */
  readonly requests: () => ReadonlyArray<LoggedRequest>
  /** Moves the simulator clock forward (expiring tokens, authentications and links). */
  readonly advanceClock: (ms: number) => void
  /** Records a 3DS result, as the frame's buttons do; Left says why it cannot. */
  readonly completeAuthentication: (
    authenticationId: string,
    result: AuthenticationResult,
  ) => E.Either<string, void>
  /**
   * Pays a payment-link order as the hosted checkout does (the success test card and a
   * sandbox buyer unless `payment` says otherwise); Left says why it cannot.
   */
  readonly payOrder: (orderCode: string, payment?: OrderPayment) => E.Either<string, void>
  /** Cancels a payment-link order; Left says why it cannot. */
  readonly cancelOrder: (orderCode: string) => E.Either<string, void>
  /** Finalizes a paid order; Left says why it cannot. */
  readonly finalizeOrder: (orderCode: string) => E.Either<string, void>
  /** Adds a fault or latency for the requests of `target`. */
  readonly injectFault: (
    fault: Faults.Fault,
    target?: Faults.Target & { readonly times?: number },
  ) => void
  /** Removes every injected fault and latency. */
  readonly clearFaults: () => void
  /** The current fault plan. */
  readonly faults: () => Faults.FaultPlan
  /** Back to the initial state: no tokens, orders, events, faults or log. */
  readonly reset: () => void
  /** Calls `listener` with the events each change adds; returns the unsubscribe. */
  readonly onEvents: (listener: (events: ReadonlyArray<ServiceEvent>) => void) => () => void
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A live service over a fresh simulator.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { makeLiveService } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 * import * as E from 'fp-ts/lib/Either.js'
 *
 * const live = makeLiveService({ baseUrl: 'http://paykit.test' })
 * const { response } = live.exchange({
 *   method: 'POST',
 *   path: '/paymentlink/checkout',
 *   headers: { authorization: `Bearer ${defaultCredentials.apiKey}`, 'content-type': 'application/json' },
 *   body: JSON.stringify({ amount: 10 }),
 * })
 * const { orderCode } = JSON.parse(response.body)
 * assert.ok(E.isRight(live.payOrder(orderCode))) // as the hosted checkout would
 * assert.deepEqual(live.events().map((e) => e.type), ['order.paid'])
 * assert.equal(live.requests()[0]?.headers.authorization, 'Bearer [redacted]')
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const makeLiveService = (options: LiveServiceOptions): LiveService => {
  const {
    now: clock = () => new Date(),
    requestLogSize,
    secrets: extraSecrets = [],
    ...simulatorOptions
  } = options
  let state = initialState(simulatorOptions)
  let plan = Faults.empty
  const log = makeRequestLog(requestLogSize)
  const secrets = [state.config.clientSecret, state.config.apiKey, ...extraSecrets]
  const listeners = new Set<(events: ReadonlyArray<ServiceEvent>) => void>()

  const commit = (next: SimulatorState): void => {
    const before = eventCountOf(state)
    state = next
    if (listeners.size === 0 || eventCountOf(state) === before) return
    const added = eventsSince(state, before)
    if (added.length > 0) for (const listener of listeners) listener(added)
  }

  const control = (step: (s: SimulatorState) => E.Either<string, SimulatorState>) =>
    E.map(commit)(step(state))

  const exchange = (request: SimRequest): Exchange => {
    const [decision, nextPlan] = Faults.take(request)(plan)
    plan = nextPlan
    let response: SimResponse = Faults.serverProblem
    if (Faults.processesRequest(decision.failure)) {
      try {
        const [next, answer] = Sim.handle(state, request, clock())
        commit(next)
        response = answer
      } catch {
        // The simulator is pure and total; should it ever throw, the service stays up.
        response = Faults.serverProblem
      }
    }
    response = Faults.answerOf(decision.failure)(response)
    const lost = decision.failure?.kind === 'connectionReset' || decision.failure?.kind === 'hang'
    log.add(
      logEntry(
        request,
        clock(),
        lost ? undefined : response.status,
        decision.failure?.kind,
        secrets,
      ),
    )
    return { decision, response }
  }

  return {
    exchange,
    state: () => state,
    events: () => eventsOf(state),
    requests: log.entries,
    advanceClock: (ms) => commit(Sim.advanceClock(state, ms, clock())),
    completeAuthentication: (id, result) =>
      control((s) => Sim.completeAuthentication(s, id, result, clock())),
    payOrder: (code, payment = {}) => control((s) => Sim.payOrder(s, code, payment, clock())),
    cancelOrder: (code) => control((s) => Sim.cancelOrder(s, code, clock())),
    finalizeOrder: (code) => control((s) => Sim.finalizeOrder(s, code, clock())),
    injectFault: (fault, target) => {
      plan = Faults.inject(fault, target)(plan)
    },
    clearFaults: () => {
      plan = Faults.empty
    },
    faults: () => plan,
    reset: () => {
      state = initialState(simulatorOptions)
      plan = Faults.empty
      log.clear()
    },
    onEvents: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
