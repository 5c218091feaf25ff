/**
 * The fast forms of a payment-link request's records (`model/PaymentLink`), registered by
 * name for the records the model marks `unrolled`. Each reads a record as JSON gives it,
 * its members by name, and leaves anything else to the walk of the record (`structural`),
 * so the value is io-ts's.
 */
import type * as t from 'io-ts'
import { asIs, FAIL, failed, membersOf, type UnrolledForm } from './fastDecoder.js'
import { isRecord, layoutOf, ownKeysAre, ownNamesAreKeys } from './ownKeys.js'

type Decoder = t.Decoder<unknown, unknown>

// -------------------------------------------------------------------------------------
// forms
// -------------------------------------------------------------------------------------

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
    if (layout === 0) return { name, price, requiresShipping }
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

// -------------------------------------------------------------------------------------
// registry
// -------------------------------------------------------------------------------------

/** The fast forms of a payment-link request's records, by the name of the record. */
export const paymentLinkForms: Readonly<Record<string, UnrolledForm>> = {
  Product: product,
  SkuLineItem: skuLineItem,
  ProductLineItem: productLineItem,
  Metadata: metadata,
}
