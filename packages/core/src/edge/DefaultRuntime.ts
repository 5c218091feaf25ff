/**
 * The Node/browser edge of the client: the runtime `createClient` fills in when a config
 * leaves it out. The transport is `fetch`, the clock `Date.now`, the sleep `setTimeout`.
 * Nothing else in the core reads these globals, so a host that forbids them (n8n's
 * community-node scanner) bundles `@paykit/core/pure`, which leaves this module out, and
 * injects its own runtime into `createClientWith`.
 *
 * @since 0.2.0
 */
import type { ClientRuntime, Sleep } from '../client/Client.js'
import type { FetchTransportOptions } from './FetchTransport.js'
import { fetchTransport } from './FetchTransport.js'

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A sleep on `setTimeout`: resolves after `ms`, or at once when `signal` aborts (and then
 * clears its timer, so a released sleep holds nothing); it never rejects.
 *
 * @example
 * ```ts
 * import { defaultSleep } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * const start = performance.now()
 * await defaultSleep(20)
 * assert.ok(performance.now() - start >= 19)
 * // An abort ends the sleep at once (and clears its timer): no 60 s wait here.
 * const controller = new AbortController()
 * const sleeping = defaultSleep(60_000, controller.signal)
 * controller.abort()
 * await sleeping
 * assert.ok(performance.now() - start < 10_000)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted === true) return resolve()
    const onAbort = () => {
      clearTimeout(timer)
      resolve()
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })

/**
 * The default runtime: `fetchTransport(options)`, `Date.now` and `defaultSleep`.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { createClientWith, defaultRuntime } from '@paykit/core/client'
 * import { defaultCredentials } from '@paykit/testkit'
 * import { startSandbox } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * const sandbox = await startSandbox()
 * const runtime = defaultRuntime({ timeoutMs: 5_000 }) // fetch, Date.now, setTimeout
 * // Keep fetch and the sleep, replace the clock (as a test with a fake clock would).
 * const client = createClientWith({
 *   ...runtime,
 *   now: () => Date.now(),
 *   baseUrl: sandbox.url,
 *   credentials: defaultCredentials,
 * })
 * assert.ok(E.isRight(await client.getToken()()))
 * await sandbox.close()
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const defaultRuntime = (options: FetchTransportOptions = {}): ClientRuntime => ({
  transport: fetchTransport(options),
  now: () => Date.now(),
  sleep: defaultSleep,
})
