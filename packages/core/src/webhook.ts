/**
 * @paykit/core/webhook: webhook signatures, for servers. `signWebhook`, `verifyWebhook`,
 * `receiveWebhookEvent`, `verifyWebhookEvent` and `parseSignatureHeader` (HMAC-SHA256
 * with `node:crypto`), and again the order-event codec and the header constants that
 * `@paykit/core` also exports, so that a receiver imports from one place. `@paykit/core`
 * and `@paykit/core/pure` do not reach this entry: they bundle for a browser with no
 * `node:crypto` to stub.
 *
 * @module @paykit/core/webhook
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// signing and verifying (node:crypto), the event codec and the header constants
// -------------------------------------------------------------------------------------
export * from './signing/Webhook.js'
