/**
 * The client of the payment service over the default runtime: `createClient` is
 * `createClientWith` (`client/ClientWith`) with the
 * transport, clock and sleep a config leaves out taken from `defaultRuntime()` (fetch,
 * `Date.now`, `setTimeout`). Hosts that forbid those globals use `createClientWith` from
 * `@paykit/core/pure` instead.
 *
 * @since 0.2.0
 */
import type { Client, ClientConfig } from '../client/Client.js'
import { createClientWith } from '../client/ClientWith.js'
import { defaultRuntime } from './DefaultRuntime.js'

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A client of the service at `baseUrl`. Nothing is sent until a method's task runs; the
 * first call that needs a token fetches it. A `transport`, `now` or `sleep` left out of
 * `config` is the default runtime's (fetch, `Date.now`, `setTimeout`).
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { createClient } from '@paykit/core'
 * import type { Exchange } from '@paykit/core/client'
 * import { defaultCredentials } from '@paykit/testkit'
 * import { startSandbox } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * const sandbox = await startSandbox()
 * const exchanges: Array<Exchange> = []
 * const client = createClient({
 *   baseUrl: sandbox.url,
 *   credentials: defaultCredentials, // { clientId, clientSecret, apiKey }
 *   timeoutMs: 5_000,
 *   onExchange: (exchange) => exchanges.push(exchange),
 * })
 * const link = await client.createPaymentLink({ amount: 19.99, orderReference: 'cart-42' })()
 * assert.ok(E.isRight(link))
 * assert.deepEqual(
 *   exchanges.map((x) => [x.operation, x.response?.status]),
 *   [['POST /paymentlink/checkout', 200]],
 * )
 * assert.equal(exchanges[0]?.request.headers.authorization, 'Bearer [redacted]') // the API key
 * await sandbox.close()
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const createClient = (config: ClientConfig): Client => {
  // The client reads a response's headers only to show them to `onExchange`: without
  // the hook its own transport skips copying them.
  const runtime = defaultRuntime(config.onExchange === undefined ? { responseHeaders: false } : {})
  return createClientWith({
    ...config,
    transport: config.transport ?? runtime.transport,
    now: config.now ?? runtime.now,
    sleep: config.sleep ?? runtime.sleep,
  })
}
