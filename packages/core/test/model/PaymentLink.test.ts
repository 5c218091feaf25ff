import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { pipe } from 'fp-ts/lib/function.js'
import { describe, expect, it } from 'vitest'
import { validate, type FieldError } from '../../src/model/FieldError.js'
import * as Money from '../../src/model/Money.js'
import {
  LineItem,
  PaymentLinkRequest,
  PaymentLinkResponse,
  Product,
  catalogue,
  checkAmountAgainst,
  defaultExpirationMinutes,
  defaultOrderName,
  isProductLineItem,
  isSkuLineItem,
  lineItemSubtotal,
  lineItemsTotal,
  noCatalogue,
  orderTotal,
  paymentLinkRequestFor,
} from '../../src/model/PaymentLink.js'
import { same } from '../fixtures.js'

// -------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------

type Json = Record<string, unknown>

const decode = validate(PaymentLinkRequest)

const paths = (r: E.Either<ReadonlyArray<FieldError>, unknown>): ReadonlySet<string> =>
  new Set(E.isLeft(r) ? r.left.map((e) => e.path) : [])

/** The paths of the errors of `input`, which must be a Left. */
const failingPaths = (input: unknown): ReadonlySet<string> => {
  const r = decode(input)
  expect(E.isLeft(r)).toBe(true)
  return paths(r)
}

const rightOf = <A>(r: E.Either<ReadonlyArray<FieldError>, A>): A => {
  if (E.isLeft(r)) throw new Error(`expected Right, got ${JSON.stringify(r.left)}`)
  return r.right
}

const product = { name: 'Shirt', price: 19.99 }

// -------------------------------------------------------------------------------------
// samples of the spec
// -------------------------------------------------------------------------------------

describe('PaymentLinkRequest: the spec shapes', () => {
  it('decodes a total-amount request and applies the defaults', () => {
    const r = rightOf(decode({ amount: 150.75, orderReference: 'INV-001' }))
    expect(r.orderName).toBe('PaymentLink Order')
    expect(r.expirationMinutes).toBe(1440)
    expect(defaultOrderName).toBe('PaymentLink Order')
    expect(defaultExpirationMinutes).toBe(1440)
    expect(r.amount !== undefined && Money.toString(r.amount)).toBe('150.75')
    expect(r.orderReference).toBe('INV-001')
    expect('orderDescription' in r).toBe(false)
  })

  it('decodes a line-item request with a catalogue sku and a one-time product', () => {
    const input = {
      orderReference: 'INV-002',
      orderName: 'Summer order',
      orderDescription: 'Two shirts and a mug',
      lineItems: [
        { sku: 'MUG-01', quantity: 1 },
        {
          product: { name: 'Shirt', price: 19.99, imageUrl: 'https://example.com/s.png' },
          quantity: 2,
        },
      ],
      successUrl: 'https://shop.example.com/ok',
      cancelUrl: 'http://shop.example.com/cancel',
      locationCode: 'SJO-01',
      metadata: [{ name: 'channel', value: 'n8n' }],
      expirationMinutes: 60,
    }
    const r = rightOf(decode(input))
    expect(r.orderName).toBe('Summer order')
    expect(r.expirationMinutes).toBe(60)
    const [first, second] = r.lineItems ?? []
    expect(first).toEqual({ sku: 'MUG-01', quantity: 1 })
    expect(second !== undefined && isProductLineItem(second)).toBe(true)
    if (second === undefined || !isProductLineItem(second)) return
    expect(second.product.requiresShipping).toBe(false)
    expect(Money.toString(second.product.price)).toBe('19.99')
    expect(PaymentLinkRequest.encode(r)).toEqual({
      ...input,
      lineItems: [
        input.lineItems[0],
        {
          ...input.lineItems[1],
          product: { ...input.lineItems[1]?.product, requiresShipping: false },
        },
      ],
    })
  })

  it('accepts both amount and lineItems, and a null orderDescription (its spec default)', () => {
    const r = rightOf(
      decode({ amount: 39.98, lineItems: [{ product, quantity: 2 }], orderDescription: null }),
    )
    expect(r.orderDescription).toBe(null)
    expect(r.lineItems?.length).toBe(1)
  })

  it('keeps requiresShipping when given', () => {
    const r = rightOf(
      decode({ lineItems: [{ product: { ...product, requiresShipping: true }, quantity: 1 }] }),
    )
    const item = r.lineItems?.[0]
    expect(item !== undefined && isProductLineItem(item) && item.product.requiresShipping).toBe(
      true,
    )
  })

  it('strips unknown fields at every level of a request', () => {
    const r = rightOf(
      decode({
        amount: 10,
        currency: 'USD',
        lineItems: [
          { sku: 'A', quantity: 1, discount: 5 },
          { product: { ...product, color: 'red' }, quantity: 1, note: 'x' },
        ],
        metadata: [{ name: 'a', value: 'b', secret: 'c' }],
      }),
    )
    expect(Object.keys(r).sort()).toEqual(
      ['amount', 'expirationMinutes', 'lineItems', 'metadata', 'orderName'].sort(),
    )
    expect(r.lineItems?.[0]).toEqual({ sku: 'A', quantity: 1 })
    const second = r.lineItems?.[1]
    expect(second && Object.keys(second).sort()).toEqual(['product', 'quantity'])
    expect(second && isProductLineItem(second) && Object.keys(second.product).sort()).toEqual([
      'name',
      'price',
      'requiresShipping',
    ])
    expect(r.metadata).toEqual([{ name: 'a', value: 'b' }])
  })
})

// -------------------------------------------------------------------------------------
// every rule: a failing case naming its field, and no other
// -------------------------------------------------------------------------------------

const x = (n: number): string => 'x'.repeat(n)
const items = (...li: ReadonlyArray<unknown>) => ({ lineItems: li })

const failing: ReadonlyArray<readonly [string, unknown, ReadonlyArray<string>]> = [
  ['neither amount nor lineItems', { orderName: 'n' }, ['amount', 'lineItems']],
  ['amount 0', { amount: 0 }, ['amount']],
  ['amount negative', { amount: -5 }, ['amount']],
  ['amount NaN', { amount: Number.NaN }, ['amount']],
  ['amount Infinity', { amount: Number.POSITIVE_INFINITY }, ['amount']],
  ['amount as a string', { amount: '10' }, ['amount']],
  ['amount null', { amount: null, lineItems: [{ sku: 'A', quantity: 1 }] }, ['amount']],
  ['amount a bigint', { amount: 10n }, ['amount']],
  ['empty lineItems', { lineItems: [] }, ['lineItems']],
  ['empty lineItems with an amount', { amount: 5, lineItems: [] }, ['lineItems']],
  ['lineItems not an array', { lineItems: { sku: 'A', quantity: 1 } }, ['lineItems']],
  ['line item not an object', items({ sku: 'A', quantity: 1 }, 'B'), ['lineItems[1]']],
  [
    'line item with neither sku nor product',
    items({ quantity: 1 }),
    ['lineItems[0].sku', 'lineItems[0].product'],
  ],
  [
    'line item with both sku and product',
    items({ sku: 'A', product, quantity: 1 }),
    ['lineItems[0].sku'],
  ],
  ['sku blank', items({ sku: ' ', quantity: 1 }), ['lineItems[0].sku']],
  ['sku a number', items({ sku: 7, quantity: 1 }), ['lineItems[0].sku']],
  ['product not an object', items({ product: 'Shirt', quantity: 1 }), ['lineItems[0].product']],
  [
    'product.name missing',
    items({ product: { price: 1 }, quantity: 1 }),
    ['lineItems[0].product.name'],
  ],
  [
    'product.name empty',
    items({ product: { name: '', price: 1 }, quantity: 1 }),
    ['lineItems[0].product.name'],
  ],
  [
    'product.price missing',
    items({ product: { name: 'a' }, quantity: 1 }),
    ['lineItems[0].product.price'],
  ],
  [
    'product.price negative',
    items({ product: { name: 'a', price: -0.01 }, quantity: 1 }),
    ['lineItems[0].product.price'],
  ],
  [
    'product.price a string',
    items({ product: { name: 'a', price: '1' }, quantity: 1 }),
    ['lineItems[0].product.price'],
  ],
  [
    'product.imageUrl 513 characters',
    items({ product: { ...product, imageUrl: x(513) }, quantity: 1 }),
    ['lineItems[0].product.imageUrl'],
  ],
  [
    'product.requiresShipping not a boolean',
    items({ product: { ...product, requiresShipping: 'yes' }, quantity: 1 }),
    ['lineItems[0].product.requiresShipping'],
  ],
  ['quantity missing', items({ sku: 'A' }), ['lineItems[0].quantity']],
  ['quantity 0', items({ sku: 'A', quantity: 0 }), ['lineItems[0].quantity']],
  ['quantity negative', items({ product, quantity: -1 }), ['lineItems[0].quantity']],
  ['quantity fractional', items({ product, quantity: 1.5 }), ['lineItems[0].quantity']],
  [
    'quantity of an item with neither',
    items({ quantity: 0 }),
    ['lineItems[0].sku', 'lineItems[0].product', 'lineItems[0].quantity'],
  ],
  [
    'an error in the third item only',
    items(
      { sku: 'A', quantity: 1 },
      { product, quantity: 1 },
      { product: { ...product, price: -1 }, quantity: 1 },
    ),
    ['lineItems[2].product.price'],
  ],
  ['orderReference 256 characters', { amount: 1, orderReference: x(256) }, ['orderReference']],
  ['orderName 256 characters', { amount: 1, orderName: x(256) }, ['orderName']],
  ['orderName null', { amount: 1, orderName: null }, ['orderName']],
  [
    'orderDescription 2049 characters',
    { amount: 1, orderDescription: x(2049) },
    ['orderDescription'],
  ],
  [
    'metadata name missing',
    { amount: 1, metadata: [{ name: 'a', value: 'b' }, { value: 'c' }] },
    ['metadata[1].name'],
  ],
  [
    'metadata value not a string',
    { amount: 1, metadata: [{ name: 'a', value: 1 }] },
    ['metadata[0].value'],
  ],
  ['metadata not an array', { amount: 1, metadata: { name: 'a', value: 'b' } }, ['metadata']],
  ['expirationMinutes 0', { amount: 1, expirationMinutes: 0 }, ['expirationMinutes']],
  ['expirationMinutes fractional', { amount: 1, expirationMinutes: 2.5 }, ['expirationMinutes']],
  ['expirationMinutes a string', { amount: 1, expirationMinutes: '60' }, ['expirationMinutes']],
  ['successUrl relative', { amount: 1, successUrl: '/ok' }, ['successUrl']],
  ['successUrl not http(s)', { amount: 1, successUrl: 'ftp://example.com/ok' }, ['successUrl']],
  ['cancelUrl javascript:', { amount: 1, cancelUrl: 'javascript:alert(1)' }, ['cancelUrl']],
  ['locationCode a number', { amount: 1, locationCode: 5 }, ['locationCode']],
  ['a string at the root', 'amount=1', ['']],
  ['an array at the root', [{ amount: 1 }], ['']],
  ['null at the root', null, ['']],
]

describe('PaymentLinkRequest: every rule names its field and no other', () => {
  it.each(failing)('%s', (_name, input, expected) => {
    expect(failingPaths(input)).toEqual(new Set(expected))
  })

  it('says what is wrong in words, for amount/lineItems and sku/product', () => {
    expect(decode({})).toEqual(
      E.left([
        {
          path: 'amount',
          message: 'amount or lineItems is required (give at least one)',
          code: 'atLeastOne',
          fields: ['amount', 'lineItems'],
        },
        {
          path: 'lineItems',
          message: 'amount or lineItems is required (give at least one)',
          code: 'atLeastOne',
          fields: ['amount', 'lineItems'],
        },
      ]),
    )
    expect(decode(items({ sku: 'A', product, quantity: 1 }))).toEqual(
      E.left([
        {
          path: 'lineItems[0].sku',
          message: 'must not be given together with product (give exactly one of sku or product)',
          code: 'exclusive',
          fields: ['sku', 'product'],
        },
      ]),
    )
    expect(decode({ amount: 0 })).toEqual(
      E.left([
        {
          path: 'amount',
          message: 'must be greater than 0',
          code: 'minimum',
          minimum: 0,
          inclusive: false,
        },
      ]),
    )
    expect(decode({ lineItems: [] })).toEqual(
      E.left([
        { path: 'lineItems', message: 'must have at least one item', code: 'minItems', minimum: 1 },
      ]),
    )
  })

  it('accepts every limit exactly at its bound', () => {
    const r = decode({
      orderReference: x(255),
      orderName: x(255),
      orderDescription: x(2048),
      lineItems: [{ product: { name: 'a', price: 0, imageUrl: x(512) }, quantity: 1 }],
      expirationMinutes: 1,
    })
    expect(E.isRight(r)).toBe(true)
  })

  it('counts lengths in characters, not UTF-16 units', () => {
    expect(E.isRight(decode({ amount: 1, orderName: '\u{1F600}'.repeat(255) }))).toBe(true)
    expect(failingPaths({ amount: 1, orderName: '\u{1F600}'.repeat(256) })).toEqual(
      new Set(['orderName']),
    )
  })

  it('reports a rule and unrelated errors together', () => {
    expect(failingPaths({ orderName: x(256), successUrl: 'nope' })).toEqual(
      new Set(['amount', 'lineItems', 'orderName', 'successUrl']),
    )
  })

  it('never throws on cyclic input, throwing getters or bigints', () => {
    const cyclic: Json = { sku: 'A', quantity: 1 }
    cyclic['product'] = cyclic
    expect(failingPaths({ lineItems: [cyclic] })).toContain('lineItems[0].sku')
    const root: Json = { amount: 1 }
    root['self'] = root
    expect(E.isRight(decode(root))).toBe(true)
    const throwing = Object.defineProperty({}, 'amount', {
      enumerable: true,
      get: () => {
        throw new Error('boom')
      },
    })
    expect(decode(throwing)).toEqual(
      E.left([
        {
          path: '',
          message: 'could not be read (a property threw while it was read)',
          code: 'unreadable',
        },
      ]),
    )
    expect(failingPaths({ amount: 1n, expirationMinutes: 5n })).toEqual(
      new Set(['amount', 'expirationMinutes']),
    )
  })
})

describe('LineItem and Product on their own', () => {
  it('discriminate on sku/product and strip unknown fields', () => {
    expect(validate(LineItem)({ sku: 'A', quantity: 2, x: 1 })).toEqual(
      E.right({ sku: 'A', quantity: 2 }),
    )
    const p = rightOf(validate(Product)({ name: 'a', price: 1, y: 2 }))
    expect(Object.keys(p).sort()).toEqual(['name', 'price', 'requiresShipping'])
    expect(LineItem.is({ sku: 'A', quantity: 1 })).toBe(true)
    expect(LineItem.is({ sku: 'A', product: p, quantity: 1 })).toBe(false)
    expect(PaymentLinkRequest.is({ orderName: 'a', expirationMinutes: 1 })).toBe(false)
  })
})

// -------------------------------------------------------------------------------------
// PaymentLinkResponse
// -------------------------------------------------------------------------------------

describe('PaymentLinkResponse', () => {
  const sample = {
    orderCode: 'PL-7F3A9C',
    orderId: 1024,
    paymentLinkUrl: 'https://pay.example.com/PL-7F3A9C',
  }

  it('decodes the spec 2.7 shape and tolerates extra fields', () => {
    expect(validate(PaymentLinkResponse)(sample)).toEqual(E.right(sample))
    const extra = { ...sample, expiresAt: '2026-11-23T00:00:00.000Z' }
    expect(validate(PaymentLinkResponse)(extra)).toEqual(E.right(extra))
  })

  it('names the bad field', () => {
    expect(paths(validate(PaymentLinkResponse)({ ...sample, orderId: 1.5 }))).toEqual(
      new Set(['orderId']),
    )
    expect(paths(validate(PaymentLinkResponse)({ ...sample, orderId: '1024' }))).toEqual(
      new Set(['orderId']),
    )
    const { orderCode: _c, ...noCode } = sample
    expect(paths(validate(PaymentLinkResponse)(noCode))).toEqual(new Set(['orderCode']))
    expect(paths(validate(PaymentLinkResponse)({ ...sample, paymentLinkUrl: null }))).toEqual(
      new Set(['paymentLinkUrl']),
    )
  })

  test.prop([fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 })])(
    'tolerates any extra members',
    (extra) => {
      const input = { ...extra, ...sample }
      expect(E.isRight(validate(PaymentLinkResponse)(input))).toBe(true)
    },
  )
})

// -------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------

const MAX_CENTS = 100_000_000_000n // prices up to 10^9 with 2 decimals
const cents = fc.bigInt({ min: 0n, max: MAX_CENTS })
const quantity = fc.integer({ min: 1, max: 1_000_000 })
const fromCentsNumber = (c: bigint): number => Number(c) / 100
const nonBlank = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim().length > 0)

const productJson = fc.record(
  {
    name: nonBlank,
    price: cents.map(fromCentsNumber),
    imageUrl: fc.string({ maxLength: 512 }),
    requiresShipping: fc.boolean(),
  },
  { requiredKeys: ['name', 'price'] },
)
const lineItemJson = fc.oneof(
  fc.record({ sku: nonBlank, quantity }),
  fc.record({ product: productJson, quantity }),
)
const metadataJson = fc.record({ name: fc.string(), value: fc.string() })

const optionalFields = {
  orderReference: fc.string({ maxLength: 255 }),
  orderName: fc.string({ maxLength: 255 }),
  orderDescription: fc.option(fc.string({ maxLength: 2048 }), { nil: null }),
  successUrl: fc.webUrl(),
  cancelUrl: fc.webUrl(),
  locationCode: fc.string(),
  metadata: fc.array(metadataJson, { maxLength: 3 }),
  expirationMinutes: fc.integer({ min: 1, max: 1_000_000 }),
}

/** Valid requests, with amount, line items or both. */
const requestJson: fc.Arbitrary<Json> = fc
  .record(
    {
      ...optionalFields,
      amount: fc.bigInt({ min: 1n, max: MAX_CENTS }).map(fromCentsNumber),
      lineItems: fc.array(lineItemJson, { minLength: 1, maxLength: 5 }),
    },
    { requiredKeys: [] },
  )
  .filter((r) => r.amount !== undefined || r.lineItems !== undefined)

/** Valid requests that have line items (so that an item can be broken). */
const requestWithItemsJson: fc.Arbitrary<Json> = fc.record(
  {
    ...optionalFields,
    amount: fc.bigInt({ min: 1n, max: MAX_CENTS }).map(fromCentsNumber),
    lineItems: fc.array(lineItemJson, { minLength: 1, maxLength: 5 }),
  },
  { requiredKeys: ['lineItems'] },
)

/** One way to break a valid request: the broken request and the paths that must fail. */
type Breaker = (r: Json, i: number) => readonly [Json, ReadonlyArray<string>]

const withItem = (r: Json, i: number, item: unknown): Json => {
  const lineItems = [...(r['lineItems'] as ReadonlyArray<unknown>)]
  lineItems[i] = item
  return { ...r, lineItems }
}
const itemAt = (r: Json, i: number): Json => (r['lineItems'] as ReadonlyArray<Json>)[i] ?? {}
const li = (i: number, rest: string): string => `lineItems[${i}]${rest}`

const breakers: ReadonlyArray<readonly [string, Breaker]> = [
  [
    'neither amount nor lineItems',
    (r) => {
      const { amount: _a, lineItems: _l, ...rest } = r
      return [rest, ['amount', 'lineItems']]
    },
  ],
  ['amount 0', (r) => [{ ...r, amount: 0 }, ['amount']]],
  ['amount negative', (r) => [{ ...r, amount: -0.01 }, ['amount']]],
  ['amount a string', (r) => [{ ...r, amount: '1' }, ['amount']]],
  ['lineItems empty', (r) => [{ ...r, lineItems: [] }, ['lineItems']]],
  [
    'item with neither sku nor product',
    (r, i) => [
      withItem(r, i, { quantity: itemAt(r, i)['quantity'] }),
      [li(i, '.sku'), li(i, '.product')],
    ],
  ],
  [
    'item with both sku and product',
    (r, i) => [withItem(r, i, { sku: 'A', product, quantity: 1 }), [li(i, '.sku')]],
  ],
  [
    'item quantity 0',
    (r, i) => [withItem(r, i, { ...itemAt(r, i), quantity: 0 }), [li(i, '.quantity')]],
  ],
  [
    'item quantity 1.5',
    (r, i) => [withItem(r, i, { ...itemAt(r, i), quantity: 1.5 }), [li(i, '.quantity')]],
  ],
  ['item sku blank', (r, i) => [withItem(r, i, { sku: '', quantity: 1 }), [li(i, '.sku')]]],
  [
    'product name missing',
    (r, i) => [withItem(r, i, { product: { price: 1 }, quantity: 1 }), [li(i, '.product.name')]],
  ],
  [
    'product price negative',
    (r, i) => [
      withItem(r, i, { product: { ...product, price: -1 }, quantity: 1 }),
      [li(i, '.product.price')],
    ],
  ],
  [
    'product imageUrl too long',
    (r, i) => [
      withItem(r, i, { product: { ...product, imageUrl: x(513) }, quantity: 1 }),
      [li(i, '.product.imageUrl')],
    ],
  ],
  ['orderReference too long', (r) => [{ ...r, orderReference: x(256) }, ['orderReference']]],
  ['orderName too long', (r) => [{ ...r, orderName: x(256) }, ['orderName']]],
  ['orderDescription too long', (r) => [{ ...r, orderDescription: x(2049) }, ['orderDescription']]],
  ['metadata name missing', (r) => [{ ...r, metadata: [{ value: 'v' }] }, ['metadata[0].name']]],
  ['metadata value missing', (r) => [{ ...r, metadata: [{ name: 'n' }] }, ['metadata[0].value']]],
  ['expirationMinutes 0', (r) => [{ ...r, expirationMinutes: 0 }, ['expirationMinutes']]],
  ['successUrl relative', (r) => [{ ...r, successUrl: 'ok.html' }, ['successUrl']]],
  ['cancelUrl not http(s)', (r) => [{ ...r, cancelUrl: 'mailto:a@example.com' }, ['cancelUrl']]],
  ['locationCode not a string', (r) => [{ ...r, locationCode: 1 }, ['locationCode']]],
]

const KNOWN = new Set([
  'orderReference',
  'orderName',
  'orderDescription',
  'amount',
  'lineItems',
  'successUrl',
  'cancelUrl',
  'locationCode',
  'metadata',
  'expirationMinutes',
])

describe('PaymentLinkRequest properties', () => {
  test.prop([requestJson])(
    'valid requests decode, and decode . encode . decode = decode',
    (json) => {
      const first = rightOf(decode(json))
      const encoded = JSON.parse(JSON.stringify(PaymentLinkRequest.encode(first))) as unknown
      const second = rightOf(decode(encoded))
      expect(same(second, first)).toBe(true)
      expect(PaymentLinkRequest.is(first)).toBe(true)
    },
  )

  test.prop([requestWithItemsJson, fc.nat(), fc.constantFrom(...breakers)])(
    'a request broken in exactly one way fails naming that field, and no other',
    (json, n, [_name, brk]) => {
      const i = n % (json['lineItems'] as ReadonlyArray<unknown>).length
      const [broken, expected] = brk(json, i)
      expect(failingPaths(broken)).toEqual(new Set(expected))
    },
  )

  test.prop([requestJson, fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 })])(
    'unknown fields are stripped from requests',
    (json, extra) => {
      const unknown = Object.fromEntries(Object.entries(extra).filter(([k]) => !KNOWN.has(k)))
      const r = rightOf(decode({ ...unknown, ...json }))
      for (const k of Object.keys(r)) expect(KNOWN.has(k), k).toBe(true)
      expect(same(r, rightOf(decode(json)))).toBe(true)
    },
  )

  test.prop([fc.anything()])(
    'validate never throws on anything; every error has a string path',
    (u) => {
      const r = decode(u)
      if (E.isLeft(r)) {
        expect(r.left.length).toBeGreaterThan(0)
        for (const e of r.left) {
          expect(typeof e.path).toBe('string')
          expect(typeof e.message).toBe('string')
        }
      }
    },
  )

  test.prop([fc.json()])(
    'validate never throws on any JSON text parsed; every error has a string path',
    (text) => {
      const r = decode(JSON.parse(text))
      if (E.isLeft(r)) for (const e of r.left) expect(typeof e.path).toBe('string')
    },
  )

  test.prop([
    fc.record(
      { amount: fc.anything(), lineItems: fc.array(fc.anything(), { maxLength: 3 }) },
      { requiredKeys: [] },
    ),
  ])('validate never throws on near-misses; every Left names a path', (u) => {
    const r = decode(u)
    if (E.isLeft(r)) for (const e of r.left) expect(typeof e.path).toBe('string')
  })
})

// -------------------------------------------------------------------------------------
// money
// -------------------------------------------------------------------------------------

/** Independent oracle: integer cents in BigInt, formatted as a 2-decimal string. */
const centsToString = (c: bigint): string => {
  const s = c.toString().padStart(3, '0')
  return `${s.slice(0, -2)}.${s.slice(-2)}`
}

describe('line-item money', () => {
  it('computes a subtotal as price x quantity, exactly', () => {
    const price = rightOf(validate(Product)({ name: 'a', price: 0.1 })).price
    expect(Money.toString(pipe(price, Money.multiply(3)))).toBe('0.3')
    const item = rightOf(validate(LineItem)({ product: { name: 'a', price: 0.1 }, quantity: 3 }))
    expect(
      pipe(
        item,
        lineItemSubtotal(noCatalogue),
        O.map((m) => Money.toString(m)),
      ),
    ).toEqual(O.some('0.3'))
  })

  it('prices sku items through the lookup, and names an unknown sku', () => {
    const prices = catalogue(new Map([['MUG-01', Money.fromCents(850n)]]))
    const r = rightOf(
      decode({
        lineItems: [
          { sku: 'MUG-01', quantity: 2 },
          { product: { name: 'Shirt', price: 19.99 }, quantity: 1 },
          { sku: 'NOPE', quantity: 1 },
        ],
      }),
    )
    const known = (r.lineItems ?? []).slice(0, 2)
    expect(
      pipe(
        known,
        lineItemsTotal(prices),
        E.map((m) => Money.toString(m, 2)),
      ),
    ).toEqual(E.right('36.99'))
    expect(lineItemsTotal(prices)(r.lineItems ?? [])).toEqual(
      E.left([
        {
          path: 'lineItems[2].sku',
          message: 'is not a product of the catalogue',
          code: 'notInCatalogue',
        },
      ]),
    )
    expect(lineItemsTotal(noCatalogue)(known)).toEqual(
      E.left([
        {
          path: 'lineItems[0].sku',
          message: 'is not a product of the catalogue',
          code: 'notInCatalogue',
        },
      ]),
    )
    const first = known[0]
    expect(first !== undefined && isSkuLineItem(first)).toBe(true)
  })

  it('takes the order total from amount, line items, or both when they agree', () => {
    const total = (input: unknown) =>
      pipe(
        rightOf(decode(input)),
        orderTotal(noCatalogue),
        E.map((m) => Money.toString(m, 2)),
      )
    expect(total({ amount: 12.5 })).toEqual(E.right('12.50'))
    expect(total({ lineItems: [{ product, quantity: 3 }] })).toEqual(E.right('59.97'))
    expect(total({ amount: 59.97, lineItems: [{ product, quantity: 3 }] })).toEqual(
      E.right('59.97'),
    )
    expect(total({ amount: 60, lineItems: [{ product, quantity: 3 }] })).toEqual(
      E.left([
        {
          path: 'amount',
          message: 'must equal the line-item total (59.97)',
          code: 'mismatch',
          total: '59.97',
        },
      ]),
    )
    expect(orderTotal(noCatalogue)({ orderName: 'a', expirationMinutes: 1 })).toEqual(
      E.left([
        {
          path: 'amount',
          message: 'amount or lineItems is required (give at least one)',
          code: 'atLeastOne',
          fields: ['amount', 'lineItems'],
        },
        {
          path: 'lineItems',
          message: 'amount or lineItems is required (give at least one)',
          code: 'atLeastOne',
          fields: ['amount', 'lineItems'],
        },
      ]),
    )
  })

  test.prop([fc.array(fc.tuple(cents, quantity), { minLength: 1, maxLength: 30 })])(
    'the line-item total is exact: against an integer-cents BigInt oracle (10^9 prices, 10^6 quantities)',
    (lines) => {
      const r = rightOf(
        decode({
          lineItems: lines.map(([c, q]) => ({
            product: { name: 'p', price: fromCentsNumber(c) },
            quantity: q,
          })),
        }),
      )
      const oracle = lines.reduce((acc, [c, q]) => acc + c * BigInt(q), 0n)
      const total = lineItemsTotal(noCatalogue)(r.lineItems ?? [])
      expect(
        pipe(
          total,
          E.map((m) => Money.toString(m, 2)),
        ),
      ).toEqual(E.right(centsToString(oracle)))
      // Each subtotal is exact too.
      ;(r.lineItems ?? []).forEach((item, i) => {
        const [c, q] = lines[i] ?? [0n, 0]
        expect(
          pipe(
            item,
            lineItemSubtotal(noCatalogue),
            O.map((m) => Money.toString(m, 2)),
          ),
        ).toEqual(O.some(centsToString(c * BigInt(q))))
      })
    },
  )

  test.prop([fc.array(fc.tuple(cents, quantity), { minLength: 1, maxLength: 10 })])(
    'sku items priced by a catalogue total exactly as well',
    (lines) => {
      const prices = catalogue(new Map(lines.map(([c], i) => [`SKU-${i}`, Money.fromCents(c)])))
      const r = rightOf(
        decode({ lineItems: lines.map(([, q], i) => ({ sku: `SKU-${i}`, quantity: q })) }),
      )
      const oracle = lines.reduce((acc, [c, q]) => acc + c * BigInt(q), 0n)
      expect(
        pipe(
          r.lineItems ?? [],
          lineItemsTotal(prices),
          E.map((m) => Money.toString(m, 2)),
        ),
      ).toEqual(E.right(centsToString(oracle)))
    },
  )
})

describe('amount with lineItems: amount must equal the line-item total (docs/service.md)', () => {
  const prices = catalogue(new Map([['MUG', Money.fromCents(850)]]))
  const mug = { sku: 'MUG', quantity: 2 }
  const shirts = { product, quantity: 3 } // 59.97

  it('checkAmountAgainst(noCatalogue): one-time products, Left at amount when they differ', () => {
    const check = (input: unknown) => pipe(decode(input), E.chain(checkAmountAgainst(noCatalogue)))
    expect(E.isRight(check({ amount: 59.97, lineItems: [shirts] }))).toBe(true)
    expect(check({ amount: 60, lineItems: [shirts] })).toEqual(
      E.left([
        {
          path: 'amount',
          message: 'must equal the line-item total (59.97)',
          code: 'mismatch',
          total: '59.97',
        },
      ]),
    )
    // amount alone, line items alone: nothing to compare
    expect(E.isRight(check({ amount: 60 }))).toBe(true)
    expect(E.isRight(check({ lineItems: [shirts] }))).toBe(true)
    // an unknown sku leaves the total to the service
    expect(E.isRight(check({ amount: 1, lineItems: [shirts, mug] }))).toBe(true)
  })

  it('checkAmountAgainst(lookup) prices skus too, exactly (0.1 x 3 = 0.3)', () => {
    const check = (input: unknown) => pipe(decode(input), E.chain(checkAmountAgainst(prices)))
    expect(E.isRight(check({ amount: 76.97, lineItems: [shirts, mug] }))).toBe(true)
    expect(E.isLeft(check({ amount: 17.01, lineItems: [mug] }))).toBe(true)
    const tenth = { product: { name: 'p', price: 0.1 }, quantity: 3 }
    expect(E.isRight(check({ amount: 0.3, lineItems: [tenth] }))).toBe(true)
  })

  it('paymentLinkRequestFor(lookup): the service rules, each at its field', () => {
    const v = validate(paymentLinkRequestFor(prices))
    expect(E.isRight(v({ amount: 17, lineItems: [mug] }))).toBe(true)
    expect(v({ amount: 17.5, lineItems: [mug] })).toEqual(
      E.left([
        {
          path: 'amount',
          message: 'must equal the line-item total (17)',
          code: 'mismatch',
          total: '17',
        },
      ]),
    )
    expect(v({ amount: 60, lineItems: [shirts] })).toEqual(
      E.left([
        {
          path: 'amount',
          message: 'must equal the line-item total (59.97)',
          code: 'mismatch',
          total: '59.97',
        },
      ]),
    )
    expect(v({ lineItems: [mug, { sku: 'NOPE', quantity: 1 }] })).toEqual(
      E.left([
        {
          path: 'lineItems[1].sku',
          message: 'is not a product of the catalogue',
          code: 'notInCatalogue',
        },
      ]),
    )
    // the request's own errors come first, with their paths (no branch index)
    expect(paths(v({ amount: 60, lineItems: [{ ...shirts, quantity: 0 }] }))).toEqual(
      new Set(['lineItems[0].quantity']),
    )
    expect(paths(v([1, 2]))).toEqual(new Set(['']))
    expect(E.map((r: PaymentLinkRequest) => r.orderName)(v({ amount: 1 }))).toEqual(
      E.right(defaultOrderName),
    )
  })

  test.prop(
    [
      fc.array(fc.tuple(cents, quantity), { minLength: 1, maxLength: 5 }),
      fc.bigInt({ min: -500n, max: 500n }),
    ],
    { seed: 817800999 },
  )('paymentLinkRequestFor and orderTotal agree on every amount', (lines, delta) => {
    const lineItems = lines.map(([c, q]) => ({
      product: { name: 'p', price: fromCentsNumber(c) },
      quantity: q,
    }))
    const total = lines.reduce((sum, [c, q]) => sum + c * BigInt(q), 0n)
    const amount = total + delta
    // A JSON number carries 15 significant digits exactly; past that the cent itself is lost
    // before any rule sees it (79956484051 cents x 93781 + 1 cent read as the total).
    fc.pre(amount > 0n && amount < 10n ** 15n)
    const input = { amount: fromCentsNumber(amount), lineItems }
    const viaCodec = validate(paymentLinkRequestFor(noCatalogue))(input)
    const viaTotal = pipe(decode(input), E.chain(orderTotal(noCatalogue)))
    const viaCheck = pipe(decode(input), E.chain(checkAmountAgainst(noCatalogue)))
    expect(E.isRight(viaCodec)).toBe(delta === 0n)
    expect(E.isRight(viaTotal)).toBe(delta === 0n)
    expect(E.isRight(viaCheck)).toBe(delta === 0n)
    if (E.isLeft(viaCodec)) expect(viaCodec.left).toEqual(E.isLeft(viaTotal) && viaTotal.left)
  })
})
