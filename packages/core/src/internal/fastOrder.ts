/**
 * The fast forms of an order's records (`model/Order`), registered by name for the records
 * the model marks `unrolled`: `validate`'s generic form of an io-ts `type` is one loop for
 * every record, whose reads and calls by key miss V8's caches between requests (an order
 * cost 3x its hot-loop time in the client). Each form reads each member by name and takes
 * io-ts's steps: members read in order, the input copied at the first that changes and
 * later members read from the copy, so the value is io-ts's. A member that decodes to
 * itself is checked with its codec's `is`.
 */
import * as t from 'io-ts'
import { Int, IsoDateTime } from './codec.js'
import { FAIL, membersOf, type UnrolledForm } from './fastDecoder.js'

// -------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------

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
// forms
// -------------------------------------------------------------------------------------

const orderLineItem: UnrolledForm = (codec, compile) => {
  const p = membersOf(codec, [
    'productId',
    'sku',
    'name',
    'price',
    'promoPrice',
    'quantity',
    'imageUrl',
    'subTotal',
  ])
  const priceOf = compile(p['price'] as t.Decoder<unknown, unknown>)
  const promoPriceOf = compile(p['promoPrice'] as t.Decoder<unknown, unknown>)
  const subTotalOf = compile(p['subTotal'] as t.Decoder<unknown, unknown>)
  return (u) => {
    if (!isRecord(u)) return FAIL
    let a = u
    if (!Int.is(a['productId']) || !isStringOrNull(a['sku']) || typeof a['name'] !== 'string')
      return FAIL
    const price = a['price']
    const priceV = priceOf(price)
    if (priceV === FAIL) return FAIL
    if (priceV !== price) {
      a = copyOf(u)
      a['price'] = priceV
    }
    const promoPrice = a['promoPrice']
    const promoPriceV = promoPriceOf(promoPrice)
    if (promoPriceV === FAIL) return FAIL
    if (promoPriceV !== promoPrice) {
      if (a === u) a = copyOf(u)
      a['promoPrice'] = promoPriceV
    }
    if (!Int.is(a['quantity']) || !isStringOrNull(a['imageUrl'])) return FAIL
    const subTotal = a['subTotal']
    const subTotalV = subTotalOf(subTotal)
    if (subTotalV === FAIL) return FAIL
    if (subTotalV !== subTotal) {
      if (a === u) a = copyOf(u)
      a['subTotal'] = subTotalV
    }
    return a
  }
}

const totalDetails: UnrolledForm = (codec, compile) => {
  const p = membersOf(codec, ['shippingAmount', 'discountAmount', 'surchargeAmount'])
  const shippingOf = compile(p['shippingAmount'] as t.Decoder<unknown, unknown>)
  const discountOf = compile(p['discountAmount'] as t.Decoder<unknown, unknown>)
  const surchargeOf = compile(p['surchargeAmount'] as t.Decoder<unknown, unknown>)
  return (u) => {
    if (!isRecord(u)) return FAIL
    let a = u
    const shipping = a['shippingAmount']
    const shippingV = shippingOf(shipping)
    if (shippingV === FAIL) return FAIL
    if (shippingV !== shipping) {
      a = copyOf(u)
      a['shippingAmount'] = shippingV
    }
    const discount = a['discountAmount']
    const discountV = discountOf(discount)
    if (discountV === FAIL) return FAIL
    if (discountV !== discount) {
      if (a === u) a = copyOf(u)
      a['discountAmount'] = discountV
    }
    const surcharge = a['surchargeAmount']
    const surchargeV = surchargeOf(surcharge)
    if (surchargeV === FAIL) return FAIL
    if (surchargeV !== surcharge) {
      if (a === u) a = copyOf(u)
      a['surchargeAmount'] = surchargeV
    }
    return a
  }
}

const store: UnrolledForm = (codec) => {
  const p = membersOf(codec, [
    'name',
    'countryCode',
    'currencyCode',
    'currencySymbol',
    'locale',
    'timezone',
  ])
  const isLocale = (p['locale'] as t.Mixed).is
  const isTimeZone = (p['timezone'] as t.Mixed).is
  return (u) =>
    isRecord(u) &&
    typeof u['name'] === 'string' &&
    typeof u['countryCode'] === 'string' &&
    typeof u['currencyCode'] === 'string' &&
    typeof u['currencySymbol'] === 'string' &&
    isLocale(u['locale']) &&
    isTimeZone(u['timezone'])
      ? u
      : FAIL
}

const buyer: UnrolledForm = (codec) => {
  membersOf(codec, ['name', 'phone', 'email'])
  return (u) => {
    if (!isRecord(u)) return FAIL
    const { name, phone, email } = u
    return typeof name === 'string' && typeof phone === 'string' && typeof email === 'string'
      ? u
      : FAIL
  }
}

const payment: UnrolledForm = (codec, compile) => {
  const p = membersOf(codec, ['authorizationCode', 'voucherUrl', 'buyer'])
  const buyerOf = compile(p['buyer'] as t.Decoder<unknown, unknown>)
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
}

const orderMetadata: UnrolledForm = (codec) => {
  membersOf(codec, ['name', 'value'])
  return (u) => {
    if (!isRecord(u)) return FAIL
    const { name, value } = u
    return typeof name === 'string' && typeof value === 'string' ? u : FAIL
  }
}

const orderDetails: UnrolledForm = (codec, compile) => {
  const p = membersOf(codec, [
    'orderId',
    'orderCode',
    'orderReference',
    'name',
    'description',
    'lineItems',
    'orderStatus',
    'subtotal',
    'totalDetails',
    'total',
    'metadata',
    'paymentLinkUrl',
    'successUrl',
    'cancelUrl',
    'store',
    'payment',
    'created',
  ])
  const member = (key: string) => compile(p[key] as t.Decoder<unknown, unknown>)
  const subtotalOf = member('subtotal')
  const totalOf = member('total')
  const lineItemsOf = member('lineItems')
  const totalDetailsOf = member('totalDetails')
  const metadataOf = member('metadata')
  const storeOf = member('store')
  // `nullable(Payment)`: Payment first, which fails on null.
  const paymentOf = compile((p['payment'] as t.UnionType<Array<t.Mixed>>).types[0] as t.Mixed)
  const isOrderStatus = (p['orderStatus'] as t.Mixed).is
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
    if (!isOrderStatus(a['orderStatus'])) return FAIL
    const subtotal = a['subtotal']
    const subtotalV = subtotalOf(subtotal)
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
    const totalV = totalOf(total)
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
    const payment = a['payment']
    const paymentV = payment === null ? null : paymentOf(payment)
    if (paymentV === FAIL) return FAIL
    if (paymentV !== payment) {
      if (a === u) a = copyOf(u)
      a['payment'] = paymentV
    }
    return isIsoDateTime(a['created']) ? a : FAIL
  }
}

// -------------------------------------------------------------------------------------
// registry
// -------------------------------------------------------------------------------------

/** The fast forms of an order's records, by the name of the record. */
export const orderForms: Readonly<Record<string, UnrolledForm>> = {
  OrderLineItem: orderLineItem,
  TotalDetails: totalDetails,
  Store: store,
  Buyer: buyer,
  Payment: payment,
  OrderMetadata: orderMetadata,
  OrderDetails: orderDetails,
}
