import { REDACTED, redactBody } from '@paykit/core/client'
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { makeLiveService } from '../../src/service/LiveService.js'
import { logEntry, makeRequestLog } from '../../src/service/RequestLog.js'
import { defaultCredentials } from '../../src/simulator/TestCards.js'

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

  it('logs a JSON body as the core redacts it, whatever it holds', () => {
    const secret = 'whsec-xyz'
    const text = fc.oneof(
      fc.string(),
      fc.constantFrom(secret, `id ${secret}`, '4242 4242 4242 4242', '123', '', 'a"b\\c'),
    )
    const key = fc.oneof(
      fc.string(),
      fc.constantFrom('card', 'number', 'cvv', 'clientSecret', 'Api-Key', '__proto__', secret),
    )
    const leaf = fc.oneof(text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null))
    const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('tree'), { maxLength: 4 }),
        fc.dictionary(key, tie('tree'), { maxKeys: 4 }),
      ),
    }))
    const nested = fc.integer({ min: 30, max: 36 }).map((n) => {
      let v: unknown = { cvv: '123' }
      for (let i = 0; i < n; i++) v = { a: [v] }
      return v
    })
    fc.assert(
      fc.property(fc.oneof(tree, nested), fc.constantFrom('', ' ', '\n  '), (value, pad) => {
        const body = `${pad}${JSON.stringify(value) ?? 'null'}`
        const entry = logEntry(
          { method: 'POST', path: '/', headers: {}, body },
          new Date(0),
          200,
          undefined,
          [secret],
        )
        expect(entry.body).toBe(redactBody(body, [secret, encodeURIComponent(secret)]))
      }),
      { numRuns: 2000 },
    )
  })

  it('keeps the scheme of a credential header only when it hides nothing', () => {
    const headersOf = (value: string, secrets: ReadonlyArray<string> = []) =>
      logEntry(
        { method: 'GET', path: '/', headers: { authorization: value }, body: '' },
        new Date(0),
        200,
        undefined,
        secrets,
      ).headers['authorization']
    expect(headersOf('Bearer sandbox-api-key', ['sandbox-api-key'])).toBe(`Bearer ${REDACTED}`)
    expect(headersOf('sandbox-api-key')).toBe(REDACTED)
    expect(headersOf('sandbox-api-key x', ['sandbox-api-key'])).toBe(`${REDACTED} ${REDACTED}`)
    expect(headersOf('4242424242424242 x')).toBe(`${REDACTED} ${REDACTED}`)
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
    // The entries' times left out: a time's milliseconds can read .987.
    const log = JSON.stringify(service.requests().map(({ at: _at, ...entry }) => entry))
    expect(log).not.toMatch(/4242[ +-]?4242[ +-]?4242[ +-]?4242|(?<!\d)987(?!\d)/)
  })
})

describe('the request log ring', () => {
  it('keeps the last `size` entries, dropping the oldest', () => {
    const log = makeRequestLog(3)
    const entry = (n: number) => logEntry(get(`/p${n}`), new Date(0), 200, undefined)
    for (const n of [1, 2, 3, 4, 5]) log.add(entry(n))
    expect(log.entries().map((e) => e.path)).toEqual(['/p3', '/p4', '/p5'])
    log.clear()
    expect(log.entries()).toEqual([])
    expect(() => makeRequestLog(0)).toThrow(RangeError)
  })

  it('a live service keeps `requestLogSize` requests (default 1000)', () => {
    const small = makeLiveService({ baseUrl: 'http://sandbox.test', requestLogSize: 2 })
    for (const n of [1, 2, 3]) small.exchange(get(`/unknown/${n}`))
    expect(small.requests().map((r) => r.path)).toEqual(['/unknown/2', '/unknown/3'])
    const service = makeLiveService({ baseUrl: 'http://sandbox.test' })
    for (let n = 0; n < 1001; n++) service.exchange(get(`/unknown/${n}`))
    expect(service.requests()).toHaveLength(1000)
    expect(service.requests()[0]?.path).toBe('/unknown/1')
  })
})

describe('redaction of what the log keeps', () => {
  const service = () => makeLiveService({ baseUrl: 'http://sandbox.test', secrets: ['whsec-xyz'] })
  const logged = (s: ReturnType<typeof service>) => JSON.stringify(s.requests())

  it('holds no client secret of a /token body that is not well-formed JSON', () => {
    const s = service()
    for (const body of [
      `{"clientId":"${defaultCredentials.clientId}","clientSecret":"${defaultCredentials.clientSecret}"`,
      '{"clientId":"c","clientSecret":"another-secret-1"',
      '{"clientSecret":"cut-short-secret',
    ]) {
      const r = s.exchange({
        method: 'POST',
        path: '/token',
        headers: { 'content-type': 'application/json' },
        body,
      })
      expect(r.response.status).toBe(400)
    }
    const log = logged(s)
    expect(log).not.toContain(defaultCredentials.clientSecret)
    expect(log).not.toContain('another-secret-1')
    expect(log).not.toContain('cut-short-secret')
    expect(s.requests()[1]?.body).toContain('"clientId":"c"')
  })

  it('holds no secret of a query string, by name or as a configured secret', () => {
    const s = service()
    s.exchange(
      get(
        `/paymentlink/order/OC1?client_secret=abc-123-def&access_token=tok-999&x=${defaultCredentials.apiKey}&card=4242424242424242&page=2`,
      ),
    )
    const path = s.requests()[0]?.path ?? ''
    expect(path).not.toMatch(/abc-123-def|tok-999|4242424242424242/)
    expect(path).not.toContain(defaultCredentials.apiKey)
    expect(path).toContain('page=2')
    expect(path).toContain(`client_secret=${REDACTED}`)
  })

  it('holds no configured secret in a path, a header or a body, as written or percent-encoded', () => {
    const s = service()
    s.exchange({
      method: 'POST',
      path: `/paymentlink/order/${defaultCredentials.clientSecret}/whsec-xyz`,
      headers: { 'x-note': `key ${defaultCredentials.apiKey}`, 'user-agent': 'test' },
      body: `note=${encodeURIComponent('whsec-xyz')}&other=1`,
    })
    const log = logged(s)
    for (const secret of [defaultCredentials.clientSecret, defaultCredentials.apiKey, 'whsec-xyz'])
      expect(log).not.toContain(secret)
    expect(s.requests()[0]?.headers['user-agent']).toBe('test')
  })
})

const get = (path: string) => ({ method: 'GET', path, headers: {}, body: '' })
