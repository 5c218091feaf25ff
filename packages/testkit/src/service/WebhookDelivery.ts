/**
 * Webhooks as the sandbox sends them, and delivery to a handler in process with the
 * controls a test needs: deliver now, duplicate, reorder, delay, drop and redeliver.
 *
 * One encoder for every sender (the sandbox's dispatcher, the nock mock, the in-memory
 * service and the model): the core's `WebhookEvent` codec writes amounts as JSON numbers,
 * which is what the core's `verifyWebhookEvent` reads back (`JSON.stringify` of a decoded
 * event writes them as strings, and the receiver then refuses the body).
 *
 * @since 0.2.0
 */
import { signWebhook, WEBHOOK_SIGNATURE_HEADER, type WebhookEvent } from '@paykit/core/webhook'
import {
  makeWebhookOutboxWith,
  unsignedWebhook,
  type SignedWebhook,
  type WebhookOutbox,
  type WebhookOutboxOptions,
} from './WebhookOutbox.js'
import type { SimulatorState } from '../simulator/State.js'

// The outbox, its model and the unsigned encoders, without node:crypto (MSW reuses them).
export * from './WebhookOutbox.js'

// -------------------------------------------------------------------------------------
// encoders
// -------------------------------------------------------------------------------------

/**
 * The request the sandbox sends for `event`: the encoded body, `content-type`,
 * `user-agent` and, when `secret` is not empty, the `paykit-signature` header signed at
 * `timestamp` (which the core's `verifyWebhookEvent` accepts).
 *
 * @example
 * ```ts
 * import { verifyWebhookEvent } from '@paykit/core/webhook'
 * import { defaultCredentials } from '@paykit/testkit'
 * import { makeLiveService, signedWebhook } from '@paykit/testkit/service'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const live = makeLiveService({ baseUrl: 'http://paykit.test' })
 * const { response } = live.exchange({
 *   method: 'POST',
 *   path: '/paymentlink/checkout',
 *   headers: { authorization: `Bearer ${defaultCredentials.apiKey}`, 'content-type': 'application/json' },
 *   body: '{"amount":12.5}',
 * })
 * live.payOrder(JSON.parse(response.body).orderCode)
 * const [event] = live.events()
 * assert.ok(event !== undefined)
 * const timestamp = new Date()
 * const { body, headers } = signedWebhook(event, 'whsec-test', { timestamp })
 * const header = headers['paykit-signature']
 * const verified = verifyWebhookEvent({ secret: 'whsec-test', body, header, now: timestamp })
 * assert.ok(E.isRight(verified) && verified.right.type === 'order.paid')
 * ```
 *
 * @category encoders
 * @since 0.2.0
 */
export const signedWebhook = (
  event: WebhookEvent,
  secret: string,
  options: { readonly timestamp: Date },
): SignedWebhook => {
  const unsigned = unsignedWebhook(event)
  if (secret === '') return unsigned
  const { body } = unsigned
  const signature = signWebhook({ secret, body, timestamp: options.timestamp })
  return {
    body,
    headers: { ...unsigned.headers, [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: signature },
  }
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * An outbox over a service's events (anything with the simulator's `state()`: the
 * in-memory service, the nock mock, the sandbox), delivering to `options.handler`.
 *
 * @example
 * ```ts
 * import { createClient } from '@paykit/core'
 * import { defaultCredentials } from '@paykit/testkit'
 * import { makeWebhookOutbox } from '@paykit/testkit/service'
 * import { mockPaymentService } from '@paykit/testkit/nock'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const mock = mockPaymentService({ baseUrl: 'https://paykit.test' })
 * try {
 *   const seen: Array<string> = []
 *   const outbox = makeWebhookOutbox(mock, {
 *     secret: 'whsec-test',
 *     handler: async (body) => {
 *       seen.push(JSON.parse(body).type)
 *       return { status: 200 }
 *     },
 *   })
 *   const client = createClient({ baseUrl: mock.baseUrl, credentials: defaultCredentials })
 *   const link = await client.createPaymentLink({ amount: 5 })()
 *   assert.ok(E.isRight(link))
 *   mock.payOrder(link.right.orderCode)
 *   mock.finalizeOrder(link.right.orderCode)
 *   await outbox.deliverLatest() // out of order: order.finalized first
 *   await outbox.duplicate() // and again
 *   await outbox.deliverAll()
 *   assert.deepEqual(seen, ['order.finalized', 'order.finalized', 'order.paid'])
 * } finally {
 *   mock.restore()
 * }
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const makeWebhookOutbox: (
  service: { readonly state: () => SimulatorState },
  options: WebhookOutboxOptions,
) => WebhookOutbox = makeWebhookOutboxWith(signedWebhook)
