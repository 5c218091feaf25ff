import { REDACTED } from '@paykit/core'
import { describe, expect, it } from 'vitest'
import { makeLiveService } from '../src/LiveService.js'
import { logEntry } from '../src/RequestLog.js'
import { defaultCredentials } from '../src/TestCards.js'

describe('logEntry', () => {
  it('redacts the request and keeps method, path, status and fault', () => {
    const entry = logEntry(
      {
        method: 'POST',
        path: '/paymentmethods',
        headers: { authorization: 'Bearer t' },
        body: '{"card":{"number":"4242424242424242"}}',
      },
      new Date('2026-01-01T00:00:00.000Z'),
      undefined,
      'connectionReset',
    )
    expect(entry).toEqual({
      at: '2026-01-01T00:00:00.000Z',
      method: 'POST',
      path: '/paymentmethods',
      headers: { authorization: `Bearer ${REDACTED}` },
      body: `{"card":{"number":"${REDACTED}"}}`,
      status: undefined,
      fault: 'connectionReset',
    })
  })
})

describe('the sandbox request log', () => {
  it('holds no card number or CVV of a checkout form POST', () => {
    const service = makeLiveService({ baseUrl: 'http://sandbox.test' })
    const created = service.exchange({
      method: 'POST',
      path: '/paymentlink/checkout',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${defaultCredentials.apiKey}`,
      },
      body: JSON.stringify({ amount: 30 }),
    })
    const { orderCode } = JSON.parse(created.response.body) as { orderCode: string }
    const form = new URLSearchParams({
      action: 'pay',
      number: '4242 4242 4242 4242',
      expirationMonth: '12',
      expirationYear: String(new Date().getUTCFullYear() + 1),
      cvv: '987',
      cardHolder: 'Grace Hopper',
      email: 'grace@example.com',
    })
    const paid = service.exchange({
      method: 'POST',
      path: `/pay/${orderCode}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: 'sid=4242424242424242',
      },
      body: `${form.toString()}&`,
    })
    expect(paid.response.status).toBe(200)
    expect(service.events().map((e) => e.type)).toEqual(['order.paid'])
    const entry = service.requests().find((r) => r.path === `/pay/${orderCode}`)
    expect(entry?.body).toContain(`number=${REDACTED}`)
    expect(entry?.body).toContain(`cvv=${REDACTED}`)
    expect(entry?.body).toContain('cardHolder=Grace')
    const log = JSON.stringify(service.requests())
    expect(log).not.toMatch(/4242[ +-]?4242[ +-]?4242[ +-]?4242|(?<!\d)987(?!\d)/)
  })
})
