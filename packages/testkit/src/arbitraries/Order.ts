/**
 * Arbitraries of the answer of `GET /paymentlink/order/{orderCode}` (the core's
 * `OrderDetails`, as JSON): every status of the spec, with coherent amounts and payment.
 *
 * The amounts hold together as the core computes them: a line item's `subTotal` is the
 * core's `Money.multiply(quantity)(price)` (`promoPrice` equals `price`: the sandbox has no
 * promotions), the order's `subtotal` their sum (any amount when there are no line items:
 * a link created from an amount), and `total` is `subtotal + shippingAmount +
 * surchargeAmount - discountAmount` (the spec gives no rule; the sandbox's extras are 0).
 * `payment` is set exactly when the order was paid (PAID, FINALIZED).
 *
 * @since 0.2.0
 */
import {
  Money,
  orderStatuses,
  type OrderDetailsJson,
  type OrderLineItem,
  type OrderStatus,
} from '@paykit/core/pure'
import * as fc from 'fast-check'
import type * as t from 'io-ts'
import { defaultStore } from '../simulator/TestCards.js'
import { orderCodeOf } from '../simulator/PaymentLinks.js'
import { httpUrl, isoDateTime, text } from './Common.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A line item of an order's details as JSON (`OrderDetailsJson['lineItems'][number]`).
 *
 * @category model
 * @since 0.2.0
 */
export type OrderLineItemJson = t.OutputOf<typeof OrderLineItem>

/**
 * Options of {@link orderDetails}.
 *
 * @category model
 * @since 0.2.0
 */
export interface OrderDetailsArbitraryOptions {
  /** The statuses to draw from (all four of the spec by default). */
  readonly statuses?: ReadonlyArray<OrderStatus>
  /** The service's address the link's URL starts with (the sandbox's by default). */
  readonly baseUrl?: string
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

// The statuses of an order that was paid: they carry `payment`.
const PAID_STATUSES: ReadonlyArray<OrderStatus> = ['PAID', 'FINALIZED']

// The sandbox's address, as `paykit-sandbox --port 4010` serves it.
const SANDBOX_URL = 'http://127.0.0.1:4010'

// -------------------------------------------------------------------------------------
// parts
// -------------------------------------------------------------------------------------

const money = (m: Money.Money): number => Money.toNumber(m)
const cents = (min: number, max: number): fc.Arbitrary<Money.Money> =>
  fc.integer({ min, max }).map((c) => Money.fromCents(c))

const store = fc.constantFrom(defaultStore, {
  name: 'Tienda Norte',
  countryCode: 'MEX',
  currencyCode: 'MXN',
  currencySymbol: '$',
  locale: 'es_MX',
  timezone: 'America/Mexico_City',
})

const buyer = fc.record({
  name: text(40),
  phone: fc.stringMatching(/^\+\d{8,12}$/),
  email: fc.emailAddress(),
})

// A line item and its subtotal as Money (summed exactly into the order's subtotal).
const lineItemWithSubtotal: fc.Arbitrary<readonly [OrderLineItemJson, Money.Money]> = fc
  .record({
    productId: fc.integer({ min: 1, max: 999_999 }),
    sku: fc.option(fc.stringMatching(/^[A-Z]{2,4}-\d{1,4}$/), { nil: null }),
    name: text(60),
    price: cents(0, 1_000_000),
    quantity: fc.integer({ min: 1, max: 1000 }),
    imageUrl: fc.option(httpUrl(512), { nil: null }),
  })
  .map(({ price, quantity, ...rest }) => {
    const sub = Money.multiply(quantity)(price)
    const item = {
      ...rest,
      price: money(price),
      promoPrice: money(price),
      quantity,
      subTotal: money(sub),
    }
    return [item, sub] as const
  })

// -------------------------------------------------------------------------------------
// valid
// -------------------------------------------------------------------------------------

/**
 * A line item of an order's details: a catalogue product (`sku` and a `productId`) or a
 * one-time product (`sku` null), `subTotal` = `price` x `quantity` by the core's
 * `subtotal`, `promoPrice` = `price`.
 *
 * @example
 * ```ts
 * import { orderLineItem } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { OrderLineItem } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * for (const item of fc.sample(orderLineItem(), 20)) {
 *   const decoded = validate(OrderLineItem)(item)
 *   assert.ok(decoded._tag === 'Right')
 *   const { price, quantity, subTotal } = decoded.right
 *   assert.ok(Money.Eq.equals(subTotal, Money.multiply(quantity)(price)))
 * }
 * ```
 *
 * @category valid
 * @since 0.2.0
 */
export const orderLineItem = (): fc.Arbitrary<OrderLineItemJson> =>
  lineItemWithSubtotal.map(([item]) => item)

/**
 * An order's details as `GET /paymentlink/order/{orderCode}` answers them (the core's
 * `OrderDetails` as JSON), in one of `statuses`: `orderCode` the sandbox's form of
 * `orderId`, `paymentLinkUrl` its `/pay/<orderCode>`, amounts coherent (see the module),
 * `payment` set exactly when PAID or FINALIZED, `created` an ISO time with milliseconds.
 *
 * @example
 * ```ts
 * import { orderDetails } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { OrderDetails } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * fc.assert(
 *   fc.property(orderDetails({ statuses: ['PAID'] }), (json) => {
 *     const order = validate(OrderDetails)(json)
 *     assert.ok(order._tag === 'Right')
 *     assert.equal(order.right.orderStatus, 'PAID')
 *     assert.ok(order.right.payment !== null)
 *     const { shippingAmount, surchargeAmount, discountAmount } = order.right.totalDetails
 *     const total = Money.sum([order.right.subtotal, shippingAmount, surchargeAmount]).minus(discountAmount)
 *     assert.ok(Money.Eq.equals(order.right.total, total))
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category valid
 * @since 0.2.0
 */
export const orderDetails = (
  options: OrderDetailsArbitraryOptions = {},
): fc.Arbitrary<OrderDetailsJson> => {
  const baseUrl = options.baseUrl ?? SANDBOX_URL
  const statuses = options.statuses ?? orderStatuses
  if (statuses.length === 0) throw new RangeError('orderDetails: statuses is empty')
  return fc
    .record({
      orderId: fc.integer({ min: 1, max: 99_999_999 }),
      orderReference: fc.option(text(255), { nil: null }),
      name: text(255),
      description: fc.option(text(2048), { nil: null }),
      lineItems: fc.array(lineItemWithSubtotal, { maxLength: 5 }),
      amount: cents(1, 100_000_000),
      extras: fc.oneof(
        fc.constant({ shipping: Money.zero, surcharge: Money.zero, discountShare: 0 }),
        fc.record({
          shipping: cents(0, 100_000),
          surcharge: cents(0, 100_000),
          discountShare: fc.integer({ min: 0, max: 100 }),
        }),
      ),
      orderStatus: fc.constantFrom(...statuses),
      metadata: fc.array(fc.record({ name: text(40), value: text(80) }), { maxLength: 3 }),
      successUrl: fc.option(httpUrl(200), { nil: null }),
      cancelUrl: fc.option(httpUrl(200), { nil: null }),
      store,
      authorizationCode: fc.integer({ min: 100_000, max: 999_999 }).map(String),
      buyer,
      created: isoDateTime(),
    })
    .map((o): OrderDetailsJson => {
      const orderCode = orderCodeOf(o.orderId)
      const paymentLinkUrl = `${baseUrl}/pay/${orderCode}`
      const sub =
        o.lineItems.length === 0
          ? o.amount
          : Money.sum(o.lineItems.map(([, itemSubtotal]) => itemSubtotal))
      const before = Money.sum([sub, o.extras.shipping, o.extras.surcharge])
      // A whole number of cents of what there is, so that the total never goes below 0.
      const discount = Money.fromCents(
        (Money.toCents(before) * BigInt(o.extras.discountShare)) / 100n,
      )
      return {
        orderId: o.orderId,
        orderCode,
        orderReference: o.orderReference,
        name: o.name,
        description: o.description,
        lineItems: o.lineItems.map(([item]) => item),
        orderStatus: o.orderStatus,
        subtotal: money(sub),
        totalDetails: {
          shippingAmount: money(o.extras.shipping),
          discountAmount: money(discount),
          surchargeAmount: money(o.extras.surcharge),
        },
        total: money(before.minus(discount)),
        metadata: o.metadata,
        paymentLinkUrl,
        successUrl: o.successUrl,
        cancelUrl: o.cancelUrl,
        store: o.store,
        payment: PAID_STATUSES.includes(o.orderStatus)
          ? {
              authorizationCode: o.authorizationCode,
              voucherUrl: `${paymentLinkUrl}/voucher`,
              buyer: o.buyer,
            }
          : null,
        created: o.created,
      }
    })
}
