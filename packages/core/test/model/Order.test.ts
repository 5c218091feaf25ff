import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { validate, type FieldError } from '../../src/model/FieldError.js'
import * as Money from '../../src/model/Money.js'
import { Locale, OrderDetails, TimeZone } from '../../src/model/Order.js'
import { orderStatuses } from '../../src/machines/OrderStatus.js'
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

/** A PENDING order created without the optional fields (DESIGN.md: they read as null). */
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
    expect(E.isLeft(r) && r.left).toEqual([{ path: 'payment.buyer.email', message: 'is required' }])
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
