// Conformance (black box, the built CLI over HTTP): issue 3's injected faults through the
// control endpoints, and concurrent requests.
import { beforeEach, describe, expect, it } from 'vitest'
import { call, charge, createCard, credentials, payByForm, token, useCli } from './support.js'

const cli = useCli(['--control'])
beforeEach(async () => {
  expect((await call(cli.url, 'DELETE', '/__sandbox/faults')).status).toBe(200)
})

const inject = async (fault: Record<string, unknown>): Promise<void> => {
  expect((await call(cli.url, 'POST', '/__sandbox/faults', { body: fault })).status).toBe(200)
}
const tokenBody = { clientId: credentials.clientId, clientSecret: credentials.clientSecret }

describe('faults', () => {
  it('status500: the 7.2 server problem (type 6.6.1, title, status 500, no errors), once', async () => {
    await inject({ fault: 'status500', times: 1 })
    const res = await call(cli.url, 'POST', '/token', { body: tokenBody })
    expect(res.status).toBe(500)
    expect(res.json.type).toMatch(/7231.*6\.6\.1/)
    expect(typeof res.json.title).toBe('string')
    expect(res.json.status).toBe(500)
    expect('errors' in res.json).toBe(false)
    expect((await call(cli.url, 'POST', '/token', { body: tokenBody })).status).toBe(200)
  })

  it('status500 for a path only', async () => {
    await inject({ fault: 'status500', path: '/paymentlink/**' })
    const link = await call(cli.url, 'POST', '/paymentlink/checkout', {
      bearer: credentials.apiKey,
      body: { amount: 1 },
    })
    expect(link.status).toBe(500)
    expect((await call(cli.url, 'POST', '/token', { body: tokenBody })).status).toBe(200)
  })

  it('malformedBody: the real status, a body that is not JSON', async () => {
    await inject({ fault: 'malformedBody', path: '/token', times: 1 })
    const res = await call(cli.url, 'POST', '/token', { body: tokenBody })
    expect(res.status).toBe(200)
    expect(res.json).toBeUndefined()
  })

  it('truncatedBody: reading the body fails', async () => {
    await inject({ fault: 'truncatedBody', times: 1 })
    const res = await fetch(`${cli.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(tokenBody),
    })
    expect(res.status).toBe(200)
    await expect(res.text()).rejects.toThrow()
  })

  it('connectionReset after the charge was read: the charge is recorded (a retry is DUPLICATE_ORDER)', async () => {
    const t = await token(cli.url)
    const card = await createCard(cli.url, t, '4242424242424242')
    await inject({ fault: 'connectionReset', method: 'POST', path: '/charges', times: 1 })
    await expect(charge(cli.url, t, card.json.id, 'fault-reset-1')).rejects.toThrow()
    const retry = await charge(cli.url, t, card.json.id, 'fault-reset-1')
    expect(retry.json.error?.code).toBe('DUPLICATE_ORDER')
  })

  it('processedThen500: the charge is recorded, then a 500 (a retry is DUPLICATE_ORDER)', async () => {
    const t = await token(cli.url)
    const card = await createCard(cli.url, t, '4242424242424242')
    await inject({ fault: 'processedThen500', method: 'POST', path: '/charges', times: 1 })
    const first = await charge(cli.url, t, card.json.id, 'fault-500-1')
    expect(first.status).toBe(500)
    expect(first.json.type).toMatch(/7231.*6\.6\.1/)
    const retry = await charge(cli.url, t, card.json.id, 'fault-500-1')
    expect(retry.json.error?.code).toBe('DUPLICATE_ORDER')
  })

  it('offContractBody: the real status, JSON off the contract; the token was issued', async () => {
    await inject({ fault: 'offContractBody', path: '/token', times: 1 })
    const res = await call(cli.url, 'POST', '/token', { body: tokenBody })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ unexpected: 'a body off the contract' })
  })

  it('hang: no answer before a client timeout; the next request is served', async () => {
    await inject({ fault: 'hang', times: 1 })
    await expect(
      fetch(`${cli.url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(tokenBody),
        signal: AbortSignal.timeout(400),
      }),
    ).rejects.toThrow()
    expect((await call(cli.url, 'POST', '/token', { body: tokenBody })).status).toBe(200)
  })

  it('latency delays the answer', async () => {
    await inject({ fault: 'latency', ms: 300, times: 1 })
    const started = Date.now()
    expect((await call(cli.url, 'POST', '/token', { body: tokenBody })).status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)
  })

  it('an unknown fault is 400 naming fault', async () => {
    const res = await call(cli.url, 'POST', '/__sandbox/faults', { body: { fault: 'explode' } })
    expect(res.status).toBe(400)
    expect(Object.keys(res.json.errors as object)).toContain('fault')
  })
})

describe('concurrency', () => {
  it('six concurrent charges of one order: exactly one SUCCEEDED, the rest DUPLICATE_ORDER', async () => {
    const t = await token(cli.url)
    const card = await createCard(cli.url, t, '4242424242424242')
    const results = await Promise.all(
      Array.from({ length: 6 }, () => charge(cli.url, t, card.json.id, 'conc-order')),
    )
    const statuses = results.map((r) => r.json.status as string)
    expect(statuses.filter((s) => s === 'SUCCEEDED')).toHaveLength(1)
    expect(results.filter((r) => r.json.error?.code === 'DUPLICATE_ORDER')).toHaveLength(5)
  })

  it('concurrent payments of one link: one PAID, the others refused', async () => {
    const link = await call(cli.url, 'POST', '/paymentlink/checkout', {
      bearer: credentials.apiKey,
      body: { amount: 4 },
    })
    const pay = () => payByForm(link.json.paymentLinkUrl as string, 1)
    const answers = await Promise.all([pay(), pay(), pay(), pay()])
    expect(answers.filter((a) => a.status < 400)).toHaveLength(1)
    const order = await call(cli.url, 'GET', `/paymentlink/order/${link.json.orderCode}`, {
      bearer: credentials.apiKey,
    })
    expect(order.json.orderStatus).toBe('PAID')
  })
})
