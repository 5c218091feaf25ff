/**
 * The Node/browser edge of the client: the runtime `createClient` fills in when a config
 * leaves it out. The transport is `fetch`, the clock `Date.now`, the sleep `setTimeout`.
 * Nothing else in the core reads these globals, so a host that forbids them (n8n's
 * community-node scanner) bundles `@paykit/core/pure`, which leaves this module out, and
 * injects its own runtime into `createClientWith`.
 *
 * @since 0.1.0
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
 * @category constructors
 * @since 0.1.0
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
 * @category constructors
 * @since 0.1.0
 */
export const defaultRuntime = (options: FetchTransportOptions = {}): ClientRuntime => ({
  transport: fetchTransport(options),
  now: () => Date.now(),
  sleep: defaultSleep,
})
