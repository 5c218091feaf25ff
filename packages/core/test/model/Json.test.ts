import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import type * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { FrameMessage } from '../../src/machines/Authentication.js'
import { ChargeRequest, ChargeResponse } from '../../src/model/Charge.js'
import { validate } from '../../src/model/FieldError.js'
import * as Json from '../../src/model/Json.js'
import * as Money from '../../src/model/Money.js'
import { OrderDetails } from '../../src/model/Order.js'
import { PaymentLinkRequest, PaymentLinkResponse } from '../../src/model/PaymentLink.js'
import { PaymentMethod, paymentMethodRequestAt } from '../../src/model/PaymentMethod.js'
import { ProblemDetails } from '../../src/model/Problem.js'
import * as pure from '../../src/pure.js'
import { AccessToken, TokenRequest } from '../../src/model/Token.js'
import { WebhookEvent } from '../../src/signing/Webhook.js'
import { amountOnlyOrder, decoded, same } from '../fixtures.js'

const now = new Date('2026-11-22T00:00:00.000Z')
const PaymentMethodRequest = paymentMethodRequestAt(now)

const paidOrder = amountOnlyOrder({
  orderReference: 'inv-77',
  description: 'Two mugs and a tee',
  orderStatus: 'PAID',
  lineItems: [
    {
      productId: 1,
      sku: 'TSHIRT-BLUE-M',
      name: 'Blue T-shirt (M)',
      price: 19.99,
      promoPrice: 19.99,
      quantity: 1,
      imageUrl: null,
      subTotal: 19.99,
    },
    {
      productId: 5,
      sku: null,
      name: 'Mug',
      price: 0.1,
      promoPrice: 0.1,
      quantity: 3,
      imageUrl: 'https://images.example.com/mug.png',
      subTotal: 0.3,
    },
  ],
  subtotal: 20.29,
  total: 20.29,
  metadata: [{ name: 'channel', value: 'web' }],
  payment: {
    authorizationCode: 'A12345',
    voucherUrl: 'http://127.0.0.1:4010/pay/OC00001001/voucher',
    buyer: { name: 'Ana', phone: '+50688887777', email: 'ana@example.com' },
  },
})

/** One sample input per request, response and event codec (spec sections 2, 6.1, 7.2). */
const samples: ReadonlyArray<readonly [string, t.Mixed, unknown]> = [
  ['TokenRequest', TokenRequest, { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }],
  ['AccessToken', AccessToken, { accessToken: 'at_1', tokenType: 'Bearer', expiresIn: 3600 }],
  [
    'PaymentMethodRequest',
    PaymentMethodRequest,
    {
      card: {
        number: '4242 4242 4242 4242',
        expirationMonth: '12',
        expirationYear: '2030',
        cvv: '123',
        cardHolder: 'Ada',
      },
      customer: { email: 'ada@example.com' },
    },
  ],
  [
    'PaymentMethod',
    PaymentMethod,
    {
      id: 'pm_000001',
      type: 'card',
      bin: { brand: 'VISA', issuerName: 'Banco Sandbox', countryCode: 'CRI' },
      success: true,
      message: 'Payment method created',
    },
  ],
  [
    'ChargeRequest',
    ChargeRequest,
    {
      order: { id: 'ORD-1', amount: 25.5, name: 'Mugs' },
      cardId: 'pm_000001',
      authenticationId: 'auth_000001',
      billingInfo: { countryCode: 'USA', stateCode: 'CA', zipCode: '94105' },
    },
  ],
  [
    'ChargeResponse',
    ChargeResponse,
    {
      status: 'SUCCEEDED',
      message: 'Charge succeeded',
      error: null,
      authentication: null,
      order: {
        id: 'ord_1',
        reference: 'ORD-1',
        amount: 0.3,
        currency: 'USD',
        authorizationCode: '123456',
      },
      createdAt: '2026-11-22T00:10:00.123Z',
    },
  ],
  [
    'PaymentLinkRequest',
    PaymentLinkRequest,
    {
      amount: 20.29,
      lineItems: [
        { sku: 'TSHIRT-BLUE-M', quantity: 1 },
        { product: { name: 'Mug', price: 0.1, imageUrl: 'https://e.com/m.png' }, quantity: 3 },
      ],
      orderReference: 'inv-77',
      orderDescription: null,
      metadata: [{ name: 'channel', value: 'web' }],
      successUrl: 'https://shop.example/ok',
    },
  ],
  [
    'PaymentLinkResponse',
    PaymentLinkResponse,
    {
      orderCode: 'OC00001001',
      orderId: 1001,
      paymentLinkUrl: 'http://127.0.0.1:4010/pay/OC00001001',
    },
  ],
  ['OrderDetails', OrderDetails, paidOrder],
  [
    'FrameMessage',
    FrameMessage,
    {
      MessageType: 'authentication.complete',
      Status: 'SUCCESS',
      AuthenticationId: 'auth_000001',
      OrderId: 'ORD-1',
      OrderAmount: 25.5,
    },
  ],
  [
    'WebhookEvent',
    WebhookEvent,
    { id: 'evt_1', type: 'order.paid', createdAt: '2026-11-22T01:00:00.000Z', data: paidOrder },
  ],
  [
    'ProblemDetails',
    ProblemDetails,
    {
      type: 'https://tools.ietf.org/html/rfc7231#section-6.5.1',
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: { amount: ['must be greater than 0'] },
    },
  ],
]

describe('Json: plain JSON out of every codec', () => {
  it.each(samples)(
    '%s: decode -> stringify -> JSON.parse -> decode is the same value',
    (_, codec, input) => {
      const a = decoded(codec, input)
      const text = pipe(a, Json.stringify(codec))
      const again = validate(codec)(JSON.parse(text))
      expect(E.isRight(again) && same(again.right, a)).toBe(true)
      expect(pipe(text, Json.parse(codec))).toEqual(again)
    },
  )

  it.each(samples)(
    '%s: encode gives plain JSON (JSON.parse of its text is equal)',
    (_, codec, input) => {
      const json = pipe(decoded(codec, input), Json.encode(codec))
      expect(JSON.parse(JSON.stringify(json))).toEqual(json)
    },
  )

  it('writes amounts as JSON numbers, where JSON.stringify of the decoded value writes strings', () => {
    const message = decoded(FrameMessage, samples[9]?.[2])
    expect(JSON.parse(JSON.stringify(message)).OrderAmount).toBe('25.5')
    expect(E.isLeft(validate(FrameMessage)(JSON.parse(JSON.stringify(message))))).toBe(true)
    expect(JSON.parse(pipe(message, Json.stringify(FrameMessage))).OrderAmount).toBe(25.5)
    const event = decoded(WebhookEvent, samples[10]?.[2])
    expect(pipe(event, Json.encode(WebhookEvent)).data.lineItems[1]?.subTotal).toBe(0.3)
  })

  it('stringify indents like JSON.stringify when given space', () => {
    const token = decoded(TokenRequest, samples[0]?.[2])
    expect(pipe(token, Json.stringify(TokenRequest, 2))).toBe(
      JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }, null, 2),
    )
  })

  it('parse: text that is not JSON is one error at the root, without the text', () => {
    const r = Json.parse(FrameMessage)('{"OrderAmount": 4242424242424242')
    expect(r).toEqual(E.left([{ path: '', message: 'must be JSON text', code: 'json' }]))
  })

  it('parse: JSON off the codec gives its field errors', () => {
    const r = Json.parse(ChargeRequest)('{"order":{"id":"o","amount":"25.5"},"cardId":"pm"}')
    expect(E.isLeft(r) && r.left.map((e) => e.path)).toEqual(['order.amount'])
  })

  it('is exported from the pure entry (and so from the root) as Json', () => {
    expect(pure.Json.stringify).toBe(Json.stringify)
    expect(pure.Json.encode).toBe(Json.encode)
    expect(pure.Json.parse).toBe(Json.parse)
  })

  const cents = fc.bigInt({ min: 1n, max: 100_000_000_000n })
  test.prop([cents, cents])(
    'amounts of any size and scale survive the text round trip exactly (2 decimals, up to 10^9)',
    (amount, price) => {
      const request = decoded(ChargeRequest, {
        order: { id: 'o', amount: Number(amount) / 100 },
        cardId: 'pm',
      })
      const back = pipe(request, Json.stringify(ChargeRequest), Json.parse(ChargeRequest))
      expect(
        E.isRight(back) && Money.Eq.equals(back.right.order.amount, request.order.amount),
      ).toBe(true)
      const link = decoded(PaymentLinkRequest, {
        lineItems: [{ product: { name: 'p', price: Number(price) / 100 }, quantity: 3 }],
      })
      const linkBack = pipe(
        link,
        Json.stringify(PaymentLinkRequest),
        Json.parse(PaymentLinkRequest),
      )
      expect(E.isRight(linkBack) && same(linkBack.right, link)).toBe(true)
    },
  )
})
