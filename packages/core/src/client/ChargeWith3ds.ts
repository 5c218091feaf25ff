/**
 * A charge through 3DS, driving the `ChargeFlow` reducer: charge, and while the service
 * asks for authentication, authenticate in a frame and repeat the charge only after an
 * `authentication.complete` with Status SUCCESS for that authentication.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { FrameMessage as FrameMessageCodec } from '../machines/Authentication.js'
import type { ChargeRequest, ChargeResponse } from '../model/Charge.js'
import type { ChargeFlowState } from '../machines/ChargeFlow.js'
import * as ChargeFlow from '../machines/ChargeFlow.js'
import type { Authenticate } from './Client.js'
import type { Caller } from './ClientCall.js'
import { validate } from '../model/FieldError.js'
import type { PaykitError } from './PaykitError.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * What the flow needs: one charge sent as given, the 3DS step, the client's errors, and
 * its bounds (authentications, and frame messages per authentication).
 *
 * @category model
 * @since 0.2.0
 */
interface ChargeWith3dsDeps extends Pick<Caller, 'invalid' | 'clean'> {
  readonly charge: (request: ChargeRequest) => TE.TaskEither<PaykitError, ChargeResponse>
  readonly authenticate: Authenticate
  readonly maxAuthentications: number
  readonly maxFrameMessages: number
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The 3DS flow of a valid charge request. Resolves with the last state of the charge
 * flow (Succeeded, Failed or AuthenticationFailed; AwaitingAuthentication when a bound
 * was reached, or when the service answered what the flow cannot take).
 *
 * @category constructors
 * @since 0.2.0
 */
export const chargeWith3ds =
  (deps: ChargeWith3dsDeps) =>
  (request: ChargeRequest): TE.TaskEither<PaykitError, ChargeFlowState> =>
  async () => {
    const invalidMessage = deps.invalid('3DS frame message', [])
    let state = ChargeFlow.start(request)
    let authentications = 0
    let frameMessages = 0
    for (;;) {
      const next = ChargeFlow.nextRequest(state)
      if (O.isSome(next)) {
        const response = await deps.charge(next.value)()
        if (E.isLeft(response)) return response
        const moved = ChargeFlow.reduce(state, ChargeFlow.chargeResponded(response.right))
        if (E.isLeft(moved)) return E.right(state)
        state = moved.right
        continue
      }
      if (state._tag !== 'AwaitingAuthentication') return E.right(state)
      if (frameMessages === 0) authentications++
      if (authentications > deps.maxAuthentications || frameMessages >= deps.maxFrameMessages)
        return E.right(state)
      frameMessages++
      const raw = await deps.authenticate(state.url, state.authenticationId)()
      if (E.isLeft(raw)) return E.left(deps.clean([])(raw.left))
      // The message may come from any code: decode it again before trusting it.
      const message = FrameMessageCodec.is(raw.right)
        ? E.right(raw.right)
        : validate(FrameMessageCodec)(raw.right)
      if (E.isLeft(message)) return invalidMessage(message.left)()
      const moved = ChargeFlow.reduce(state, ChargeFlow.frameMessageReceived(message.right))
      if (E.isLeft(moved))
        return invalidMessage([
          {
            path: 'AuthenticationId',
            message: `${moved.left.message}; the charge was not repeated`,
          },
        ])()
      if (moved.right._tag !== 'AwaitingAuthentication') frameMessages = 0
      state = moved.right
    }
  }
