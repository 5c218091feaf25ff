/**
 * `@paykit/testkit/msw`: the simulator as MSW request handlers, for `setupServer` (Node)
 * and `setupWorker` (a browser, through MSW's service worker). msw is an optional peer
 * dependency, MSW 2 or 3 (`^2.0.0 || ^3.0.0`); this entry imports no Node built-in, so a
 * browser bundle takes it whole, with the test credentials and cards (the root
 * `@paykit/testkit` is Node-only).
 *
 * @module @paykit/testkit/msw
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// handlers
// -------------------------------------------------------------------------------------
export {
  MSW_HANG_MS,
  MSW_PAGE_SHELL,
  paykitHandlers,
  type MswWebhookOptions,
  type PaykitHandlers,
  type PaykitHandlersOptions,
} from './paykitHandlers.js'
export type { ServiceControls } from '../service/ServiceControls.js'

// -------------------------------------------------------------------------------------
// webhooks
// -------------------------------------------------------------------------------------
export {
  encodeWebhookEvent,
  unsignedWebhook,
  type HandlerDelivery,
  type SignedWebhook,
  type WebhookHandler,
  type WebhookOutbox,
  type WebhookOutboxOptions,
  type WebhookSigner,
} from '../service/WebhookOutbox.js'

// -------------------------------------------------------------------------------------
// test data
// -------------------------------------------------------------------------------------
export { defaultCredentials, testCards } from '../simulator/TestCards.js'
