import { OrderDetails } from '@paykit/core/codecs'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import {
  advanceClock,
  cancelOrder,
  eventsOf,
  finalizeOrder,
  payOrder,
} from '../../src/simulator/Simulator.js'
import { defaultCredentials, defaultStore, testCards } from '../../src/simulator/TestCards.js'
import { at, baseUrl, bearer, request, session, t0 } from './support.js'

const apiKey = bearer(defaultCredentials.apiKey)

const create = (
  s: ReturnType<typeof session>,
  body: unknown,
  headers: Readonly<Record<string, string>> = apiKey,
) => s.send(request('POST', '/paymentlink/checkout', body, headers))

const read = (
  s: ReturnType<typeof session>,
  code: string,
  headers: Readonly<Record<string, string>> = apiKey,
) => s.send(request('GET', `/paymentlink/order/${code}`, undefined, headers))

const right = <A>(e: E.Either<string, A>): A => {
  if (E.isLeft(e)) throw new Error(e.left)
  return e.right
}

describe('POST /paymentlink/checkout', () => {
  it('creates a link from an amount: 200 { orderCode, orderId, paymentLinkUrl }', () => {
    const s = session()
    const r = create(s, { amount: 49.99 })
    expect(r.status).toBe(200)
    const body = r.json()
    expect(body).toEqual({
      orderCode: expect.any(String),
      orderId: expect.any(Number),
      paymentLinkUrl: `${baseUrl}/pay/${body.orderCode}`,
    })
    expect(Number.isInteger(body.orderId)).toBe(true)
  })

  it('accepts the API key and an access token, nothing else', () => {
    const s = session()
    expect(create(s, { amount: 1 }).status).toBe(200)
    expect(create(s, { amount: 1 }, bearer(s.token())).status).toBe(200)
    expect(create(s, { amount: 1 }, bearer('wrong')).status).toBe(401)
    expect(create(s, { amount: 1 }, {}).status).toBe(401)
  })

  it.each([
    ['amount', { amount: 0 }],
    ['amount', { amount: -5 }],
    ['amount', {}],
    ['lineItems', {}],
    ['lineItems', { lineItems: [] }],
    ['orderReference', { amount: 1, orderReference: 'r'.repeat(256) }],
    ['orderName', { amount: 1, orderName: 'n'.repeat(256) }],
    ['orderDescription', { amount: 1, orderDescription: 'd'.repeat(2049) }],
    ['expirationMinutes', { amount: 1, expirationMinutes: 0 }],
    ['expirationMinutes', { amount: 1, expirationMinutes: 1.5 }],
    ['successUrl', { amount: 1, successUrl: 'not a url' }],
    ['cancelUrl', { amount: 1, cancelUrl: 'ftp://x.example' }],
    ['metadata[0].value', { amount: 1, metadata: [{ name: 'a' }] }],
    ['lineItems[0].quantity', { lineItems: [{ sku: 'MUG-LOGO', quantity: 0 }] }],
    ['lineItems[0].sku', { lineItems: [{ quantity: 1 }] }],
    ['lineItems[0].product', { lineItems: [{ quantity: 1 }] }],
    [
      'lineItems[0].product.price',
      { lineItems: [{ product: { name: 'x', price: -1 }, quantity: 1 }] },
    ],
    [
      'lineItems[0].product.imageUrl',
      { lineItems: [{ product: { name: 'x', price: 1, imageUrl: 'i'.repeat(513) }, quantity: 1 }] },
    ],
    [
      'lineItems[1].sku',
      {
        lineItems: [
          { sku: 'MUG-LOGO', quantity: 1 },
          { sku: 'NOPE', quantity: 1 },
        ],
      },
    ],
    ['amount', { amount: 10, lineItems: [{ sku: 'MUG-LOGO', quantity: 1 }] }],
  ])('400 problem details naming %s', (field, body) => {
    const r = create(session(), body)
    expect(r.status).toBe(400)
    const problem = r.json()
    expect(problem).toMatchObject({
      type: 'https://tools.ietf.org/html/rfc7231#section-6.5.1',
      title: expect.any(String),
      status: 400,
    })
    expect(Object.keys(problem.errors)).toContain(field)
  })

  it('accepts amount with lineItems when the amount equals the line-item total', () => {
    const r = create(session(), {
      amount: 17,
      lineItems: [{ sku: 'MUG-LOGO', quantity: 2 }],
    })
    expect(r.status).toBe(200)
  })
})

describe('GET /paymentlink/order/{orderCode}', () => {
  it('returns every field of spec 2.8 with exact totals, store and nullable fields', () => {
    const s = session()
    const { orderCode, orderId, paymentLinkUrl } = create(s, {
      lineItems: [
        { sku: 'STICKER-PACK', quantity: 3 },
        { product: { name: 'Gift <wrap>', price: 0.1, requiresShipping: true }, quantity: 3 },
      ],
      metadata: [{ name: 'channel', value: 'n8n' }],
      expirationMinutes: 30,
    }).json()
    const r = read(s, orderCode)
    expect(r.status).toBe(200)
    const body = r.json()
    expect(E.isRight(OrderDetails.decode(body))).toBe(true)
    expect(body).toEqual({
      orderId,
      orderCode,
      orderReference: null,
      name: 'PaymentLink Order',
      description: null,
      lineItems: [
        {
          productId: 4,
          sku: 'STICKER-PACK',
          name: 'Sticker pack',
          price: 0.99,
          promoPrice: 0.99,
          quantity: 3,
          imageUrl: 'https://images.example.com/sticker-pack.png',
          subTotal: 2.97,
        },
        {
          productId: expect.any(Number),
          sku: null,
          name: 'Gift <wrap>',
          price: 0.1,
          promoPrice: 0.1,
          quantity: 3,
          imageUrl: null,
          subTotal: 0.3,
        },
      ],
      orderStatus: 'PENDING',
      subtotal: 3.27,
      totalDetails: { shippingAmount: 0, discountAmount: 0, surchargeAmount: 0 },
      total: 3.27,
      metadata: [{ name: 'channel', value: 'n8n' }],
      paymentLinkUrl,
      successUrl: null,
      cancelUrl: null,
      store: defaultStore,
      payment: null,
      created: '2026-11-22T01:00:00.000Z',
    })
  })

  it('an amount-only order has no line items and totals equal to the amount', () => {
    const s = session()
    const { orderCode } = create(s, {
      amount: 12.34,
      orderReference: 'ref-1',
      orderName: 'Invoice 7',
      orderDescription: 'Consulting',
      successUrl: 'https://shop.example/ok',
      cancelUrl: 'https://shop.example/cancel',
    }).json()
    expect(read(s, orderCode).json()).toMatchObject({
      orderReference: 'ref-1',
      name: 'Invoice 7',
      description: 'Consulting',
      lineItems: [],
      subtotal: 12.34,
      total: 12.34,
      successUrl: 'https://shop.example/ok',
      cancelUrl: 'https://shop.example/cancel',
    })
  })

  it('uses a configured catalogue', () => {
    const s = session({
      products: [
        { sku: 'X', name: 'Thing', price: 1000000000.01, imageUrl: 'https://i.example/x' },
      ],
    })
    const { orderCode } = create(s, { lineItems: [{ sku: 'X', quantity: 1000000 }] }).json()
    expect(read(s, orderCode).json().total).toBe(1000000000010000)
    expect(create(s, { lineItems: [{ sku: 'MUG-LOGO', quantity: 1 }] }).status).toBe(400)
  })

  it('404 problem details for an unknown code; 401 without a credential', () => {
    const s = session()
    const r = read(s, 'OC-nope')
    expect(r.status).toBe(404)
    expect(r.json()).toMatchObject({ status: 404, title: 'Not Found' })
    expect(read(s, '__proto__').status).toBe(404)
    const { orderCode } = create(s, { amount: 1 }).json()
    expect(read(s, orderCode, {}).status).toBe(401)
    expect(read(s, orderCode, bearer(s.token())).status).toBe(200)
  })
})

describe('order status and events', () => {
  const withOrder = (body: unknown = { amount: 20 }) => {
    const s = session()
    const { orderCode } = create(s, body).json()
    return { s, orderCode, status: () => read(s, orderCode).json().orderStatus }
  }

  it('pay: PAID with payment recorded, order.paid emitted with the details', () => {
    const { s, orderCode, status } = withOrder()
    s.state = right(payOrder(s.state, orderCode, { buyer: { name: 'Ada' } }, at(5000)))
    expect(status()).toBe('PAID')
    const payment = read(s, orderCode).json().payment
    expect(payment).toEqual({
      authorizationCode: expect.stringMatching(/^\d{6}$/),
      voucherUrl: `${baseUrl}/pay/${orderCode}/voucher`,
      buyer: { name: 'Ada', phone: expect.any(String), email: expect.any(String) },
    })
    const events = eventsOf(s.state)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      type: 'order.paid',
      createdAt: '2026-11-22T01:00:05.000Z',
      data: { orderCode, orderStatus: 'PAID' },
    })
  })

  it('pay refuses a declined card and an invalid one, naming the reason', () => {
    const { s, orderCode } = withOrder()
    const card = (number: string) => ({
      number,
      expirationMonth: '12',
      expirationYear: '2030',
      cvv: '123',
    })
    expect(payOrder(s.state, orderCode, { card: card(testCards.declined.number) }, t0)).toEqual(
      E.left(expect.stringContaining('CARD_DECLINED')),
    )
    expect(payOrder(s.state, orderCode, { card: card('4242424242424241') }, t0)).toEqual(
      E.left(expect.stringContaining('card.number')),
    )
  })

  it('cancel: CANCELLED, order.cancelled emitted; a cancelled order cannot be paid', () => {
    const { s, orderCode, status } = withOrder()
    s.state = right(cancelOrder(s.state, orderCode, t0))
    expect(status()).toBe('CANCELLED')
    expect(eventsOf(s.state).map((e) => e.type)).toEqual(['order.cancelled'])
    expect(E.isLeft(payOrder(s.state, orderCode, {}, t0))).toBe(true)
  })

  it('finalize: only a PAID order becomes FINALIZED, emitting order.finalized', () => {
    const { s, orderCode, status } = withOrder()
    expect(E.isLeft(finalizeOrder(s.state, orderCode, t0))).toBe(true)
    s.state = right(payOrder(s.state, orderCode, {}, t0))
    s.state = right(finalizeOrder(s.state, orderCode, t0))
    expect(status()).toBe('FINALIZED')
    expect(eventsOf(s.state).map((e) => e.type)).toEqual(['order.paid', 'order.finalized'])
  })

  it('an unpaid link past expirationMinutes reads CANCELLED and emits order.cancelled once', () => {
    const { s, orderCode } = withOrder({ amount: 5, expirationMinutes: 30 })
    expect(read(s, orderCode).json().orderStatus).toBe('PENDING')
    expect(
      s
        .send(
          request('GET', `/paymentlink/order/${orderCode}`, undefined, apiKey),
          at(29 * 60_000 + 59_999),
        )
        .json().orderStatus,
    ).toBe('PENDING')
    expect(
      s
        .send(request('GET', `/paymentlink/order/${orderCode}`, undefined, apiKey), at(30 * 60_000))
        .json().orderStatus,
    ).toBe('CANCELLED')
    s.send(request('GET', `/paymentlink/order/${orderCode}`, undefined, apiKey), at(40 * 60_000))
    expect(eventsOf(s.state).map((e) => e.type)).toEqual(['order.cancelled'])
  })

  it('reads each state as it is: an earlier state still answers the order before the change', () => {
    const { s, orderCode } = withOrder()
    const before = s.state
    const pending = read(s, orderCode).body
    s.state = right(payOrder(s.state, orderCode, {}, t0))
    expect(read(s, orderCode).json().orderStatus).toBe('PAID')
    s.state = before
    expect(read(s, orderCode).body).toBe(pending)
    expect(read(s, orderCode).json().orderStatus).toBe('PENDING')
  })

  it('advancing the clock expires a link (default 1440 minutes), and a paid link never expires', () => {
    const a = withOrder()
    const b = withOrder()
    b.s.state = right(payOrder(b.s.state, b.orderCode, {}, t0))
    a.s.state = advanceClock(a.s.state, 1440 * 60_000 - 1, t0)
    expect(a.status()).toBe('PENDING')
    a.s.state = advanceClock(a.s.state, 1, t0)
    expect(eventsOf(a.s.state).map((e) => e.type)).toEqual(['order.cancelled'])
    expect(a.status()).toBe('CANCELLED')
    // Within the retention window (24 h past the link's expiry) the paid order stays PAID.
    b.s.state = advanceClock(b.s.state, 2 * 1440 * 60_000 - 1, t0)
    expect(b.status()).toBe('PAID')
  })

  it('events carry order details a receiver decodes, with unique ids', () => {
    const { s, orderCode } = withOrder()
    s.state = right(payOrder(s.state, orderCode, {}, t0))
    s.state = right(finalizeOrder(s.state, orderCode, t0))
    const events = eventsOf(s.state)
    expect(new Set(events.map((e) => e.id)).size).toBe(2)
    for (const e of events)
      expect(E.isRight(OrderDetails.decode(OrderDetails.encode(e.data)))).toBe(true)
  })
})
