import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { FAIL, fastDecoderOf } from '../../src/internal/fastDecode.js'
import { validate, type FieldError } from '../../src/model/FieldError.js'
import * as Money from '../../src/model/Money.js'
import {
  Buyer,
  Locale,
  OrderDetails,
  OrderLineItem,
  OrderMetadata,
  Payment,
  Store,
  TimeZone,
  TotalDetails,
} from '../../src/model/Order.js'
import { orderStatuses } from '../../src/model/OrderStatus.js'
import { same, sandboxStore } from '../fixtures.js'

const paths = (r: E.Either<ReadonlyArray<FieldError>, unknown>): ReadonlyArray<string> =>
  E.isLeft(r) ? r.left.map((e) => e.path) : []

/** The spec 2.8 shape as the sandbox serves it for a PAID order. */
const paidOrder = {
  orderId: 1024,
  orderCode: 'PL-7F3A9C',
  orderReference: 'INV-001',
  name: 'PaymentLink Order',
  description: 'Two shirts and a catalogue mug',
  lineItems: [
    {
      productId: 1,
      sku: null,
      name: 'Shirt',
      price: 19.99,
      promoPrice: 19.99,
      quantity: 2,
      imageUrl: 'https://example.com/shirt.png',
      subTotal: 39.98,
    },
    {
      productId: 7,
      sku: 'MUG-01',
      name: 'Mug',
      price: 8.5,
      promoPrice: 8.5,
      quantity: 1,
      imageUrl: null,
      subTotal: 8.5,
    },
  ],
  orderStatus: 'PAID',
  subtotal: 48.48,
  totalDetails: { shippingAmount: 0, discountAmount: 0, surchargeAmount: 0 },
  total: 48.48,
  metadata: [{ name: 'channel', value: 'n8n' }],
  paymentLinkUrl: 'http://127.0.0.1:4010/checkout/PL-7F3A9C',
  successUrl: 'https://shop.example.com/ok',
  cancelUrl: 'https://shop.example.com/cancel',
  store: sandboxStore,
  payment: {
    authorizationCode: 'A12345',
    voucherUrl: 'http://127.0.0.1:4010/voucher/PL-7F3A9C',
    buyer: { name: 'Ana', phone: '+50688887777', email: 'ana@example.com' },
  },
  created: '2026-11-22T00:50:00.123Z',
}

/**
 * A PENDING order created without the optional fields (they read as null:
 * docs/service.md#amounts-countries-and-nulls).
 */
const pendingOrder = {
  ...paidOrder,
  orderStatus: 'PENDING',
  orderReference: null,
  description: null,
  successUrl: null,
  cancelUrl: null,
  payment: null,
  metadata: [],
}

describe('OrderDetails', () => {
  it('decodes the spec shape of a PAID order, money as exact Money', () => {
    const r = validate(OrderDetails)(paidOrder)
    expect(E.isRight(r)).toBe(true)
    if (E.isLeft(r)) return
    expect(Money.toString(r.right.total)).toBe('48.48')
    expect(Money.toString(r.right.lineItems[0]?.subTotal ?? Money.zero)).toBe('39.98')
    expect(r.right.payment?.buyer.email).toBe('ana@example.com')
  })

  it('decodes a PENDING order whose optional fields and payment are null', () => {
    const r = validate(OrderDetails)(pendingOrder)
    expect(E.isRight(r) && r.right.payment).toBe(null)
    expect(E.isRight(r) && r.right.orderReference).toBe(null)
  })

  it('tolerates unknown fields at every level', () => {
    const extra = {
      ...paidOrder,
      currency: 'USD',
      store: { ...paidOrder.store, phone: '1' },
      lineItems: paidOrder.lineItems.map((li) => ({ ...li, discount: 0 })),
      payment: { ...paidOrder.payment, cardBrand: 'VISA' },
    }
    expect(E.isRight(validate(OrderDetails)(extra))).toBe(true)
  })

  it('names each broken field, and no other', () => {
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [{ ...paidOrder, orderStatus: 'REFUNDED' }, 'orderStatus'],
      [{ ...paidOrder, orderId: 1.5 }, 'orderId'],
      [{ ...paidOrder, total: '48.48' }, 'total'],
      [{ ...paidOrder, created: '2026-11-22T00:50:00Z' }, 'created'],
      [{ ...paidOrder, created: '2026-11-22 00:50:00.123' }, 'created'],
      [{ ...paidOrder, store: { ...paidOrder.store, locale: 'es-CR' } }, 'store.locale'],
      [{ ...paidOrder, store: { ...paidOrder.store, locale: 'ES_cr' } }, 'store.locale'],
      [{ ...paidOrder, store: { ...paidOrder.store, timezone: 'CST' } }, 'store.timezone'],
      [
        { ...paidOrder, store: { ...paidOrder.store, timezone: 'america costa' } },
        'store.timezone',
      ],
      [{ ...paidOrder, name: null }, 'name'],
      [
        { ...paidOrder, payment: { ...paidOrder.payment, buyer: { name: 'A', email: 'a@b.c' } } },
        'payment.buyer.phone',
      ],
      [
        { ...paidOrder, lineItems: [{ ...paidOrder.lineItems[0], price: null }] },
        'lineItems[0].price',
      ],
      [
        { ...paidOrder, totalDetails: { ...paidOrder.totalDetails, discountAmount: undefined } },
        'totalDetails.discountAmount',
      ],
      [{ ...paidOrder, metadata: [{ name: 'a', value: 1 }] }, 'metadata[0].value'],
    ]
    for (const [input, path] of cases) {
      const found = paths(validate(OrderDetails)(input))
      expect(found.length, path).toBeGreaterThan(0)
      expect(new Set(found), path).toEqual(new Set([path]))
    }
  })

  it('reports a missing payment buyer field once, not as a union of every branch', () => {
    const r = validate(OrderDetails)({
      ...paidOrder,
      payment: { ...paidOrder.payment, buyer: { name: 'A', phone: '1' } },
    })
    expect(E.isLeft(r) && r.left).toEqual([
      { path: 'payment.buyer.email', message: 'is required', code: 'required' },
    ])
  })
})

describe('Locale and TimeZone', () => {
  it('accept the language_COUNTRY and IANA forms', () => {
    for (const l of ['es_CR', 'en_US', 'pt_BR', 'fil_PH']) expect(Locale.is(l), l).toBe(true)
    for (const l of ['es', 'es-CR', 'es_cr', 'ES_CR', 'es_CRI', ''])
      expect(Locale.is(l), l).toBe(false)
    for (const z of [
      'America/Costa_Rica',
      'UTC',
      'Europe/London',
      'America/Argentina/Buenos_Aires',
      'Etc/GMT+6',
      'America/Port-au-Prince',
    ])
      expect(TimeZone.is(z), z).toBe(true)
    for (const z of ['CST', 'America/', '/Costa_Rica', 'america costa', '+06:00', ''])
      expect(TimeZone.is(z), z).toBe(false)
  })
})

const money2 = fc
  .bigInt({ min: 0n, max: 100_000_000_000n })
  .map((cents) => Money.toNumber(Money.fromCents(cents)))
const nullableString = fc.option(fc.string(), { nil: null })
const lineItem = fc.record({
  productId: fc.integer({ min: 1, max: 1_000_000 }),
  sku: nullableString,
  name: fc.string(),
  price: money2,
  promoPrice: money2,
  quantity: fc.integer({ min: 1, max: 1_000_000 }),
  imageUrl: nullableString,
  subTotal: money2,
})
const orderJson = fc.record({
  orderId: fc.integer({ min: 1 }),
  orderCode: fc.string(),
  orderReference: nullableString,
  name: fc.string(),
  description: nullableString,
  lineItems: fc.array(lineItem, { maxLength: 5 }),
  orderStatus: fc.constantFrom(...orderStatuses),
  subtotal: money2,
  totalDetails: fc.record({
    shippingAmount: money2,
    discountAmount: money2,
    surchargeAmount: money2,
  }),
  total: money2,
  metadata: fc.array(fc.record({ name: fc.string(), value: fc.string() }), { maxLength: 3 }),
  paymentLinkUrl: fc.webUrl(),
  successUrl: fc.option(fc.webUrl(), { nil: null }),
  cancelUrl: fc.option(fc.webUrl(), { nil: null }),
  store: fc.record({
    name: fc.string(),
    countryCode: fc.string(),
    currencyCode: fc.string(),
    currencySymbol: fc.string(),
    locale: fc.constantFrom('es_CR', 'en_US', 'pt_BR'),
    timezone: fc.constantFrom('America/Costa_Rica', 'UTC', 'Europe/Madrid'),
  }),
  payment: fc.option(
    fc.record({
      authorizationCode: fc.string(),
      voucherUrl: fc.webUrl(),
      buyer: fc.record({ name: fc.string(), phone: fc.string(), email: fc.string() }),
    }),
    { nil: null },
  ),
  created: fc
    .date({
      min: new Date('2000-01-01T00:00:00.000Z'),
      max: new Date('2099-12-31T23:59:59.999Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString()),
})

describe('OrderDetails properties', () => {
  test.prop([orderJson])('valid orders decode, and decode . encode . decode = decode', (json) => {
    const first = validate(OrderDetails)(json)
    expect(E.isRight(first)).toBe(true)
    if (E.isLeft(first)) return
    const encoded = JSON.parse(JSON.stringify(OrderDetails.encode(first.right))) as unknown
    const second = validate(OrderDetails)(encoded)
    expect(E.isRight(second) && same(second.right, first.right)).toBe(true)
  })

  test.prop([fc.json()])(
    'validate never throws on any JSON; every error has a string path',
    (text) => {
      const r = validate(OrderDetails)(JSON.parse(text))
      if (E.isLeft(r)) for (const e of r.left) expect(typeof e.path).toBe('string')
    },
  )

  test.prop([fc.anything()])('validate never throws and every error has a string path', (u) => {
    const r = validate(OrderDetails)(u)
    if (E.isLeft(r)) for (const e of r.left) expect(typeof e.path).toBe('string')
  })
})

// -------------------------------------------------------------------------------------
// the fast forms: exactly what io-ts's decode gives
// -------------------------------------------------------------------------------------

const orderCodecs: ReadonlyArray<readonly [string, t.Decoder<unknown, unknown>]> = [
  ['OrderDetails', OrderDetails],
  ['OrderLineItem', OrderLineItem],
  ['TotalDetails', TotalDetails],
  ['Store', Store],
  ['Buyer', Buyer],
  ['Payment', Payment],
  ['OrderMetadata', OrderMetadata],
] as unknown as ReadonlyArray<readonly [string, t.Decoder<unknown, unknown>]>

/** The same value as io-ts's, member for member, in the same key order, with the same prototype. */
const agrees = (codec: t.Decoder<unknown, unknown>, u: unknown): void => {
  const fast = fastDecoderOf(codec)(u)
  const slow = codec.decode(u)
  if (E.isLeft(slow)) {
    expect(fast).toBe(FAIL)
    return
  }
  expect(fast).not.toBe(FAIL)
  expect(fast).toStrictEqual(slow.right)
  expect(JSON.stringify(fast)).toBe(JSON.stringify(slow.right))
  expect(fast === u).toBe(slow.right === u)
  if (typeof fast === 'object' && fast !== null)
    expect(Object.getPrototypeOf(fast)).toBe(Object.getPrototypeOf(slow.right))
}

/** Every record of an order, for the codec of each. */
const partsOf = (
  order: Record<string, unknown>,
): ReadonlyArray<readonly [t.Decoder<unknown, unknown>, unknown]> => {
  const parts: Array<readonly [t.Decoder<unknown, unknown>, unknown]> = [
    [OrderDetails as unknown as t.Decoder<unknown, unknown>, order],
    [TotalDetails as unknown as t.Decoder<unknown, unknown>, order['totalDetails']],
    [Store as unknown as t.Decoder<unknown, unknown>, order['store']],
    [Payment as unknown as t.Decoder<unknown, unknown>, order['payment']],
  ]
  const payment = order['payment'] as { buyer?: unknown } | null | undefined
  if (payment !== null && typeof payment === 'object')
    parts.push([Buyer as unknown as t.Decoder<unknown, unknown>, payment.buyer])
  const { lineItems, metadata } = order
  if (Array.isArray(lineItems))
    for (const item of lineItems as ReadonlyArray<unknown>)
      parts.push([OrderLineItem as unknown as t.Decoder<unknown, unknown>, item])
  if (Array.isArray(metadata))
    for (const entry of metadata as ReadonlyArray<unknown>)
      parts.push([OrderMetadata as unknown as t.Decoder<unknown, unknown>, entry])
  return parts
}

/** A value with one member changed, removed, given as undefined or null, or added, at any depth. */
const mutated = (value: unknown): fc.Arbitrary<unknown> => {
  if (value === null || typeof value !== 'object')
    return fc.oneof(fc.constant(value), fc.jsonValue())
  const entries = Object.entries(value as Record<string, unknown>)
  if (entries.length === 0) return fc.oneof(fc.constant(value), fc.jsonValue())
  return fc.nat({ max: entries.length - 1 }).chain((i) => {
    const [key, member] = entries[i] as [string, unknown]
    const patched = (patch: Record<string, unknown>): unknown =>
      Array.isArray(value)
        ? Object.assign([...(value as Array<unknown>)], patch)
        : { ...(value as Record<string, unknown>), ...patch }
    return fc.oneof(
      mutated(member).map((m) => patched({ [key]: m })),
      fc.constant(patched({ [key]: undefined })),
      fc.constant(patched({ [key]: null })),
      fc.constant(Object.fromEntries(entries.filter(([k]) => k !== key))),
      fc.jsonValue().map((j) => patched({ [`x${key}`]: j })),
    )
  })
}

const isoDate = fc
  .date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z') })
  .filter((d) => !Number.isNaN(d.getTime()))
  .map((d) => d.toISOString())

/** Where each field of a date-time starts, and values at the edges of its range. */
const edges: ReadonlyArray<readonly [number, ReadonlyArray<number>]> = [
  [5, [0, 1, 12, 13, 99]], // month
  [8, [0, 1, 28, 29, 30, 31, 32]], // day
  [11, [0, 23, 24]], // hour
  [14, [0, 59, 60, 99]], // minute
  [17, [0, 59, 60, 99]], // second
]

/** A date-time as `toISOString` writes it with one field at an edge (24:00:00.000 too). */
const edgeDate = fc
  .tuple(isoDate, fc.constantFrom(...edges), fc.nat(), fc.boolean())
  .map(([iso, [at, values], pick, midnight]) => {
    const value = values[pick % values.length] ?? 0
    const s = iso.slice(0, at) + String(value).padStart(2, '0') + iso.slice(at + 2)
    return at === 11 && value === 24 && midnight ? `${s.slice(0, 14)}00:00.000Z` : s
  })

/** A date-time with a fraction of 1 to 9 digits, or a stray character. */
const oddDate = fc
  .tuple(
    isoDate,
    fc.integer({ min: 1, max: 9 }),
    fc.option(fc.tuple(fc.nat(24), fc.constantFrom('-', 'T', ':', '.', 'Z', ' ', 'x', '1'))),
  )
  .map(([iso, digits, stray]) => {
    const s = `${iso.slice(0, 20)}${`${iso.slice(20, 23)}456789`.slice(0, digits)}Z`
    return stray === null ? s : s.slice(0, stray[0]) + stray[1] + s.slice(stray[0] + 1)
  })

const created = fc.oneof(isoDate, edgeDate, oddDate)

describe("the Order codecs' fast forms agree with decode", () => {
  it.each(orderCodecs)('%s, on the samples', (_, codec) => {
    for (const u of [paidOrder, pendingOrder, ...partsOf(paidOrder).map(([, part]) => part)])
      agrees(codec, u)
  })

  test.prop([orderJson])('on valid orders and each of their records', (order) => {
    for (const [codec, part] of partsOf(order)) agrees(codec, part)
    agrees(
      OrderDetails as unknown as t.Decoder<unknown, unknown>,
      JSON.parse(JSON.stringify(order)),
    )
  })

  test.prop([orderJson.chain((order) => mutated(order))])(
    'on orders with one member changed at any depth',
    (u) => {
      for (const [, codec] of orderCodecs) agrees(codec, u)
      if (u !== null && typeof u === 'object')
        for (const [codec, part] of partsOf(u as Record<string, unknown>)) agrees(codec, part)
    },
  )

  test.prop([orderJson, created], { numRuns: 1000 })('on any created date-time', (order, at) => {
    agrees(OrderDetails as unknown as t.Decoder<unknown, unknown>, { ...order, created: at })
  })

  test.prop([fc.anything()])('on any value', (u) => {
    for (const [, codec] of orderCodecs) agrees(codec, u)
  })

  it('on amounts given as Money, and records not made like JSON', () => {
    const item = paidOrder.lineItems[0] as Record<string, unknown>
    const asMoney = {
      ...paidOrder,
      subtotal: Money.fromCents(4848n),
      total: Money.fromCents(4848n),
      lineItems: [
        {
          ...item,
          price: Money.fromCents(1999n),
          promoPrice: Money.fromCents(1999n),
          subTotal: Money.fromCents(3998n),
        },
      ],
      totalDetails: {
        shippingAmount: Money.zero,
        discountAmount: Money.zero,
        surchargeAmount: Money.zero,
      },
    }
    class Row {
      readonly kind = 'row'
    }
    const shapes: ReadonlyArray<unknown> = [
      asMoney,
      { ...asMoney, total: 48.48 },
      JSON.parse(JSON.stringify({ ...paidOrder, extra: 1 }).replace('"extra"', '"__proto__"')),
      JSON.parse('{"__proto__":{"x":1},' + JSON.stringify(item).slice(1)),
      JSON.parse('{"__proto__":null,' + JSON.stringify(paidOrder.totalDetails).slice(1)),
      Object.assign(Object.create(null) as object, paidOrder),
      Object.assign(new Row(), paidOrder),
      Object.create(paidOrder) as unknown,
      Object.create(item) as unknown,
      { ...paidOrder, [Symbol('s')]: 1 },
      { ...paidOrder, 7: 'seven' },
      { ...paidOrder, total: -0 },
      { ...paidOrder, total: Number.NaN },
      { ...paidOrder, lineItems: [...paidOrder.lineItems, undefined] },
      Object.defineProperty({ ...paidOrder }, 'total', { value: 1, enumerable: false }),
    ]
    for (const u of shapes) {
      for (const [, codec] of orderCodecs) agrees(codec, u)
      if (u !== null && typeof u === 'object')
        for (const [codec, part] of partsOf(u as Record<string, unknown>)) agrees(codec, part)
    }
  })
})

describe('Locale and TimeZone read as their regular expressions', () => {
  const LOCALE = /^[a-z]{2,3}_[A-Z]{2}$/
  const TIMEZONE = /^(?:UTC|GMT|[A-Z][A-Za-z_-]*(?:\/[A-Za-z0-9_+-]+)+)$/
  const near = fc
    .array(
      fc.constantFrom(
        ...'azAZmM_-+/09 \n`{@[é'.split(''),
        'UTC',
        'GMT',
        'es',
        'CR',
        'America',
        '/Costa_Rica',
      ),
      { maxLength: 8 },
    )
    .map((parts) => parts.join(''))
  test.prop([fc.oneof(near, fc.string())])('on any string', (s) => {
    expect(Locale.is(s)).toBe(LOCALE.test(s))
    expect(TimeZone.is(s)).toBe(TIMEZONE.test(s))
  })
})
