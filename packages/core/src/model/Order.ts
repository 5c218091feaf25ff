/**
 * Order details (spec 2.8): the response of `GET /paymentlink/order/{orderCode}`, and the
 * `data` of the sandbox's webhook events. A response codec: unknown fields are tolerated.
 *
 * Nullable members (docs/service.md#amounts-countries-and-nulls): `orderReference`, `description`,
 * `successUrl` and `cancelUrl` are null when the request did not give them; `payment` is null until
 * the order is PAID; a line item's `sku` is null for a one-time product and its `imageUrl` is null
 * when none was given.
 *
 * @since 0.2.0
 */
import * as t from 'io-ts'
import { Int, IsoDateTime, nullable, refine, unrolled } from '../internal/codec.js'
import { hinted } from '../internal/schemaHint.js'
import { MoneyFromNumber } from './Money.js'
import { OrderStatus } from './OrderStatus.js'

// -------------------------------------------------------------------------------------
// leaf codecs
// -------------------------------------------------------------------------------------

const LOCALE = /^[a-z]{2,3}_[A-Z]{2}$/
const TIME_ZONE = /^(?:UTC|GMT|[A-Z][A-Za-z_-]*(?:\/[A-Za-z0-9_+-]+)+)$/

/**
 * A locale of the form language_COUNTRY (`es_CR`, `en_US`).
 *
 * @example
 * ```ts
 * import { Locale } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Locale.is('es_CR'), true)
 * assert.equal(Locale.is('es-CR'), false)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const Locale = hinted(
  refine(t.string, (s) => LOCALE.test(s), { code: 'locale' }, 'Locale'),
  { pattern: LOCALE },
)

/**
 * An IANA-style time zone name: `Area/Location` (`America/Costa_Rica`,
 * `America/Argentina/Buenos_Aires`, `Etc/GMT+6`) or `UTC`/`GMT`. The form is checked,
 * not membership of a particular tz database release.
 *
 * @example
 * ```ts
 * import { TimeZone } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(TimeZone.is('America/Costa_Rica'), true)
 * assert.equal(TimeZone.is('UTC'), true)
 * assert.equal(TimeZone.is('-06:00'), false)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const TimeZone = hinted(
  refine(t.string, (s) => TIME_ZONE.test(s), { code: 'timeZone' }, 'TimeZone'),
  { pattern: TIME_ZONE },
)

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

/**
 * One line of an order (spec 2.8 `lineItems[]`): `sku` is null for a one-time product,
 * `imageUrl` null when none was given. Amounts are `Money`.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { OrderLineItem } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const line = validate(OrderLineItem)({
 *   productId: 7,
 *   sku: null, // a one-time product
 *   name: 'Gift wrap',
 *   price: 2.5,
 *   promoPrice: 2.5,
 *   quantity: 2,
 *   imageUrl: null,
 *   subTotal: 5,
 * })
 * assert.ok(E.isRight(line))
 * assert.equal(Money.toString(line.right.subTotal, 2), '5.00')
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const OrderLineItem = unrolled(
  t.type(
    {
      productId: Int,
      sku: nullable(t.string),
      name: t.string,
      price: MoneyFromNumber,
      promoPrice: MoneyFromNumber,
      quantity: Int,
      imageUrl: nullable(t.string),
      subTotal: MoneyFromNumber,
    },
    'OrderLineItem',
  ),
)

/**
 * `totalDetails` of an order: shipping, discount and surcharge amounts.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { TotalDetails } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const totals = validate(TotalDetails)({
 *   shippingAmount: 4.99,
 *   discountAmount: 0,
 *   surchargeAmount: 0,
 * })
 * assert.ok(E.isRight(totals))
 * assert.equal(Money.toCents(totals.right.shippingAmount), 499n)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const TotalDetails = unrolled(
  t.type(
    {
      shippingAmount: MoneyFromNumber,
      discountAmount: MoneyFromNumber,
      surchargeAmount: MoneyFromNumber,
    },
    'TotalDetails',
  ),
)

/**
 * The store an order belongs to; `locale` is language_COUNTRY, `timezone` an IANA name.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { Store } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const store = {
 *   name: 'Paykit Sandbox Store',
 *   countryCode: 'CRI',
 *   currencyCode: 'USD',
 *   currencySymbol: '$',
 *   locale: 'es_CR',
 *   timezone: 'America/Costa_Rica',
 * }
 * assert.deepEqual(validate(Store)(store), E.right(store))
 * assert.equal(E.isLeft(validate(Store)({ ...store, locale: 'Spanish' })), true)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const Store = unrolled(
  t.type(
    {
      name: t.string,
      countryCode: t.string,
      currencyCode: t.string,
      currencySymbol: t.string,
      locale: Locale,
      timezone: TimeZone,
    },
    'Store',
  ),
)

/**
 * The buyer who paid an order.
 *
 * @example
 * ```ts
 * import { Buyer } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Buyer.is({ name: 'Ana', phone: '+506 2222 0000', email: 'ana@example.com' }), true)
 * assert.equal(Buyer.is({ name: 'Ana' }), false)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const Buyer = unrolled(t.type({ name: t.string, phone: t.string, email: t.string }, 'Buyer'))

/**
 * The payment of a PAID order: authorization code, voucher address and buyer.
 *
 * @example
 * ```ts
 * import { Payment } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * const payment = {
 *   authorizationCode: 'A1B2C3',
 *   voucherUrl: 'https://pay.example.com/voucher/A1B2C3',
 *   buyer: { name: 'Ana', phone: '+506 2222 0000', email: 'ana@example.com' },
 * }
 * assert.equal(Payment.is(payment), true)
 * assert.equal(Payment.is({ ...payment, buyer: null }), false)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const Payment = unrolled(
  t.type({ authorizationCode: t.string, voucherUrl: t.string, buyer: Buyer }, 'Payment'),
)

/**
 * A `{ name, value }` metadata entry of an order (both strings).
 *
 * @example
 * ```ts
 * import { OrderMetadata } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(OrderMetadata.is({ name: 'channel', value: 'web' }), true)
 * assert.equal(OrderMetadata.is({ name: 'items', value: 3 }), false)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const OrderMetadata = unrolled(t.type({ name: t.string, value: t.string }, 'OrderMetadata'))

/**
 * Order details (spec 2.8). Unknown fields are tolerated; see the module comment for
 * which members are nullable.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { OrderDetails } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const order = validate(OrderDetails)({
 *   orderId: 1,
 *   orderCode: 'ord-abc',
 *   orderReference: null,
 *   name: 'PaymentLink Order',
 *   description: null,
 *   lineItems: [],
 *   orderStatus: 'PENDING',
 *   subtotal: 12.5,
 *   totalDetails: { shippingAmount: 0, discountAmount: 0, surchargeAmount: 0 },
 *   total: 12.5,
 *   metadata: [],
 *   paymentLinkUrl: 'https://pay.example.com/l/ord-abc',
 *   successUrl: null,
 *   cancelUrl: null,
 *   store: {
 *     name: 'Shop',
 *     countryCode: 'CRI',
 *     currencyCode: 'USD',
 *     currencySymbol: '$',
 *     locale: 'es_CR',
 *     timezone: 'America/Costa_Rica',
 *   },
 *   payment: null, // until the order is PAID
 *   created: '2026-11-24T12:00:00.000Z',
 * })
 * assert.ok(E.isRight(order))
 * assert.equal(Money.toString(order.right.total), '12.5')
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const OrderDetails = unrolled(
  t.type(
    {
      orderId: Int,
      orderCode: t.string,
      orderReference: nullable(t.string),
      name: t.string,
      description: nullable(t.string),
      lineItems: t.readonlyArray(OrderLineItem),
      orderStatus: OrderStatus,
      subtotal: MoneyFromNumber,
      totalDetails: TotalDetails,
      total: MoneyFromNumber,
      metadata: t.readonlyArray(OrderMetadata),
      paymentLinkUrl: t.string,
      successUrl: nullable(t.string),
      cancelUrl: nullable(t.string),
      store: Store,
      payment: nullable(Payment),
      created: IsoDateTime,
    },
    'OrderDetails',
  ),
)

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A line of an order.
 *
 * @category model
 * @since 0.2.0
 */
export type OrderLineItem = t.TypeOf<typeof OrderLineItem>

/**
 * Shipping, discount and surcharge amounts of an order.
 *
 * @category model
 * @since 0.2.0
 */
export type TotalDetails = t.TypeOf<typeof TotalDetails>

/**
 * The store an order belongs to.
 *
 * @category model
 * @since 0.2.0
 */
export type Store = t.TypeOf<typeof Store>

/**
 * The payment of a PAID order.
 *
 * @category model
 * @since 0.2.0
 */
export type Payment = t.TypeOf<typeof Payment>

/**
 * The details of a payment-link order (spec 2.8), amounts as `Money`.
 *
 * @category model
 * @since 0.2.0
 */
export type OrderDetails = t.TypeOf<typeof OrderDetails>

/**
 * Order details as JSON (amounts as numbers), what `OrderDetails.encode` gives.
 *
 * @category model
 * @since 0.2.0
 */
export type OrderDetailsJson = t.OutputOf<typeof OrderDetails>
