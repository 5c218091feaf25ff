/**
 * @paykit/core/client: the client (`createClientWith` over an injected transport, clock
 * and sleep), its errors, retries, token cache and redaction, and the Node/browser edge:
 * the fetch transport, the default runtime and `createClient`, which fills the runtime a
 * config leaves out.
 *
 * @module @paykit/core/client
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// the client over an injected runtime
// -------------------------------------------------------------------------------------
export * from './client/injected.js'

// -------------------------------------------------------------------------------------
// the Node/browser edge: fetch, Date.now, setTimeout
// -------------------------------------------------------------------------------------
export * from './edge/FetchTransport.js'
export * from './edge/DefaultRuntime.js'
export { createClient } from './edge/DefaultClient.js'
