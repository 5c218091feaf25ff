// Conformance (black box, the built CLI over HTTP): spec 4.1 / 5 and the sandbox's
// credentials (docs/service.md#credentials-and-tokens).
import { describe, expect, it } from 'vitest'
import {
  call,
  cardBody,
  createCard,
  credentials,
  expectProblem,
  startCli,
  token,
  useCli,
} from './support.js'

const cli = useCli()

describe('POST /token', () => {
  it('gives accessToken, tokenType Bearer, expiresIn 3600 for the default credentials', async () => {
    const res = await call(cli.url, 'POST', '/token', {
      body: { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/application\/json/)
    expect(res.json).toEqual({
      accessToken: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: 3600,
    })
    expect(res.json.accessToken.length).toBeGreaterThan(0)
  })

  it('gives a different token on each call, each of them usable', async () => {
    const [a, b] = [await token(cli.url), await token(cli.url)]
    expect(a).not.toBe(b)
    for (const t of [a, b]) {
      expect((await createCard(cli.url, t, '4242424242424242')).status).toBe(200)
    }
  })

  it.each([
    ['wrong secret', { clientId: 'sandbox-client', clientSecret: 'nope-not-the-secret' }],
    ['wrong client id', { clientId: 'someone', clientSecret: 'sandbox-secret' }],
    ['both wrong', { clientId: 'x-client', clientSecret: 'y-secret-zz' }],
  ])('refuses %s with 401 problem details, without echoing the secret', async (_, body) => {
    const res = await call(cli.url, 'POST', '/token', { body })
    expectProblem(res, 401)
    expect(res.text).not.toContain(body.clientSecret)
  })

  it('refuses the API key as a client secret', async () => {
    const res = await call(cli.url, 'POST', '/token', {
      body: { clientId: credentials.clientId, clientSecret: credentials.apiKey },
    })
    expectProblem(res, 401)
  })

  it('refuses a body without credentials with 4xx problem details', async () => {
    const res = await call(cli.url, 'POST', '/token', { body: {} })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    expectProblem(res, res.status)
  })
})

/** Every endpoint but /token, each with a valid body, so only the credential is wrong. */
const endpoints: ReadonlyArray<readonly [string, string, unknown]> = [
  ['POST', '/paymentmethods', cardBody('4242424242424242')],
  [
    'POST',
    '/charges',
    {
      order: { id: 'o', amount: 1, description: 'd', name: 'n' },
      cardId: 'pm_x',
      authenticationId: null,
    },
  ],
  ['POST', '/paymentlink/checkout', { amount: 10 }],
  ['GET', '/paymentlink/order/OC00001001', undefined],
]

describe('bearer credential on every other endpoint', () => {
  const badHeaders: ReadonlyArray<readonly [string, Record<string, string>]> = [
    ['missing', {}],
    ['empty', { authorization: '' }],
    ['Bearer without a credential', { authorization: 'Bearer' }],
    ['Bearer and a blank', { authorization: 'Bearer   ' }],
    ['Basic scheme', { authorization: `Basic ${btoa('sandbox-client:sandbox-secret')}` }],
    ['the token without a scheme', { authorization: 'sandbox-api-key' }],
    ['unknown token', { authorization: 'Bearer sim_at_999_unknown' }],
    ['the client secret', { authorization: 'Bearer sandbox-secret' }],
  ]
  for (const [method, path, body] of endpoints) {
    it.each(badHeaders)(`${method} ${path}: %s -> 401 problem details`, async (_, headers) => {
      const res = await call(cli.url, method, path, {
        headers,
        ...(body === undefined ? {} : { body }),
      })
      expectProblem(res, 401)
      expect(res.text).not.toContain('4242424242424242')
    })
  }

  it('a token of another sandbox (another process) is unknown here', async () => {
    const other = await startCli()
    try {
      const foreign = await token(other.url)
      const mine = await token(cli.url)
      // Both sandboxes number tokens the same way: only a foreign one that differs is a test.
      if (foreign !== mine) {
        expectProblem(await createCard(cli.url, foreign, '4242424242424242'), 401)
      }
    } finally {
      await other.stop()
    }
  })
})

describe('WWW-Authenticate on a 401 (RFC 6750 3.1)', () => {
  it('names the Bearer scheme; error="invalid_token" only when a bearer credential was sent', async () => {
    const missing = await call(cli.url, 'POST', '/paymentmethods', {
      body: cardBody('4242424242424242'),
    })
    expect(missing.status).toBe(401)
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer\b/)
    expect(missing.headers.get('www-authenticate')).not.toMatch(/error=/)
    const basic = await call(cli.url, 'POST', '/paymentmethods', {
      body: cardBody('4242424242424242'),
      headers: { authorization: 'Basic eDp5' },
    })
    expect(basic.headers.get('www-authenticate')).not.toMatch(/error=/)
    const unknown = await createCard(cli.url, 'not-a-token', '4242424242424242')
    expect(unknown.headers.get('www-authenticate')).toMatch(/^Bearer\b.*error="invalid_token"/)
  })

  it('a lower-case "bearer" scheme is accepted (auth schemes are case-insensitive)', async () => {
    const res = await call(cli.url, 'POST', '/paymentlink/checkout', {
      headers: { authorization: 'bearer sandbox-api-key' },
      body: { amount: 1 },
    })
    expect(res.status).toBe(200)
  })
})

describe('which credential each endpoint takes (spec 5.4, DESIGN)', () => {
  it('payment-link endpoints take the API key', async () => {
    const created = await call(cli.url, 'POST', '/paymentlink/checkout', {
      bearer: credentials.apiKey,
      body: { amount: 10 },
    })
    expect(created.status).toBe(200)
    const read = await call(cli.url, 'GET', `/paymentlink/order/${created.json.orderCode}`, {
      bearer: credentials.apiKey,
    })
    expect(read.status).toBe(200)
  })

  it('payment-link endpoints take the access token too', async () => {
    const t = await token(cli.url)
    const created = await call(cli.url, 'POST', '/paymentlink/checkout', {
      bearer: t,
      body: { amount: 10 },
    })
    expect(created.status).toBe(200)
    const read = await call(cli.url, 'GET', `/paymentlink/order/${created.json.orderCode}`, {
      bearer: t,
    })
    expect(read.status).toBe(200)
    expect(read.json.orderCode).toBe(created.json.orderCode)
  })

  it('a wrong API key is 401 on the payment-link endpoints', async () => {
    expectProblem(
      await call(cli.url, 'POST', '/paymentlink/checkout', {
        bearer: 'sandbox-api-key-wrong',
        body: { amount: 10 },
      }),
      401,
    )
  })
})
