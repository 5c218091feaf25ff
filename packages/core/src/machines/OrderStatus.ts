/**
 * The status of a payment-link order (spec 2.8, 3.2) and its state machine.
 *
 * The spec lists the states PENDING, PAID, CANCELLED and FINALIZED but shows no
 * transitions. The transitions here are the model's choice (DESIGN.md, as observed):
 * PENDING -> PAID | CANCELLED, PAID -> FINALIZED; CANCELLED and FINALIZED are terminal.
 *
 * @since 0.1.0
 */
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { transitionError, type TransitionError } from './TransitionError.js'

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

/**
 * `orderStatus` of an order: PENDING, PAID, CANCELLED or FINALIZED.
 *
 * @example
 * ```ts
 * import { OrderStatus, validate } from '@paykit/core'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(validate(OrderStatus)('PAID'), E.right('PAID'))
 * assert.ok(E.isLeft(validate(OrderStatus)('paid')))
 * ```
 *
 * @category codecs
 * @since 0.1.0
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
 * @since 0.1.0
 */
export type OrderStatus = t.TypeOf<typeof OrderStatus>

/**
 * Every order status, in the order of the spec.
 *
 * @example
 * ```ts
 * import { isTerminalOrderStatus, orderStatuses } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(orderStatuses, ['PENDING', 'PAID', 'CANCELLED', 'FINALIZED'])
 * assert.deepEqual(orderStatuses.filter(isTerminalOrderStatus), ['CANCELLED', 'FINALIZED'])
 * ```
 *
 * @category model
 * @since 0.1.0
 */
export const orderStatuses: ReadonlyArray<OrderStatus> = [
  'PENDING',
  'PAID',
  'CANCELLED',
  'FINALIZED',
]

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
 * import { isTerminalOrderStatus } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(isTerminalOrderStatus('CANCELLED'), true)
 * assert.equal(isTerminalOrderStatus('PAID'), false) // PAID -> FINALIZED
 * ```
 *
 * @category predicates
 * @since 0.1.0
 */
export const isTerminal = (status: OrderStatus): boolean => next[status].length === 0

/**
 * Whether the model allows moving from `from` to `to` (the spec shows no transitions).
 *
 * @example
 * ```ts
 * import { canTransitionOrderStatus } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(canTransitionOrderStatus('PAID')('PENDING'), true)
 * assert.equal(canTransitionOrderStatus('CANCELLED')('PAID'), false)
 * ```
 *
 * @category predicates
 * @since 0.1.0
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
 * The spec shows no transitions; these are the model's choice (DESIGN.md).
 *
 * @example
 * ```ts
 * import { transitionOrderStatus } from '@paykit/core'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { pipe } from 'fp-ts/lib/function.js'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(pipe('PENDING', transitionOrderStatus('PAID')), E.right('PAID'))
 * const refused = pipe('CANCELLED', transitionOrderStatus('PAID'))
 * assert.ok(E.isLeft(refused))
 * assert.equal(refused.left.message, 'order status CANCELLED is terminal: it cannot become PAID')
 * ```
 *
 * @category reducers
 * @since 0.1.0
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
 * import { reduceOrderStatus } from '@paykit/core'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { pipe } from 'fp-ts/lib/function.js'
 * import assert from 'node:assert/strict'
 *
 * const paid = reduceOrderStatus('PENDING', 'PAID')
 * const finalized = pipe(
 *   paid,
 *   E.flatMap((status) => reduceOrderStatus(status, 'FINALIZED')),
 * )
 * assert.deepEqual(finalized, E.right('FINALIZED'))
 * assert.ok(E.isLeft(reduceOrderStatus('FINALIZED', 'PENDING')))
 * ```
 *
 * @category reducers
 * @since 0.1.0
 */
export const reduce = (
  state: OrderStatus,
  event: OrderStatus,
): E.Either<TransitionError, OrderStatus> => transition(event)(state)
