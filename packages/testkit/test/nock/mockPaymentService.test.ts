// @paykit-test own-worker: nock's interceptors
import { spawnSync } from 'node:child_process'
import { request as httpsRequest } from 'node:https'
import { fileURLToPath } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import nock from 'nock'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '@paykit/core'
import { mockPaymentService, type PaymentServiceMock } from '../../src/nock/mockPaymentService.js'
import { defaultCredentials, testCards } from '../../src/simulator/TestCards.js'
import { cardBody, chargeBody, clientOf, describeOverHttp } from '../sandbox/httpSuite.js'

const BASE = 'https://api.paykit.test'

describeOverHttp('mockPaymentService through nock (native fetch)', () => {
  const mock = mockPaymentService({ baseUrl: BASE })
  return Promise.resolve({ ...mock, close: () => Promise.resolve(mock.restore()) })
})

describe('mockPaymentService handle', () => {
  let mock: PaymentServiceMock | undefined
  afterEach(() => {
    mock?.restore()
    mock = undefined
    nock.enableNetConnect()
  })

  it('logs requests with the bearer, client secret, card number and CVV redacted', async () => {
    mock = mockPaymentService({ baseUrl: BASE })
    const api = clientOf(BASE)
    const token = await api.token()
    await api.card(token, testCards.success.number)
    const log = mock.requests()
    expect(log.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /token 200',
      `POST /paymentmethods ${log[1]?.status}`,
    ])
    const printed = JSON.stringify(log)
    expect(printed).not.toContain(token)
    expect(printed).not.toContain(defaultCredentials.clientSecret)
    expect(printed).not.toContain(testCards.success.number)
    expect(printed).not.toContain('"123"')
    expect(log[1]?.headers['authorization']).toBe('Bearer [redacted]')
  })

  it('assertNoUnexpectedRequests passes for service routes and names an unknown route', async () => {
    mock = mockPaymentService({ baseUrl: BASE })
    const api = clientOf(BASE)
    await api.token()
    await api.get('/paymentlink/order/UNKNOWN', defaultCredentials.apiKey)
    expect(() => mock?.assertNoUnexpectedRequests()).not.toThrow()
    await api.get('/not/a/route')
    expect(mock.unexpectedRequests().map((r) => r.path)).toEqual(['/not/a/route'])
    expect(() => mock?.assertNoUnexpectedRequests()).toThrow(/GET \/not\/a\/route/)
  })

  it('restore removes its interceptors', async () => {
    mock = mockPaymentService({ baseUrl: BASE })
    expect(mock.pendingMocks().length).toBeGreaterThan(0)
    mock.restore()
    nock.disableNetConnect()
    await expect(clientOf(BASE).token()).rejects.toThrow()
  })

  it('restore releases a hanging request instead of keeping it (and its timer) alive', async () => {
    mock = mockPaymentService({ baseUrl: BASE })
    mock.injectFault({ kind: 'hang' })
    const pending = clientOf(BASE).post('/token', {})
    await new Promise((resolve) => setTimeout(resolve, 50))
    const started = Date.now()
    mock.restore()
    await expect(pending).rejects.toThrow()
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('lets a plain Node process exit after restore(), even with a hanging request', () => {
    // Run from the built dist, as a user's script would import it.
    const script = `
      import { mockPaymentService } from './dist/nock/index.js'
      const mock = mockPaymentService({ baseUrl: '${BASE}' })
      mock.injectFault({ kind: 'hang' })
      fetch('${BASE}/token', { method: 'POST', body: '{}' }).catch(() => console.log('released'))
      // restore() once the mock holds the request: on Node 22 it arrives later than on 24
      const held = setInterval(() => {
        if (mock.requests().length === 0) return
        clearInterval(held)
        mock.restore()
      }, 10)
    `
    const started = Date.now()
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      encoding: 'utf8',
      timeout: 20_000,
    })
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout.trim()).toBe('released')
    expect(Date.now() - started).toBeLessThan(15_000)
  })

  it('reset forgets tokens, orders and the log', async () => {
    mock = mockPaymentService({ baseUrl: BASE })
    const api = clientOf(BASE)
    const token = await api.token()
    const link = await api.link()
    mock.reset()
    expect(mock.requests()).toEqual([])
    expect(mock.state().orders).toEqual({})
    expect(
      (await api.post('/paymentmethods', cardBody(testCards.success.number), token)).status,
    ).toBe(401)
    expect(() => mock?.payOrder(link.orderCode)).toThrow()
  })

  it('controls pay and cancel orders and record events; refusals throw with the reason', async () => {
    mock = mockPaymentService({ baseUrl: BASE })
    const api = clientOf(BASE)
    const paid = await api.link()
    const cancelled = await api.link()
    mock.payOrder(paid.orderCode)
    mock.cancelOrder(cancelled.orderCode)
    expect(mock.events().map((e) => [e.type, e.data.orderCode])).toEqual([
      ['order.paid', paid.orderCode],
      ['order.cancelled', cancelled.orderCode],
    ])
    expect(() => mock?.payOrder(cancelled.orderCode)).toThrow(/CANCELLED/)
    expect(() => mock?.completeAuthentication('nope', 'success')).toThrow()
  })

  it('serves a base URL with a path prefix, and only under it', async () => {
    mock = mockPaymentService({ baseUrl: `${BASE}/v1` })
    nock.disableNetConnect()
    const api = clientOf(`${BASE}/v1`)
    const token = await api.token()
    const cardId = await api.card(token, testCards.success.number)
    const res = await api.post('/charges', chargeBody('p-1', cardId), token)
    expect(await res.json()).toMatchObject({ status: 'SUCCEEDED' })
    await expect(clientOf(BASE).token()).rejects.toThrow()
  })

  it('answers node:https clients too (as n8n request helpers use)', async () => {
    mock = mockPaymentService({ baseUrl: BASE })
    const body = JSON.stringify({
      clientId: defaultCredentials.clientId,
      clientSecret: defaultCredentials.clientSecret,
    })
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpsRequest(
        `${BASE}/token`,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (res) => {
          let text = ''
          res.on('data', (chunk: Buffer) => (text += chunk.toString()))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
        },
      )
      req.on('error', reject)
      req.end(body)
    })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toMatchObject({ tokenType: 'Bearer' })
  })
})

describe('a request that no mock matches', () => {
  it('is answered 501 "no mock matched" with the method, path, baseUrl and routes; the client says so', async () => {
    const mock = mockPaymentService({ baseUrl: `${BASE}/v1` })
    try {
      const client = createClient({
        baseUrl: `${BASE}/v2`,
        credentials: defaultCredentials,
        retry: { maxAttempts: 1 },
      })
      const token = await client.getToken()()
      expect(token).toMatchObject({ _tag: 'Left', left: { _tag: 'HttpError', status: 501 } })
      const message = E.isLeft(token) ? token.left.message : ''
      expect(message).toContain('No mock matched POST /v2/token')
      expect(message).toContain(`${BASE}/v1`)
      expect(mock.requests()).toEqual([]) // nothing reached the simulator
      const problem =
        E.isLeft(token) && token.left._tag === 'HttpError' ? token.left.problem : undefined
      expect(problem?.detail).toContain('POST /token')
      expect(problem?.detail).toContain('GET /paymentlink/order/{orderCode}')
      expect(mock.unexpectedRequests().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
        'POST /v2/token 501',
      ])
      expect(JSON.stringify(mock.unexpectedRequests())).not.toContain(
        defaultCredentials.clientSecret,
      )
      expect(() => mock.assertNoUnexpectedRequests()).toThrow(/POST \/v2\/token/)
    } finally {
      mock.restore()
    }
  })

  it('stays matched under the prefix, and restore() removes the fallback too', async () => {
    const mock = mockPaymentService({ baseUrl: `${BASE}/v1` })
    const ok = await fetch(`${BASE}/v1/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        clientId: defaultCredentials.clientId,
        clientSecret: defaultCredentials.clientSecret,
      }),
    })
    expect(ok.status).toBe(200)
    const elsewhere = await fetch(`${BASE}/elsewhere`)
    expect(elsewhere.status).toBe(501)
    expect(await elsewhere.text()).toContain('No mock matched GET /elsewhere')
    mock.restore()
    const after = await fetch(`${BASE}/elsewhere`).then(
      async (r) => `${r.status} ${await r.text()}`,
      (e: unknown) => String(e),
    )
    expect(after).not.toContain('No mock matched')
  })
})
