/** Payment Link → Wait for Status: an order polled until it reaches a chosen status. */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import type { FieldError, OrderStatus } from '@paykit/core/pure'
import { OrderStatus as OrderStatusCodec, validationError } from '@paykit/core/pure'
import type { Operation } from '../../helpers/items'
import type { OperationDescription } from '../Action'
import { encodeOrder, orderCodeField, orderCodeOf } from './orderCode'

/** Payment Link → Wait for Status: its entry in the Operation list and its fields. */
export const description: OperationDescription = {
  option: {
    name: 'Wait for Status',
    action: 'Wait for an order status',
    description: 'Poll an order until it reaches one of the chosen statuses, or time out',
  },
  properties: [
    orderCodeField,
    {
      displayName: 'Statuses',
      name: 'statuses',
      type: 'multiOptions',
      required: true,
      options: [
        { name: 'Cancelled', value: 'CANCELLED' },
        { name: 'Finalized', value: 'FINALIZED' },
        { name: 'Paid', value: 'PAID' },
        { name: 'Pending', value: 'PENDING' },
      ],
      default: ['PAID'],
      description: 'Stop waiting when the order reaches one of these',
    },
    {
      displayName: 'Wait Timeout (Seconds)',
      name: 'waitTimeout',
      type: 'number',
      typeOptions: { minValue: 1 },
      default: 300,
      description: 'Fail the item when no chosen status is seen within this time',
    },
    {
      displayName: 'Poll Interval (Seconds)',
      name: 'pollInterval',
      type: 'number',
      typeOptions: { minValue: 0.1 },
      default: 5,
      description:
        'Time before the first poll; later polls wait 1.5 times longer, up to 10 times this',
    },
  ],
}

interface WaitInput {
  readonly orderCode: string
  readonly statuses: ReadonlyArray<OrderStatus>
  readonly timeoutMs: number
  readonly intervalMs: number
}

/** Payment Link → Wait for Status: the core's poll, with n8n's sleep between polls. */
export const operation: Operation<WaitInput> = {
  concurrent: true,
  toolSafe: true,
  prepare: (ctx, i) =>
    pipe(
      orderCodeOf(ctx, i),
      E.chain((orderCode) => {
        const statuses = ctx.getNodeParameter('statuses', i, []) as unknown[]
        const errors: FieldError[] = statuses.flatMap((s, k) =>
          OrderStatusCodec.is(s)
            ? []
            : [
                {
                  path: `Statuses[${k}]`,
                  message: 'must be PENDING, PAID, CANCELLED or FINALIZED',
                },
              ],
        )
        if (statuses.length === 0)
          errors.push({ path: 'Statuses', message: 'must name at least one status' })
        const timeoutMs = Number(ctx.getNodeParameter('waitTimeout', i)) * 1000
        const intervalMs = Number(ctx.getNodeParameter('pollInterval', i)) * 1000
        if (!(timeoutMs > 0))
          errors.push({ path: 'Wait Timeout (Seconds)', message: 'must be greater than 0' })
        if (!(intervalMs > 0))
          errors.push({ path: 'Poll Interval (Seconds)', message: 'must be greater than 0' })
        return errors.length > 0
          ? E.left(validationError(errors, 'Wait for Status parameters'))
          : E.right({ orderCode, statuses: statuses as OrderStatus[], timeoutMs, intervalMs })
      }),
    ),
  send: (client, { orderCode, statuses, timeoutMs, intervalMs }, signal) =>
    encodeOrder(
      client.waitForOrderStatus(orderCode, statuses, {
        timeoutMs,
        intervalMs,
        ...(signal ? { signal } : {}),
      }),
    ),
}
