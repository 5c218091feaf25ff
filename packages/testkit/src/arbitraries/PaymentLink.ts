/**
 * Arbitraries of the body of `POST /paymentlink/checkout` (the core's `PaymentLinkRequest`):
 * valid requests of both order shapes (a total `amount`, `lineItems`, or both with an
 * amount equal to the line-item total), every optional field present and absent, strings
 * at their exact limits (255, 2048, 512); and requests broken in exactly one way.
 *
 * @since 0.2.0
 */
import type { LineItemInput, PaymentLinkRequestInput } from '@paykit/core/client'
import type { PaymentLinkResponse } from '@paykit/core/codecs'
import { Money } from '@paykit/core/money'
import * as fc from 'fast-check'
import type * as t from 'io-ts'
import { orderCodeOf } from '../simulator/PaymentLinks.js'
import type { Invalid, Key } from './Common.js'
import {
  amount,
  asciiOfLength,
  blank,
  breakAt,
  httpUrl,
  httpUrlOfLength,
  notANumber,
  notAString,
  notAnObject,
  pathOfKeys,
  removed,
  setAt,
  text,
  textOfLength,
} from './Common.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A one-time product as a caller sends it (`requiresShipping` may be left out): the
 * product of the core's `LineItemInput`.
 *
 * @category model
 * @since 0.2.0
 */
export type ProductInput = Extract<LineItemInput, { readonly product: unknown }>['product']

/**
 * A line item as a caller sends it, a catalogue `sku` or a one-time `product`: the
 * core's `LineItemInput`, re-exported.
 *
 * @category model
 * @since 0.2.0
 */
export type { LineItemInput } from '@paykit/core/client'

/**
 * A `POST /paymentlink/checkout` body as a caller sends it (amounts as JSON numbers,
 * defaults left out): the core's `PaymentLinkRequestInput` (derived from the codec's
 * `t.OutputOf`), re-exported.
 *
 * @category model
 * @since 0.2.0
 */
export type { PaymentLinkRequestInput } from '@paykit/core/client'

/**
 * Which way a request describes its order: a total `amount`, `lineItems`, or both.
 *
 * @category model
 * @since 0.2.0
 */
export type OrderShape = 'amount' | 'lineItems' | 'both'

/**
 * Options of the payment-link arbitraries.
 *
 * @category model
 * @since 0.2.0
 */
export interface PaymentLinkArbitraryOptions {
  /**
   * The products `sku` line items may name (for a service that resolves skus, such as the
   * sandbox: pass its `defaultProducts`). Without it skus are any non-blank strings and
   * requests with both `amount` and `lineItems` use product items only.
   */
  readonly catalogue?: ReadonlyArray<{ readonly sku: string; readonly price: number }>
  /** The order shapes to generate (default all three). */
  readonly shapes?: ReadonlyArray<OrderShape>
  /** At most this many line items (default 5). */
  readonly maxLineItems?: number
  /**
   * Also break the service's rules that need its catalogue (`invalidPaymentLinkRequest`
   * only): an `amount` other than the line-item total, a `sku` not in `catalogue`. A
   * validation of the request alone accepts these, so leave it off for one.
   */
  readonly serviceRules?: boolean
}

// -------------------------------------------------------------------------------------
// parts
// -------------------------------------------------------------------------------------

const MAX_PRICE_CENTS = 100_000_000 // 10^6 in the store's currency
const MAX_QUANTITY = 1000

/**
 * A string of at most `max` characters: short ones, and some of exactly `max`.
 *
 * @example
 * ```ts
 * import { upTo } from '@paykit/testkit/arbitraries'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * const samples = fc.sample(upTo(255), 50)
 * assert.ok(samples.every((s) => [...s].length >= 1 && [...s].length <= 255))
 * assert.ok(samples.some((s) => [...s].length === 255)) // the limit itself comes up
 * ```
 *
 * @category parts
 * @since 0.2.0
 */
export const upTo = (max: number): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: text(Math.min(max, 40)), weight: 3 },
    { arbitrary: textOfLength(max), weight: 1 },
    { arbitrary: text(max), weight: 1 },
  )

/**
 * A one-time product: `price` from 0 (free) up, `imageUrl` (up to and exactly 512
 * characters) and `requiresShipping` present and absent.
 *
 * @example
 * ```ts
 * import { product } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * fc.assert(
 *   fc.property(product(), (p) => {
 *     assert.ok(p.price >= 0)
 *     const body = { lineItems: [{ product: p, quantity: 1 }] }
 *     assert.equal(validate(PaymentLinkRequest)(body)._tag, 'Right')
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category parts
 * @since 0.2.0
 */
export const product = (): fc.Arbitrary<ProductInput> =>
  fc
    .tuple(
      text(120),
      fc.oneof(fc.constant(0), amount(0, MAX_PRICE_CENTS)),
      fc.record(
        {
          imageUrl: fc.oneof(httpUrl(512), httpUrlOfLength(512)),
          requiresShipping: fc.boolean(),
        },
        { requiredKeys: [] },
      ),
    )
    .map(([name, price, rest]) => ({ name, price, ...rest }))

const quantity = (): fc.Arbitrary<number> =>
  fc.oneof(fc.constant(1), fc.integer({ min: 1, max: MAX_QUANTITY }))

/**
 * A line item naming a product by `sku` (from `catalogue` when given).
 *
 * @example
 * ```ts
 * import { defaultProducts } from '@paykit/testkit'
 * import { skuLineItem } from '@paykit/testkit/arbitraries'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * // With a catalogue (the sandbox's here), every sku is one of its products.
 * const skus = defaultProducts.map((p) => p.sku)
 * for (const item of fc.sample(skuLineItem({ catalogue: defaultProducts }), 20)) {
 *   assert.ok(skus.includes(item.sku))
 *   assert.ok(Number.isInteger(item.quantity) && item.quantity >= 1)
 * }
 * ```
 *
 * @category parts
 * @since 0.2.0
 */
export const skuLineItem = (
  options: PaymentLinkArbitraryOptions = {},
): fc.Arbitrary<{ readonly sku: string; readonly quantity: number }> =>
  fc.record({
    sku:
      options.catalogue === undefined || options.catalogue.length === 0
        ? text(64)
        : fc.constantFrom(...options.catalogue.map((p) => p.sku)),
    quantity: quantity(),
  })

/**
 * A line item describing a one-time `product`.
 *
 * @example
 * ```ts
 * import { productLineItem } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 *
 * fc.assert(
 *   fc.property(productLineItem(), (item) => {
 *     return validate(PaymentLinkRequest)({ lineItems: [item] })._tag === 'Right'
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category parts
 * @since 0.2.0
 */
export const productLineItem = (): fc.Arbitrary<{
  readonly product: ProductInput
  readonly quantity: number
}> => fc.record({ product: product(), quantity: quantity() })

/**
 * A line item of either kind.
 *
 * @example
 * ```ts
 * import { lineItem } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * const items = fc.sample(lineItem(), 50)
 * assert.ok(items.some((i) => 'sku' in i) && items.some((i) => 'product' in i))
 * assert.equal(validate(PaymentLinkRequest)({ lineItems: items })._tag, 'Right')
 * ```
 *
 * @category parts
 * @since 0.2.0
 */
export const lineItem = (options: PaymentLinkArbitraryOptions = {}): fc.Arbitrary<LineItemInput> =>
  fc.oneof(skuLineItem(options), productLineItem())

/**
 * The exact total of line items as a caller writes them (price x quantity, summed with the
 * core's `Money`) as a JSON number; undefined when a sku has no price in `catalogue`. (The
 * core's `lineItemsTotal(lookup)(items)` takes decoded items and answers an `Either`.)
 *
 * @example
 * ```ts
 * import { defaultProducts } from '@paykit/testkit'
 * import { jsonLineItemsTotal } from '@paykit/testkit/arbitraries'
 * import assert from 'node:assert/strict'
 *
 * const items = [
 *   { sku: 'MUG-LOGO', quantity: 2 }, // 8.50 in defaultProducts
 *   { product: { name: 'Gift wrap', price: 0.1 }, quantity: 3 },
 * ]
 * assert.equal(jsonLineItemsTotal(items, defaultProducts), 17.3) // exact: not 17.300000000000001
 * assert.equal(jsonLineItemsTotal([{ sku: 'NOT-SOLD', quantity: 1 }], defaultProducts), undefined)
 * ```
 *
 * @category parts
 * @since 0.2.0
 */
export const jsonLineItemsTotal = (
  items: ReadonlyArray<LineItemInput>,
  catalogue: ReadonlyArray<{ readonly sku: string; readonly price: number }> = [],
): number | undefined => {
  const subtotals: Array<Money.Money> = []
  for (const item of items) {
    const price =
      'product' in item ? item.product.price : catalogue.find((p) => p.sku === item.sku)?.price
    if (price === undefined) return undefined
    const unit = Money.fromNumber(price)
    if (unit._tag === 'Left') return undefined
    subtotals.push(Money.multiply(item.quantity)(unit.right))
  }
  return Money.toNumber(Money.sum(subtotals))
}

/**
 * The optional fields of a request other than the order: each present or absent, strings
 * up to and exactly at their limits, `orderDescription` also null (its default).
 *
 * @example
 * ```ts
 * import { optionalFields } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 *
 * fc.assert(
 *   fc.property(optionalFields(), (fields) => {
 *     return validate(PaymentLinkRequest)({ ...fields, amount: 10 })._tag === 'Right'
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category parts
 * @since 0.2.0
 */
export const optionalFields = (): fc.Arbitrary<
  Omit<PaymentLinkRequestInput, 'amount' | 'lineItems'>
> =>
  fc.record(
    {
      orderReference: upTo(255),
      orderName: upTo(255),
      orderDescription: fc.oneof(upTo(2048), fc.constant(null)),
      successUrl: httpUrl(2000),
      cancelUrl: httpUrl(2000),
      locationCode: text(20),
      metadata: fc.array(fc.record({ name: fc.string(), value: fc.string() }), { maxLength: 5 }),
      expirationMinutes: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 525_600 })),
    },
    { requiredKeys: [] },
  )

const orderOf = (
  shape: OrderShape,
  options: PaymentLinkArbitraryOptions,
): fc.Arbitrary<Pick<PaymentLinkRequestInput, 'amount' | 'lineItems'>> => {
  const maxLength = options.maxLineItems ?? 5
  switch (shape) {
    case 'amount':
      return fc.record({ amount: amount(1, MAX_PRICE_CENTS) })
    case 'lineItems':
      return fc.record({ lineItems: fc.array(lineItem(options), { minLength: 1, maxLength }) })
    case 'both': {
      // Priced items only: products, and skus of the catalogue when one is given.
      const priced =
        options.catalogue === undefined || options.catalogue.length === 0
          ? productLineItem()
          : fc.oneof(productLineItem(), skuLineItem(options))
      return fc
        .array(priced, { minLength: 1, maxLength })
        .map((items) => ({ items, total: jsonLineItemsTotal(items, options.catalogue) }))
        .filter(({ total }) => total !== undefined && total > 0)
        .map(({ items, total }) => ({ amount: total as number, lineItems: items }))
    }
  }
}

// -------------------------------------------------------------------------------------
// valid
// -------------------------------------------------------------------------------------

/**
 * A valid `POST /paymentlink/checkout` body: one of the order shapes (`options.shapes`,
 * default all three), sku and product line items, every optional field present and absent.
 *
 * @example
 * ```ts
 * import { defaultProducts } from '@paykit/testkit'
 * import { paymentLinkRequest } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 *
 * // skus from the sandbox's catalogue, so that a sandbox would accept them too.
 * fc.assert(
 *   fc.property(paymentLinkRequest({ catalogue: defaultProducts }), (body) => {
 *     return validate(PaymentLinkRequest)(body)._tag === 'Right'
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category valid
 * @since 0.2.0
 */
export const paymentLinkRequest = (
  options: PaymentLinkArbitraryOptions = {},
): fc.Arbitrary<PaymentLinkRequestInput> => {
  const shapes = options.shapes ?? ['amount', 'lineItems', 'both']
  return fc
    .tuple(fc.oneof(...shapes.map((shape) => orderOf(shape, options))), optionalFields())
    .map(([order, rest]) => ({ ...rest, ...order }))
}

/**
 * The order shape of a request: `amount`, `lineItems` or `both`.
 *
 * @example
 * ```ts
 * import { orderShapeOf, paymentLinkRequest } from '@paykit/testkit/arbitraries'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(orderShapeOf({ amount: 10 }), 'amount')
 * assert.equal(orderShapeOf({ lineItems: [{ sku: 'MUG-LOGO', quantity: 1 }] }), 'lineItems')
 * for (const body of fc.sample(paymentLinkRequest({ shapes: ['both'] }), 5)) {
 *   assert.equal(orderShapeOf(body), 'both')
 * }
 * ```
 *
 * @category valid
 * @since 0.2.0
 */
export const orderShapeOf = (request: PaymentLinkRequestInput): OrderShape =>
  request.amount !== undefined && request.lineItems !== undefined
    ? 'both'
    : request.amount !== undefined
      ? 'amount'
      : 'lineItems'

// -------------------------------------------------------------------------------------
// invalid
// -------------------------------------------------------------------------------------

const notAnArray: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant({}),
  fc.constant('items'),
  fc.integer(),
  fc.constant(null),
)

const notAPositiveInt: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(0),
  fc.integer({ min: -1_000_000, max: -1 }),
  fc.double({ min: 0.01, max: 1000, noNaN: true }).filter((n) => !Number.isInteger(n)),
  fc.constantFrom('2', null, true, Number.NaN, Number.POSITIVE_INFINITY),
)

const NON_FINITE = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]

const notHttpUrl: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '/checkout/success',
    'example.com/success',
    'ftp://example.com/x',
    'mailto:shop@example.com',
    'javascript:alert(1)',
    '',
  ),
  fc.integer(),
)

/** Line-item breaks at index `i` of a request's `lineItems` (the request has them). */
const lineItemBreaks = (
  base: PaymentLinkRequestInput,
  i: number,
  options: PaymentLinkArbitraryOptions,
): ReadonlyArray<fc.Arbitrary<Invalid>> => {
  const at: ReadonlyArray<Key> = ['lineItems', i]
  const withItem = (item: LineItemInput): unknown => setAt(base, at, item)
  const productAt = (key: Key, value: fc.Arbitrary<unknown>, rule: string) =>
    fc
      .tuple(productLineItem(), value)
      .map(([item, v]) => breakAt(withItem(item), [...at, 'product', key], v, rule))
  const skuItemAt = (key: Key, value: fc.Arbitrary<unknown>, rule: string) =>
    fc
      .tuple(skuLineItem(options), value)
      .map(([item, v]) => breakAt(withItem(item), [...at, key], v, rule))
  return [
    notAnObject.map((v) => breakAt(base, at, v, 'line item is an object')),
    quantity().map((q): Invalid => ({
      value: setAt(base, at, { quantity: q }),
      field: pathOfKeys([...at, 'sku']),
      alsoNames: [pathOfKeys([...at, 'product'])],
      rule: 'line item has sku or product',
    })),
    fc.tuple(productLineItem(), skuLineItem(options)).map(([item, { sku }]) => ({
      ...breakAt(withItem(item), [...at, 'sku'], sku, 'line item has not both sku and product'),
    })),
    skuItemAt('sku', fc.oneof(blank, notAString), 'sku is a non-empty string'),
    fc
      .tuple(fc.oneof(skuLineItem(options), productLineItem()), notAPositiveInt)
      .map(([item, q]) =>
        breakAt(withItem(item), [...at, 'quantity'], q, 'quantity is a positive integer'),
      ),
    fc
      .oneof(skuLineItem(options), productLineItem())
      .map((item) => breakAt(withItem(item), [...at, 'quantity'], removed, 'quantity is required')),
    fc
      .tuple(productLineItem(), notAnObject)
      .map(([item, v]) => breakAt(withItem(item), [...at, 'product'], v, 'product is an object')),
    productAt('name', fc.oneof(blank, notAString), 'product.name is a non-empty string'),
    productAt('name', fc.constant(removed), 'product.name is required'),
    productAt('price', amount(-MAX_PRICE_CENTS, -1), 'product.price >= 0'),
    productAt(
      'price',
      fc.oneof(notANumber, fc.constantFrom(...NON_FINITE), fc.constant(removed)),
      'product.price is a finite number',
    ),
    productAt(
      'imageUrl',
      fc.oneof(httpUrlOfLength(513), asciiOfLength(513), httpUrlOfLength(600)),
      'product.imageUrl is at most 512 characters',
    ),
    productAt('imageUrl', notAString, 'product.imageUrl is a string'),
    productAt(
      'requiresShipping',
      fc.constantFrom('true', 'false', 1, 0, null),
      'product.requiresShipping is a boolean',
    ),
  ]
}

/**
 * A `POST /paymentlink/checkout` body broken in exactly one way, labelled with the field
 * it breaks and the rule: the body not an object; neither `amount` nor `lineItems` (names
 * both); `lineItems` empty or not an array; `amount` not > 0, not finite or not a number;
 * a line item not an object, with neither `sku` nor `product` (names both), with both
 * (names `sku`), a blank `sku`, a `quantity` that is not a positive integer;
 * `product` not an object, `product.name` blank or missing, `product.price` < 0 or not a
 * finite number, `product.imageUrl` over 512 characters, `product.requiresShipping` not a
 * boolean; `orderReference` / `orderName` over 255 and `orderDescription` over 2048
 * characters or not strings; `locationCode` not a string; `metadata` not an array, an entry
 * not an object, `name` / `value` missing or not strings; `expirationMinutes` not a
 * positive integer; `successUrl` / `cancelUrl` not an absolute http(s) URL. With
 * `serviceRules` and a `catalogue`, also an `amount` other than the line-item total and
 * an unknown `sku`.
 *
 * @example
 * ```ts
 * import { invalidPaymentLinkRequest, namedFields } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * fc.assert(
 *   fc.property(invalidPaymentLinkRequest(), (invalid) => {
 *     const result = validate(PaymentLinkRequest)(invalid.value)
 *     assert.ok(result._tag === 'Left', invalid.rule)
 *     for (const field of namedFields(invalid)) {
 *       assert.ok(
 *         result.left.some((e) => e.path === field),
 *         `${invalid.rule}: names ${field}`,
 *       )
 *     }
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category invalid
 * @since 0.2.0
 */
export const invalidPaymentLinkRequest = (
  options: PaymentLinkArbitraryOptions = {},
): fc.Arbitrary<Invalid> => {
  const withAmount = paymentLinkRequest({ ...options, shapes: ['amount'] })
  const withLineItems = paymentLinkRequest({ ...options, shapes: ['lineItems'] })
  const any = paymentLinkRequest(options)
  const field = (
    key: keyof PaymentLinkRequestInput,
    value: fc.Arbitrary<unknown>,
    rule: string,
  ): fc.Arbitrary<Invalid> => fc.tuple(any, value).map(([base, v]) => breakAt(base, [key], v, rule))
  const cases: Array<fc.Arbitrary<Invalid>> = [
    notAnObject.map((value): Invalid => ({ value, field: '', rule: 'body is an object' })),
    optionalFields().map((value): Invalid => ({
      value,
      field: 'amount',
      alsoNames: ['lineItems'],
      rule: 'amount or lineItems is given',
    })),
    any.map((base) => breakAt(base, ['lineItems'], [], 'lineItems is not empty')),
    withAmount.chain((base) =>
      notAnArray.map((v) => breakAt(base, ['lineItems'], v, 'lineItems is an array')),
    ),
    withAmount.chain((base) =>
      fc
        .oneof(fc.constant(0), amount(-MAX_PRICE_CENTS, 0))
        .map((v) => breakAt(base, ['amount'], v, 'amount > 0')),
    ),
    withAmount.chain((base) =>
      fc.constantFrom(...NON_FINITE).map((v) => breakAt(base, ['amount'], v, 'amount is finite')),
    ),
    withAmount.chain((base) =>
      notANumber.map((v) => breakAt(base, ['amount'], v, 'amount is a number')),
    ),
    withLineItems.chain((base) =>
      fc
        .nat((base.lineItems?.length ?? 1) - 1)
        .chain((i) => fc.oneof(...lineItemBreaks(base, i, options))),
    ),
    field('orderReference', asciiOfLength(256), 'orderReference is at most 255 characters'),
    field('orderName', asciiOfLength(256), 'orderName is at most 255 characters'),
    field('orderDescription', asciiOfLength(2049), 'orderDescription is at most 2048 characters'),
    field('orderReference', notAString, 'orderReference is a string'),
    field('orderName', notAString, 'orderName is a string'),
    field(
      'orderDescription',
      notAString.filter((v) => v !== null),
      'orderDescription is a string or null',
    ),
    field('locationCode', notAString, 'locationCode is a string'),
    field('metadata', notAnArray, 'metadata is an array'),
    field('expirationMinutes', notAPositiveInt, 'expirationMinutes is a positive integer'),
    field('successUrl', notHttpUrl, 'successUrl is an absolute http(s) URL'),
    field('cancelUrl', notHttpUrl, 'cancelUrl is an absolute http(s) URL'),
    fc
      .tuple(
        any,
        fc.array(fc.record({ name: fc.string(), value: fc.string() }), { maxLength: 3 }),
        fc.nat(3),
      )
      .chain(([base, entries, n]) => {
        const i = Math.min(n, entries.length)
        const withEntries = { ...base, metadata: [...entries, { name: 'k', value: 'v' }] }
        return fc.oneof(
          notAnObject.map((v) =>
            breakAt(withEntries, ['metadata', i], v, 'metadata entry is an object'),
          ),
          ...(['name', 'value'] as const).map((key) =>
            fc
              .oneof(notAString, fc.constant(removed))
              .map((v) =>
                breakAt(withEntries, ['metadata', i, key], v, `metadata ${key} is a string`),
              ),
          ),
        )
      }),
  ]
  const catalogue = options.catalogue ?? []
  if (options.serviceRules === true && catalogue.length > 0) {
    cases.push(
      paymentLinkRequest({ ...options, shapes: ['both'] }).chain((base) =>
        fc.integer({ min: 1, max: 10_000 }).map((cents) => {
          const total = Money.fromNumber(base.amount ?? 0)
          const other =
            total._tag === 'Right'
              ? Money.add(Money.fromCents(cents))(total.right)
              : Money.fromCents(cents)
          return breakAt(
            base,
            ['amount'],
            Money.toNumber(other),
            'amount equals the line-item total',
          )
        }),
      ),
      withLineItems.chain((base) =>
        fc
          .tuple(fc.nat((base.lineItems?.length ?? 1) - 1), text(64), quantity())
          .filter(([, sku]) => !catalogue.some((p) => p.sku === sku))
          .map(([i, sku, q]): Invalid => ({
            value: setAt(base, ['lineItems', i], { sku, quantity: q }),
            field: pathOfKeys(['lineItems', i, 'sku']),
            rule: 'sku is in the catalogue',
          })),
      ),
    )
  }
  return fc.oneof(...cases)
}

// -------------------------------------------------------------------------------------
// responses
// -------------------------------------------------------------------------------------

/**
 * A `POST /paymentlink/checkout` answer as JSON (the core's `PaymentLinkResponse`): an
 * `orderId`, its `orderCode` in the sandbox's form and the link's `/pay/<orderCode>` on
 * `baseUrl` (the sandbox's address by default).
 *
 * @example
 * ```ts
 * import { paymentLinkResponse } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { PaymentLinkResponse } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * for (const json of fc.sample(paymentLinkResponse('https://pay.example.com'), 20)) {
 *   assert.ok(validate(PaymentLinkResponse)(json)._tag === 'Right')
 *   assert.equal(json.paymentLinkUrl, `https://pay.example.com/pay/${json.orderCode}`)
 * }
 * ```
 *
 * @category responses
 * @since 0.2.0
 */
export const paymentLinkResponse = (
  baseUrl = 'http://127.0.0.1:4010',
): fc.Arbitrary<t.OutputOf<typeof PaymentLinkResponse>> =>
  fc.integer({ min: 1, max: 99_999_999 }).map((orderId) => {
    const orderCode = orderCodeOf(orderId)
    return { orderCode, orderId, paymentLinkUrl: `${baseUrl}/pay/${orderCode}` }
  })
