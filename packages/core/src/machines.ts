/**
 * @paykit/core/machines: the state machines of 3DS authentication, a charge and an order,
 * the 3DS frame message codec and the error of a refused transition.
 *
 * @module @paykit/core/machines
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// 3DS authentication
// -------------------------------------------------------------------------------------
export * as Authentication from './machines/Authentication.js'
export {
  AuthenticationStatus,
  FrameMessage,
  type FrameMessageOutput,
  FrameMessageType,
  isAuthenticationSuccess,
} from './machines/Authentication.js'

// -------------------------------------------------------------------------------------
// charge and order
// -------------------------------------------------------------------------------------
export * as ChargeFlow from './machines/ChargeFlow.js'
export type { ChargeFlowEvent, ChargeFlowState } from './machines/ChargeFlow.js'
export * as OrderFlow from './machines/OrderFlow.js'
export * from './machines/TransitionError.js'
