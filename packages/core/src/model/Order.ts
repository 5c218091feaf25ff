/**
 * Order details (spec 2.8): the response of `GET /paymentlink/order/{orderCode}`, and the
 * `data` of the sandbox's webhook events. A response codec: unknown fields are tolerated.
 *
 * Nullable members (DESIGN.md): `orderReference`, `description`, `successUrl` and
 * `cancelUrl` are null when the request did not give them; `payment` is null until the
 * order is PAID; a line item's `sku` is null for a one-time product and its `imageUrl`
 * is null when none was given.
 *
 * @since 0.1.0
 */
import * as t from 'io-ts'
import { Int, IsoDateTime, nullable, refine } from '../internal/codec.js'
import { FAIL, arrayOf, withFastPath } from '../internal/fastDecode.js'
import { MoneyFromNumber } from './Money.js'
import { OrderStatus } from '../machines/OrderStatus.js'

// -------------------------------------------------------------------------------------
// fast paths
// -------------------------------------------------------------------------------------

// The records below register a fast form that reads each member by name: `validate`'s
// generic form of an io-ts `type` is one loop for every record, whose reads and calls by
// key miss V8's caches between requests (an order cost 3x its hot-loop time in the
// client). Each takes io-ts's steps: members read in order, the input copied at the first
// that changes and later members read from the copy, so the value is io-ts's. A member
// that decodes to itself is checked with its codec's `is`.

const isRecord = t.UnknownRecord.is

/**
 * io-ts's copy of a record, `Object.assign({}, u)`, as a spread (V8 clones a JSON object
 * at once: an order decoded 2.7x slower with `Object.assign`), the same copy but for an
 * own `__proto__` key, which `Object.assign` sets as the copy's prototype.
 */
const copyOf = (u: Record<string, unknown>): Record<string, unknown> =>
  Object.hasOwn(u, '__proto__') ? Object.assign({}, u) : { ...u }

const isStringOrNull = (u: unknown): boolean => u === null || typeof u === 'string'

/** The value of the `width` ASCII digits of `s` at `at`, or -1 if one is not a digit. */
const digitsAt = (s: string, at: number, width: number): number => {
  let n = 0
  for (let i = at; i < at + width; i++) {
    const d = s.charCodeAt(i) - 48
    if (d < 0 || d > 9) return -1
    n = n * 10 + d
  }
  return n
}

/**
 * Whether `s` is a date-time as `toISOString` writes it (`2026-11-24T12:00:00.000Z`) with
 * fields every month has (day <= 28, hour <= 23): then `IsoDateTime.is(s)` holds on any
 * engine, without its regex and `Date.parse` (~2-4 µs of a decode under load). False
 * leaves `s` to `IsoDateTime.is`.
 */
const isPlainIsoDateTime = (s: string): boolean => {
  if (s.length !== 24) return false
  const month = digitsAt(s, 5, 2)
  const day = digitsAt(s, 8, 2)
  const hour = digitsAt(s, 11, 2)
  const minute = digitsAt(s, 14, 2)
  const second = digitsAt(s, 17, 2)
  return (
    digitsAt(s, 0, 4) >= 0 &&
    digitsAt(s, 20, 3) >= 0 &&
    s.charCodeAt(4) === 45 && // -
    s.charCodeAt(7) === 45 &&
    s.charCodeAt(10) === 84 && // T
    s.charCodeAt(13) === 58 && // :
    s.charCodeAt(16) === 58 &&
    s.charCodeAt(19) === 46 && // .
    s.charCodeAt(23) === 90 && // Z
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= 28 &&
    hour >= 0 &&
    hour <= 23 &&
    minute >= 0 &&
    minute <= 59 &&
    second >= 0 &&
    second <= 59
  )
}

/** `IsoDateTime.is`, the common case first. */
const isIsoDateTime = (u: unknown): boolean =>
  typeof u === 'string' && (isPlainIsoDateTime(u) || IsoDateTime.is(u))

// -------------------------------------------------------------------------------------
// leaf codecs
// -------------------------------------------------------------------------------------

// Locale and TimeZone read characters rather than run a regex: a regex's compiled code,
// cold between two responses, cost ~0.5 µs each in the client's bench.

const isLower = (c: number): boolean => c >= 97 && c <= 122 // a-z
const isUpper = (c: number): boolean => c >= 65 && c <= 90 // A-Z
const isDigit = (c: number): boolean => c >= 48 && c <= 57 // 0-9

/** `/^[a-z]{2,3}_[A-Z]{2}$/.test(s)` */
const isLocale = (s: string): boolean => {
  const n = s.length
  if (n !== 5 && n !== 6) return false
  for (let i = 0; i < n - 3; i++) if (!isLower(s.charCodeAt(i))) return false
  return s.charCodeAt(n - 3) === 95 && isUpper(s.charCodeAt(n - 2)) && isUpper(s.charCodeAt(n - 1))
}

/**
 * A locale of the form language_COUNTRY (`es_CR`, `en_US`).
 *
 * @example
 * ```ts
 * import { Locale } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Locale.is('es_CR'), true)
 * assert.equal(Locale.is('es-CR'), false)
 * ```
 *
 * @category codecs
 * @since 0.1.0
 */
export const Locale = refine(t.string, isLocale, { code: 'locale' }, 'Locale')

// [A-Za-z_-]
const isAreaChar = (c: number): boolean => isUpper(c) || isLower(c) || c === 95 || c === 45
// [A-Za-z0-9_+-]
const isLocationChar = (c: number): boolean => isAreaChar(c) || isDigit(c) || c === 43

/** `/^(?:UTC|GMT|[A-Z][A-Za-z_-]*(?:\/[A-Za-z0-9_+-]+)+)$/.test(s)` */
const isTimeZone = (s: string): boolean => {
  if (s === 'UTC' || s === 'GMT') return true
  const n = s.length
  if (n === 0 || !isUpper(s.charCodeAt(0))) return false
  let i = 1
  while (i < n && isAreaChar(s.charCodeAt(i))) i++
  if (i === n) return false // no `/Location`
  while (i < n) {
    if (s.charCodeAt(i) !== 47) return false // /
    const start = ++i
    while (i < n && isLocationChar(s.charCodeAt(i))) i++
    if (i === start) return false
  }
  return true
}

/**
 * An IANA-style time zone name: `Area/Location` (`America/Costa_Rica`,
 * `America/Argentina/Buenos_Aires`, `Etc/GMT+6`) or `UTC`/`GMT`. The form is checked,
 * not membership of a particular tz database release.
 *
 * @example
 * ```ts
 * import { TimeZone } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(TimeZone.is('America/Costa_Rica'), true)
 * assert.equal(TimeZone.is('UTC'), true)
 * assert.equal(TimeZone.is('-06:00'), false)
 * ```
 *
 * @category codecs
 * @since 0.1.0
 */
export const TimeZone = refine(t.string, isTimeZone, { code: 'timeZone' }, 'TimeZone')

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

/**
 * One line of an order (spec 2.8 `lineItems[]`): `sku` is null for a one-time product,
 * `imageUrl` null when none was given. Amounts are `Money`.
 *
 * @example
 * ```ts
 * import { Money, OrderLineItem, validate } from '@paykit/core'
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
 * @since 0.1.0
 */
export const OrderLineItem = withFastPath(
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
  (compile) => {
    const money = compile(MoneyFromNumber)
    return (u) => {
      if (!isRecord(u)) return FAIL
      let a = u
      if (!Int.is(a['productId']) || !isStringOrNull(a['sku']) || typeof a['name'] !== 'string')
        return FAIL
      const price = a['price']
      const priceV = money(price)
      if (priceV === FAIL) return FAIL
      if (priceV !== price) {
        a = copyOf(u)
        a['price'] = priceV
      }
      const promoPrice = a['promoPrice']
      const promoPriceV = money(promoPrice)
      if (promoPriceV === FAIL) return FAIL
      if (promoPriceV !== promoPrice) {
        if (a === u) a = copyOf(u)
        a['promoPrice'] = promoPriceV
      }
      if (!Int.is(a['quantity']) || !isStringOrNull(a['imageUrl'])) return FAIL
      const subTotal = a['subTotal']
      const subTotalV = money(subTotal)
      if (subTotalV === FAIL) return FAIL
      if (subTotalV !== subTotal) {
        if (a === u) a = copyOf(u)
        a['subTotal'] = subTotalV
      }
      return a
    }
  },
)

/**
 * `totalDetails` of an order: shipping, discount and surcharge amounts.
 *
 * @example
 * ```ts
 * import { Money, TotalDetails, validate } from '@paykit/core'
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
 * @since 0.1.0
 */
export const TotalDetails = withFastPath(
  t.type(
    {
      shippingAmount: MoneyFromNumber,
      discountAmount: MoneyFromNumber,
      surchargeAmount: MoneyFromNumber,
    },
    'TotalDetails',
  ),
  (compile) => {
    const money = compile(MoneyFromNumber)
    return (u) => {
      if (!isRecord(u)) return FAIL
      let a = u
      const shipping = a['shippingAmount']
      const shippingV = money(shipping)
      if (shippingV === FAIL) return FAIL
      if (shippingV !== shipping) {
        a = copyOf(u)
        a['shippingAmount'] = shippingV
      }
      const discount = a['discountAmount']
      const discountV = money(discount)
      if (discountV === FAIL) return FAIL
      if (discountV !== discount) {
        if (a === u) a = copyOf(u)
        a['discountAmount'] = discountV
      }
      const surcharge = a['surchargeAmount']
      const surchargeV = money(surcharge)
      if (surchargeV === FAIL) return FAIL
      if (surchargeV !== surcharge) {
        if (a === u) a = copyOf(u)
        a['surchargeAmount'] = surchargeV
      }
      return a
    }
  },
)

/**
 * The store an order belongs to; `locale` is language_COUNTRY, `timezone` an IANA name.
 *
 * @example
 * ```ts
 * import { Store, validate } from '@paykit/core'
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
 * @since 0.1.0
 */
export const Store = withFastPath(
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
  () => (u) =>
    isRecord(u) &&
    typeof u['name'] === 'string' &&
    typeof u['countryCode'] === 'string' &&
    typeof u['currencyCode'] === 'string' &&
    typeof u['currencySymbol'] === 'string' &&
    Locale.is(u['locale']) &&
    TimeZone.is(u['timezone'])
      ? u
      : FAIL,
)

/**
 * The buyer who paid an order.
 *
 * @example
 * ```ts
 * import { Buyer } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Buyer.is({ name: 'Ana', phone: '+506 2222 0000', email: 'ana@example.com' }), true)
 * assert.equal(Buyer.is({ name: 'Ana' }), false)
 * ```
 *
 * @category codecs
 * @since 0.1.0
 */
export const Buyer = withFastPath(
  t.type({ name: t.string, phone: t.string, email: t.string }, 'Buyer'),
  () => (u) => {
    if (!isRecord(u)) return FAIL
    const { name, phone, email } = u
    return typeof name === 'string' && typeof phone === 'string' && typeof email === 'string'
      ? u
      : FAIL
  },
)

/**
 * The payment of a PAID order: authorization code, voucher address and buyer.
 *
 * @example
 * ```ts
 * import { Payment } from '@paykit/core'
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
 * @since 0.1.0
 */
export const Payment = withFastPath(
  t.type({ authorizationCode: t.string, voucherUrl: t.string, buyer: Buyer }, 'Payment'),
  (compile) => {
    const buyerOf = compile(Buyer)
    return (u) => {
      if (!isRecord(u)) return FAIL
      const { authorizationCode, voucherUrl, buyer } = u
      if (typeof authorizationCode !== 'string' || typeof voucherUrl !== 'string') return FAIL
      const buyerV = buyerOf(buyer)
      if (buyerV === FAIL) return FAIL
      if (buyerV === buyer) return u
      const r = copyOf(u)
      r['buyer'] = buyerV
      return r
    }
  },
)

/**
 * A `{ name, value }` metadata entry of an order (both strings).
 *
 * @example
 * ```ts
 * import { OrderMetadata } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(OrderMetadata.is({ name: 'channel', value: 'web' }), true)
 * assert.equal(OrderMetadata.is({ name: 'items', value: 3 }), false)
 * ```
 *
 * @category codecs
 * @since 0.1.0
 */
export const OrderMetadata = withFastPath(
  t.type({ name: t.string, value: t.string }, 'OrderMetadata'),
  () => (u) => {
    if (!isRecord(u)) return FAIL
    const { name, value } = u
    return typeof name === 'string' && typeof value === 'string' ? u : FAIL
  },
)

/**
 * Order details (spec 2.8). Unknown fields are tolerated; see the module comment for
 * which members are nullable.
 *
 * @example
 * ```ts
 * import { Money, OrderDetails, validate } from '@paykit/core'
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
 * @since 0.1.0
 */
export const OrderDetails = withFastPath(
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
  (compile) => {
    const money = compile(MoneyFromNumber)
    const lineItemsOf = arrayOf(compile(OrderLineItem))
    const totalDetailsOf = compile(TotalDetails)
    const metadataOf = arrayOf(compile(OrderMetadata))
    const storeOf = compile(Store)
    const paymentOf = compile(Payment)
    return (u) => {
      if (!isRecord(u)) return FAIL
      let a = u
      if (
        !Int.is(a['orderId']) ||
        typeof a['orderCode'] !== 'string' ||
        !isStringOrNull(a['orderReference']) ||
        typeof a['name'] !== 'string' ||
        !isStringOrNull(a['description'])
      )
        return FAIL
      const lineItems = a['lineItems']
      const lineItemsV = lineItemsOf(lineItems)
      if (lineItemsV === FAIL) return FAIL
      if (lineItemsV !== lineItems) {
        a = copyOf(u)
        a['lineItems'] = lineItemsV
      }
      if (!OrderStatus.is(a['orderStatus'])) return FAIL
      const subtotal = a['subtotal']
      const subtotalV = money(subtotal)
      if (subtotalV === FAIL) return FAIL
      if (subtotalV !== subtotal) {
        if (a === u) a = copyOf(u)
        a['subtotal'] = subtotalV
      }
      const totalDetails = a['totalDetails']
      const totalDetailsV = totalDetailsOf(totalDetails)
      if (totalDetailsV === FAIL) return FAIL
      if (totalDetailsV !== totalDetails) {
        if (a === u) a = copyOf(u)
        a['totalDetails'] = totalDetailsV
      }
      const total = a['total']
      const totalV = money(total)
      if (totalV === FAIL) return FAIL
      if (totalV !== total) {
        if (a === u) a = copyOf(u)
        a['total'] = totalV
      }
      const metadata = a['metadata']
      const metadataV = metadataOf(metadata)
      if (metadataV === FAIL) return FAIL
      if (metadataV !== metadata) {
        if (a === u) a = copyOf(u)
        a['metadata'] = metadataV
      }
      if (
        typeof a['paymentLinkUrl'] !== 'string' ||
        !isStringOrNull(a['successUrl']) ||
        !isStringOrNull(a['cancelUrl'])
      )
        return FAIL
      const store = a['store']
      const storeV = storeOf(store)
      if (storeV === FAIL) return FAIL
      if (storeV !== store) {
        if (a === u) a = copyOf(u)
        a['store'] = storeV
      }
      // `nullable(Payment)`: Payment first, which fails on null.
      const payment = a['payment']
      const paymentV = payment === null ? null : paymentOf(payment)
      if (paymentV === FAIL) return FAIL
      if (paymentV !== payment) {
        if (a === u) a = copyOf(u)
        a['payment'] = paymentV
      }
      return isIsoDateTime(a['created']) ? a : FAIL
    }
  },
)

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A line of an order.
 *
 * @category model
 * @since 0.1.0
 */
export type OrderLineItem = t.TypeOf<typeof OrderLineItem>

/**
 * Shipping, discount and surcharge amounts of an order.
 *
 * @category model
 * @since 0.1.0
 */
export type TotalDetails = t.TypeOf<typeof TotalDetails>

/**
 * The store an order belongs to.
 *
 * @category model
 * @since 0.1.0
 */
export type Store = t.TypeOf<typeof Store>

/**
 * The payment of a PAID order.
 *
 * @category model
 * @since 0.1.0
 */
export type Payment = t.TypeOf<typeof Payment>

/**
 * The details of a payment-link order (spec 2.8), amounts as `Money`.
 *
 * @category model
 * @since 0.1.0
 */
export type OrderDetails = t.TypeOf<typeof OrderDetails>

/**
 * Order details as JSON (amounts as numbers), what `OrderDetails.encode` gives.
 *
 * @category model
 * @since 0.1.0
 */
export type OrderDetailsJson = t.OutputOf<typeof OrderDetails>
