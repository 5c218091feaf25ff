/**
 * Confirmation of an unsigned order event by the service (what Stripe advises for events
 * that cannot be verified: fetch the object from the API): the trigger reads the order
 * back with the `Paykit API` credential and emits the event only when the service's order
 * agrees with it. A forged `order.paid` for an order that is not paid, or with other
 * totals, starts nothing; a genuine one is emitted with the service's copy of the order.
 */
import type { OrderDetails, OrderStatus, WebhookEvent } from '@paykit/core/pure'
import { Money, OrderFlow } from '@paykit/core/pure'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** When the trigger reads an event's order back from the service before emitting it. */
export type Confirmation = 'unsigned' | 'always' | 'never'

/** The order status each event type reports. */
const STATUS_OF_EVENT: Readonly<Record<WebhookEvent['type'], OrderStatus>> = {
  'order.paid': 'PAID',
  'order.cancelled': 'CANCELLED',
  'order.finalized': 'FINALIZED',
}

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/** Whether the service's order must be read for an event, given the setting and a secret. */
export const needsConfirmation = (confirmation: Confirmation, signed: boolean): boolean =>
  confirmation === 'always' || (confirmation === 'unsigned' && !signed)

/**
 * Why the service's order disagrees with the event, or undefined when it agrees: its status
 * is the event's, or one that follows it (an order paid, then finalized before the event
 * arrived); its reference, subtotal and total are the event's.
 */
export const disagreement = (event: WebhookEvent, order: OrderDetails): string | undefined => {
  const reported = STATUS_OF_EVENT[event.type]
  if (order.orderStatus !== reported && !OrderFlow.canTransition(order.orderStatus)(reported))
    return `the order is ${order.orderStatus} at Paykit, not ${reported}`
  if (order.orderReference !== event.data.orderReference)
    return 'the order reference differs from the one at Paykit'
  if (!Money.Eq.equals(order.total, event.data.total))
    return 'the total differs from the one at Paykit'
  if (!Money.Eq.equals(order.subtotal, event.data.subtotal))
    return 'the subtotal differs from the one at Paykit'
  return undefined
}
