/**
 * The status of a payment-link order (spec 2.8 `orderStatus`): PENDING, PAID, CANCELLED
 * or FINALIZED. Its transitions are the machine `OrderFlow`
 * (`machines/OrderFlow`).
 *
 * @since 0.2.0
 */
import * as t from 'io-ts'

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

/**
 * `orderStatus` of an order: PENDING, PAID, CANCELLED or FINALIZED.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { OrderStatus } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(validate(OrderStatus)('PAID'), E.right('PAID'))
 * assert.ok(E.isLeft(validate(OrderStatus)('paid')))
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const OrderStatus = t.keyof(
  { PENDING: null, PAID: null, CANCELLED: null, FINALIZED: null },
  'OrderStatus',
)

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The status of a payment-link order.
 *
 * @category model
 * @since 0.2.0
 */
export type OrderStatus = t.TypeOf<typeof OrderStatus>

/**
 * Every order status, in the order of the spec.
 *
 * @example
 * ```ts
 * import { orderStatuses } from '@paykit/core/codecs'
 * import { OrderFlow } from '@paykit/core/machines'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(orderStatuses, ['PENDING', 'PAID', 'CANCELLED', 'FINALIZED'])
 * assert.deepEqual(orderStatuses.filter(OrderFlow.isTerminal), ['CANCELLED', 'FINALIZED'])
 * ```
 *
 * @category model
 * @since 0.2.0
 */
export const orderStatuses: ReadonlyArray<OrderStatus> = [
  'PENDING',
  'PAID',
  'CANCELLED',
  'FINALIZED',
]
