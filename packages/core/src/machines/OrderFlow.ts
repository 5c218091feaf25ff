/**
 * The state machine of a payment-link order's status (spec 2.8, 3.2), `OrderFlow` in the
 * entries (`OrderFlow.transition('PAID')`); the status itself is `model/OrderStatus`.
 *
 * The spec lists the states PENDING, PAID, CANCELLED and FINALIZED but shows no
 * transitions. The transitions here are paykit's choice, as the sandbox does them
 * (docs/service.md#32-order-status):
 * PENDING -> PAID | CANCELLED, PAID -> FINALIZED; CANCELLED and FINALIZED are terminal.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import type { OrderStatus } from '../model/OrderStatus.js'
import { transitionError, type TransitionError } from './TransitionError.js'

// -------------------------------------------------------------------------------------
// predicates
// -------------------------------------------------------------------------------------

const next: Readonly<Record<OrderStatus, ReadonlyArray<OrderStatus>>> = {
  PENDING: ['PAID', 'CANCELLED'],
  PAID: ['FINALIZED'],
  CANCELLED: [],
  FINALIZED: [],
}

/**
 * Whether no transition leaves `status` (CANCELLED, FINALIZED).
 *
 * @example
 * ```ts
 * import { OrderFlow } from '@paykit/core/machines'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(OrderFlow.isTerminal('CANCELLED'), true)
 * assert.equal(OrderFlow.isTerminal('PAID'), false) // PAID -> FINALIZED
 * ```
 *
 * @category predicates
 * @since 0.2.0
 */
export const isTerminal = (status: OrderStatus): boolean => next[status].length === 0

/**
 * Whether the model allows moving from `from` to `to` (the spec shows no transitions).
 *
 * @example
 * ```ts
 * import { OrderFlow } from '@paykit/core/machines'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(OrderFlow.canTransition('PAID')('PENDING'), true)
 * assert.equal(OrderFlow.canTransition('CANCELLED')('PAID'), false)
 * ```
 *
 * @category predicates
 * @since 0.2.0
 */
export const canTransition =
  (to: OrderStatus) =>
  (from: OrderStatus): boolean =>
    next[from].includes(to)

// -------------------------------------------------------------------------------------
// reducers
// -------------------------------------------------------------------------------------

/**
 * Moves an order from `from` to `to` (pipe-first: `pipe('PENDING', transition('PAID'))`):
 * PENDING -> PAID | CANCELLED, PAID -> FINALIZED, everything else is a `TransitionError`.
 * The spec shows no transitions; these are paykit's choice (docs/service.md#32-order-status).
 *
 * @example
 * ```ts
 * import { OrderFlow } from '@paykit/core/machines'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { pipe } from 'fp-ts/lib/function.js'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(pipe('PENDING', OrderFlow.transition('PAID')), E.right('PAID'))
 * const refused = pipe('CANCELLED', OrderFlow.transition('PAID'))
 * assert.ok(E.isLeft(refused))
 * assert.equal(refused.left.message, 'order status CANCELLED is terminal: it cannot become PAID')
 * ```
 *
 * @category reducers
 * @since 0.2.0
 */
export const transition =
  (to: OrderStatus) =>
  (from: OrderStatus): E.Either<TransitionError, OrderStatus> =>
    canTransition(to)(from)
      ? E.right(to)
      : E.left(
          transitionError(
            from,
            to,
            isTerminal(from)
              ? `order status ${from} is terminal: it cannot become ${to}`
              : `order status ${from} cannot become ${to}`,
          ),
        )

/**
 * The same machine as a reducer `(state, event) => Either`, the event being the status
 * the order moves to.
 *
 * @example
 * ```ts
 * import { OrderFlow } from '@paykit/core/machines'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { pipe } from 'fp-ts/lib/function.js'
 * import assert from 'node:assert/strict'
 *
 * const paid = OrderFlow.reduce('PENDING', 'PAID')
 * const finalized = pipe(
 *   paid,
 *   E.flatMap((status) => OrderFlow.reduce(status, 'FINALIZED')),
 * )
 * assert.deepEqual(finalized, E.right('FINALIZED'))
 * assert.ok(E.isLeft(OrderFlow.reduce('FINALIZED', 'PENDING')))
 * ```
 *
 * @category reducers
 * @since 0.2.0
 */
export const reduce = (
  state: OrderStatus,
  event: OrderStatus,
): E.Either<TransitionError, OrderStatus> => transition(event)(state)
