// @paykit-test own-worker: nock's interceptors
// Conformance through the nock mock (`mockPaymentService` from the package root) with
// native fetch only: the same contract as the sandbox, at a made-up base URL.
import { defaultCredentials, testCardTable } from '@paykit/testkit'
import { mockPaymentService, type PaymentServiceMock } from '@paykit/testkit/nock'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  call,
  charge,
  createCard,
  expectFieldError,
  expectProblem,
  expectedStore,
  frameMessageIn,
  isoFractionalZ,
  isoMillisZ,
  payByForm,
  token,
  usBilling,
} from './support.js'

const base = 'https://paykit-conformance.test'
let mock: PaymentServiceMock
beforeEach(() => {
  mock = mockPaymentService({ baseUrl: base })
})
afterEach(() => {
  mock.restore()
})

describe('mockPaymentService with native fetch', () => {
  it('token shape; wrong credentials 401; missing bearer 401', async () => {
    const res = await call(base, 'POST', '/token', {
      body: { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' },
    })
    expect(res.json).toEqual({
      accessToken: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: 3600,
    })
    expectProblem(
      await call(base, 'POST', '/token', {
        body: { clientId: 'sandbox-client', clientSecret: 'x' },
      }),
      401,
    )
    expectProblem(await createCard(base, 'unknown-token', '4242424242424242'), 401)
    expectProblem(await call(base, 'GET', '/paymentlink/order/OC00001001'), 401)
    mock.assertNoUnexpectedRequests()
  })

  it('test cards, Luhn failure naming card.number, nothing echoed', async () => {
    const t = await token(base)
    const usa = await createCard(base, t, '4111111111111111')
    expect(usa.json.bin).toEqual({
      brand: 'VISA',
      issuerName: 'Sandbox Bank USA',
      countryCode: 'USA',
    })
    expect(usa.text).not.toContain('4111111111111111')
    expectFieldError(await charge(base, t, usa.json.id, 'm-1'), 'billingInfo')
    const ok = await charge(base, t, usa.json.id, 'm-1', { billingInfo: usBilling })
    expect(ok.json.status).toBe('SUCCEEDED')
    expect(ok.json.createdAt).toMatch(isoFractionalZ)
    expect(
      (await charge(base, t, usa.json.id, 'm-1', { billingInfo: usBilling })).json.error.code,
    ).toBe('DUPLICATE_ORDER')
    const fraud = await createCard(base, t, '4000000000009995')
    expect((await charge(base, t, fraud.json.id, 'm-2')).json.error.code).toBe('FRAUD_PREVENT')
    const bad = await createCard(base, t, '4242424242424243')
    expectFieldError(bad, 'card.number')
    expect(bad.text).not.toContain('4242424242424243')
    const amex = await createCard(base, t, '378282246310005')
    expect(amex.json.bin).toEqual({
      brand: 'AMEX',
      issuerName: 'Banco Sandbox',
      countryCode: 'CRI',
    })
  })

  it('3DS: url on the mock origin, ?result=success page, repeat SUCCEEDS; failed -> AUTHENTICATION_FAILED', async () => {
    const t = await token(base)
    const card = await createCard(base, t, '4000000000003220')
    const first = await charge(base, t, card.json.id, 'm-3ds', { amount: 7.25 })
    expect(first.json.status).toBe('AUTHENTICATION_REQUIRED')
    const url = new URL(first.json.authentication.url as string)
    expect(url.origin).toBe(base)
    url.searchParams.set('result', 'success')
    const page = await fetch(url)
    expect(page.headers.get('content-type')).toMatch(/text\/html/)
    expect(frameMessageIn(await page.text())).toEqual({
      MessageType: 'authentication.complete',
      Status: 'SUCCESS',
      AuthenticationId: first.json.authentication.id,
      OrderId: 'm-3ds',
      OrderAmount: 7.25,
    })
    const repeat = await charge(base, t, card.json.id, 'm-3ds', {
      amount: 7.25,
      authenticationId: first.json.authentication.id,
    })
    expect(repeat.json.status).toBe('SUCCEEDED')

    const second = await charge(base, t, card.json.id, 'm-3ds-2')
    const failUrl = new URL(second.json.authentication.url as string)
    failUrl.searchParams.set('result', 'failed')
    expect(frameMessageIn(await (await fetch(failUrl)).text()).MessageType).toBe(
      'authentication.failed',
    )
    const failed = await charge(base, t, card.json.id, 'm-3ds-2', {
      authenticationId: second.json.authentication.id,
    })
    expect(failed.json.error.code).toBe('AUTHENTICATION_FAILED')
  })

  it('payment link: rules, 200 shape, order details, pay, cancel, expiry, 404', async () => {
    const key = 'sandbox-api-key'
    expectFieldError(
      await call(base, 'POST', '/paymentlink/checkout', { bearer: key, body: { amount: 0 } }),
      'amount',
    )
    expectFieldError(
      await call(base, 'POST', '/paymentlink/checkout', {
        bearer: key,
        body: { lineItems: [{ sku: 'NOPE', quantity: 1 }] },
      }),
      'lineItems[0].sku',
    )
    expectFieldError(
      await call(base, 'POST', '/paymentlink/checkout', {
        bearer: key,
        body: { amount: 5, lineItems: [{ product: { name: 'a', price: 1 }, quantity: 2 }] },
      }),
      'amount',
    )
    const created = await call(base, 'POST', '/paymentlink/checkout', {
      bearer: key,
      body: {
        lineItems: [{ product: { name: 'a', price: 0.1 }, quantity: 3 }],
        expirationMinutes: 10,
      },
    })
    expect(created.json).toEqual({
      orderCode: expect.any(String),
      orderId: expect.any(Number),
      paymentLinkUrl: expect.any(String),
    })
    const code = created.json.orderCode as string
    const read = () => call(base, 'GET', `/paymentlink/order/${code}`, { bearer: key })
    const o = (await read()).json
    expect(o).toMatchObject({
      orderReference: null,
      description: null,
      successUrl: null,
      cancelUrl: null,
      payment: null,
      orderStatus: 'PENDING',
      subtotal: 0.3,
      total: 0.3,
      store: expectedStore,
    })
    expect(o.created).toMatch(isoMillisZ)

    const head = await fetch(created.json.paymentLinkUrl as string, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toMatch(/text\/html/)

    // Paying through the hosted checkout page.
    const paid = await payByForm(created.json.paymentLinkUrl, 1)
    expect(paid.status).toBeLessThan(400)
    const after = (await read()).json
    expect(after.orderStatus).toBe('PAID')
    expect(after.payment).not.toBeNull()

    const other = await call(base, 'POST', '/paymentlink/checkout', {
      bearer: key,
      body: { amount: 1, expirationMinutes: 1 },
    })
    mock.advanceClock(61_000)
    const expired = await call(base, 'GET', `/paymentlink/order/${other.json.orderCode}`, {
      bearer: key,
    })
    expect(expired.json.orderStatus).toBe('CANCELLED')
    expectProblem(await call(base, 'GET', '/paymentlink/order/OC99999999', { bearer: key }), 404)
    mock.assertNoUnexpectedRequests()
  })

  it('tokens expire after 3600 s of the mock clock', async () => {
    const t = await token(base)
    mock.advanceClock(3_601_000)
    expectProblem(await createCard(base, t, '4242424242424242'), 401)
  })

  it('malformed JSON and an unknown route get 4xx problem details', async () => {
    expectProblem(await call(base, 'POST', '/token', { rawBody: '{' }), 400)
    expectProblem(await call(base, 'GET', '/nowhere'), 404)
    expect(() => mock.assertNoUnexpectedRequests()).toThrow()
  })
})

describe('exported constants (DESIGN: the testkit exports the table and the credentials)', () => {
  it('defaultCredentials are the documented ones', () => {
    expect(defaultCredentials).toEqual({
      clientId: 'sandbox-client',
      clientSecret: 'sandbox-secret',
      apiKey: 'sandbox-api-key',
    })
  })

  it('testCardTable holds exactly the seven cards of DESIGN, with brand, issuer and country', () => {
    const rows = testCardTable.map((c) => [c.number, c.brand, c.issuerName, c.countryCode])
    expect(rows.sort()).toEqual(
      [
        ['4242424242424242', 'VISA', 'Banco Sandbox', 'CRI'],
        ['4111111111111111', 'VISA', 'Sandbox Bank USA', 'USA'],
        ['5555555555554444', 'MASTERCARD', 'Sandbox Bank Canada', 'CAN'],
        ['4000000000003220', 'VISA', 'Banco Sandbox', 'CRI'],
        ['4000008400000027', 'VISA', 'Sandbox Bank USA', 'USA'],
        ['4000000000009995', 'VISA', 'Banco Sandbox', 'CRI'],
        ['4000000000000002', 'VISA', 'Banco Sandbox', 'CRI'],
      ].sort(),
    )
  })
})
