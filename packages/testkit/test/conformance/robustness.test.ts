// Conformance (black box, the built CLI over HTTP): bad requests get 4xx problem details
// and the sandbox keeps serving; it listens on 127.0.0.1 only.
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { call, credentials, expectProblem, token, useCli } from './support.js'

const cli = useCli()
// After every abuse the sandbox still serves, and the process is alive.
afterEach(async () => {
  expect(cli.process.exitCode).toBeNull()
  expect((await token(cli.url)).length).toBeGreaterThan(0)
})

const is4xxProblem = (res: { status: number; json: unknown }): void => {
  expect(res.status).toBeGreaterThanOrEqual(400)
  expect(res.status).toBeLessThan(500)
  expectProblem(res as Parameters<typeof expectProblem>[0], res.status)
}

describe('bad requests', () => {
  it.each(['/token', '/paymentmethods', '/charges', '/paymentlink/checkout'])(
    'malformed JSON on %s -> 4xx problem details',
    async (path) => {
      const t = path === '/paymentlink/checkout' ? credentials.apiKey : await token(cli.url)
      const res = await call(cli.url, 'POST', path, { bearer: t, rawBody: '{"amount": 10,' })
      is4xxProblem(res)
    },
  )

  it('malformed JSON on /token is 400', async () => {
    expectProblem(await call(cli.url, 'POST', '/token', { rawBody: '{not json' }), 400)
  })

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
    'content type %s -> 4xx problem details',
    async (contentType) => {
      const res = await call(cli.url, 'POST', '/token', {
        rawBody: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
        contentType,
      })
      is4xxProblem(res)
      expect(res.text).not.toContain('sandbox-secret')
    },
  )

  it('a body of 2 MB -> 413 problem details', async () => {
    const res = await call(cli.url, 'POST', '/paymentlink/checkout', {
      bearer: credentials.apiKey,
      body: { amount: 1, orderDescription: 'x'.repeat(2 * 1024 * 1024) },
    })
    expectProblem(res, 413)
  })

  it.each([
    ['GET', '/'],
    ['GET', '/nothing/here'],
    ['POST', '/tokens'],
    ['GET', '/paymentlink'],
    ['POST', '/paymentlink/order/OC00001001/extra'],
  ])('unknown route %s %s -> 4xx problem details', async (method, path) => {
    is4xxProblem(await call(cli.url, method, path, { bearer: credentials.apiKey }))
  })

  it.each([
    ['GET', '/token'],
    ['DELETE', '/charges'],
    ['PUT', '/paymentlink/checkout'],
  ])('wrong method %s %s -> 4xx problem details', async (method, path) => {
    is4xxProblem(await call(cli.url, method, path, { bearer: credentials.apiKey }))
  })

  it('JSON that is not an object (null, a number, an array) -> 400', async () => {
    for (const rawBody of ['null', '42', '[]', '"text"']) {
      const res = await call(cli.url, 'POST', '/token', { rawBody })
      expectProblem(res, 400)
    }
  })

  it('bytes that are not HTTP get an answer (or a close), and the server stays up', async () => {
    await new Promise<void>((resolve) => {
      const socket = connect(cli.port, '127.0.0.1', () => socket.end('\x00\x01garbage\r\n\r\n'))
      socket.on('data', () => undefined)
      socket.on('close', () => resolve())
      socket.on('error', () => resolve())
      socket.setTimeout(3000, () => socket.destroy())
    })
  })

  it('a client that hangs up mid-body does not take the server down', async () => {
    await new Promise<void>((resolve) => {
      const socket = connect(cli.port, '127.0.0.1', () => {
        socket.write(
          'POST /token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"cli',
        )
        setTimeout(() => socket.destroy(), 50)
      })
      socket.on('close', () => resolve())
      socket.on('error', () => resolve())
    })
  })
})

describe('HEAD (RFC 9110: a general-purpose server supports GET and HEAD)', () => {
  it('HEAD of the checkout page and of an order: the GET status and type, no body', async () => {
    const link = await call(cli.url, 'POST', '/paymentlink/checkout', {
      bearer: credentials.apiKey,
      body: { amount: 2 },
    })
    const page = await fetch(link.json.paymentLinkUrl as string, { method: 'HEAD' })
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/text\/html/)
    expect(await page.text()).toBe('')
    const order = await call(cli.url, 'HEAD', `/paymentlink/order/${link.json.orderCode}`, {
      bearer: credentials.apiKey,
    })
    expect(order.status).toBe(200)
    expect(order.headers.get('content-type')).toMatch(/application\/json/)
    expect(order.text).toBe('')
    expect(
      (await call(cli.url, 'HEAD', '/paymentlink/order/OC99999999', { bearer: credentials.apiKey }))
        .status,
    ).toBe(404)
    expect((await call(cli.url, 'HEAD', `/paymentlink/order/${link.json.orderCode}`)).status).toBe(
      401,
    )
  })

  it('HEAD is safe: HEAD <authentication.url>?result=failed records nothing', async () => {
    const t = await token(cli.url)
    const card = await call(cli.url, 'POST', '/paymentmethods', {
      bearer: t,
      body: {
        card: {
          number: '4000000000003220',
          expirationMonth: '12',
          expirationYear: '2040',
          cvv: '123',
        },
      },
    })
    const first = await call(cli.url, 'POST', '/charges', {
      bearer: t,
      body: { order: { id: 'head-3ds', amount: 1 }, cardId: card.json.id, authenticationId: null },
    })
    const url = new URL(first.json.authentication.url as string)
    url.searchParams.set('result', 'failed')
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(200)
    url.searchParams.set('result', 'success')
    const page = await (await fetch(url)).text()
    expect(page).toContain('"Status":"SUCCESS"')
  })

  it('a POST-only endpoint answers HEAD with 405 and allow', async () => {
    const res = await call(cli.url, 'HEAD', '/token')
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST')
  })
})

describe('where it listens', () => {
  it('prints listening on http://127.0.0.1:<port>', () => {
    expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it('is not bound to every address (127.0.0.2 is refused)', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const socket = connect(cli.port, '127.0.0.2')
      socket.on('connect', () => {
        socket.destroy()
        resolve('connected')
      })
      socket.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'))
    })
    expect(outcome).toBe('ECONNREFUSED')
  })
})
