/**
 * Arbitraries of the 3DS frame message (spec 6.1, the core's `FrameMessage`, as the frame
 * posts it): every status, its `MessageType` as the sandbox pairs them.
 *
 * @since 0.2.0
 */
import {
  Authentication,
  type AuthenticationStatus,
  type FrameMessageOutput,
  type FrameMessageType,
} from '@paykit/core/pure'
import * as fc from 'fast-check'
import { idOf } from '../simulator/State.js'
import { amount, text } from './Common.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Options of {@link frameMessage}: the statuses to draw from (all five by default), and
 * the authentication, order and amount to post about (any by default).
 *
 * @category model
 * @since 0.2.0
 */
export interface FrameMessageArbitraryOptions {
  readonly statuses?: ReadonlyArray<AuthenticationStatus>
  readonly authenticationId?: string
  readonly orderId?: string
  readonly orderAmount?: number
}

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * The `MessageType` a frame posts with a status: `authentication.complete` with SUCCESS,
 * `authentication.failed` with FAILED, ERROR and EXPIRED (docs/service.md#the-3ds-frame-page); the
 * spec pairs PENDING with neither, so both are possible (a listener keeps waiting either way).
 *
 * @example
 * ```ts
 * import { messageTypesOf } from '@paykit/testkit/arbitraries'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(messageTypesOf('SUCCESS'), ['authentication.complete'])
 * assert.deepEqual(messageTypesOf('EXPIRED'), ['authentication.failed'])
 * assert.equal(messageTypesOf('PENDING').length, 2)
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const messageTypesOf = (status: AuthenticationStatus): ReadonlyArray<FrameMessageType> =>
  status === 'SUCCESS'
    ? ['authentication.complete']
    : status === 'PENDING'
      ? ['authentication.complete', 'authentication.failed']
      : ['authentication.failed']

// -------------------------------------------------------------------------------------
// valid
// -------------------------------------------------------------------------------------

/**
 * A 3DS frame message: `Status` one of `statuses`, `MessageType` paired with it (see
 * {@link messageTypesOf}), for the given authentication, order and amount or any.
 *
 * @example
 * ```ts
 * import { frameMessage } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { FrameMessage, isAuthenticationSuccess } from '@paykit/core/machines'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * const arbitrary = frameMessage({ statuses: ['SUCCESS', 'FAILED'], authenticationId: 'auth_000001' })
 * fc.assert(
 *   fc.property(arbitrary, (json) => {
 *     const message = validate(FrameMessage)(json)
 *     assert.ok(message._tag === 'Right')
 *     assert.equal(message.right.AuthenticationId, 'auth_000001')
 *     assert.equal(isAuthenticationSuccess(message.right), json.Status === 'SUCCESS')
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category valid
 * @since 0.2.0
 */
export const frameMessage = (
  options: FrameMessageArbitraryOptions = {},
): fc.Arbitrary<FrameMessageOutput> => {
  const statuses = options.statuses ?? Authentication.AUTHENTICATION_STATUSES
  if (statuses.length === 0) throw new RangeError('frameMessage: statuses is empty')
  return fc.constantFrom(...statuses).chain((status) =>
    fc.record({
      MessageType: fc.constantFrom(...messageTypesOf(status)),
      Status: fc.constant(status),
      AuthenticationId:
        options.authenticationId === undefined
          ? fc.integer({ min: 1, max: 999_999 }).map((n) => idOf('auth', n))
          : fc.constant(options.authenticationId),
      OrderId: options.orderId === undefined ? text(64) : fc.constant(options.orderId),
      OrderAmount:
        options.orderAmount === undefined
          ? amount(1, 10_000_000)
          : fc.constant(options.orderAmount),
    }),
  )
}
