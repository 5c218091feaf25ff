/**
 * Payment-link orders: their details as `GET /paymentlink/order/{orderCode}` shows them
 * (spec 2.8), their status changes (the core's order-status machine) and the webhook
 * event each change appends to the log; and the controls that pay, cancel and finalize.
 *
 * @since 0.2.0
 */
import {
  cardAt,
  fieldError,
  Money,
  OrderFlow,
  validate,
  type FieldError,
  type OrderDetails,
  type OrderStatus,
  type Payment,
  type WebhookEvent,
  type WebhookEventType,
} from '@paykit/core/pure'
import * as E from 'fp-ts/lib/Either.js'
import { testCardOf } from './TestCards.js'
import { isoOf } from './Clock.js'
import { insert } from './HashTrie.js'
import { idOf, nextId, own, type OrderRecord, type SimulatorState } from './State.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The buyer of a paid order (spec 2.8 `payment.buyer`).
 *
 * @category model
 * @since 0.2.0
 */
type Buyer = Payment['buyer']

/**
 * How a control pays an order: the buyer (any member left out gets a sandbox default)
 * and the card as the checkout form sends it (the `success` test card when absent).
 *
 * @category model
 * @since 0.2.0
 */
export interface OrderPayment {
  readonly buyer?: Partial<Buyer>
  readonly card?: unknown
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * The buyer recorded when none is given.
 *
 * @category constants
 * @since 0.2.0
 */
export const defaultBuyer: Buyer = {
  name: 'Sandbox Buyer',
  phone: '+50688888888',
  email: 'buyer@example.com',
}

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * The page address of an order's payment link.
 *
 * @category destructors
 * @since 0.2.0
 */
export const paymentLinkUrlOf = (state: SimulatorState, orderCode: string): string =>
  `${state.config.baseUrl}/pay/${encodeURIComponent(orderCode)}`

/**
 * An order's details (spec 2.8), amounts as `Money`.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { initialState, orderDetailsOf, Simulator } from '@paykit/testkit/simulator'
 * import { Money } from '@paykit/core/money'
 * import assert from 'node:assert/strict'
 *
 * const now = new Date('2026-06-15T12:00:00Z')
 * const headers = {
 *   'content-type': 'application/json',
 *   authorization: `Bearer ${defaultCredentials.apiKey}`,
 * }
 * const body = JSON.stringify({ lineItems: [{ sku: 'MUG-LOGO', quantity: 3 }] }) // 8.50 each
 * const request = { method: 'POST', path: '/paymentlink/checkout', headers, body }
 * const [state, response] = Simulator.handle(
 *   initialState({ baseUrl: 'http://127.0.0.1:4010' }),
 *   request,
 *   now,
 * )
 * const { orderCode } = JSON.parse(response.body)
 * const order = state.orders[orderCode]
 * assert.ok(order !== undefined)
 * const details = orderDetailsOf(state, order)
 * assert.equal(details.orderStatus, 'PENDING')
 * assert.equal(Money.toString(details.total, 2), '25.50')
 * assert.equal(details.paymentLinkUrl, `http://127.0.0.1:4010/pay/${orderCode}`)
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const orderDetailsOf = (state: SimulatorState, order: OrderRecord): OrderDetails => ({
  orderId: order.orderId,
  orderCode: order.orderCode,
  orderReference: order.orderReference,
  name: order.name,
  description: order.description,
  lineItems: order.lineItems,
  orderStatus: order.status,
  subtotal: order.subtotal,
  totalDetails: {
    shippingAmount: Money.zero,
    discountAmount: Money.zero,
    surchargeAmount: Money.zero,
  },
  total: order.total,
  metadata: order.metadata,
  paymentLinkUrl: paymentLinkUrlOf(state, order.orderCode),
  successUrl: order.successUrl,
  cancelUrl: order.cancelUrl,
  store: state.config.store,
  payment: order.payment,
  created: isoOf(order.createdAtMs),
})

/**
 * A six-digit authorization code for the n-th approval (deterministic).
 *
 * @category destructors
 * @since 0.2.0
 */
export const authorizationCodeOf = (n: number): string =>
  (100000 + ((n * 7919) % 900000)).toString()

// -------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------

const eventTypeOf: Partial<Record<OrderStatus, WebhookEventType>> = {
  PAID: 'order.paid',
  CANCELLED: 'order.cancelled',
  FINALIZED: 'order.finalized',
}

/**
 * Moves an order to `to` by the core's order-status machine, records `payment` when
 * given, and appends the matching event (with the new details) to the log. Left for an
 * unknown code or a move the machine refuses.
 *
 * @category combinators
 * @since 0.2.0
 */
export const moveOrder = (
  state: SimulatorState,
  orderCode: string,
  to: OrderStatus,
  atMs: number,
  payment: Payment | null = null,
): E.Either<string, SimulatorState> => {
  const order = own(state.orders, orderCode)
  if (order === undefined) return E.left(`no order has code ${orderCode}`)
  const moved = OrderFlow.transition(to)(order.status)
  if (E.isLeft(moved)) return E.left(moved.left.message)
  const updated: OrderRecord = {
    ...order,
    status: moved.right,
    payment: payment ?? order.payment,
  }
  const [s1, n] = nextId(state, 'event')
  const type = eventTypeOf[to]
  const event: WebhookEvent | undefined =
    type === undefined
      ? undefined
      : {
          id: idOf('evt', n),
          type,
          createdAt: isoOf(atMs),
          data: orderDetailsOf(state, updated),
        }
  return E.right({
    ...s1,
    orders: insert(s1.orders, orderCode, updated),
    events: event === undefined ? s1.events : s1.events.append(event),
  })
}

/**
 * Field errors of a card given to the checkout (the core's card codec at the simulator
 * time), or the outcome of the test card.
 *
 * @category combinators
 * @since 0.2.0
 */
export const checkoutCard = (
  card: unknown,
  at: Date,
): E.Either<ReadonlyArray<FieldError>, { readonly cardHolder: string | undefined }> => {
  const decoded = validate(cardAt(at))(card)
  if (E.isLeft(decoded))
    return E.left(
      decoded.left.map((e) => ({ ...e, path: e.path === '' ? 'card' : `card.${e.path}` })),
    )
  // The hosted page runs 3DS itself, so a card that asks for it is approved here.
  const outcome = testCardOf(decoded.right.number).outcome
  if (outcome === 'FRAUD_PREVENT' || outcome === 'CARD_DECLINED')
    return E.left([fieldError('card', { code: 'declined', reason: outcome })])
  return E.right({ cardHolder: decoded.right.cardHolder })
}

/**
 * Pays a PENDING order: checks the card (the `success` test card when none is given),
 * moves it to PAID with `payment` recorded and emits `order.paid`.
 *
 * @category combinators
 * @since 0.2.0
 */
export const payOrderAt = (
  state: SimulatorState,
  orderCode: string,
  payment: OrderPayment,
  atMs: number,
): E.Either<string, SimulatorState> => {
  const order = own(state.orders, orderCode)
  if (order === undefined) return E.left(`no order has code ${orderCode}`)
  if (order.status !== 'PENDING')
    return E.left(`order ${orderCode} is ${order.status}, not PENDING`)
  const at = new Date(atMs)
  const card =
    payment.card ??
    ({
      number: '4242424242424242',
      expirationMonth: '12',
      expirationYear: String(at.getUTCFullYear() + 1),
      cvv: '123',
    } as const)
  const checked = checkoutCard(card, at)
  if (E.isLeft(checked))
    return E.left(checked.left.map((e) => `${e.path}: ${e.message}`).join('; '))
  const [s1, n] = nextId(state, 'charge')
  const recorded: Payment = {
    authorizationCode: authorizationCodeOf(n),
    voucherUrl: `${paymentLinkUrlOf(state, orderCode)}/voucher`,
    buyer: {
      name: payment.buyer?.name ?? checked.right.cardHolder ?? defaultBuyer.name,
      phone: payment.buyer?.phone ?? defaultBuyer.phone,
      email: payment.buyer?.email ?? defaultBuyer.email,
    },
  }
  return moveOrder(s1, orderCode, 'PAID', atMs, recorded)
}
