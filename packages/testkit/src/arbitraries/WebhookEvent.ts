/**
 * Arbitraries of the order events the service sends to a webhook (the core's
 * `WebhookEvent`, as JSON): every type, with the order in the status the event reports.
 *
 * @since 0.2.0
 */
import type { OrderStatus, WebhookEvent, WebhookEventType } from '@paykit/core/pure'
import * as fc from 'fast-check'
import { idOf } from '../simulator/State.js'
import type * as t from 'io-ts'
import { orderDetails, type OrderDetailsArbitraryOptions } from './Order.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * An event as its JSON body carries it (amounts as numbers).
 *
 * @category model
 * @since 0.2.0
 */
export type WebhookEventJson = t.OutputOf<typeof WebhookEvent>

/**
 * Options of {@link webhookEvent}: the types to draw from (all three by default) and the
 * service's address of the order's link.
 *
 * @category model
 * @since 0.2.0
 */
export interface WebhookEventArbitraryOptions extends Pick<
  OrderDetailsArbitraryOptions,
  'baseUrl'
> {
  readonly types?: ReadonlyArray<WebhookEventType>
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * The order status each event type reports (the sandbox's order events,
 * docs/service.md#order-events-webhooks).
 *
 * @example
 * ```ts
 * import { WEBHOOK_EVENT_STATUS } from '@paykit/testkit/arbitraries'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(WEBHOOK_EVENT_STATUS['order.paid'], 'PAID')
 * assert.deepEqual(Object.keys(WEBHOOK_EVENT_STATUS), ['order.paid', 'order.cancelled', 'order.finalized'])
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const WEBHOOK_EVENT_STATUS: Readonly<Record<WebhookEventType, OrderStatus>> = {
  'order.paid': 'PAID',
  'order.cancelled': 'CANCELLED',
  'order.finalized': 'FINALIZED',
}

// -------------------------------------------------------------------------------------
// valid
// -------------------------------------------------------------------------------------

/**
 * An order event as the service sends it: `type` one of `types`, `data` the order's
 * details in the status the type reports (`order.paid`: PAID, with its payment), an `id`
 * of the sandbox's form, `createdAt` at or after the order's `created`.
 *
 * @example
 * ```ts
 * import { webhookEvent } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { WebhookEvent } from '@paykit/core/webhook'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * fc.assert(
 *   fc.property(webhookEvent({ types: ['order.cancelled'] }), (json) => {
 *     const event = validate(WebhookEvent)(json)
 *     assert.ok(event._tag === 'Right')
 *     assert.equal(event.right.data.orderStatus, 'CANCELLED')
 *     assert.ok(event.right.createdAt >= event.right.data.created)
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category valid
 * @since 0.2.0
 */
export const webhookEvent = (
  options: WebhookEventArbitraryOptions = {},
): fc.Arbitrary<WebhookEventJson> => {
  const types = options.types ?? (Object.keys(WEBHOOK_EVENT_STATUS) as Array<WebhookEventType>)
  if (types.length === 0) throw new RangeError('webhookEvent: types is empty')
  return fc.constantFrom(...types).chain((type) =>
    fc
      .tuple(
        orderDetails({
          statuses: [WEBHOOK_EVENT_STATUS[type]],
          ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
        }),
        fc.integer({ min: 1, max: 999_999 }),
        fc.integer({ min: 0, max: 30 * 24 * 3600 * 1000 }),
      )
      .map(([data, n, laterMs]) => ({
        id: idOf('evt', n),
        type,
        createdAt: new Date(Date.parse(data.created) + laterMs).toISOString(),
        data,
      })),
  )
}
