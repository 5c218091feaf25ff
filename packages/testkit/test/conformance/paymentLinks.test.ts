// Conformance (black box, the built CLI over HTTP): POST /paymentlink/checkout (spec 2.6,
// 2.7, 7.2, 8), GET /paymentlink/order/{code} (2.8) and the sandbox's
// payment-link choices (docs/service.md#where-the-service-is-silent-what-paykit-chose).
import { describe, expect, it } from 'vitest'
import {
  call,
  credentials,
  expectFieldError,
  expectProblem,
  expectedStore,
  isoMillisZ,
  useCli,
} from './support.js'

const cli = useCli()

const key = credentials.apiKey
const create = (body: unknown) =>
  call(cli.url, 'POST', '/paymentlink/checkout', { bearer: key, body })
const read = (code: string) => call(cli.url, 'GET', `/paymentlink/order/${code}`, { bearer: key })
const product = (price: number, extra: Record<string, unknown> = {}) => ({
  product: { name: 'Widget', price, ...extra },
  quantity: 1,
})
// A sku of the sandbox's default catalogue (its README's `defaultProducts`).
const sku = 'MUG-LOGO'

describe('creation rules -> 400 naming the field', () => {
  const cases: ReadonlyArray<readonly [string, unknown, string | RegExp]> = [
    ['neither amount nor lineItems', { orderName: 'x' }, /^(amount|lineItems)$/],
    ['empty lineItems', { lineItems: [] }, 'lineItems'],
    ['empty lineItems, even with an amount', { amount: 10, lineItems: [] }, /^(lineItems|amount)$/],
    ['amount 0', { amount: 0 }, 'amount'],
    ['amount negative', { amount: -5 }, 'amount'],
    ['amount a string', { amount: 'ten' }, 'amount'],
    ['amount null, no lineItems', { amount: null }, /^(amount|lineItems)$/],
    ['lineItems not an array', { lineItems: { sku } }, 'lineItems'],
    ['line item with neither sku nor product', { lineItems: [{ quantity: 1 }] }, /^lineItems\[0\]/],
    [
      'line item with both sku and product',
      { lineItems: [{ sku, product: { name: 'W', price: 1 }, quantity: 1 }] },
      /^lineItems\[0\]/,
    ],
    ['quantity missing', { lineItems: [{ sku }] }, 'lineItems[0].quantity'],
    ['quantity 0', { lineItems: [{ sku, quantity: 0 }] }, 'lineItems[0].quantity'],
    ['quantity negative', { lineItems: [{ sku, quantity: -1 }] }, 'lineItems[0].quantity'],
    ['quantity fractional', { lineItems: [{ sku, quantity: 1.5 }] }, 'lineItems[0].quantity'],
    [
      'product.name missing (second item)',
      { lineItems: [product(1), { product: { price: 2 }, quantity: 1 }] },
      'lineItems[1].product.name',
    ],
    [
      'product.price missing',
      { lineItems: [{ product: { name: 'W' }, quantity: 1 }] },
      'lineItems[0].product.price',
    ],
    ['product.price negative', { lineItems: [product(-1)] }, 'lineItems[0].product.price'],
    [
      'product.imageUrl 513 characters',
      { lineItems: [product(1, { imageUrl: `https://e.com/${'a'.repeat(513 - 14)}` })] },
      'lineItems[0].product.imageUrl',
    ],
    [
      'product.requiresShipping not a boolean',
      { lineItems: [product(1, { requiresShipping: 'yes' })] },
      'lineItems[0].product.requiresShipping',
    ],
    [
      'orderReference 256 characters',
      { amount: 1, orderReference: 'r'.repeat(256) },
      'orderReference',
    ],
    ['orderName 256 characters', { amount: 1, orderName: 'n'.repeat(256) }, 'orderName'],
    [
      'orderDescription 2049 characters',
      { amount: 1, orderDescription: 'd'.repeat(2049) },
      'orderDescription',
    ],
    ['metadata entry without value', { amount: 1, metadata: [{ name: 'a' }] }, 'metadata[0].value'],
    [
      'metadata entry without name (second)',
      { amount: 1, metadata: [{ name: 'a', value: 'b' }, { value: 'c' }] },
      'metadata[1].name',
    ],
    [
      'metadata value a number',
      { amount: 1, metadata: [{ name: 'a', value: 3 }] },
      'metadata[0].value',
    ],
    ['metadata not an array', { amount: 1, metadata: { a: 'b' } }, 'metadata'],
    ['expirationMinutes 0', { amount: 1, expirationMinutes: 0 }, 'expirationMinutes'],
    ['expirationMinutes negative', { amount: 1, expirationMinutes: -10 }, 'expirationMinutes'],
    ['expirationMinutes fractional', { amount: 1, expirationMinutes: 2.5 }, 'expirationMinutes'],
    ['expirationMinutes a string', { amount: 1, expirationMinutes: '60' }, 'expirationMinutes'],
    ['successUrl not a URL', { amount: 1, successUrl: 'not a url' }, 'successUrl'],
    ['successUrl relative', { amount: 1, successUrl: '/thanks' }, 'successUrl'],
    ['cancelUrl not http(s)', { amount: 1, cancelUrl: 'ftp://example.com/x' }, 'cancelUrl'],
    ['locationCode not a string', { amount: 1, locationCode: 7 }, 'locationCode'],
    ['unknown sku', { lineItems: [{ sku: 'NO-SUCH-SKU', quantity: 1 }] }, 'lineItems[0].sku'],
    [
      'unknown sku at index 2',
      { lineItems: [{ sku, quantity: 1 }, product(2), { sku: 'NOPE', quantity: 2 }] },
      'lineItems[2].sku',
    ],
    [
      'amount differs from the line-item total',
      { amount: 10, lineItems: [product(9.99)] },
      'amount',
    ],
    [
      'amount differs from a sku total',
      { amount: 8.5, lineItems: [{ sku, quantity: 2 }] },
      'amount',
    ],
  ]
  it.each(cases)('%s', async (_, body, field) => {
    const res = await create(body)
    expectFieldError(res, field)
    expect(res.json.title.length).toBeGreaterThan(0)
  })

  it('a body that is not an object -> 400 problem details', async () => {
    const res = await create([1, 2])
    expectProblem(res, 400)
  })
})

describe('creation accepted (spec 2.7)', () => {
  const accepted: ReadonlyArray<readonly [string, unknown]> = [
    ['amount only', { amount: 10 }],
    ['amount with decimals', { amount: 0.01 }],
    ['a sku', { lineItems: [{ sku, quantity: 3 }] }],
    ['a one-time product', { lineItems: [product(5)] }],
    ['amount equal to the line-item total', { amount: 17, lineItems: [{ sku, quantity: 2 }] }],
    ['orderReference of 255', { amount: 1, orderReference: 'r'.repeat(255) }],
    ['orderName of 255', { amount: 1, orderName: 'n'.repeat(255) }],
    ['orderDescription of 2048', { amount: 1, orderDescription: 'd'.repeat(2048) }],
    [
      'imageUrl of 512',
      { lineItems: [product(1, { imageUrl: `https://e.com/${'a'.repeat(512 - 14)}` })] },
    ],
    [
      'every optional field',
      {
        orderReference: 'ref-1',
        orderName: 'Name',
        orderDescription: 'Desc',
        amount: 2,
        successUrl: 'https://shop.example/ok',
        cancelUrl: 'http://shop.example/cancel',
        locationCode: 'MAIN',
        metadata: [{ name: 'k', value: 'v' }],
        expirationMinutes: 30,
      },
    ],
  ]
  it.each(accepted)('%s -> 200 {orderCode, orderId integer, paymentLinkUrl}', async (_, body) => {
    const res = await create(body)
    expect(res.status).toBe(200)
    expect(res.json).toEqual({
      orderCode: expect.any(String),
      orderId: expect.any(Number),
      paymentLinkUrl: expect.any(String),
    })
    expect(Number.isInteger(res.json.orderId)).toBe(true)
    expect(new URL(res.json.paymentLinkUrl).origin).toBe(new URL(cli.url).origin)
  })

  it('each link gets its own orderCode and orderId', async () => {
    const a = await create({ amount: 1 })
    const b = await create({ amount: 1 })
    expect(a.json.orderCode).not.toBe(b.json.orderCode)
    expect(a.json.orderId).not.toBe(b.json.orderId)
  })
})

const fields28 = [
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
]

describe('GET /paymentlink/order/{orderCode} (spec 2.8, DESIGN)', () => {
  it('amount only: every field; nulls where not given; default name; store; PENDING', async () => {
    const created = await create({ amount: 12.5 })
    const res = await read(created.json.orderCode)
    expect(res.status).toBe(200)
    expect(Object.keys(res.json).sort()).toEqual([...fields28].sort())
    expect(res.json).toMatchObject({
      orderId: created.json.orderId,
      orderCode: created.json.orderCode,
      orderReference: null,
      name: 'PaymentLink Order',
      description: null,
      orderStatus: 'PENDING',
      subtotal: 12.5,
      total: 12.5,
      totalDetails: { shippingAmount: 0, discountAmount: 0, surchargeAmount: 0 },
      paymentLinkUrl: created.json.paymentLinkUrl,
      successUrl: null,
      cancelUrl: null,
      store: expectedStore,
      payment: null,
    })
    expect(Array.isArray(res.json.lineItems)).toBe(true)
    expect(Array.isArray(res.json.metadata)).toBe(true)
    expect(res.json.created).toMatch(isoMillisZ)
    expect(Math.abs(Date.parse(res.json.created) - Date.now())).toBeLessThan(60_000)
  })

  it('every field given: echoed; line items exact; totals exact', async () => {
    const created = await create({
      orderReference: 'INV-2026-001',
      orderName: 'Conformance order',
      orderDescription: 'Two mugs and three tenths',
      lineItems: [
        { sku, quantity: 2 },
        {
          product: { name: 'Tenth', price: 0.1, imageUrl: 'https://img.example/t.png' },
          quantity: 3,
        },
        { product: { name: 'Big', price: 999999999.99, requiresShipping: true }, quantity: 1000 },
      ],
      successUrl: 'https://shop.example/ok',
      cancelUrl: 'https://shop.example/cancel',
      metadata: [
        { name: 'channel', value: 'n8n' },
        { name: 'empty', value: '' },
      ],
      expirationMinutes: 60,
    })
    expect(created.status).toBe(200)
    const res = await read(created.json.orderCode)
    expect(res.status).toBe(200)
    expect(Object.keys(res.json).sort()).toEqual([...fields28].sort())
    const o = res.json
    expect(o.orderReference).toBe('INV-2026-001')
    expect(o.name).toBe('Conformance order')
    expect(o.description).toBe('Two mugs and three tenths')
    expect(o.successUrl).toBe('https://shop.example/ok')
    expect(o.cancelUrl).toBe('https://shop.example/cancel')
    expect(o.metadata).toEqual([
      { name: 'channel', value: 'n8n' },
      { name: 'empty', value: '' },
    ])
    expect(o.lineItems).toHaveLength(3)
    for (const item of o.lineItems as Record<string, unknown>[]) {
      expect(Object.keys(item).sort()).toEqual(
        [
          'imageUrl',
          'name',
          'price',
          'productId',
          'promoPrice',
          'quantity',
          'sku',
          'subTotal',
        ].sort(),
      )
      expect(Number.isInteger(item['productId'])).toBe(true)
      expect(item['promoPrice']).toBe(item['price'])
    }
    expect(o.lineItems[0]).toMatchObject({ sku, price: 8.5, quantity: 2, subTotal: 17 })
    expect(o.lineItems[1]).toMatchObject({
      name: 'Tenth',
      price: 0.1,
      quantity: 3,
      subTotal: 0.3,
      imageUrl: 'https://img.example/t.png',
    })
    expect(o.lineItems[2]).toMatchObject({
      price: 999999999.99,
      quantity: 1000,
      subTotal: 999999999990,
    })
    // 17 + 0.3 + 999999999990, exact
    expect(o.subtotal).toBe(1000000000007.3)
    expect(o.total).toBe(o.subtotal)
    expect(o.orderStatus).toBe('PENDING')
    expect(o.payment).toBeNull()
    expect(o.store).toEqual(expectedStore)
  })

  it('the documented default catalogue: each sku resolves to its product', async () => {
    const catalogue = [
      [
        1,
        'TSHIRT-BLUE-M',
        'Blue T-shirt (M)',
        19.99,
        'https://images.example.com/tshirt-blue-m.png',
      ],
      [2, 'MUG-LOGO', 'Logo mug', 8.5, 'https://images.example.com/mug-logo.png'],
      [
        3,
        'COFFEE-1KG',
        'Costa Rican coffee, 1 kg',
        24,
        'https://images.example.com/coffee-1kg.png',
      ],
      [4, 'STICKER-PACK', 'Sticker pack', 0.99, 'https://images.example.com/sticker-pack.png'],
    ] as const
    const created = await create({ lineItems: catalogue.map(([, s]) => ({ sku: s, quantity: 3 })) })
    expect(created.status).toBe(200)
    const o = (await read(created.json.orderCode)).json
    expect(o.lineItems).toEqual(
      catalogue.map(([productId, s, name, price, imageUrl]) => ({
        productId,
        sku: s,
        name,
        price,
        promoPrice: price,
        quantity: 3,
        imageUrl,
        subTotal: Math.round(price * 300) / 100,
      })),
    )
    // 3 x (19.99 + 8.50 + 24.00 + 0.99) = 160.44, exact
    expect(o.total).toBe(160.44)
  })

  it('0.1 + 0.2 totals exactly 0.3', async () => {
    const created = await create({
      amount: 0.3,
      lineItems: [product(0.1), product(0.2)],
    })
    expect(created.status).toBe(200)
    const o = (await read(created.json.orderCode)).json
    expect(o.subtotal).toBe(0.3)
    expect(o.total).toBe(0.3)
  })

  it('an unknown code -> 404 problem details', async () => {
    expectProblem(await read('OC99999999'), 404)
    expectProblem(await read('no-such-code'), 404)
  })
})

describe('hosted checkout page (DESIGN)', () => {
  const form = (fields: Record<string, string>) =>
    fetch(`${cli.url}/pay/${fields['code'] ?? ''}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    })
  const payFields = (number: string) => ({
    action: 'pay',
    number,
    expirationMonth: '12',
    expirationYear: String(new Date().getUTCFullYear() + 2),
    cvv: '123',
    cardHolder: 'Ana Mora',
    email: 'ana@example.com',
    phone: '+50670000000',
  })

  it('the page lists the items and the total; paying -> PAID with payment', async () => {
    const created = await create({
      lineItems: [{ sku, quantity: 2 }],
      successUrl: 'https://shop.example/ok',
    })
    const page = await fetch(created.json.paymentLinkUrl)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/text\/html/)
    const html = await page.text()
    expect(html).toContain('Logo mug')
    expect(html).toMatch(/17\.00/)
    expect(html).toMatch(/<form/i)

    const paid = await fetch(created.json.paymentLinkUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(payFields('4242424242424242')).toString(),
      redirect: 'manual',
    })
    expect(paid.status).toBe(303)
    expect(paid.headers.get('location')).toBe('https://shop.example/ok')
    const o = (await read(created.json.orderCode)).json
    expect(o.orderStatus).toBe('PAID')
    expect(o.payment).toEqual({
      authorizationCode: expect.any(String),
      voucherUrl: expect.any(String),
      buyer: { name: expect.any(String), phone: expect.any(String), email: expect.any(String) },
    })
    expect(JSON.stringify(o)).not.toContain('4242424242424242')
  })

  it('a declined card leaves the order PENDING; a Luhn failure is refused', async () => {
    const created = await create({ amount: 3 })
    const code = created.json.orderCode as string
    const declined = await form({ code, ...payFields('4000000000000002') })
    expect(declined.status).toBeGreaterThanOrEqual(400)
    expect(await declined.text()).not.toContain('4000000000000002')
    const bad = await form({ code, ...payFields('4242424242424241') })
    expect(bad.status).toBe(400)
    expect(await bad.text()).not.toContain('4242424242424241')
    expect((await read(code)).json.orderStatus).toBe('PENDING')
  })

  it('cancelling -> CANCELLED (payment null); paying it then is refused', async () => {
    const created = await create({ amount: 3, cancelUrl: 'https://shop.example/cancel' })
    const code = created.json.orderCode as string
    const cancelled = await form({ code, action: 'cancel' })
    expect(cancelled.status).toBe(303)
    expect(cancelled.headers.get('location')).toBe('https://shop.example/cancel')
    const o = (await read(code)).json
    expect(o.orderStatus).toBe('CANCELLED')
    expect(o.payment).toBeNull()
    const late = await form({ code, ...payFields('4242424242424242') })
    expect(late.status).toBeGreaterThanOrEqual(400)
    expect((await read(code)).json.orderStatus).toBe('CANCELLED')
  })

  it('a paid order cannot be paid or cancelled again', async () => {
    const created = await create({ amount: 3 })
    const code = created.json.orderCode as string
    const paid = await form({ code, ...payFields('4242424242424242') })
    expect(paid.status).toBeLessThan(400)
    const again = await form({ code, ...payFields('4242424242424242') })
    expect(again.status).toBeGreaterThanOrEqual(400)
    const cancel = await form({ code, action: 'cancel' })
    expect(cancel.status).toBeGreaterThanOrEqual(400)
    expect((await read(code)).json.orderStatus).toBe('PAID')
  })

  it('the checkout page of an unknown code is 404', async () => {
    expect((await fetch(`${cli.url}/pay/OC99999999`)).status).toBe(404)
  })
})
