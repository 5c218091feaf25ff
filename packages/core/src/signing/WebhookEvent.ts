/**
 * Webhook events (sandbox-defined: spec 6.2 shows none): the order event the sandbox POSTs
 * on every order status change, and the name of the header that carries its signature.
 * Pure (no `node:crypto`): exported by `@paykit/core` and `@paykit/core/pure`, so any
 * code, a browser's included, can decode an event. Signing and verifying are the server's:
 * `@paykit/core/webhook` (`signing/Webhook.ts`).
 *
 * @since 0.2.0
 */
import * as t from 'io-ts'
import { IsoDateTime, NonEmptyString } from '../internal/codec.js'
import { OrderDetails } from '../model/Order.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The kinds of order event: an order was paid, cancelled (by the buyer or by expiry) or
 * finalized.
 *
 * @category model
 * @since 0.2.0
 */
export type WebhookEventType = 'order.paid' | 'order.cancelled' | 'order.finalized'

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * The header that carries the signature.
 *
 * @example
 * ```ts
 * import { WEBHOOK_SIGNATURE_HEADER } from '@paykit/core/webhook'
 * import { verifyWebhook } from '@paykit/core/webhook'
 * import * as E from 'fp-ts/lib/Either.js'
 * import type { IncomingHttpHeaders } from 'node:http'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(WEBHOOK_SIGNATURE_HEADER, 'Paykit-Signature')
 * // node:http gives header names in lower case
 * const headers: IncomingHttpHeaders = { 'content-type': 'application/json' }
 * const header = headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()]
 * const result = verifyWebhook({ secret: 'test-secret', body: '{}', header, now: new Date() })
 * assert.deepEqual(
 *   result,
 *   E.left({ _tag: 'MalformedHeader', message: 'missing Paykit-Signature header' }),
 * )
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const WEBHOOK_SIGNATURE_HEADER = 'Paykit-Signature'

/**
 * Default tolerance between the signed timestamp and the receiver's clock, in seconds.
 *
 * @example
 * ```ts
 * import { DEFAULT_WEBHOOK_TOLERANCE_SECONDS } from '@paykit/core/webhook'
 * import { signWebhook, verifyWebhook } from '@paykit/core/webhook'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const sentAt = new Date('2026-11-24T12:00:00Z')
 * const header = signWebhook({ secret: 'test-secret', body: '{}', timestamp: sentAt })
 * const at = (seconds: number) =>
 *   verifyWebhook({
 *     secret: 'test-secret',
 *     body: '{}',
 *     header,
 *     now: new Date(sentAt.getTime() + seconds * 1000),
 *   })
 * assert.ok(E.isRight(at(DEFAULT_WEBHOOK_TOLERANCE_SECONDS)))
 * assert.ok(E.isLeft(at(DEFAULT_WEBHOOK_TOLERANCE_SECONDS + 1))) // a replay
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

/**
 * The kind of an order event.
 *
 * @example
 * ```ts
 * import { WebhookEventType } from '@paykit/core/webhook'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(WebhookEventType.is('order.paid'), true)
 * assert.equal(WebhookEventType.is('order.created'), false)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const WebhookEventType = t.keyof(
  { 'order.paid': null, 'order.cancelled': null, 'order.finalized': null },
  'WebhookEventType',
)

/**
 * The JSON body of a webhook: `{ id, type, createdAt, data }`, `data` being the order's
 * details as `GET /paymentlink/order/{orderCode}` returns them. Unknown fields are
 * tolerated.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { WebhookEvent } from '@paykit/core/webhook'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const event = validate(WebhookEvent)({
 *   id: 'evt_1',
 *   type: 'order.paid',
 *   createdAt: '2026-11-24T12:00:00.000Z',
 *   data: {},
 * })
 * assert.ok(E.isLeft(event))
 * // `data` is the order's details: its errors are named under data
 * assert.ok(event.left.every((e) => e.path.startsWith('data.')))
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const WebhookEvent = t.type(
  { id: NonEmptyString, type: WebhookEventType, createdAt: IsoDateTime, data: OrderDetails },
  'WebhookEvent',
)

/**
 * An order event as the sandbox sends it.
 *
 * @category model
 * @since 0.2.0
 */
export type WebhookEvent = t.TypeOf<typeof WebhookEvent>
