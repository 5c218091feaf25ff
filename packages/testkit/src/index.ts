/**
 * @paykit/testkit: a fake of the card-payment service. This root holds what every entry
 * shares, the test cards and the default credentials, and the Node.js floor; each way of
 * using the fake is an entry of its own, one per concept:
 *
 * - `@paykit/testkit/sandbox`: a real HTTP server (`startSandbox`, `paykit-sandbox`);
 * - `@paykit/testkit/nock`: stateful nock interceptors (`mockPaymentService`);
 * - `@paykit/testkit/msw`: MSW request handlers (`paykitHandlers`);
 * - `@paykit/testkit/memory`: a transport for the core's client, with no network;
 * - `@paykit/testkit/simulator`: the pure simulator they all run;
 * - `@paykit/testkit/service`: what they share: faults, the request log, webhook delivery;
 * - `@paykit/testkit/buyer`: 3DS and the checkout page without a browser;
 * - `@paykit/testkit/arbitraries` and `@paykit/testkit/properties`: fast-check arbitraries
 *   and property suites (`@paykit/testkit/vitest`: the suites as vitest blocks);
 * - `@paykit/testkit/model`: model-based stories of an integration;
 * - `@paykit/testkit/n8n`: n8n workflows run through n8n's engine in process.
 *
 * @module @paykit/testkit
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// the Node.js floor: evaluated before any module that loads nock
// -------------------------------------------------------------------------------------
import './engines/NodeVersion.js'
export * from './engines/NodeVersion.js'

// -------------------------------------------------------------------------------------
// test cards, credentials, store and catalogue
// -------------------------------------------------------------------------------------
export * from './simulator/TestCards.js'
