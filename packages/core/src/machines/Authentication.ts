/**
 * 3DS authentication (spec 6.1, 3.3): the status of an authentication, its reducer, and
 * the message the authentication frame posts to the embedding page.
 *
 * The spec shows no transitions between statuses; the model's choice: PENDING moves to
 * SUCCESS, FAILED, ERROR or EXPIRED (or stays PENDING), and every other status is final.
 *
 * @since 0.1.0
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
 * @category model
 * @since 0.1.0
 */
export const AUTHENTICATION_STATUSES = ['PENDING', 'SUCCESS', 'FAILED', 'ERROR', 'EXPIRED'] as const

/**
 * An authentication status: PENDING, SUCCESS, FAILED (the issuing bank refused), ERROR
 * (internal processor error), EXPIRED.
 *
 * @category model
 * @since 0.1.0
 */
export type AuthenticationStatus = (typeof AUTHENTICATION_STATUSES)[number]

/**
 * The frame message types (spec 6.1): `authentication.complete` (finished successfully)
 * and `authentication.failed` (error processing the authentication).
 *
 * @category model
 * @since 0.1.0
 */
export const FRAME_MESSAGE_TYPES = ['authentication.complete', 'authentication.failed'] as const

/**
 * A frame message type.
 *
 * @category model
 * @since 0.1.0
 */
export type FrameMessageType = (typeof FRAME_MESSAGE_TYPES)[number]

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

/**
 * An authentication status (spec 3.3); anything else fails with the list of statuses.
 *
 * @category codecs
 * @since 0.1.0
 */
export const AuthenticationStatus: t.Type<AuthenticationStatus, AuthenticationStatus, unknown> =
  oneOf(AUTHENTICATION_STATUSES, 'AuthenticationStatus')

/**
 * A frame message type (spec 6.1).
 *
 * @category codecs
 * @since 0.1.0
 */
export const FrameMessageType: t.Type<FrameMessageType, FrameMessageType, unknown> = oneOf(
  FRAME_MESSAGE_TYPES,
  'FrameMessageType',
)

/**
 * The message the 3DS frame posts (spec 6.1), `OrderAmount` as `Money`. Unknown fields
 * are tolerated (a browser message may carry more).
 *
 * @category codecs
 * @since 0.1.0
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
 * @since 0.1.0
 */
export type FrameMessage = t.TypeOf<typeof FrameMessage>

/**
 * A 3DS frame message as posted (JSON).
 *
 * @category model
 * @since 0.1.0
 */
export type FrameMessageOutput = t.OutputOf<typeof FrameMessage>

// -------------------------------------------------------------------------------------
// predicates
// -------------------------------------------------------------------------------------

/**
 * Whether a frame message reports a successful authentication (`authentication.complete`
 * with Status SUCCESS): the only message after which the charge is repeated (spec 6.1).
 *
 * @category predicates
 * @since 0.1.0
 */
export const isAuthenticationSuccess = (message: FrameMessage): boolean =>
  message.MessageType === 'authentication.complete' && message.Status === 'SUCCESS'

/**
 * Whether a status is final (every status but PENDING).
 *
 * @category predicates
 * @since 0.1.0
 */
export const isFinal = (status: AuthenticationStatus): boolean => status !== 'PENDING'

// -------------------------------------------------------------------------------------
// reducers
// -------------------------------------------------------------------------------------

/**
 * The authentication-status reducer: from PENDING, the observed status (PENDING stays
 * PENDING); from a final status, any event is `Left(TransitionError)`.
 *
 * @category reducers
 * @since 0.1.0
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
 * @category reducers
 * @since 0.1.0
 */
export const transition =
  (event: AuthenticationStatus) =>
  (state: AuthenticationStatus): E.Either<TransitionError, AuthenticationStatus> =>
    reduce(state, event)
