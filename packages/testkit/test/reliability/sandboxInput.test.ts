// Issue 10, sandbox input: every hostile or broken request gets a problem-details 4xx
// (never a crash or a hang), and the sandbox goes on serving: after each case a GET of an
// existing order still answers 200.
import { connect } from 'node:net'
import { request as httpRequest } from 'node:http'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
// Not the package root: nock, which it loads, would hold the streamed bodies below.
import type { Sandbox } from '../../src/sandbox/startSandbox.js'
import { DEFAULT_MAX_BODY_BYTES } from '../../src/simulator/State.js'
import { defaultCredentials } from '../../src/simulator/TestCards.js'
import {
  deepArrayText,
  expectProblem4xx,
  jsonCall,
  rawCall,
  sandboxWith,
  type Answer,
} from './support.js'

const apiKey = defaultCredentials.apiKey
const json = { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` }

let sandbox: Sandbox
let orderCode: string

beforeAll(async () => {
  sandbox = await sandboxWith()
  const link = await jsonCall(sandbox.url, 'POST', '/paymentlink/checkout', { amount: 3 }, apiKey)
  expect(link.status).toBe(200)
  orderCode = (link.json as { orderCode: string }).orderCode
})
afterAll(async () => {
  await sandbox.close()
})
// After every case the sandbox still serves a read of an existing order.
afterEach(async () => {
  const order = await jsonCall(
    sandbox.url,
    'GET',
    `/paymentlink/order/${orderCode}`,
    undefined,
    apiKey,
  )
  expect(order.status).toBe(200)
  expect((order.json as { orderCode?: unknown }).orderCode).toBe(orderCode)
})

const checkout = (body: string | Buffer, headers: Record<string, string> = json) =>
  rawCall(sandbox.url, 'POST', '/paymentlink/checkout', { headers, body })

describe('bodies', () => {
  it('malformed JSON: 400 problem details', async () => {
    expectProblem4xx(await checkout('{"amount": 10,'), [400])
  })

  it.each([
    ['text/plain', { authorization: `Bearer ${apiKey}`, 'content-type': 'text/plain' }],
    ['no content type', { authorization: `Bearer ${apiKey}` }],
    ['application/xml', { authorization: `Bearer ${apiKey}`, 'content-type': 'application/xml' }],
  ] as const)('a JSON body with %s: 4xx problem details', async (_name, headers) => {
    expectProblem4xx(await checkout('{"amount": 10}', headers))
  })

  it('an empty body: 4xx problem details', async () => {
    expectProblem4xx(await checkout(''))
  })

  it('a body over the stated limit (declared length): 413 problem details', async () => {
    const body = JSON.stringify({ amount: 1, orderDescription: 'x'.repeat(DEFAULT_MAX_BODY_BYTES) })
    expectProblem4xx(await checkout(body), [413])
  })

  it('a chunked body over the limit that never ends: the 413 arrives before the body ends', async () => {
    const answer = await new Promise<{ status: number; type: string; text: string }>(
      (resolve, reject) => {
        const url = new URL(sandbox.url)
        const req = httpRequest({
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: '/paymentlink/checkout',
          headers: { ...json, 'transfer-encoding': 'chunked' },
          agent: false,
        })
        const chunk = Buffer.alloc(64 * 1024, 0x20)
        let written = 0
        let answered = false
        const timer = setTimeout(() => {
          req.destroy()
          reject(new Error(`no answer after ${written} bytes while the body was still open`))
          // The body never ends, so any answer comes before its end: the wait only bounds the
          // test (5 s ran out once beside the full suite on 2 cores; alone it takes ~50 ms).
        }, 20_000)
        const pump = (): void => {
          // Never ends the body: up to 16 times the limit, then wait for the answer.
          while (!answered && written < 16 * DEFAULT_MAX_BODY_BYTES) {
            written += chunk.length
            if (!req.write(chunk)) {
              req.once('drain', pump)
              return
            }
          }
        }
        req.on('error', () => undefined)
        req.on('response', (res) => {
          answered = true
          clearTimeout(timer)
          let text = ''
          res.on('data', (c: Buffer) => (text += c.toString()))
          const done = () => {
            req.destroy()
            resolve({
              status: res.statusCode ?? 0,
              type: String(res.headers['content-type']),
              text,
            })
          }
          res.on('end', done)
          res.on('error', done)
          res.on('close', done)
        })
        req.write('{"amount": 1, "orderDescription": "')
        pump()
      },
    )
    expect(answer.status).toBe(413)
    expect(answer.type).toMatch(/^application\/(problem\+)?json/)
  })

  it('JSON nested 100,000 deep: 4xx problem details', async () => {
    expectProblem4xx(await checkout(`{"amount": ${deepArrayText(100_000)}}`))
    expectProblem4xx(await checkout(deepArrayText(100_000)))
  })

  it('bytes that are not UTF-8 inside the JSON: 400 problem details', async () => {
    const body = Buffer.concat([
      Buffer.from('{"amount": 10, "orderName": "'),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x80]),
      Buffer.from('"}'),
    ])
    expectProblem4xx(await checkout(body), [400])
  })
})

describe('URLs, headers, routes and methods', () => {
  it('a 100 kB URL: 414, 431 or 400 problem details', async () => {
    const answer = await rawCall(sandbox.url, 'GET', `/paymentlink/order/${'A'.repeat(100_000)}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    })
    expectProblem4xx(answer, [400, 414, 431])
  })

  it('a 100 kB header: 431 or 400 problem details', async () => {
    const answer = await rawCall(sandbox.url, 'GET', `/paymentlink/order/${orderCode}`, {
      headers: { authorization: `Bearer ${apiKey}`, 'x-padding': 'p'.repeat(100_000) },
    })
    expectProblem4xx(answer, [400, 431])
  })

  it.each([
    ['GET', '/'],
    ['GET', '/nothing/here'],
    ['POST', '/tokens'],
    ['GET', '/paymentlink/order/'],
    ['POST', '/paymentlink/order/OC00001001/extra'],
    ['GET', '/%E0%A4%A'],
  ])('unknown route %s %s: 4xx problem details', async (method, path) => {
    expectProblem4xx(await jsonCall(sandbox.url, method, path, undefined, apiKey))
  })

  it.each([
    ['GET', '/token'],
    ['DELETE', '/charges'],
    ['PUT', '/paymentlink/checkout'],
    ['PATCH', '/paymentmethods'],
    ['POST', `/paymentlink/order/OC00001001`],
  ])('wrong method %s %s: 405 problem details', async (method, path) => {
    expectProblem4xx(await jsonCall(sandbox.url, method, path, {}, apiKey), [405])
  })
})

describe('numbers in amounts', () => {
  const errorsOf = (answer: Answer): ReadonlyArray<string> =>
    Object.keys((answer.json as { errors?: Record<string, unknown> } | undefined)?.errors ?? {})

  it.each(['1e400', '-0'])('amount %s: 400 naming amount', async (literal) => {
    const answer = await checkout(`{"amount": ${literal}}`)
    expectProblem4xx(answer, [400])
    expect(errorsOf(answer)).toContain('amount')
  })

  it.each(['1e400', '-0'])(
    'a charge of order.amount %s: 400 naming order.amount',
    async (literal) => {
      const token = await jsonCall(sandbox.url, 'POST', '/token', {
        clientId: defaultCredentials.clientId,
        clientSecret: defaultCredentials.clientSecret,
      })
      const accessToken = (token.json as { accessToken: string }).accessToken
      const card = await jsonCall(
        sandbox.url,
        'POST',
        '/paymentmethods',
        {
          card: {
            number: '4242424242424242',
            expirationMonth: '12',
            expirationYear: String(new Date().getUTCFullYear() + 2),
            cvv: '123',
          },
        },
        accessToken,
      )
      const cardId = (card.json as { id: string }).id
      const answer = await rawCall(sandbox.url, 'POST', '/charges', {
        headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
        body: `{"order": {"id": "num-${literal}", "amount": ${literal}}, "cardId": "${cardId}", "authenticationId": null}`,
      })
      expectProblem4xx(answer, [400])
      expect(errorsOf(answer)).toContain('order.amount')
    },
  )

  it('amount 0.1: accepted, and the order reads back exactly 0.1', async () => {
    const created = await checkout('{"amount": 0.1}')
    expect(created.status).toBe(200)
    const code = (created.json as { orderCode: string }).orderCode
    const order = await jsonCall(
      sandbox.url,
      'GET',
      `/paymentlink/order/${code}`,
      undefined,
      apiKey,
    )
    expect(order.status).toBe(200)
    expect((order.json as { total: unknown }).total).toBe(0.1)
    expect(order.text).toMatch(/"total":\s*0\.1[,}]/)
  })
})

describe('slow clients', () => {
  const HEADERS_TIMEOUT_MS = 2_000

  it('half the headers and then silence: 408 or a closed socket within the header timeout', async () => {
    const slow = await sandboxWith({ headersTimeoutMs: HEADERS_TIMEOUT_MS })
    try {
      const started = performance.now()
      const outcome = await new Promise<string>((resolve) => {
        const socket = connect(slow.port, '127.0.0.1', () => {
          socket.write('POST /token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: applic')
        })
        let data = ''
        socket.on('data', (c: Buffer) => (data += c.toString()))
        socket.on('close', () => resolve(data === '' ? 'closed' : (data.split('\r\n')[0] ?? '')))
        socket.on('error', () => undefined)
        // The test's own bound: give up (and fail) well after the sandbox's timeout.
        socket.setTimeout(HEADERS_TIMEOUT_MS + 3_000, () => {
          resolve(`still open after ${HEADERS_TIMEOUT_MS + 3_000} ms`)
          socket.destroy()
        })
      })
      const ms = performance.now() - started
      expect(outcome, `after ${Math.round(ms)} ms`).toMatch(/^(closed|HTTP\/1\.[01] 408\b)/)
      expect(ms).toBeLessThan(HEADERS_TIMEOUT_MS + 1_500)
      // The sandbox goes on serving.
      expect(
        (await jsonCall(slow.url, 'POST', '/paymentlink/checkout', { amount: 1 }, apiKey)).status,
      ).toBe(200)
    } finally {
      await slow.close()
    }
  }, 10_000)
})
