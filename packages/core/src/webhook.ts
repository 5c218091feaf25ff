/**
 * @paykit/core/webhook: webhook events and their signatures, for servers. The order-event
 * codec and the header constants, and `signWebhook`, `verifyWebhook`, `receiveWebhookEvent`,
 * `verifyWebhookEvent` and `parseSignatureHeader` (HMAC-SHA256 with `node:crypto`), so that
 * a receiver imports from one place. `@paykit/core/pure` takes the codec and the constants
 * but not the signing: it bundles for a browser with no `node:crypto` to stub.
 *
 * @module @paykit/core/webhook
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// signing and verifying (node:crypto), the event codec and the header constants
// -------------------------------------------------------------------------------------
export * from './signing/Webhook.js'
