// Conformance: every codec of spec sections 2, 6.1 and 7.2 on the spec's sample shapes;
// defaults on decode; requests strip unknown fields, responses tolerate them; the charge
// response's null-per-status rule; decode . encode . decode = decode.
import type * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import * as S from './samples.js'

type AnyCodec = t.Type<unknown, unknown, unknown>
const codec = <A, O>(c: t.Type<A, O, unknown>): AnyCodec => c as unknown as AnyCodec

const cases: ReadonlyArray<readonly [string, AnyCodec, unknown]> = [
  ['TokenRequest', codec(S.TokenRequest), S.tokenRequest],
  ['AccessToken', codec(S.AccessToken), S.accessToken],
  ['PaymentMethodRequest', codec(S.PaymentMethodRequest), S.paymentMethodRequest],
  [
    'PaymentMethodRequest (card only)',
    codec(S.PaymentMethodRequest),
    { card: S.paymentMethodRequest.card },
  ],
  ['PaymentMethod', codec(S.PaymentMethod), S.paymentMethod()],
  ['ChargeRequest', codec(S.ChargeRequest), S.chargeRequest],
  [
    'ChargeRequest (retry)',
    codec(S.ChargeRequest),
    { ...S.chargeRequest, authenticationId: 'auth-1' },
  ],
  [
    'chargeRequestFor(USA)',
    codec(S.chargeRequestFor(S.paymentMethod('USA'))),
    { ...S.chargeRequest, billingInfo: S.billingInfo },
  ],
  ['ChargeResponse FAILED', codec(S.ChargeResponse), S.chargeFailed],
  ['ChargeResponse SUCCEEDED', codec(S.ChargeResponse), S.chargeSucceeded],
  ['ChargeResponse AUTHENTICATION_REQUIRED', codec(S.ChargeResponse), S.chargeAuthRequired],
  ['FrameMessage', codec(S.FrameMessage), S.frameMessage()],
  ['FrameMessage failed', codec(S.FrameMessage), S.frameMessage('EXPIRED')],
  ['PaymentLinkRequest (amount)', codec(S.PaymentLinkRequest), S.paymentLinkFromAmount],
  ['PaymentLinkRequest (lineItems)', codec(S.PaymentLinkRequest), S.paymentLinkFromLineItems],
  [
    'PaymentLinkRequest (both)',
    codec(S.PaymentLinkRequest),
    { amount: 13.5, lineItems: [{ product: { name: 'Tea', price: 4.5 }, quantity: 3 }] },
  ],
  ['PaymentLinkResponse', codec(S.PaymentLinkResponse), S.paymentLinkResponse],
  ['OrderDetails', codec(S.OrderDetails), S.orderDetails],
  ['ValidationProblem', codec(S.ValidationProblem), S.validationProblemBody],
  ['ServerProblem', codec(S.ServerProblem), S.serverProblemBody],
]

describe('every codec decodes the spec sample shapes', () => {
  it.each(cases)('%s decodes Right', (_name, c, sample) => {
    S.decodeRight(c, sample)
  })

  it.each(cases)('%s: decode . encode . decode = decode', (_name, c, sample) => {
    const once = S.decodeRight(c, sample)
    const twice = S.decodeRight(c, c.encode(once))
    expect(twice).toEqual(once)
    expect(c.encode(twice)).toEqual(c.encode(once))
    // what is encoded is plain JSON again
    expect(JSON.parse(JSON.stringify(c.encode(once)))).toEqual(c.encode(once))
  })
})

describe('payment-link defaults are applied on decode (spec 2.6)', () => {
  it('orderName "PaymentLink Order" and expirationMinutes 1440', () => {
    const r = S.decodeRight(S.PaymentLinkRequest, { amount: 10 })
    expect(r.orderName).toBe('PaymentLink Order')
    expect(r.expirationMinutes).toBe(1440)
  })
  it('given values win over the defaults', () => {
    const r = S.decodeRight(S.PaymentLinkRequest, {
      amount: 10,
      orderName: 'X',
      expirationMinutes: 5,
    })
    expect(r.orderName).toBe('X')
    expect(r.expirationMinutes).toBe(5)
  })
  it('product.requiresShipping defaults to false, and true stays true', () => {
    const r = S.decodeRight(S.PaymentLinkRequest, {
      lineItems: [
        { product: { name: 'A', price: 1 }, quantity: 1 },
        { product: { name: 'B', price: 1, requiresShipping: true }, quantity: 1 },
      ],
    })
    const items = r.lineItems ?? []
    expect(items[0] && 'product' in items[0] ? items[0].product.requiresShipping : 'x').toBe(false)
    expect(items[1] && 'product' in items[1] ? items[1].product.requiresShipping : 'x').toBe(true)
  })
  it('the defaults reach the encoded JSON body', () => {
    const body = S.PaymentLinkRequest.encode(S.decodeRight(S.PaymentLinkRequest, { amount: 10 }))
    expect(body).toMatchObject({
      orderName: 'PaymentLink Order',
      expirationMinutes: 1440,
      amount: 10,
    })
  })
})

describe('request codecs strip unknown fields', () => {
  it('TokenRequest', () => {
    expect(
      S.TokenRequest.encode(S.decodeRight(S.TokenRequest, { ...S.tokenRequest, scope: 'x' })),
    ).toEqual(S.tokenRequest)
  })
  it('PaymentMethodRequest (root, card and customer)', () => {
    const out = S.PaymentMethodRequest.encode(
      S.decodeRight(S.PaymentMethodRequest, {
        ...S.paymentMethodRequest,
        extra: 1,
        card: { ...S.paymentMethodRequest.card, pin: '0000' },
        customer: { ...S.paymentMethodRequest.customer, ssn: '123' },
      }),
    )
    expect(out).not.toHaveProperty('extra')
    expect(out.card).not.toHaveProperty('pin')
    expect(out.customer).not.toHaveProperty('ssn')
  })
  it('ChargeRequest (root, order and billingInfo)', () => {
    const c = S.chargeRequestFor(S.paymentMethod('USA'))
    const out = c.encode(
      S.decodeRight(c, {
        ...S.chargeRequest,
        extra: true,
        order: { ...S.chargeRequest.order, coupon: 'X' },
        billingInfo: { ...S.billingInfo, street: 'Main' },
      }),
    )
    expect(out).not.toHaveProperty('extra')
    expect(out.order).not.toHaveProperty('coupon')
    expect(out.billingInfo).not.toHaveProperty('street')
    const plain = S.ChargeRequest.encode(
      S.decodeRight(S.ChargeRequest, { ...S.chargeRequest, extra: 1 }),
    )
    expect(plain).not.toHaveProperty('extra')
  })
  it('PaymentLinkRequest (root, line items, products, metadata)', () => {
    const decoded = S.decodeRight(S.PaymentLinkRequest, {
      amount: 10,
      extra: 'x',
      lineItems: [
        { sku: 'A', quantity: 1, color: 'red' },
        { product: { name: 'B', price: 2, weight: 3 }, quantity: 1, note: 'n' },
      ],
      metadata: [{ name: 'a', value: 'b', hidden: true }],
    })
    const out = S.PaymentLinkRequest.encode(decoded)
    expect(out).not.toHaveProperty('extra')
    expect(decoded).not.toHaveProperty('extra')
    expect(out.lineItems?.[0]).toEqual({ sku: 'A', quantity: 1 })
    expect(out.lineItems?.[1]).toEqual({
      product: { name: 'B', price: 2, requiresShipping: false },
      quantity: 1,
    })
    expect(out.metadata).toEqual([{ name: 'a', value: 'b' }])
  })
})

describe('response codecs tolerate unknown fields', () => {
  const withExtras: ReadonlyArray<readonly [string, AnyCodec, unknown]> = [
    ['AccessToken', codec(S.AccessToken), { ...S.accessToken, scope: 'all' }],
    [
      'PaymentMethod',
      codec(S.PaymentMethod),
      { ...S.paymentMethod(), bin: { ...S.paymentMethod().bin, level: 'GOLD' }, created: 1 },
    ],
    [
      'ChargeResponse',
      codec(S.ChargeResponse),
      { ...S.chargeSucceeded, order: { ...S.chargeSucceeded.order, fee: 1 }, traceId: 'x' },
    ],
    ['PaymentLinkResponse', codec(S.PaymentLinkResponse), { ...S.paymentLinkResponse, qr: 'x' }],
    [
      'OrderDetails',
      codec(S.OrderDetails),
      { ...S.orderDetails, channel: 'web', store: { ...S.orderDetails.store, phone: '1' } },
    ],
    [
      'ValidationProblem',
      codec(S.ValidationProblem),
      { ...S.validationProblemBody, traceId: '00-ab' },
    ],
    ['ServerProblem', codec(S.ServerProblem), { ...S.serverProblemBody, traceId: '00-ab' }],
  ]
  it.each(withExtras)('%s', (_name, c, sample) => {
    S.decodeRight(c, sample)
  })
})

describe('charge response: a union on status, the other fields null (spec 2.5)', () => {
  it('decodes each status with its own non-null field', () => {
    expect(S.decodeRight(S.ChargeResponse, S.chargeFailed)).toMatchObject({
      status: 'FAILED',
      error: { code: 'FRAUD_PREVENT' },
    })
    expect(S.decodeRight(S.ChargeResponse, S.chargeAuthRequired)).toMatchObject({
      authentication: { id: 'auth-1', url: 'https://3ds.example.com/auth/auth-1' },
    })
    const ok = S.decodeRight(S.ChargeResponse, S.chargeSucceeded)
    expect(ok.status === 'SUCCEEDED' && ok.order.reference).toBe('order-1001')
  })
  it.each([
    [
      'FAILED with a non-null order',
      { ...S.chargeFailed, order: S.chargeSucceeded.order },
      'order',
    ],
    [
      'FAILED with a non-null authentication',
      { ...S.chargeFailed, authentication: S.chargeAuthRequired.authentication },
      'authentication',
    ],
    ['FAILED with a null error', { ...S.chargeFailed, error: null }, 'error'],
    [
      'SUCCEEDED with a non-null error',
      { ...S.chargeSucceeded, error: S.chargeFailed.error },
      'error',
    ],
    ['SUCCEEDED with a null order', { ...S.chargeSucceeded, order: null }, 'order'],
    [
      'SUCCEEDED with a non-null authentication',
      { ...S.chargeSucceeded, authentication: S.chargeAuthRequired.authentication },
      'authentication',
    ],
    [
      'AUTHENTICATION_REQUIRED with a null authentication',
      { ...S.chargeAuthRequired, authentication: null },
      'authentication',
    ],
    [
      'AUTHENTICATION_REQUIRED with a non-null order',
      { ...S.chargeAuthRequired, order: S.chargeSucceeded.order },
      'order',
    ],
    [
      'AUTHENTICATION_REQUIRED with a non-null error',
      { ...S.chargeAuthRequired, error: S.chargeFailed.error },
      'error',
    ],
    ['an unknown status', { ...S.chargeFailed, status: 'PENDING' }, 'status'],
  ])('%s is refused at that field', (_name, input, path) => {
    expect(S.pathsOf(S.ChargeResponse, input)).toEqual([path])
  })
  it('createdAt must be ISO 8601 UTC with fractional seconds and Z', () => {
    for (const bad of [
      '2024-05-01T12:34:56+02:00',
      '2024-05-01 12:34:56.789',
      'yesterday',
      1714567296789,
    ]) {
      expect(S.pathsOf(S.ChargeResponse, { ...S.chargeSucceeded, createdAt: bad })).toEqual([
        'createdAt',
      ])
    }
    S.decodeRight(S.ChargeResponse, { ...S.chargeSucceeded, createdAt: '2024-05-01T12:34:56.7Z' })
  })
})

describe('frame message and problem details', () => {
  it('frame message: every MessageType and Status of spec 6.1', () => {
    for (const MessageType of ['authentication.complete', 'authentication.failed'])
      for (const Status of ['PENDING', 'SUCCESS', 'FAILED', 'ERROR', 'EXPIRED'])
        S.decodeRight(S.FrameMessage, S.frameMessage(Status, 'auth-1', MessageType))
    expect(S.pathsOf(S.FrameMessage, S.frameMessage('DONE'))).toEqual(['Status'])
    expect(
      S.pathsOf(S.FrameMessage, { ...S.frameMessage(), MessageType: 'authentication.started' }),
    ).toEqual(['MessageType'])
    expect(S.pathsOf(S.FrameMessage, { ...S.frameMessage(), AuthenticationId: undefined })).toEqual(
      ['AuthenticationId'],
    )
  })
  it('400 keeps the errors map as given; 500 has status 500', () => {
    const body = {
      ...S.validationProblemBody,
      errors: { 'lineItems[0].sku': ['a', 'b'], $: ['root'] },
    }
    expect(S.decodeRight(S.ValidationProblem, body).errors).toEqual(body.errors)
    expect(S.pathsOf(S.ValidationProblem, { ...S.validationProblemBody, status: 500 })).toEqual([
      'status',
    ])
    expect(S.pathsOf(S.ServerProblem, { ...S.serverProblemBody, status: 400 })).toEqual(['status'])
  })
})

describe('order details (spec 2.8)', () => {
  it('every order status decodes and an unknown one is refused at orderStatus', () => {
    for (const orderStatus of ['PENDING', 'PAID', 'CANCELLED', 'FINALIZED'])
      S.decodeRight(S.OrderDetails, { ...S.orderDetails, orderStatus })
    expect(S.pathsOf(S.OrderDetails, { ...S.orderDetails, orderStatus: 'SHIPPED' })).toEqual([
      'orderStatus',
    ])
  })
  it('store.locale is language_COUNTRY and store.timezone an IANA-style zone', () => {
    const store = S.orderDetails.store
    expect(
      S.pathsOf(S.OrderDetails, { ...S.orderDetails, store: { ...store, locale: 'es-CR' } }),
    ).toEqual(['store.locale'])
    expect(
      S.pathsOf(S.OrderDetails, { ...S.orderDetails, store: { ...store, timezone: 'not a zone' } }),
    ).toEqual(['store.timezone'])
    S.decodeRight(S.OrderDetails, {
      ...S.orderDetails,
      store: { ...store, locale: 'en_US', timezone: 'America/New_York' },
    })
  })
  it('created is ISO 8601 UTC with milliseconds', () => {
    expect(S.pathsOf(S.OrderDetails, { ...S.orderDetails, created: '01/05/2024' })).toEqual([
      'created',
    ])
  })
  it('amounts decode exactly', () => {
    const o = S.decodeRight(S.OrderDetails, { ...S.orderDetails, total: 0.3, subtotal: 0.3 })
    expect(o.total.toString()).toBe('0.3')
  })
  it('a wrong line item field is named with its index', () => {
    const lineItems = [
      S.orderDetails.lineItems[0],
      { ...S.orderDetails.lineItems[0], quantity: 'three' },
    ]
    expect(S.pathsOf(S.OrderDetails, { ...S.orderDetails, lineItems })).toEqual([
      'lineItems[1].quantity',
    ])
  })
})
