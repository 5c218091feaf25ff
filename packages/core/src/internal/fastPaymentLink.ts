/**
 * The fast forms of a payment-link request's records (`model/PaymentLink`), registered by
 * name for the records the model marks `unrolled`. Each reads a record as JSON gives it,
 * its members by name, and leaves anything else to the walk of the record (`structural`),
 * so the value is io-ts's.
 */
import type * as t from 'io-ts'
import {
  asIs,
  FAIL,
  failed,
  type FastDecoder,
  membersOf,
  runs,
  type UnrolledForm,
  walkMemoOf,
  withWalkMemo,
} from './fastDecoder.js'
import { oneOfFormOf } from './fastForm.js'
import { isRecord, layoutOf, ownKeysAre, ownNamesAreKeys } from './ownKeys.js'

type Decoder = t.Decoder<unknown, unknown>

// -------------------------------------------------------------------------------------
// forms
// -------------------------------------------------------------------------------------

// `imageUrl` in a product's layout (after its three required members).
const IMAGE_URL = 8

// A product as JSON gives it (name, price, then requiresShipping if given, imageUrl
// anywhere), its members read by name: the record io-ts merges, in its key order.
const product: UnrolledForm = (codec, compile, structural) => {
  const [required, optional] = (codec as unknown as { readonly types: ReadonlyArray<Decoder> })
    .types
  const requiredKeys = ['name', 'price', 'requiresShipping']
  const optionalKeys = ['imageUrl']
  const r = membersOf(required as Decoder, requiredKeys)
  const o = membersOf(optional as Decoder, optionalKeys)
  const nameOf = compile(r['name'] as Decoder)
  const priceOf = compile(r['price'] as Decoder)
  const shippingOf = compile(r['requiresShipping'] as Decoder)
  const imageOf = compile(o['imageUrl'] as Decoder)
  const layoutOfProduct = layoutOf(requiredKeys, optionalKeys)
  const walk = structural()
  // Of a record of this layout, a member that fails is io-ts's error: no walk.
  return (u) => {
    if (!isRecord(u)) return walk(u)
    const layout = layoutOfProduct(u)
    if (layout < 0) return walk(u)
    const name = u['name']
    if (!asIs(nameOf, name)) return FAIL
    const price = priceOf(u['price'])
    const requiresShipping = shippingOf(u['requiresShipping'])
    if (failed(price) || failed(requiresShipping)) return FAIL
    if ((layout & IMAGE_URL) === 0) return { name, price, requiresShipping }
    const imageUrl = u['imageUrl']
    if (asIs(imageOf, imageUrl)) return { name, price, requiresShipping, imageUrl }
    // An `imageUrl` given as `undefined` is no error (a partial member): the walk's.
    return imageUrl === undefined ? walk(u) : FAIL
  }
}

// An item as JSON gives it, its members read by name: itself.
const skuLineItem: UnrolledForm = (codec, compile, structural) => {
  const keys = ['sku', 'quantity']
  const { sku, quantity } = membersOf(codec, keys)
  const [skuOf, quantityOf, walk] = [
    compile(sku as Decoder),
    compile(quantity as Decoder),
    structural(),
  ]
  return (u) => {
    if (!isRecord(u) || !ownNamesAreKeys(u, keys)) return walk(u)
    return asIs(skuOf, u['sku']) && asIs(quantityOf, u['quantity']) ? u : FAIL
  }
}

// An item as JSON gives it, its members read by name: io-ts's copy of it with the decoded
// product in its place.
const productLineItem: UnrolledForm = (codec, compile, structural) => {
  const keys = ['product', 'quantity']
  const { product, quantity } = membersOf(codec, keys)
  const [productOf, quantityOf, walk] = [
    compile(product as Decoder),
    compile(quantity as Decoder),
    structural(),
  ]
  return (u) => {
    if (!isRecord(u) || !ownKeysAre(u, keys)) return walk(u)
    const given = u['product']
    const decoded = productOf(given)
    if (failed(decoded) || !asIs(quantityOf, u['quantity'])) return FAIL
    // io-ts gives the item itself only when nothing changes: a case left to the walk.
    if (decoded === given) return walk(u)
    return { ...u, product: decoded }
  }
}

// An entry as JSON gives it, its members read by name: itself.
const metadata: UnrolledForm = (codec, compile, structural) => {
  const keys = ['name', 'value']
  const { name, value } = membersOf(codec, keys)
  const [nameOf, valueOf, walk] = [
    compile(name as Decoder),
    compile(value as Decoder),
    structural(),
  ]
  return (u) => {
    if (!isRecord(u) || !ownNamesAreKeys(u, keys)) return walk(u)
    return asIs(nameOf, u['name']) && asIs(valueOf, u['value']) ? u : FAIL
  }
}

// The request's optional members, in member order.
const OPTIONAL = [
  'orderReference',
  'orderDescription',
  'amount',
  'lineItems',
  'successUrl',
  'cancelUrl',
  'locationCode',
  'metadata',
] as const

// Its members as the walk numbers its slots (`fastSlots`) and `layoutOf` its layouts: the
// required members, then the optional ones, each in member order, as bits.
const ORDER_NAME = 1
const EXPIRATION = 2
const REFERENCE = 4
const DESCRIPTION = 8
const AMOUNT = 16
const LINE_ITEMS = 32
const SUCCESS_URL = 64
const CANCEL_URL = 128
const LOCATION = 256
const METADATA = 512

// The layout of a request whose value io-ts builds in member order (see `layoutOf`).
const layoutOfRequest = layoutOf(['orderName', 'expirationMinutes'], OPTIONAL)

/**
 * An optional member given: its decoded value, or FAIL. One given as `undefined` that does
 * not decode it stays `undefined`, as io-ts's `partial` leaves it.
 */
const givenValue = (decode: FastDecoder, raw: unknown): unknown => {
  const v = decode(raw)
  return failed(v) && raw === undefined ? undefined : v
}

// A payment-link request as JSON gives it (the members in member order, `orderName` before
// `expirationMinutes`), its members read by name: io-ts's merged record, built in its key
// order with named stores. One that fails notes for the errors' walk what the walk would
// (the members given and those that fail, in the walk's slots); any other record is the
// walk's.
const paymentLinkRequest: UnrolledForm = (codec, compile, structural) => {
  const types = (codec as unknown as { readonly types: ReadonlyArray<Decoder> }).types
  const [required, optional, rule] = types
  const r = membersOf(required as Decoder, ['orderName', 'expirationMinutes'])
  const o = membersOf(optional as Decoder, [...OPTIONAL])
  const walk = structural()
  const memo = walkMemoOf(walk)
  const oneOf = rule === undefined ? undefined : oneOfFormOf(compile(rule))
  const nameOf = compile(r['orderName'] as Decoder)
  const minutesOf = compile(r['expirationMinutes'] as Decoder)
  const optionals = OPTIONAL.map((k) => compile(o[k] as Decoder))
  const [
    referenceOf,
    descriptionOf,
    amountOf,
    lineItemsOf,
    successOf,
    cancelOf,
    locationOf,
    metadataOf,
  ] = optionals as [
    FastDecoder,
    FastDecoder,
    FastDecoder,
    FastDecoder,
    FastDecoder,
    FastDecoder,
    FastDecoder,
    FastDecoder,
  ]
  // The form holds for these members and this one rule, with the walk's note to fill; an
  // optional member with a default (which io-ts's `partial` adds when absent) would need it.
  if (
    memo === undefined ||
    types.length !== 3 ||
    oneOf?.join() !== 'amount,lineItems' ||
    optionals.some((decode) => !failed(decode(undefined)))
  )
    return walk
  const form: FastDecoder = (u) => {
    if (!isRecord(u)) return walk(u)
    const seen = layoutOfRequest(u)
    if (seen < 0) return walk(u)
    let failing = 0
    const orderName = nameOf(u['orderName'])
    if (failed(orderName)) failing |= ORDER_NAME
    const expirationMinutes = minutesOf(u['expirationMinutes'])
    if (failed(expirationMinutes)) failing |= EXPIRATION
    const a: Record<string, unknown> = { orderName, expirationMinutes }
    // A block per member, not a loop: a store by a key held in a variable is what the walk
    // spends its time on (BENCHMARKS.md, the runs of 2 Dec).
    let v: unknown
    if ((seen & REFERENCE) !== 0) {
      if (failed((v = givenValue(referenceOf, u['orderReference'])))) failing |= REFERENCE
      else a['orderReference'] = v
    }
    if ((seen & DESCRIPTION) !== 0) {
      if (failed((v = givenValue(descriptionOf, u['orderDescription'])))) failing |= DESCRIPTION
      else a['orderDescription'] = v
    }
    if ((seen & AMOUNT) !== 0) {
      if (failed((v = givenValue(amountOf, u['amount'])))) failing |= AMOUNT
      else a['amount'] = v
    }
    if ((seen & LINE_ITEMS) !== 0) {
      if (failed((v = givenValue(lineItemsOf, u['lineItems'])))) failing |= LINE_ITEMS
      else a['lineItems'] = v
    }
    if ((seen & SUCCESS_URL) !== 0) {
      if (failed((v = givenValue(successOf, u['successUrl'])))) failing |= SUCCESS_URL
      else a['successUrl'] = v
    }
    if ((seen & CANCEL_URL) !== 0) {
      if (failed((v = givenValue(cancelOf, u['cancelUrl'])))) failing |= CANCEL_URL
      else a['cancelUrl'] = v
    }
    if ((seen & LOCATION) !== 0) {
      if (failed((v = givenValue(locationOf, u['locationCode'])))) failing |= LOCATION
      else a['locationCode'] = v
    }
    if ((seen & METADATA) !== 0) {
      if (failed((v = givenValue(metadataOf, u['metadata'])))) failing |= METADATA
      else a['metadata'] = v
    }
    // The rule reads the input: `amount` or `lineItems` given, not `undefined`.
    if (failing === 0 && (u['amount'] !== undefined || u['lineItems'] !== undefined)) return a
    // What the walk notes when it fails, which the errors' walk reads (it finds the note by
    // the codec's fast decoder: this form).
    memo.record = u
    memo.run = runs.current
    memo.seen = seen
    memo.failing = failing
    memo.others = false
    return FAIL
  }
  return withWalkMemo(form, memo)
}

// -------------------------------------------------------------------------------------
// registry
// -------------------------------------------------------------------------------------

/** The fast forms of a payment-link request's records, by the name of the record. */
export const paymentLinkForms: Readonly<Record<string, UnrolledForm>> = {
  PaymentLinkRequest: paymentLinkRequest,
  Product: product,
  SkuLineItem: skuLineItem,
  ProductLineItem: productLineItem,
  Metadata: metadata,
}
