/**
 * The charge flow (spec 3.1, 4.3, 6.1) as a pure state machine: a charge, the 3DS frame's
 * answer, and the repeated charge.
 *
 * ```
 * Idle --response--> Failed | Succeeded | AwaitingAuthentication
 * AwaitingAuthentication --complete+SUCCESS--> ReadyToRetry
 * AwaitingAuthentication --failed | FAILED/ERROR/EXPIRED--> AuthenticationFailed
 * AwaitingAuthentication --PENDING--> AwaitingAuthentication
 * ReadyToRetry --response--> Failed | Succeeded | AwaitingAuthentication
 * ```
 *
 * Every state holds a request: Idle and ReadyToRetry the one to send next (the first charge
 * with `authenticationId` null; the retry with the authenticated id), the others the one the
 * service answered (after a retry: the retry, with its `authenticationId`). The retry
 * carries the same order, cardId and billingInfo as the first charge.
 * An event that does not apply gives `Left(TransitionError)`; the caller's state is never
 * changed (states are immutable values). Failed, Succeeded and AuthenticationFailed are
 * terminal: a success is never followed by another charge of the same order.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import type { AuthenticationStatus, FrameMessage } from './Authentication.js'
import { isAuthenticationSuccess } from './Authentication.js'
import type { ChargeError, ChargeOrder, ChargeRequest, ChargeResponse } from '../model/Charge.js'
import type { TransitionError } from './TransitionError.js'
import { transitionError } from './TransitionError.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * No charge answered yet: the first charge (authenticationId null) is to be sent.
 *
 * @category model
 * @since 0.2.0
 */
export interface Idle {
  readonly _tag: 'Idle'
  readonly request: ChargeRequest
}

/**
 * The charge FAILED (terminal): `error` holds the service's code and message; `request`
 * is the request that failed (after 3DS, the retry with its `authenticationId`).
 *
 * @category model
 * @since 0.2.0
 */
export interface Failed {
  readonly _tag: 'Failed'
  readonly request: ChargeRequest
  readonly error: ChargeError
}

/**
 * The charge SUCCEEDED (terminal): `order` holds the paid order; `request` is the request
 * that succeeded (after 3DS, the retry with its `authenticationId`).
 *
 * @category model
 * @since 0.2.0
 */
export interface Succeeded {
  readonly _tag: 'Succeeded'
  readonly request: ChargeRequest
  readonly order: ChargeOrder
}

/**
 * The charge needs 3DS: the buyer completes the authentication in a frame opened at
 * `url`; only messages for `authenticationId` apply. `request` is the request answered so
 * (a retry that needs 3DS again keeps its previous `authenticationId`).
 *
 * @category model
 * @since 0.2.0
 */
export interface AwaitingAuthentication {
  readonly _tag: 'AwaitingAuthentication'
  readonly request: ChargeRequest
  readonly url: string
  readonly authenticationId: string
}

/**
 * The authentication succeeded: the charge is to be repeated with `authenticationId`;
 * `request` is that retry (the answered request with `authenticationId` set).
 *
 * @category model
 * @since 0.2.0
 */
export interface ReadyToRetry {
  readonly _tag: 'ReadyToRetry'
  readonly request: ChargeRequest
  readonly authenticationId: string
}

/**
 * The authentication did not succeed (terminal): `status` is FAILED, ERROR or EXPIRED
 * (an `authentication.failed` message with another Status counts as FAILED); `message`
 * is the frame message received.
 *
 * @category model
 * @since 0.2.0
 */
export interface AuthenticationFailed {
  readonly _tag: 'AuthenticationFailed'
  readonly request: ChargeRequest
  readonly authenticationId: string
  readonly status: Exclude<AuthenticationStatus, 'PENDING' | 'SUCCESS'>
  readonly message: FrameMessage
}

/**
 * A state of the charge flow.
 *
 * @category model
 * @since 0.2.0
 */
export type ChargeFlowState =
  Idle | Failed | Succeeded | AwaitingAuthentication | ReadyToRetry | AuthenticationFailed

/**
 * The service answered a charge.
 *
 * @category model
 * @since 0.2.0
 */
export interface ChargeResponded {
  readonly _tag: 'ChargeResponded'
  readonly response: ChargeResponse
}

/**
 * The 3DS frame posted a message.
 *
 * @category model
 * @since 0.2.0
 */
export interface FrameMessageReceived {
  readonly _tag: 'FrameMessageReceived'
  readonly message: FrameMessage
}

/**
 * An event of the charge flow.
 *
 * @category model
 * @since 0.2.0
 */
export type ChargeFlowEvent = ChargeResponded | FrameMessageReceived

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The flow of a new charge: Idle, its first request `request` with `authenticationId`
 * null (whatever `request` carried).
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import { ChargeFlow } from '@paykit/core/machines'
 * import * as O from 'fp-ts/lib/Option.js'
 * import assert from 'node:assert/strict'
 *
 * const order = { id: 'order-1', amount: Money.fromCents(2550) }
 * const state = ChargeFlow.start({ order, cardId: 'pm_1', authenticationId: 'auth_old' })
 * assert.equal(state._tag, 'Idle')
 * // the first request never carries an authentication id
 * assert.deepEqual(
 *   ChargeFlow.nextRequest(state),
 *   O.some({ order, cardId: 'pm_1', authenticationId: null }),
 * )
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const start = (request: ChargeRequest): ChargeFlowState => ({
  _tag: 'Idle',
  request: { ...request, authenticationId: null },
})

/**
 * The event of a charge response.
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import { ChargeFlow } from '@paykit/core/machines'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const idle = ChargeFlow.start({
 *   order: { id: 'order-1', amount: Money.fromCents(2550) },
 *   cardId: 'pm_1',
 *   authenticationId: null,
 * })
 * const event = ChargeFlow.chargeResponded({
 *   status: 'FAILED',
 *   message: 'Charge failed',
 *   error: { code: 'CARD_DECLINED', message: 'The card was declined' },
 *   authentication: null,
 *   order: null,
 *   createdAt: '2026-11-24T12:00:00.000Z',
 * })
 * const state = ChargeFlow.reduce(idle, event)
 * assert.ok(E.isRight(state) && state.right._tag === 'Failed')
 * assert.equal(state.right.error.code, 'CARD_DECLINED')
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const chargeResponded = (response: ChargeResponse): ChargeFlowEvent => ({
  _tag: 'ChargeResponded',
  response,
})

/**
 * The event of a frame message.
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import { ChargeFlow } from '@paykit/core/machines'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const event = ChargeFlow.frameMessageReceived({
 *   MessageType: 'authentication.complete',
 *   Status: 'SUCCESS',
 *   AuthenticationId: 'auth_1',
 *   OrderId: 'order-1',
 *   OrderAmount: Money.fromCents(2550),
 * })
 * assert.equal(event._tag, 'FrameMessageReceived')
 * // before any charge response, a frame message does not apply
 * const idle = ChargeFlow.start({
 *   order: { id: 'order-1', amount: Money.fromCents(2550) },
 *   cardId: 'pm_1',
 *   authenticationId: null,
 * })
 * assert.ok(E.isLeft(ChargeFlow.reduce(idle, event)))
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const frameMessageReceived = (message: FrameMessage): ChargeFlowEvent => ({
  _tag: 'FrameMessageReceived',
  message,
})

// -------------------------------------------------------------------------------------
// predicates
// -------------------------------------------------------------------------------------

/**
 * Whether a state is terminal (Failed, Succeeded, AuthenticationFailed): no event applies.
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import { ChargeFlow } from '@paykit/core/machines'
 * import assert from 'node:assert/strict'
 *
 * const request = {
 *   order: { id: 'order-1', amount: Money.fromCents(2550) },
 *   cardId: 'pm_1',
 *   authenticationId: null,
 * }
 * assert.equal(ChargeFlow.isTerminal(ChargeFlow.start(request)), false)
 * assert.equal(
 *   ChargeFlow.isTerminal({
 *     _tag: 'Failed',
 *     request,
 *     error: { code: 'FRAUD_PREVENT', message: 'declined' },
 *   }),
 *   true,
 * )
 * ```
 *
 * @category predicates
 * @since 0.2.0
 */
export const isTerminal = (state: ChargeFlowState): boolean =>
  state._tag === 'Failed' || state._tag === 'Succeeded' || state._tag === 'AuthenticationFailed'

// -------------------------------------------------------------------------------------
// reducers
// -------------------------------------------------------------------------------------

const refuse = (
  state: ChargeFlowState,
  event: ChargeFlowEvent,
  message: string,
): E.Either<TransitionError, ChargeFlowState> =>
  E.left(transitionError(state._tag, event._tag, message))

const onResponse = (request: ChargeRequest, response: ChargeResponse): ChargeFlowState => {
  switch (response.status) {
    case 'FAILED':
      return { _tag: 'Failed', request, error: response.error }
    case 'SUCCEEDED':
      return { _tag: 'Succeeded', request, order: response.order }
    case 'AUTHENTICATION_REQUIRED':
      return {
        _tag: 'AwaitingAuthentication',
        request,
        url: response.authentication.url,
        authenticationId: response.authentication.id,
      }
  }
}

const onFrameMessage = (
  state: AwaitingAuthentication,
  event: FrameMessageReceived,
): E.Either<TransitionError, ChargeFlowState> => {
  const message = event.message
  if (message.AuthenticationId !== state.authenticationId)
    return refuse(state, event, 'the frame message is for another authentication')
  // PENDING is not a result, whatever the MessageType: the frame will still post the final one.
  if (message.Status === 'PENDING') return E.right(state)
  if (isAuthenticationSuccess(message))
    return E.right({
      _tag: 'ReadyToRetry',
      request: { ...state.request, authenticationId: state.authenticationId },
      authenticationId: state.authenticationId,
    })
  return E.right({
    _tag: 'AuthenticationFailed',
    request: state.request,
    authenticationId: state.authenticationId,
    status:
      message.Status === 'FAILED' || message.Status === 'ERROR' || message.Status === 'EXPIRED'
        ? message.Status
        : 'FAILED',
    message,
  })
}

/**
 * The charge-flow reducer. A response moves Idle or ReadyToRetry to Failed, Succeeded or
 * AwaitingAuthentication; a frame message for the awaited authentication moves
 * AwaitingAuthentication to ReadyToRetry (complete + SUCCESS), AuthenticationFailed
 * (`authentication.failed`, or FAILED/ERROR/EXPIRED) or keeps it (Status PENDING, whatever
 * the MessageType). Anything
 * else (a message for another authentication id, a response while awaiting the frame,
 * a message when none is awaited, any event in a terminal state) is `Left`.
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import { ChargeFlow } from '@paykit/core/machines'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { pipe } from 'fp-ts/lib/function.js'
 * import assert from 'node:assert/strict'
 *
 * // a 3DS charge: the response asks for authentication, then the frame reports SUCCESS
 * const amount = Money.fromCents(2550)
 * const idle = ChargeFlow.start({
 *   order: { id: 'order-1', amount },
 *   cardId: 'pm_1',
 *   authenticationId: null,
 * })
 * const required = ChargeFlow.chargeResponded({
 *   status: 'AUTHENTICATION_REQUIRED',
 *   message: 'Authentication required',
 *   error: null,
 *   authentication: { url: 'https://pay.example.com/3ds/auth_1', id: 'auth_1' },
 *   order: null,
 *   createdAt: '2026-11-24T12:00:00.000Z',
 * })
 * const success = ChargeFlow.frameMessageReceived({
 *   MessageType: 'authentication.complete',
 *   Status: 'SUCCESS',
 *   AuthenticationId: 'auth_1',
 *   OrderId: 'order-1',
 *   OrderAmount: amount,
 * })
 * const state = pipe(
 *   ChargeFlow.reduce(idle, required),
 *   E.flatMap((s) => ChargeFlow.reduce(s, success)),
 * )
 * assert.ok(E.isRight(state) && state.right._tag === 'ReadyToRetry')
 * assert.equal(state.right.request.authenticationId, 'auth_1') // the retry carries it
 * ```
 *
 * @category reducers
 * @since 0.2.0
 */
export const reduce = (
  state: ChargeFlowState,
  event: ChargeFlowEvent,
): E.Either<TransitionError, ChargeFlowState> => {
  switch (state._tag) {
    case 'Idle':
    case 'ReadyToRetry':
      return event._tag === 'ChargeResponded'
        ? E.right(onResponse(state.request, event.response))
        : refuse(
            state,
            event,
            state._tag === 'Idle'
              ? 'a frame message before any charge response'
              : 'the authentication already succeeded; the retry response is awaited',
          )
    case 'AwaitingAuthentication':
      return event._tag === 'FrameMessageReceived'
        ? onFrameMessage(state, event)
        : refuse(state, event, 'a charge response while the authentication is awaited')
    case 'Failed':
    case 'Succeeded':
    case 'AuthenticationFailed':
      return refuse(state, event, `the charge flow has ended (${state._tag})`)
  }
}

/**
 * `reduce`, pipe-first: `pipe(state, transition(chargeResponded(response)))`.
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import { ChargeFlow } from '@paykit/core/machines'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { pipe } from 'fp-ts/lib/function.js'
 * import assert from 'node:assert/strict'
 *
 * const order = {
 *   id: 'ord_1',
 *   reference: 'order-1',
 *   amount: Money.fromCents(2550),
 *   currency: 'USD',
 *   authorizationCode: 'A1',
 * }
 * const succeeded = ChargeFlow.chargeResponded({
 *   status: 'SUCCEEDED',
 *   message: '',
 *   error: null,
 *   authentication: null,
 *   order,
 *   createdAt: '2026-11-24T12:00:00.000Z',
 * })
 * const state = pipe(
 *   ChargeFlow.start({
 *     order: { id: 'order-1', amount: Money.fromCents(2550) },
 *     cardId: 'pm_1',
 *     authenticationId: null,
 *   }),
 *   ChargeFlow.transition(succeeded),
 * )
 * assert.ok(E.isRight(state) && state.right._tag === 'Succeeded')
 * assert.ok(E.isLeft(pipe(state.right, ChargeFlow.transition(succeeded)))) // the flow has ended
 * ```
 *
 * @category reducers
 * @since 0.2.0
 */
export const transition =
  (event: ChargeFlowEvent) =>
  (state: ChargeFlowState): E.Either<TransitionError, ChargeFlowState> =>
    reduce(state, event)

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * The charge request to send now: the first charge (`authenticationId` null) when Idle,
 * the retry (same order and cardId, the authenticated id) when ReadyToRetry, none
 * otherwise.
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import { ChargeFlow } from '@paykit/core/machines'
 * import * as O from 'fp-ts/lib/Option.js'
 * import assert from 'node:assert/strict'
 *
 * const request = {
 *   order: { id: 'order-1', amount: Money.fromCents(2550) },
 *   cardId: 'pm_1',
 *   authenticationId: null,
 * }
 * assert.ok(O.isSome(ChargeFlow.nextRequest(ChargeFlow.start(request))))
 * // while the 3DS frame is open, nothing is to be sent
 * const awaiting = {
 *   _tag: 'AwaitingAuthentication',
 *   request,
 *   url: 'https://pay.example.com/3ds/auth_1',
 *   authenticationId: 'auth_1',
 * } as const
 * assert.ok(O.isNone(ChargeFlow.nextRequest(awaiting)))
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const nextRequest = (state: ChargeFlowState): O.Option<ChargeRequest> => {
  switch (state._tag) {
    case 'Idle':
      return O.some({ ...state.request, authenticationId: null })
    case 'ReadyToRetry':
      return O.some({ ...state.request, authenticationId: state.authenticationId })
    default:
      return O.none
  }
}
