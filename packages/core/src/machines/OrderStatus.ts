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
 * @category predicates
 * @since 0.1.0
 */
export const isTerminal = (status: OrderStatus): boolean => next[status].length === 0

/**
 * Whether the model allows moving from `from` to `to` (the spec shows no transitions).
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
 * @category reducers
 * @since 0.1.0
 */
export const reduce = (
  state: OrderStatus,
  event: OrderStatus,
): E.Either<TransitionError, OrderStatus> => transition(event)(state)
