/**
 * 3DS authentication (spec 6.1, 3.3): the status of an authentication, its reducer, and
 * the message the authentication frame posts to the embedding page.
 *
 * The spec shows no transitions between statuses; the model's choice: PENDING moves to
 * SUCCESS, FAILED, ERROR or EXPIRED (or stays PENDING), and every other status is final.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { MoneyFromNumber } from '../model/Money.js'
import type { TransitionError } from './TransitionError.js'
import { transitionError } from './TransitionError.js'
import { NonEmptyString, oneOf } from '../internal/codec.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The authentication statuses (spec 3.3), in the spec's order.
 *
 * @example
 * ```ts
 * import { Authentication } from '@paykit/core/machines'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(Authentication.AUTHENTICATION_STATUSES, [
 *   'PENDING',
 *   'SUCCESS',
 *   'FAILED',
 *   'ERROR',
 *   'EXPIRED',
 * ])
 * assert.deepEqual(Authentication.AUTHENTICATION_STATUSES.filter(Authentication.isFinal), [
 *   'SUCCESS',
 *   'FAILED',
 *   'ERROR',
 *   'EXPIRED',
 * ])
 * ```
 *
 * @category model
 * @since 0.2.0
 */
export const AUTHENTICATION_STATUSES = ['PENDING', 'SUCCESS', 'FAILED', 'ERROR', 'EXPIRED'] as const

/**
 * An authentication status: PENDING, SUCCESS, FAILED (the issuing bank refused), ERROR
 * (internal processor error), EXPIRED.
 *
 * @category model
 * @since 0.2.0
 */
export type AuthenticationStatus = (typeof AUTHENTICATION_STATUSES)[number]

/**
 * The frame message types (spec 6.1): `authentication.complete` (finished successfully)
 * and `authentication.failed` (error processing the authentication).
 *
 * @example
 * ```ts
 * import { Authentication, FrameMessageType } from '@paykit/core/machines'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(Authentication.FRAME_MESSAGE_TYPES, [
 *   'authentication.complete',
 *   'authentication.failed',
 * ])
 * assert.ok(Authentication.FRAME_MESSAGE_TYPES.every(FrameMessageType.is))
 * ```
 *
 * @category model
 * @since 0.2.0
 */
export const FRAME_MESSAGE_TYPES = ['authentication.complete', 'authentication.failed'] as const

/**
 * A frame message type.
 *
 * @category model
 * @since 0.2.0
 */
export type FrameMessageType = (typeof FRAME_MESSAGE_TYPES)[number]

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

/**
 * An authentication status (spec 3.3); anything else fails with the list of statuses.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { AuthenticationStatus } from '@paykit/core/machines'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(validate(AuthenticationStatus)('SUCCESS'), E.right('SUCCESS'))
 * assert.ok(E.isLeft(validate(AuthenticationStatus)('DONE')))
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const AuthenticationStatus: t.Type<AuthenticationStatus, AuthenticationStatus, unknown> =
  oneOf(AUTHENTICATION_STATUSES, 'AuthenticationStatus')

/**
 * A frame message type (spec 6.1).
 *
 * @example
 * ```ts
 * import { FrameMessageType } from '@paykit/core/machines'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(FrameMessageType.is('authentication.complete'), true)
 * assert.equal(FrameMessageType.is('authentication.started'), false)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const FrameMessageType: t.Type<FrameMessageType, FrameMessageType, unknown> = oneOf(
  FRAME_MESSAGE_TYPES,
  'FrameMessageType',
)

/**
 * The message the 3DS frame posts (spec 6.1), `OrderAmount` as `Money`. Unknown fields
 * are tolerated (a browser message may carry more).
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { Money } from '@paykit/core/money'
 * import { FrameMessage } from '@paykit/core/machines'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * // what the 3DS frame posts to the page (spec 6.1)
 * const message = validate(FrameMessage)({
 *   MessageType: 'authentication.complete',
 *   Status: 'SUCCESS',
 *   AuthenticationId: 'auth_1',
 *   OrderId: 'order-1',
 *   OrderAmount: 25.5,
 * })
 * assert.ok(E.isRight(message))
 * assert.equal(Money.toCents(message.right.OrderAmount), 2550n)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const FrameMessage = t.type(
  {
    MessageType: FrameMessageType,
    Status: AuthenticationStatus,
    AuthenticationId: NonEmptyString,
    OrderId: t.string,
    OrderAmount: MoneyFromNumber,
  },
  'FrameMessage',
)

/**
 * A 3DS frame message as decoded.
 *
 * @category model
 * @since 0.2.0
 */
export type FrameMessage = t.TypeOf<typeof FrameMessage>

/**
 * A 3DS frame message as posted (JSON).
 *
 * @category model
 * @since 0.2.0
 */
export type FrameMessageOutput = t.OutputOf<typeof FrameMessage>

// -------------------------------------------------------------------------------------
// predicates
// -------------------------------------------------------------------------------------

/**
 * Whether a frame message reports a successful authentication (`authentication.complete`
 * with Status SUCCESS): the only message after which the charge is repeated (spec 6.1).
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import { isAuthenticationSuccess, type FrameMessage } from '@paykit/core/machines'
 * import assert from 'node:assert/strict'
 *
 * const message: FrameMessage = {
 *   MessageType: 'authentication.complete',
 *   Status: 'SUCCESS',
 *   AuthenticationId: 'auth_1',
 *   OrderId: 'order-1',
 *   OrderAmount: Money.fromCents(2550),
 * }
 * assert.equal(isAuthenticationSuccess(message), true)
 * assert.equal(isAuthenticationSuccess({ ...message, Status: 'FAILED' }), false)
 * ```
 *
 * @category predicates
 * @since 0.2.0
 */
export const isAuthenticationSuccess = (message: FrameMessage): boolean =>
  message.MessageType === 'authentication.complete' && message.Status === 'SUCCESS'

/**
 * Whether a status is final (every status but PENDING).
 *
 * @example
 * ```ts
 * import { Authentication } from '@paykit/core/machines'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Authentication.isFinal('PENDING'), false)
 * assert.equal(Authentication.isFinal('EXPIRED'), true)
 * ```
 *
 * @category predicates
 * @since 0.2.0
 */
export const isFinal = (status: AuthenticationStatus): boolean => status !== 'PENDING'

// -------------------------------------------------------------------------------------
// reducers
// -------------------------------------------------------------------------------------

/**
 * The authentication-status reducer: from PENDING, the observed status (PENDING stays
 * PENDING); from a final status, any event is `Left(TransitionError)`.
 *
 * @example
 * ```ts
 * import { Authentication } from '@paykit/core/machines'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(Authentication.reduce('PENDING', 'PENDING'), E.right('PENDING'))
 * assert.deepEqual(Authentication.reduce('PENDING', 'SUCCESS'), E.right('SUCCESS'))
 * const late = Authentication.reduce('SUCCESS', 'FAILED')
 * assert.ok(E.isLeft(late))
 * assert.equal(late.left.message, 'authentication is already SUCCESS; it cannot become FAILED')
 * ```
 *
 * @category reducers
 * @since 0.2.0
 */
export const reduce = (
  state: AuthenticationStatus,
  event: AuthenticationStatus,
): E.Either<TransitionError, AuthenticationStatus> =>
  isFinal(state)
    ? E.left(
        transitionError(
          state,
          event,
          `authentication is already ${state}; it cannot become ${event}`,
        ),
      )
    : E.right(event)

/**
 * `reduce`, pipe-first: `pipe(status, transition('SUCCESS'))`.
 *
 * @example
 * ```ts
 * import { Authentication } from '@paykit/core/machines'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { pipe } from 'fp-ts/lib/function.js'
 * import assert from 'node:assert/strict'
 *
 * const status = pipe(
 *   E.right('PENDING' as const),
 *   E.flatMap(Authentication.transition('PENDING')),
 *   E.flatMap(Authentication.transition('SUCCESS')),
 * )
 * assert.deepEqual(status, E.right('SUCCESS'))
 * assert.ok(E.isLeft(pipe('EXPIRED', Authentication.transition('SUCCESS'))))
 * ```
 *
 * @category reducers
 * @since 0.2.0
 */
export const transition =
  (event: AuthenticationStatus) =>
  (state: AuthenticationStatus): E.Either<TransitionError, AuthenticationStatus> =>
    reduce(state, event)
