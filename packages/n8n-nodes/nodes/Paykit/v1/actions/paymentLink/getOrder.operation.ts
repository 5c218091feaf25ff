/** Payment Link → Get Order: an order read by its order code. */
import type { Operation } from '../../helpers/items'
import type { OperationDescription } from '../Action'
import { encodeOrder, orderCodeField, orderCodeOf } from './orderCode'

/** Payment Link → Get Order: its entry in the Operation list and its fields. */
export const description: OperationDescription = {
  option: {
    name: 'Get Order',
    action: 'Get a payment link order',
    description: 'Read an order by its order code (GET /paymentlink/order/{orderCode})',
  },
  properties: [orderCodeField],
}

/** Payment Link → Get Order. */
export const operation: Operation<string> = {
  concurrent: true,
  toolSafe: true,
  prepare: (ctx, i) => orderCodeOf(ctx, i),
  send: (client, orderCode, signal) =>
    encodeOrder(client.getOrder(orderCode, signal ? { signal } : {})),
}
