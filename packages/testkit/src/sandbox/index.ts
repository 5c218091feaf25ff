/**
 * `@paykit/testkit/sandbox`: the simulator behind a real HTTP server on 127.0.0.1 (hosted
 * pages, webhooks, faults, control endpoints), in process or as a child process, and a
 * receiver for its webhooks.
 *
 * @module @paykit/testkit/sandbox
 * @since 0.2.0
 */
// The Node.js floor first, as the package root.
import '../engines/NodeVersion.js'

// -------------------------------------------------------------------------------------
// the server
// -------------------------------------------------------------------------------------
export * from './startSandbox.js'
export * from './spawnSandbox.js'

// -------------------------------------------------------------------------------------
// webhooks and control
// -------------------------------------------------------------------------------------
export * from './Webhooks.js'
export * from './Control.js'
export * from './startWebhookReceiver.js'
