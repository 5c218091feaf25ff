/**
 * @paykit/core/money: exact money (`Money`, decimal amounts with the service's scale) and
 * plain JSON out of and into any codec (`Json`: amounts as JSON numbers).
 *
 * @module @paykit/core/money
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// money
// -------------------------------------------------------------------------------------
export * as Money from './model/Money.js'
export { MoneyFromNumber } from './model/Money.js'

// -------------------------------------------------------------------------------------
// plain JSON out of (and into) any codec: amounts as JSON numbers
// -------------------------------------------------------------------------------------
export * as Json from './model/Json.js'
export type { JsonValue } from './model/Json.js'
