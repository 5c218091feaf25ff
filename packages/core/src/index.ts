/**
 * @paykit/core: codecs, rules, exact money and state machines for the card-payment
 * service (no I/O), and a client over an injected transport. The root holds what the quick
 * start needs; every other name is in its concept's entry: `@paykit/core/client`,
 * `/codecs`, `/money`, `/machines`, `/webhook` (and `/browser` for the 3DS frame listener).
 *
 * @module @paykit/core
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// the client and the validation of a request
// -------------------------------------------------------------------------------------
export { createClient } from './edge/DefaultClient.js'
export type { Client, ClientConfig, Credentials } from './client/Client.js'
export type { PaykitError } from './client/PaykitError.js'
export { validate, type FieldError } from './model/FieldError.js'
