/**
 * `@paykit/testkit/nock`: the simulator behind stateful nock interceptors, for native
 * `fetch`, `node:http(s)` and n8n's request helpers. nock 15 needs Node.js 22: the floor is
 * checked before it loads.
 *
 * @module @paykit/testkit/nock
 * @since 0.2.0
 */
// The Node.js floor first: nock may not load on an unsupported Node.
import '../engines/NodeVersion.js'

// -------------------------------------------------------------------------------------
// the mock
// -------------------------------------------------------------------------------------
export * from './mockPaymentService.js'
