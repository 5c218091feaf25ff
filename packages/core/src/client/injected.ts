/**
 * The client without the Node/browser edge: I/O, clock and sleep only through the runtime
 * the host injects. `@paykit/core/client` adds the edge; `@paykit/core/pure` takes this.
 *
 * @internal
 */

// -------------------------------------------------------------------------------------
// transport, errors and redaction
// -------------------------------------------------------------------------------------
export * from './Transport.js'
export * from './PaykitError.js'
export * from './Redaction.js'

// -------------------------------------------------------------------------------------
// retries, tokens and concurrency
// -------------------------------------------------------------------------------------
export * as Retry from './Retry.js'
export { defaultRetryPolicy, noRetry, type RequestKind, type RetryPolicy } from './Retry.js'
export * from './TokenCache.js'
export * from './Concurrency.js'

// -------------------------------------------------------------------------------------
// the client over an injected runtime
// -------------------------------------------------------------------------------------
export * from './Client.js'
export * from './ClientWith.js'
