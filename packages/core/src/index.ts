/**
 * @paykit/core: codecs, rules, exact money and state machines for the card-payment
 * service (no I/O), and a client over an injected transport. This entry is
 * `@paykit/core/pure` plus the Node/browser edge: the fetch transport, the default runtime
 * and `createClient`, which fills the runtime a config leaves out.
 *
 * @module @paykit/core
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// everything without globals (one list, so the two entries cannot drift)
// -------------------------------------------------------------------------------------
export * from './pure.js'

// -------------------------------------------------------------------------------------
// the Node/browser edge: fetch, Date.now, setTimeout
// -------------------------------------------------------------------------------------
export * from './edge/FetchTransport.js'
export * from './edge/DefaultRuntime.js'
export { createClient } from './edge/DefaultClient.js'
