/**
 * Payment links (spec 2.6, 2.7, 8): the creation request with its rules and defaults,
 * the creation response, and exact line-item arithmetic.
 *
 * The request codec strips unknown fields (also inside line items, products and
 * metadata) and applies the spec's defaults on decode. Every rule names its field:
 *
 * - `amount` or a non-empty `lineItems`, at least one, both allowed; with neither the
 *   error is at both `amount` and `lineItems`, an empty `lineItems` is an error at
 *   `lineItems`; `amount` is finite and greater than 0.
 * - a line item has exactly one of `sku` or `product`: with neither the error is at both
 *   `lineItems[i].sku` and `lineItems[i].product`; with both it is at `lineItems[i].sku`
 *   (the product describes the item in full, so the sku is the member to drop).
 *   The item is discriminated on which key is present, so only that shape's errors show.
 * - with both `amount` and `lineItems`, `amount` must equal the line-item total (the spec is
 *   silent: docs/service.md#amount-with-lineitems), an error at `amount`. `PaymentLinkRequest`
 *   checks it when every item is a one-time `product` (the request holds every price);
 *   `paymentLinkRequestFor(lookup)` also prices `sku` items and refuses unknown skus, as the
 *   service does with its catalogue.
 * - A field is "given" when it is not `undefined`; `null` is a value of the wrong type
 *   (except `orderDescription`, whose spec default is null).
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as O from 'fp-ts/lib/Option.js'
import * as t from 'io-ts'
import { type CodedFieldError, fieldError } from './FieldError.js'
import {
  atLeastOneOf,
  chosenByKey,
  failureAt,
  HttpUrl,
  Int,
  MaxLengthString,
  NonEmptyString,
  nullOr,
  PositiveInt,
  refine,
  refineNumber,
  unrolled,
  withDefault,
} from '../internal/codec.js'
import type { FieldIssue } from '../internal/issue.js'
import { validatesThrough } from '../internal/expected.js'
import * as Money from './Money.js'

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * `orderName` when the request gives none (spec 2.6).
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest, defaultOrderName } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const request = validate(PaymentLinkRequest)({ amount: 12.5 })
 * assert.ok(E.isRight(request))
 * assert.equal(request.right.orderName, defaultOrderName)
 * assert.equal(defaultOrderName, 'PaymentLink Order')
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const defaultOrderName = 'PaymentLink Order'

/**
 * `expirationMinutes` when the request gives none (spec 2.6, 8).
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest, defaultExpirationMinutes } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const request = validate(PaymentLinkRequest)({ amount: 12.5 })
 * assert.ok(E.isRight(request))
 * assert.equal(request.right.expirationMinutes, defaultExpirationMinutes)
 * assert.equal(defaultExpirationMinutes, 24 * 60) // a day
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const defaultExpirationMinutes = 1440

// -------------------------------------------------------------------------------------
// leaf codecs
// -------------------------------------------------------------------------------------

/**
 * `amount`: a finite JSON number greater than 0, decoded as `Money`.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { Amount } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const amount = validate(Amount)(12.5)
 * assert.ok(E.isRight(amount))
 * assert.equal(Money.toCents(amount.right), 1250n)
 * assert.deepEqual(
 *   validate(Amount)(-1),
 *   E.left([
 *     { path: '', message: 'must be greater than 0', code: 'minimum', minimum: 0, inclusive: false },
 *   ]),
 * )
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const Amount = Money.PositiveMoney

/**
 * `product.price`: a finite JSON number greater than or equal to 0, decoded as `Money`.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { Price } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * assert.ok(E.isRight(validate(Price)(0))) // a free product is fine
 * assert.deepEqual(
 *   validate(Price)(-0.01),
 *   E.left([
 *     {
 *       path: '',
 *       message: 'must be greater than or equal to 0',
 *       code: 'minimum',
 *       minimum: 0,
 *       inclusive: true,
 *     },
 *   ]),
 * )
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const Price = refineNumber(
  Money.MoneyFromNumber,
  (m) => m.isZero() || m.isPositive(),
  (n) => n >= 0, // a number's sign is the Decimal's (-0 is zero)
  { code: 'minimum', minimum: 0, inclusive: true },
  'Price',
)

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

const PRODUCT_REQUIRED = {
  name: NonEmptyString,
  price: Price,
  requiresShipping: withDefault(t.boolean, false),
}
const PRODUCT_OPTIONAL = { imageUrl: MaxLengthString(512) }

/**
 * A one-time product of a line item: `name` (non-empty) and `price` (>= 0) required,
 * `imageUrl` at most 512 characters, `requiresShipping` default false.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { Product } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const product = validate(Product)({ name: 'Gift wrap', price: 2.5 })
 * assert.ok(E.isRight(product))
 * assert.equal(product.right.requiresShipping, false) // the default
 * assert.equal(Money.toString(product.right.price, 2), '2.50')
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const Product = unrolled(
  t.intersection(
    [t.exact(t.type(PRODUCT_REQUIRED)), t.exact(t.partial(PRODUCT_OPTIONAL))],
    'Product',
  ),
)

const SKU_ITEM = { sku: NonEmptyString, quantity: PositiveInt }

/**
 * A line item naming a product of the merchant's catalogue by `sku` (non-empty).
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { SkuLineItem } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(
 *   validate(SkuLineItem)({ sku: 'MUG-LOGO', quantity: 2 }),
 *   E.right({ sku: 'MUG-LOGO', quantity: 2 }),
 * )
 * assert.ok(E.isLeft(validate(SkuLineItem)({ sku: 'MUG-LOGO', quantity: 1.5 })))
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const SkuLineItem = unrolled(t.exact(t.type(SKU_ITEM), 'SkuLineItem'))

const PRODUCT_ITEM = { product: Product, quantity: PositiveInt }

/**
 * A line item describing a one-time `product`.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { ProductLineItem } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const item = validate(ProductLineItem)({
 *   product: { name: 'Gift wrap', price: 2.5 },
 *   quantity: 1,
 * })
 * assert.ok(E.isRight(item))
 * assert.equal(item.right.product.name, 'Gift wrap')
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const ProductLineItem = unrolled(t.exact(t.type(PRODUCT_ITEM), 'ProductLineItem'))

const Quantity = t.type({ quantity: PositiveInt })

const SKU_OR_PRODUCT = ['sku', 'product']
const EXACTLY_ONE: FieldIssue = { code: 'exactlyOne', fields: SKU_OR_PRODUCT }
const NOT_BOTH: FieldIssue = { code: 'exclusive', fields: SKU_OR_PRODUCT }

/**
 * A line item: exactly one of `sku` or `product`, and a positive integer `quantity`.
 * Discriminated on which of the two keys is given, so the errors are those of that
 * shape only; neither names both `sku` and `product`, both names `sku`.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { LineItem } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * assert.ok(E.isRight(validate(LineItem)({ sku: 'MUG-LOGO', quantity: 1 })))
 * // neither sku nor product: both are named
 * assert.deepEqual(
 *   validate(LineItem)({ quantity: 1 }),
 *   E.left([
 *     {
 *       path: 'sku',
 *       message: 'sku or product is required (give exactly one)',
 *       code: 'exactlyOne',
 *       fields: ['sku', 'product'],
 *     },
 *     {
 *       path: 'product',
 *       message: 'sku or product is required (give exactly one)',
 *       code: 'exactlyOne',
 *       fields: ['sku', 'product'],
 *     },
 *   ]),
 * )
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const LineItem: t.Type<LineItem, LineItemJson, unknown> = chosenByKey(
  'LineItem',
  // The shape of the key given decides; neither or both fails.
  ['sku', SkuLineItem],
  ['product', ProductLineItem],
  { neither: EXACTLY_ONE, rest: Quantity, both: NOT_BOTH },
)

const LineItemArray = t.readonlyArray(LineItem)

/**
 * `lineItems`: a non-empty array of line items.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { LineItems } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * assert.ok(E.isRight(validate(LineItems)([{ sku: 'MUG-LOGO', quantity: 1 }])))
 * assert.deepEqual(
 *   validate(LineItems)([]),
 *   E.left([{ path: '', message: 'must have at least one item', code: 'minItems', minimum: 1 }]),
 * )
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const LineItems = refine(
  LineItemArray,
  (items) => items.length > 0,
  { code: 'minItems', minimum: 1 },
  'LineItems',
)

const METADATA = { name: t.string, value: t.string }

/**
 * A metadata entry: `name` and `value` both required strings.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { Metadata } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(
 *   validate(Metadata)({ name: 'channel', value: 'web' }),
 *   E.right({ name: 'channel', value: 'web' }),
 * )
 * assert.deepEqual(
 *   validate(Metadata)({ name: 'channel' }),
 *   E.left([{ path: 'value', message: 'is required', code: 'required' }]),
 * )
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const Metadata = unrolled(t.exact(t.type(METADATA), 'Metadata'))

const AMOUNT_OR_LINE_ITEMS: FieldIssue = { code: 'atLeastOne', fields: ['amount', 'lineItems'] }

/**
 * The rule "`amount` or `lineItems`, at least one", naming both fields when neither is
 * given. A branch of the request's intersection (so that its path is the request's), it
 * adds no member.
 */
const AmountOrLineItems = atLeastOneOf(
  ['amount', 'lineItems'],
  AMOUNT_OR_LINE_ITEMS,
  'AmountOrLineItems',
)

/**
 * Body of `POST /paymentlink/checkout` (spec 2.6). Unknown fields are stripped;
 * `orderName`, `expirationMinutes` and `product.requiresShipping` get their defaults.
 * With neither `amount` nor `lineItems` the errors name both; other fields' errors are
 * reported alongside. The rules that need prices (`amount` equal to the line-item total,
 * known skus) are `paymentLinkRequestFor(lookup)` and `checkAmountAgainst(lookup)`.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest, formatFieldErrors } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const request = validate(PaymentLinkRequest)({
 *   lineItems: [{ sku: 'MUG-LOGO', quantity: 2 }],
 *   successUrl: 'https://shop.example.com/thanks',
 * })
 * assert.ok(E.isRight(request))
 * const neither = validate(PaymentLinkRequest)({ orderName: 'Mugs' })
 * assert.ok(E.isLeft(neither))
 * assert.equal(
 *   formatFieldErrors(neither.left),
 *   'amount: amount or lineItems is required (give at least one); lineItems: amount or lineItems is required (give at least one)',
 * )
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const PaymentLinkRequest = unrolled(
  t.intersection(
    [
      t.exact(
        t.type({
          orderName: withDefault(MaxLengthString(255), defaultOrderName),
          expirationMinutes: withDefault(PositiveInt, defaultExpirationMinutes),
        }),
      ),
      t.exact(
        t.partial({
          orderReference: MaxLengthString(255),
          orderDescription: nullOr(MaxLengthString(2048)),
          amount: Amount,
          lineItems: LineItems,
          successUrl: HttpUrl,
          cancelUrl: HttpUrl,
          locationCode: t.string,
          metadata: t.readonlyArray(Metadata),
        }),
      ),
      AmountOrLineItems,
    ],
    'PaymentLinkRequest',
  ),
)

const NOT_IN_CATALOGUE: FieldIssue = { code: 'notInCatalogue' }

const notTheTotal = (total: Money.Money): FieldIssue => ({
  code: 'mismatch',
  total: Money.toString(total),
})

/** The line-item total when both `amount` and `lineItems` are given and every item is priced. */
const mismatchedTotal = (
  lookup: PriceLookup,
  request: PaymentLinkRequest,
): O.Option<Money.Money> => {
  const { amount, lineItems } = request
  if (amount === undefined || lineItems === undefined) return O.none
  const total = lineItemsTotal(lookup)(lineItems)
  return E.isRight(total) && !Money.Eq.equals(amount, total.right) ? O.some(total.right) : O.none
}

/**
 * `PaymentLinkRequest` with the rules that need the merchant's catalogue, as the service
 * applies them (docs/service.md#amount-with-lineitems): every `sku` known to `lookup` (else an
 * error at `lineItems[i].sku`) and, with both `amount` and `lineItems`, `amount` equal to the
 * line-item total with skus priced by `lookup` (else an error at `amount`, once the rest decodes).
 * Like `chargeRequestFor(paymentMethod)`, a codec made from the data its rule needs:
 * `validate(paymentLinkRequestFor(catalogue(prices)))(body)`.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { catalogue, paymentLinkRequestFor } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const check = validate(
 *   paymentLinkRequestFor(catalogue(new Map([['MUG-LOGO', Money.fromCents(850)]]))),
 * )
 * assert.ok(E.isRight(check({ amount: 17, lineItems: [{ sku: 'MUG-LOGO', quantity: 2 }] })))
 * assert.deepEqual(
 *   check({ amount: 20, lineItems: [{ sku: 'MUG-LOGO', quantity: 2 }] }),
 *   E.left([
 *     {
 *       path: 'amount',
 *       message: 'must equal the line-item total (17)',
 *       code: 'mismatch',
 *       total: '17',
 *     },
 *   ]),
 * )
 * assert.deepEqual(
 *   check({ lineItems: [{ sku: 'HAT', quantity: 1 }] }),
 *   E.left([
 *     {
 *       path: 'lineItems[0].sku',
 *       message: 'is not a product of the catalogue',
 *       code: 'notInCatalogue',
 *     },
 *   ]),
 * )
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const paymentLinkRequestFor = (
  lookup: PriceLookup,
): t.Type<PaymentLinkRequest, PaymentLinkRequestJson, unknown> =>
  validatesThrough(
    new t.Type<PaymentLinkRequest, PaymentLinkRequestJson, unknown>(
      PaymentLinkRequest.name,
      (u): u is PaymentLinkRequest => PaymentLinkRequest.is(u) && E.isRight(orderTotal(lookup)(u)),
      (u, c) => {
        const last = c[c.length - 1]
        // The intersection is the value's type, so field paths skip its branch indexes.
        const decoded = PaymentLinkRequest.validate(
          u,
          last === undefined ? c : [...c.slice(0, -1), { ...last, type: PaymentLinkRequest }],
        )
        if (E.isLeft(decoded)) return decoded
        const unknownSkus = (decoded.right.lineItems ?? []).flatMap((item, i) =>
          O.isNone(unitPriceOf(lookup)(item))
            ? [failureAt(u, c, ['lineItems', i, 'sku'], NOT_IN_CATALOGUE)]
            : [],
        )
        if (unknownSkus.length > 0) return t.failures(unknownSkus)
        const total = mismatchedTotal(lookup, decoded.right)
        return O.isSome(total)
          ? t.failures([failureAt(u, c, ['amount'], notTheTotal(total.value))])
          : decoded
      },
      PaymentLinkRequest.encode,
    ),
    PaymentLinkRequest,
  )

/**
 * Response of `POST /paymentlink/checkout` (spec 2.7). Unknown fields are tolerated.
 *
 * @example
 * ```ts
 * import { PaymentLinkResponse } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * const created = {
 *   orderCode: 'ord-abc',
 *   orderId: 1,
 *   paymentLinkUrl: 'https://pay.example.com/l/ord-abc',
 * }
 * assert.equal(PaymentLinkResponse.is(created), true)
 * assert.equal(PaymentLinkResponse.is({ ...created, orderId: '1' }), false)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const PaymentLinkResponse = t.type(
  { orderCode: t.string, orderId: Int, paymentLinkUrl: t.string },
  'PaymentLinkResponse',
)

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A one-time product, `price` as `Money`.
 *
 * @category model
 * @since 0.2.0
 */
export type Product = t.TypeOf<typeof Product>

/**
 * A line item naming a catalogue product by `sku`.
 *
 * @category model
 * @since 0.2.0
 */
export type SkuLineItem = t.TypeOf<typeof SkuLineItem>

/**
 * A line item describing a one-time product.
 *
 * @category model
 * @since 0.2.0
 */
export type ProductLineItem = t.TypeOf<typeof ProductLineItem>

/**
 * A line item: by `sku` or by `product`, never both.
 *
 * @category model
 * @since 0.2.0
 */
export type LineItem = SkuLineItem | ProductLineItem

/**
 * A line item as JSON (price as a number).
 *
 * @category model
 * @since 0.2.0
 */
export type LineItemJson = t.OutputOf<typeof SkuLineItem> | t.OutputOf<typeof ProductLineItem>

/**
 * A metadata entry of a request.
 *
 * @category model
 * @since 0.2.0
 */
export type Metadata = t.TypeOf<typeof Metadata>

/**
 * A decoded payment-link request: defaults applied, amounts as `Money`, and at least one
 * of `amount` and `lineItems` present.
 *
 * @category model
 * @since 0.2.0
 */
export type PaymentLinkRequest = t.TypeOf<typeof PaymentLinkRequest>

/**
 * A payment-link request as JSON (what `PaymentLinkRequest.encode` gives).
 *
 * @category model
 * @since 0.2.0
 */
export type PaymentLinkRequestJson = t.OutputOf<typeof PaymentLinkRequest>

/**
 * A created payment link: order code, order id and the link's address.
 *
 * @category model
 * @since 0.2.0
 */
export type PaymentLinkResponse = t.TypeOf<typeof PaymentLinkResponse>

/**
 * The unit price of a catalogue product by its sku; `none` for an unknown sku. The
 * catalogue lives in the service, so the core takes it as a function.
 *
 * @category model
 * @since 0.2.0
 */
export type PriceLookup = (sku: string) => O.Option<Money.Money>

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A lookup that knows no sku: totals then work for product line items only.
 *
 * @example
 * ```ts
 * import { lineItemsTotal, noCatalogue } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import * as O from 'fp-ts/lib/Option.js'
 * import assert from 'node:assert/strict'
 *
 * assert.ok(O.isNone(noCatalogue('MUG-LOGO')))
 * // one-time products are priced without a catalogue
 * const total = lineItemsTotal(noCatalogue)([
 *   {
 *     product: { name: 'Gift wrap', price: Money.fromCents(250), requiresShipping: false },
 *     quantity: 2,
 *   },
 * ])
 * assert.ok(E.isRight(total))
 * assert.equal(Money.toString(total.right), '5')
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const noCatalogue: PriceLookup = () => O.none

/**
 * A lookup over a fixed map of sku -> unit price.
 *
 * @example
 * ```ts
 * import { catalogue } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import * as O from 'fp-ts/lib/Option.js'
 * import assert from 'node:assert/strict'
 *
 * const lookup = catalogue(new Map([['MUG-LOGO', Money.fromCents(850)]]))
 * assert.deepEqual(O.map(Money.toCents)(lookup('MUG-LOGO')), O.some(850n))
 * assert.ok(O.isNone(lookup('HAT')))
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const catalogue =
  (prices: ReadonlyMap<string, Money.Money>): PriceLookup =>
  (sku) =>
    O.fromNullable(prices.get(sku))

// -------------------------------------------------------------------------------------
// refinements
// -------------------------------------------------------------------------------------

/**
 * Whether a line item names a catalogue product by sku.
 *
 * @example
 * ```ts
 * import { isSkuLineItem, type LineItem } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * const item: LineItem = { sku: 'MUG-LOGO', quantity: 1 }
 * assert.equal(isSkuLineItem(item), true)
 * ```
 *
 * @category refinements
 * @since 0.2.0
 */
export const isSkuLineItem = (item: LineItem): item is SkuLineItem => 'sku' in item

/**
 * Whether a line item describes a one-time product.
 *
 * @example
 * ```ts
 * import { isProductLineItem, type LineItem } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import assert from 'node:assert/strict'
 *
 * const items: ReadonlyArray<LineItem> = [
 *   { sku: 'MUG-LOGO', quantity: 1 },
 *   {
 *     product: { name: 'Gift wrap', price: Money.fromCents(250), requiresShipping: false },
 *     quantity: 1,
 *   },
 * ]
 * assert.deepEqual(
 *   items.filter(isProductLineItem).map((i) => i.product.name),
 *   ['Gift wrap'],
 * )
 * ```
 *
 * @category refinements
 * @since 0.2.0
 */
export const isProductLineItem = (item: LineItem): item is ProductLineItem => 'product' in item

// -------------------------------------------------------------------------------------
// money
// -------------------------------------------------------------------------------------

/**
 * The unit price of a line item: the product's price, or the catalogue's for a sku.
 *
 * @example
 * ```ts
 * import { catalogue, unitPriceOf } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import * as O from 'fp-ts/lib/Option.js'
 * import assert from 'node:assert/strict'
 *
 * const priceOf = unitPriceOf(catalogue(new Map([['MUG-LOGO', Money.fromCents(850)]])))
 * assert.deepEqual(O.map(Money.toCents)(priceOf({ sku: 'MUG-LOGO', quantity: 2 })), O.some(850n))
 * assert.ok(O.isNone(priceOf({ sku: 'HAT', quantity: 1 })))
 * ```
 *
 * @category money
 * @since 0.2.0
 */
export const unitPriceOf =
  (lookup: PriceLookup) =>
  (item: LineItem): O.Option<Money.Money> =>
    isProductLineItem(item) ? O.some(item.product.price) : lookup(item.sku)

/**
 * A line item's subtotal, unit price x quantity (exact); `none` for an unknown sku.
 *
 * @example
 * ```ts
 * import { catalogue, lineItemSubtotal } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import * as O from 'fp-ts/lib/Option.js'
 * import assert from 'node:assert/strict'
 *
 * const subtotalOf = lineItemSubtotal(catalogue(new Map([['MUG-LOGO', Money.fromCents(850)]])))
 * assert.deepEqual(
 *   O.map(Money.toCents)(subtotalOf({ sku: 'MUG-LOGO', quantity: 3 })),
 *   O.some(2550n),
 * )
 * assert.ok(O.isNone(subtotalOf({ sku: 'HAT', quantity: 1 })))
 * ```
 *
 * @category money
 * @since 0.2.0
 */
export const lineItemSubtotal =
  (lookup: PriceLookup) =>
  (item: LineItem): O.Option<Money.Money> =>
    O.map(Money.multiply(item.quantity))(unitPriceOf(lookup)(item))

/**
 * The sum of the line items' subtotals (exact). Left names every `lineItems[i].sku` the
 * lookup does not know.
 *
 * @example
 * ```ts
 * import { catalogue, lineItemsTotal } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const totalOf = lineItemsTotal(catalogue(new Map([['MUG-LOGO', Money.fromCents(850)]])))
 * const total = totalOf([{ sku: 'MUG-LOGO', quantity: 2 }])
 * assert.ok(E.isRight(total))
 * assert.equal(Money.toString(total.right), '17')
 * assert.deepEqual(
 *   totalOf([{ sku: 'HAT', quantity: 1 }]),
 *   E.left([
 *     {
 *       path: 'lineItems[0].sku',
 *       message: 'is not a product of the catalogue',
 *       code: 'notInCatalogue',
 *     },
 *   ]),
 * )
 * ```
 *
 * @category money
 * @since 0.2.0
 */
export const lineItemsTotal =
  (lookup: PriceLookup) =>
  (items: ReadonlyArray<LineItem>): E.Either<ReadonlyArray<CodedFieldError>, Money.Money> => {
    const errors: Array<CodedFieldError> = []
    const subtotals: Array<Money.Money> = []
    items.forEach((item, i) => {
      const s = lineItemSubtotal(lookup)(item)
      if (O.isSome(s)) subtotals.push(s.value)
      else errors.push(fieldError(`lineItems[${i}].sku`, NOT_IN_CATALOGUE))
    })
    return errors.length > 0 ? E.left(errors) : E.right(Money.sum(subtotals))
  }

/**
 * The total of a request: `amount`, or the line-item total; with both, `amount` must
 * equal the line-item total (the sandbox's rule,
 * docs/service.md#amount-with-lineitems), else Left at `amount`.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest, catalogue, orderTotal } from '@paykit/core/codecs'
 * import { Money } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { pipe } from 'fp-ts/lib/function.js'
 * import assert from 'node:assert/strict'
 *
 * const totalOf = orderTotal(catalogue(new Map([['MUG-LOGO', Money.fromCents(850)]])))
 * const total = pipe(
 *   { lineItems: [{ sku: 'MUG-LOGO', quantity: 2 }] },
 *   validate(PaymentLinkRequest),
 *   E.flatMap(totalOf),
 * )
 * assert.ok(E.isRight(total))
 * assert.equal(Money.toString(total.right), '17')
 * ```
 *
 * @category money
 * @since 0.2.0
 */
export const orderTotal =
  (lookup: PriceLookup) =>
  (request: PaymentLinkRequest): E.Either<ReadonlyArray<CodedFieldError>, Money.Money> => {
    const { amount, lineItems } = request
    if (lineItems === undefined)
      return amount === undefined
        ? E.left([
            fieldError('amount', AMOUNT_OR_LINE_ITEMS),
            fieldError('lineItems', AMOUNT_OR_LINE_ITEMS),
          ])
        : E.right(amount)
    const total = lineItemsTotal(lookup)(lineItems)
    if (amount === undefined || E.isLeft(total) || Money.Eq.equals(amount, total.right))
      return total
    return E.left([fieldError('amount', notTheTotal(total.right))])
  }

/**
 * The rule "with both `amount` and `lineItems`, `amount` equals the line-item total"
 * (docs/service.md#amount-with-lineitems) over a decoded request, where the core can price every
 * item: one-time products always, skus when `lookup` knows them. Left at `amount` when they differ;
 * Right (the request unchanged) otherwise, also when an unknown sku leaves the total to the
 * service. `checkAmountAgainst(noCatalogue)` checks requests of one-time products:
 * `pipe(body, validate(PaymentLinkRequest), E.chain(checkAmountAgainst(noCatalogue)))`.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest, checkAmountAgainst, noCatalogue } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { pipe } from 'fp-ts/lib/function.js'
 * import assert from 'node:assert/strict'
 *
 * const body = {
 *   amount: 10,
 *   lineItems: [{ product: { name: 'Gift wrap', price: 2.5 }, quantity: 2 }],
 * }
 * const checked = pipe(
 *   body,
 *   validate(PaymentLinkRequest),
 *   E.flatMap(checkAmountAgainst(noCatalogue)),
 * )
 * assert.deepEqual(
 *   checked,
 *   E.left([
 *     { path: 'amount', message: 'must equal the line-item total (5)', code: 'mismatch', total: '5' },
 *   ]),
 * )
 * ```
 *
 * @category rules
 * @since 0.2.0
 */
export const checkAmountAgainst =
  (lookup: PriceLookup) =>
  (request: PaymentLinkRequest): E.Either<ReadonlyArray<CodedFieldError>, PaymentLinkRequest> =>
    pipe(
      mismatchedTotal(lookup, request),
      O.match(
        () => E.right(request),
        (total) => E.left([fieldError('amount', notTheTotal(total))]),
      ),
    )
