/**
 * @paykit/core/pure: every concept entry's names except the Node/browser edge of
 * `@paykit/core/client` (`fetchTransport`, `defaultRuntime`, `defaultSleep` and the
 * defaulting `createClient`) and the signing of `@paykit/core/webhook`, in one entry for a
 * bundle. Nothing bundled from here reads `fetch`, a global timer or `globalThis`: the
 * client is `createClientWith`, over a transport, clock and sleep the host injects (the n8n
 * nodes bundle this entry). Nothing here needs Node either: it bundles for a browser.
 * Webhook signing and verification (`node:crypto`) stay in `@paykit/core/webhook`; its
 * event codec and header constants are here too.
 *
 * @module @paykit/core/pure
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// the concept entries
// -------------------------------------------------------------------------------------
export * from './codecs.js'
export * from './money.js'
export * from './machines.js'
export * from './client/injected.js'

// -------------------------------------------------------------------------------------
// webhook events (signing and verifying: `@paykit/core/webhook`)
// -------------------------------------------------------------------------------------
export * from './signing/WebhookEvent.js'
export type {
  WebhookBody,
  WebhookSignatureHeader,
  WebhookVerificationError,
  WebhookVerificationInput,
} from './signing/Webhook.js'
