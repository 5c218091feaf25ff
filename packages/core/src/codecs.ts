/**
 * @paykit/core/codecs: the resources of the service as io-ts codecs and their rules
 * (tokens, payment methods, charges, payment links, orders, problems), and the field errors
 * and messages every refusal is given in.
 *
 * @module @paykit/core/codecs
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// field errors and their messages
// -------------------------------------------------------------------------------------
export * from './model/FieldError.js'
export * from './model/Messages.js'

// -------------------------------------------------------------------------------------
// resources and their rules
// -------------------------------------------------------------------------------------
export * from './model/Token.js'
export * from './model/PaymentMethod.js'
export * from './model/Charge.js'
export * from './model/PaymentLink.js'
export * from './model/Order.js'
export * from './model/OrderStatus.js'
export * from './model/Problem.js'
