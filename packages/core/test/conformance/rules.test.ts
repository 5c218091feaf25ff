// Conformance: every rule of issue 2, each input broken in one way, fails naming exactly
// the field in the notation (and no unrelated one).
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { validate } from '@paykit/core'
import {
  ChargeRequest,
  PaymentLinkRequest,
  PaymentMethodRequest,
  ValidationProblem,
  chargeRequestFor,
  toErrorMap,
  validationProblem,
} from '@paykit/core/codecs'
import * as S from './samples.js'

const text = (n: number): string => 'x'.repeat(n)
const url = (n: number): string => {
  const head = 'https://cdn.example.com/'
  return head + 'a'.repeat(n - head.length)
}

describe('charge: billingInfo when the issuer is USA or CAN (spec 2.4)', () => {
  it.each(['USA', 'CAN'])('required for %s, at billingInfo', (country) => {
    const codec = chargeRequestFor(S.paymentMethod(country))
    expect(S.pathsOf(codec, S.chargeRequest)).toEqual(['billingInfo'])
    S.decodeRight(codec, { ...S.chargeRequest, billingInfo: S.billingInfo })
  })
  it.each(['CRI', 'MEX', 'GBR'])('optional for %s', (country) => {
    const codec = chargeRequestFor(S.paymentMethod(country))
    S.decodeRight(codec, S.chargeRequest)
    S.decodeRight(codec, { ...S.chargeRequest, billingInfo: S.billingInfo })
  })
  it('ChargeRequest alone is the shape without the issuer rule', () => {
    S.decodeRight(ChargeRequest, S.chargeRequest)
  })
  it('billingInfo.countryCode alpha-2 or alpha-3; all three non-empty', () => {
    const codec = chargeRequestFor(S.paymentMethod('USA'))
    for (const countryCode of ['US', 'USA', 'CA', 'CAN'])
      S.decodeRight(codec, { ...S.chargeRequest, billingInfo: { ...S.billingInfo, countryCode } })
    for (const countryCode of ['', 'U', 'USAA', '12'])
      expect(
        S.pathsOf(codec, { ...S.chargeRequest, billingInfo: { ...S.billingInfo, countryCode } }),
      ).toEqual(['billingInfo.countryCode'])
    for (const field of ['stateCode', 'zipCode'] as const) {
      expect(
        S.pathsOf(codec, { ...S.chargeRequest, billingInfo: { ...S.billingInfo, [field]: '' } }),
      ).toEqual([`billingInfo.${field}`])
      const { [field]: _gone, ...rest } = S.billingInfo
      expect(S.pathsOf(codec, { ...S.chargeRequest, billingInfo: rest })).toEqual([
        `billingInfo.${field}`,
      ])
    }
  })
  it('authenticationId is null or a string', () => {
    expect(S.pathsOf(ChargeRequest, { ...S.chargeRequest, authenticationId: 5 })).toEqual([
      'authenticationId',
    ])
  })
})

describe('card rules (PaymentMethodRequest)', () => {
  const card = S.paymentMethodRequest.card
  const withCard = (patch: Record<string, unknown>) => ({ card: { ...card, ...patch } })
  const now = new Date()

  it('a number failing the Luhn check is refused at card.number', () => {
    expect(S.pathsOf(PaymentMethodRequest, withCard({ number: '4242424242424241' }))).toEqual([
      'card.number',
    ])
    expect(S.pathsOf(PaymentMethodRequest, withCard({ number: 'abcd' }))).toEqual(['card.number'])
    for (const number of ['4111111111111111', '5555555555554444', '4000000000003220'])
      S.decodeRight(PaymentMethodRequest, withCard({ number }))
  })
  it('a past year is refused at card.expirationYear', () => {
    expect(
      S.pathsOf(
        PaymentMethodRequest,
        withCard({ expirationYear: String(now.getUTCFullYear() - 1) }),
      ),
    ).toEqual(['card.expirationYear'])
  })
  it('a past month of this year is refused at card.expirationMonth', () => {
    const month = now.getUTCMonth() // 0-based: the previous month, 1-based
    if (month === 0) return // January: no past month this year
    expect(
      S.pathsOf(
        PaymentMethodRequest,
        withCard({
          expirationYear: String(now.getUTCFullYear()),
          expirationMonth: String(month).padStart(2, '0'),
        }),
      ),
    ).toEqual(['card.expirationMonth'])
  })
  it('the current month is not in the past', () => {
    S.decodeRight(
      PaymentMethodRequest,
      withCard({
        expirationYear: String(now.getUTCFullYear()),
        expirationMonth: String(now.getUTCMonth() + 1).padStart(2, '0'),
      }),
    )
  })
  it('month two digits 01-12, year four digits', () => {
    for (const expirationMonth of ['1', '00', '13', 'ab'])
      expect(S.pathsOf(PaymentMethodRequest, withCard({ expirationMonth }))).toEqual([
        'card.expirationMonth',
      ])
    for (const expirationYear of ['30', '20301', 'abcd'])
      expect(S.pathsOf(PaymentMethodRequest, withCard({ expirationYear }))).toEqual([
        'card.expirationYear',
      ])
    for (const expirationMonth of ['01', '09', '12'])
      S.decodeRight(PaymentMethodRequest, withCard({ expirationMonth }))
  })
  it('cvv is 3-4 digits, else card.cvv', () => {
    for (const cvv of ['12', '12345', 'abc', '', '12a']) {
      expect(S.pathsOf(PaymentMethodRequest, withCard({ cvv }))).toEqual(['card.cvv'])
    }
    S.decodeRight(PaymentMethodRequest, withCard({ cvv: '1234' }))
  })
  it('a missing card is refused at card', () => {
    expect(S.pathsOf(PaymentMethodRequest, { customer: S.paymentMethodRequest.customer })).toEqual([
      'card',
    ])
  })
  it('no message repeats the card number or the CVV', () => {
    const errors = S.decodeLeft(PaymentMethodRequest, {
      card: { ...card, number: '4242424242424241', cvv: '98765' },
    })
    const all = JSON.stringify(errors)
    expect(all).not.toContain('4242424242424241')
    expect(all).not.toContain('98765')
  })
})

describe('payment link rules (spec 2.6, issue 2)', () => {
  const P = PaymentLinkRequest
  it('neither amount nor lineItems: errors at amount AND lineItems', () => {
    expect(S.pathsOf(P, {})).toEqual(['amount', 'lineItems'])
    expect(S.pathsOf(P, { orderName: 'x' })).toEqual(['amount', 'lineItems'])
  })
  it('amount alone, lineItems alone, or both are accepted', () => {
    S.decodeRight(P, { amount: 1 })
    S.decodeRight(P, { lineItems: [{ sku: 'A', quantity: 1 }] })
    S.decodeRight(P, { amount: 1, lineItems: [{ sku: 'A', quantity: 1 }] })
  })
  it('an empty lineItems is not "given": error at lineItems', () => {
    expect(S.pathsOf(P, { lineItems: [] })).toContain('lineItems')
  })
  it('amount must be finite and > 0', () => {
    for (const amount of [0, -1, -0.01, Number.NaN, Number.POSITIVE_INFINITY, '10', null])
      expect(S.pathsOf(P, { amount })).toEqual(['amount'])
    S.decodeRight(P, { amount: 0.01 })
  })
  it('each line item exactly one of sku or product', () => {
    const both = S.pathsOf(P, {
      lineItems: [
        { sku: 'A', quantity: 1 },
        { sku: 'B', product: { name: 'B', price: 1 }, quantity: 1 },
      ],
    })
    expect(both.length).toBe(1)
    expect(['lineItems[1].sku', 'lineItems[1].product']).toContain(both[0])
    const neither = S.pathsOf(P, { lineItems: [{ sku: 'A', quantity: 1 }, { quantity: 1 }] })
    expect(neither.length).toBeGreaterThan(0)
    for (const p of neither) expect(['lineItems[1].sku', 'lineItems[1].product']).toContain(p)
  })
  it('product.name and product.price are required; price >= 0', () => {
    const items = (product: unknown) => ({
      lineItems: [
        { sku: 'A', quantity: 1 },
        { sku: 'B', quantity: 1 },
        { product, quantity: 1 },
      ],
    })
    expect(S.pathsOf(P, items({ name: 'Tea', price: -1 }))).toEqual(['lineItems[2].product.price'])
    expect(S.pathsOf(P, items({ name: 'Tea' }))).toEqual(['lineItems[2].product.price'])
    expect(S.pathsOf(P, items({ name: 'Tea', price: '4.5' }))).toEqual([
      'lineItems[2].product.price',
    ])
    expect(S.pathsOf(P, items({ price: 1 }))).toEqual(['lineItems[2].product.name'])
    S.decodeRight(P, items({ name: 'Free sample', price: 0 }))
  })
  it('quantity is a positive integer', () => {
    for (const quantity of [0, -1, 1.5, '2', undefined])
      expect(S.pathsOf(P, { lineItems: [{ sku: 'A', quantity }] })).toEqual([
        'lineItems[0].quantity',
      ])
  })
  it.each([
    ['orderReference', 255],
    ['orderName', 255],
    ['orderDescription', 2048],
  ])('%s: %i characters pass, one more fails at the field', (field, max) => {
    S.decodeRight(P, { amount: 1, [field]: text(max) })
    expect(S.pathsOf(P, { amount: 1, [field]: text(max + 1) })).toEqual([field])
  })
  it('product.imageUrl: 512 characters pass, 513 fail at lineItems[i].product.imageUrl', () => {
    const item = (imageUrl: string) => ({
      lineItems: [{ product: { name: 'A', price: 1, imageUrl }, quantity: 1 }],
    })
    S.decodeRight(P, item(url(512)))
    expect(S.pathsOf(P, item(url(513)))).toEqual(['lineItems[0].product.imageUrl'])
  })
  it('metadata[i].name and .value are required strings', () => {
    const meta = (entry: unknown) => ({ amount: 1, metadata: [{ name: 'a', value: 'b' }, entry] })
    expect(S.pathsOf(P, meta({ value: 'b' }))).toEqual(['metadata[1].name'])
    expect(S.pathsOf(P, meta({ name: 'a' }))).toEqual(['metadata[1].value'])
    expect(S.pathsOf(P, meta({ name: 1, value: 'b' }))).toEqual(['metadata[1].name'])
    expect(S.pathsOf(P, meta({ name: 'a', value: null }))).toEqual(['metadata[1].value'])
  })
  it('expirationMinutes is a positive integer', () => {
    for (const expirationMinutes of [0, -5, 1.5, '60', Number.NaN])
      expect(S.pathsOf(P, { amount: 1, expirationMinutes })).toEqual(['expirationMinutes'])
    S.decodeRight(P, { amount: 1, expirationMinutes: 1 })
  })
  it.each(['successUrl', 'cancelUrl'])('%s is an absolute http(s) URL', (field) => {
    for (const bad of [
      'not a url',
      '/thanks',
      'ftp://example.com/x',
      'javascript:alert(1)',
      'example.com',
    ])
      expect(S.pathsOf(P, { amount: 1, [field]: bad })).toEqual([field])
    S.decodeRight(P, { amount: 1, [field]: 'http://localhost:3000/ok' })
    S.decodeRight(P, { amount: 1, [field]: 'https://shop.example.com/ok?x=1' })
  })
  it('several broken fields are all reported, each at its own path', () => {
    const paths = S.pathsOf(P, {
      orderName: text(256),
      amount: -1,
      successUrl: 'nope',
      expirationMinutes: 0,
      metadata: [{ value: 'x' }],
      lineItems: [{ sku: 'A', quantity: 0 }],
    })
    expect(paths).toEqual([
      'amount',
      'expirationMinutes',
      'lineItems[0].quantity',
      'metadata[0].name',
      'orderName',
      'successUrl',
    ])
  })
  it('messages read as English and name the kind of value, never the value', () => {
    const errors = S.decodeLeft(P, {
      amount: { secret: 'x' },
      orderName: ['x'],
      lineItems: 'x',
      metadata: [{ name: { secret: 'x' }, value: 'v' }],
    })
    expect(errors.map((e) => e.message).join(' ')).not.toMatch(/\ba (object|array|undefined)\b/)
    expect(JSON.stringify(errors)).not.toContain('secret')
  })
  it('every message is a non-empty string', () => {
    const r = validate(P)({ amount: 0 })
    expect(
      E.isLeft(r) && r.left.every((e) => typeof e.message === 'string' && e.message.length > 0),
    ).toBe(true)
  })
})

describe('the 400 error-map helper (spec 7.2)', () => {
  it('field errors become the service errors map: field name -> messages', () => {
    const errors = S.decodeLeft(PaymentLinkRequest, {
      amount: 0,
      lineItems: [{ sku: 'A', quantity: 0 }],
      metadata: [{}],
    })
    const map = toErrorMap(errors)
    expect(Object.keys(map).sort()).toEqual([
      'amount',
      'lineItems[0].quantity',
      'metadata[0].name',
      'metadata[0].value',
    ])
    for (const messages of Object.values(map)) {
      expect(messages.length).toBeGreaterThan(0)
      for (const m of messages) expect(typeof m).toBe('string')
    }
  })
  it('several messages for one field stay together, in order', () => {
    expect(
      toErrorMap([
        { path: 'amount', message: 'first' },
        { path: 'lineItems', message: 'x' },
        { path: 'amount', message: 'second' },
      ]),
    ).toEqual({ amount: ['first', 'second'], lineItems: ['x'] })
  })
  it('validationProblem builds a 400 body that ValidationProblem decodes, naming the field', () => {
    const body = validationProblem(S.decodeLeft(PaymentLinkRequest, { amount: -5 }))
    expect(body.status).toBe(400)
    expect(body.type).toContain('rfc7231#section-6.5.1')
    expect(typeof body.title).toBe('string')
    expect(Object.keys(body.errors)).toEqual(['amount'])
    const decoded = S.decodeRight(ValidationProblem, JSON.parse(JSON.stringify(body)))
    expect(decoded.errors).toEqual(body.errors)
  })
})
