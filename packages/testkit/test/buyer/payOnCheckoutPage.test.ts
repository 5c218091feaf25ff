import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { payOnCheckoutPage } from '../../src/buyer/payOnCheckoutPage.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/startSandbox.js'
import { defaultCredentials, testCards } from '../../src/simulator/TestCards.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await startSandbox()
})
afterAll(() => sandbox.close())

const api = (path: string, body?: unknown) =>
  fetch(`${sandbox.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${defaultCredentials.apiKey}`,
      'content-type': 'application/json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).then((r) => r.json() as Promise<Record<string, unknown>>)

describe('payOnCheckoutPage', () => {
  it('pays with the succeeding test card and the default buyer, as the page posts it', async () => {
    const link = await api('/paymentlink/checkout', {
      amount: 20,
      successUrl: 'https://shop.example/ok',
    })
    const res = await payOnCheckoutPage(String(link['paymentLinkUrl']))
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('https://shop.example/ok')
    const order = await api(`/paymentlink/order/${String(link['orderCode'])}`)
    expect(order).toMatchObject({
      orderStatus: 'PAID',
      payment: { buyer: { name: 'ANA MORA', email: 'ana@example.com' } },
    })
    const posted = sandbox.requests().find((r) => r.path.startsWith('/pay/'))
    expect(posted?.body).toContain('action=pay')
    expect(posted?.body).not.toContain(testCards.success.number)
  })

  it('sends the fields it is given instead of the defaults', async () => {
    const link = await api('/paymentlink/checkout', { amount: 4 })
    const res = await payOnCheckoutPage(String(link['paymentLinkUrl']), {
      number: testCards.declined.number,
    })
    expect(res.status).not.toBe(303)
    const order = await api(`/paymentlink/order/${String(link['orderCode'])}`)
    expect(order['orderStatus']).toBe('PENDING')
  })
})
