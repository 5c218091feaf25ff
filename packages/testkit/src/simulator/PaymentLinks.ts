/**
 * Payment links (spec 4.4, 4.5, 2.6 to 2.8): creation validated with the core's
 * `PaymentLinkRequest` and `orderTotal` (sku catalogue, amount equal to the line-item
 * total), the order read back, and the hosted checkout page that pays or cancels it.
 *
 * @since 0.2.0
 */
import {
  catalogue,
  fieldError,
  isSkuLineItem,
  Money,
  OrderDetails,
  orderTotal,
  PaymentLinkRequest,
  PaymentLinkResponse,
  validate,
  type FieldError,
  type LineItem,
  type OrderLineItem,
} from '@paykit/core/pure'
import * as E from 'fp-ts/lib/Either.js'
import { authenticatedJson, bearer, formBody, isForm } from './Gates.js'
import {
  checkoutCard,
  defaultBuyer,
  moveOrder,
  orderDetailsOf,
  paymentLinkUrlOf,
  payOrderAt,
} from './Orders.js'
import { checkoutPage, messagePage, orderResultPage } from './Pages.js'
import { badRequest, html, json, jsonText, problem, redirect } from './Responses.js'
import { through, type Context, type Result } from './Route.js'
import { insert } from './HashTrie.js'
import { nextId, own, type OrderRecord, type SimulatorState } from './State.js'

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * The first order id; order ids count up from here.
 *
 * @category constants
 * @since 0.2.0
 */
export const FIRST_ORDER_ID = 1001

/**
 * The order code of an order id: `OC` and the id on eight digits (`OC00001001`).
 *
 * @category constants
 * @since 0.2.0
 */
export const orderCodeOf = (orderId: number): string => `OC${orderId.toString().padStart(8, '0')}`

// -------------------------------------------------------------------------------------
// endpoints: API
// -------------------------------------------------------------------------------------

const lineItemsOf = (
  state: SimulatorState,
  items: ReadonlyArray<LineItem>,
): readonly [SimulatorState, ReadonlyArray<OrderLineItem>] => {
  let s = state
  const out: Array<OrderLineItem> = []
  for (const item of items) {
    if (isSkuLineItem(item)) {
      const product = state.config.products.find((p) => p.sku === item.sku)
      if (product === undefined) continue // orderTotal refused unknown skus already
      const price = Money.MoneyFromNumber.decode(product.price)
      const unit = E.isRight(price) ? price.right : Money.zero
      out.push({
        productId: product.productId,
        sku: product.sku,
        name: product.name,
        price: unit,
        promoPrice: unit,
        quantity: item.quantity,
        imageUrl: product.imageUrl,
        subTotal: Money.multiply(item.quantity)(unit),
      })
    } else {
      const [next, productId] = nextId(s, 'product')
      s = next
      out.push({
        productId,
        sku: null,
        name: item.product.name,
        price: item.product.price,
        promoPrice: item.product.price,
        quantity: item.quantity,
        imageUrl: item.product.imageUrl ?? null,
        subTotal: Money.multiply(item.quantity)(item.product.price),
      })
    }
  }
  return [s, out]
}

const priceLookup = (state: SimulatorState) =>
  catalogue(
    new Map(
      state.config.products.flatMap((p) => {
        const price = Money.MoneyFromNumber.decode(p.price)
        return E.isRight(price) ? [[p.sku, price.right] as const] : []
      }),
    ),
  )

/**
 * `POST /paymentlink/checkout` (API key or access token): 200 `{ orderCode, orderId,
 * paymentLinkUrl }`, or 400 naming every field that breaks a rule of spec 2.6 and 8,
 * an unknown `lineItems[i].sku`, or an `amount` different from the line-item total.
 *
 * @category endpoints
 * @since 0.2.0
 */
export const postCheckout = (context: Context): Result =>
  authenticatedJson(
    context,
    'accessTokenOrApiKey',
  )((body) => {
    const { state, atMs } = context
    const decoded = validate(PaymentLinkRequest)(body)
    if (E.isLeft(decoded)) return [state, badRequest(decoded.left)]
    const req = decoded.right
    const total = orderTotal(priceLookup(state))(req)
    if (E.isLeft(total)) return [state, badRequest(total.left)]
    const [s1, n] = nextId(state, 'order')
    const orderId = FIRST_ORDER_ID + n - 1
    const orderCode = orderCodeOf(orderId)
    const [s2, lineItems] = lineItemsOf(s1, req.lineItems ?? [])
    const order: OrderRecord = {
      orderId,
      orderCode,
      orderReference: req.orderReference ?? null,
      name: req.orderName,
      description: req.orderDescription ?? null,
      lineItems,
      subtotal: total.right,
      total: total.right,
      metadata: (req.metadata ?? []).map(({ name, value }) => ({ name, value })),
      successUrl: req.successUrl ?? null,
      cancelUrl: req.cancelUrl ?? null,
      locationCode: req.locationCode ?? null,
      status: 'PENDING',
      payment: null,
      createdAtMs: atMs,
      expiresAtMs: atMs + req.expirationMinutes * 60_000,
    }
    return [
      {
        ...s2,
        orders: insert(s2.orders, orderCode, order),
        deadlines: s2.deadlines.add({
          atMs: order.expiresAtMs,
          seq: orderId,
          kind: 'expireOrder',
          key: orderCode,
        }),
      },
      json(
        200,
        PaymentLinkResponse.encode({
          orderCode,
          orderId,
          paymentLinkUrl: paymentLinkUrlOf(state, orderCode),
        }),
      ),
    ]
  })

// The JSON of the orders read last (at most ORDER_JSON_CACHE_SIZE, the oldest dropped
// first), with the config each was read under. A record is immutable (a change makes a
// new one), so a cached text is the details of that record: a state holding an older
// record still reads the older text. Bounded, so that a sandbox whose every order is read
// once does not keep a second copy of each.
const ORDER_JSON_CACHE_SIZE = 1024
const orderJson = new Map<
  OrderRecord,
  { readonly config: SimulatorState['config']; readonly text: string }
>()

const orderJsonOf = (state: SimulatorState, order: OrderRecord): string => {
  const cached = orderJson.get(order)
  if (cached !== undefined && cached.config === state.config) return cached.text
  const text = JSON.stringify(OrderDetails.encode(orderDetailsOf(state, order)))
  if (orderJson.size >= ORDER_JSON_CACHE_SIZE) {
    const oldest = orderJson.keys().next()
    if (oldest.done !== true) orderJson.delete(oldest.value)
  }
  orderJson.set(order, { config: state.config, text })
  return text
}

/**
 * `GET /paymentlink/order/<orderCode>` (API key or access token): 200 with every field of
 * spec 2.8, or 404 problem details for an unknown code.
 *
 * @category endpoints
 * @since 0.2.0
 */
export const getOrder = ({ state, request, atMs, params }: Context): Result =>
  through(
    state,
    bearer(state, request, atMs, 'accessTokenOrApiKey'),
  )(() => {
    const code = params[0] ?? ''
    const order = own(state.orders, code)
    return order === undefined
      ? [state, problem(404, `No order has code ${code}.`)]
      : [state, jsonText(200, orderJsonOf(state, order))]
  })

// -------------------------------------------------------------------------------------
// endpoints: hosted checkout
// -------------------------------------------------------------------------------------

const orderNotFound = (code: string): string =>
  messagePage('Order not found', `No payment link has order code ${code}.`)

/**
 * `GET /pay/<orderCode>`: the checkout page (404 page for an unknown code).
 *
 * @category endpoints
 * @since 0.2.0
 */
export const getCheckoutPage = ({ state, params }: Context): Result => {
  const code = params[0] ?? ''
  const order = own(state.orders, code)
  if (order === undefined) return [state, html(404, orderNotFound(code))]
  return [
    state,
    html(
      200,
      checkoutPage({
        details: orderDetailsOf(state, order),
        action: paymentLinkUrlOf(state, code),
      }),
    ),
  ]
}

/**
 * `GET /pay/<orderCode>/voucher`: the voucher of a paid order (404 page otherwise).
 *
 * @category endpoints
 * @since 0.2.0
 */
export const getVoucherPage = ({ state, params }: Context): Result => {
  const code = params[0] ?? ''
  const order = own(state.orders, code)
  if (order === undefined || order.payment === null)
    return [state, html(404, messagePage('Voucher not found', `Order ${code} has no payment.`))]
  return [state, html(200, orderResultPage(orderDetailsOf(state, order), 'Payment voucher'))]
}

// The checkout form's buttons: an action that is neither (or none) is `oneOf` these.
const CHECKOUT_ACTIONS: ReadonlyArray<string> = ['pay', 'cancel']

/**
 * `POST /pay/<orderCode>` (form: `action=pay|cancel`, card fields `number`,
 * `expirationMonth`, `expirationYear`, `cvv`, optional `cardHolder`, `email`, `phone`).
 * Pay checks the card with the core's codec and the test-card outcome (400 page naming
 * the field, 402 page for a declined card); success moves the order to PAID and
 * redirects (303) to `successUrl`, or shows a confirmation. Cancel moves it to CANCELLED
 * and redirects to `cancelUrl`. 409 page when the order is no longer PENDING.
 *
 * @category endpoints
 * @since 0.2.0
 */
export const postCheckoutForm = ({ state, request, params, atMs }: Context): Result => {
  const code = params[0] ?? ''
  const order = own(state.orders, code)
  if (order === undefined) return [state, html(404, orderNotFound(code))]
  if (!isForm(request))
    return [state, problem(415, 'The checkout form must be application/x-www-form-urlencoded.')]
  const form = formBody(request)
  const action = form['action']
  const details = orderDetailsOf(state, order)
  const pageWith = (status: number, errors: ReadonlyArray<FieldError | string>): Result => [
    state,
    html(
      status,
      checkoutPage({ details, action: paymentLinkUrlOf(state, code), errors, values: form }),
    ),
  ]
  if (action !== 'pay' && action !== 'cancel')
    return pageWith(400, [fieldError('action', { code: 'oneOf', values: CHECKOUT_ACTIONS })])
  if (order.status !== 'PENDING')
    return pageWith(409, [`The order is ${order.status}; it can no longer be paid or cancelled.`])
  if (action === 'cancel') {
    const moved = moveOrder(state, code, 'CANCELLED', atMs)
    if (E.isLeft(moved)) return pageWith(409, [moved.left])
    const after = own(moved.right.orders, code) ?? order
    return [
      moved.right,
      after.cancelUrl === null
        ? html(200, orderResultPage(orderDetailsOf(moved.right, after), 'Payment cancelled'))
        : redirect(after.cancelUrl),
    ]
  }
  const card = {
    number: form['number'],
    expirationMonth: form['expirationMonth'],
    expirationYear: form['expirationYear'],
    cvv: form['cvv'],
    ...(form['cardHolder'] === undefined || form['cardHolder'] === ''
      ? {}
      : { cardHolder: form['cardHolder'] }),
  }
  const checked = checkoutCard(card, new Date(atMs))
  if (E.isLeft(checked)) {
    const declined = checked.left.some((e) => e.path === 'card')
    return pageWith(declined ? 402 : 400, checked.left)
  }
  const buyer = {
    ...(form['cardHolder'] ? { name: form['cardHolder'] } : {}),
    ...(form['email'] ? { email: form['email'] } : {}),
    phone: form['phone'] || defaultBuyer.phone,
  }
  const paid = payOrderAt(state, code, { buyer, card }, atMs)
  if (E.isLeft(paid)) return pageWith(409, [paid.left])
  const after = own(paid.right.orders, code) ?? order
  return [
    paid.right,
    after.successUrl === null
      ? html(200, orderResultPage(orderDetailsOf(paid.right, after), 'Payment received'))
      : redirect(after.successUrl),
  ]
}
