/**
 * The core client's transport over n8n's request helpers (`shared/transport.ts`), run in
 * n8n's real engine (a probe node, `probe.ts`) against the sandbox over real HTTP: what it
 * answers for each HTTP status and for no answer, what goes on the wire, and how the
 * `Paykit API` credential's token is fetched and renewed by n8n.
 */
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as E from 'fp-ts/lib/Either.js'
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TransportRequest } from '@paykit/core/pure'
import { defaultCredentials } from '@paykit/testkit'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { n8nTransport, PAYKIT_API } from '../../shared/transport.js'
import { useSandbox } from '../support.js'
import { probeOk } from './probe.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

/** What the transport gave for one request, as JSON. */
const outcome = (
  result: Awaited<ReturnType<ReturnType<ReturnType<typeof n8nTransport>['transport']>>>,
) => (E.isRight(result) ? { response: result.right } : { error: result.left }) as IDataObject

/** Sends `requests` at once through one transport of the execution; gives each outcome. */
const sendAll =
  (requests: ReadonlyArray<TransportRequest>) =>
  async (ctx: IExecuteFunctions): Promise<IDataObject> => {
    const { transport, credentialFailure } = n8nTransport(ctx, await ctx.getCredentials(PAYKIT_API))
    const outcomes = await Promise.all(requests.map(async (r) => outcome(await transport(r)())))
    return { outcomes, credentialFailure: credentialFailure() ?? null }
  }

const checkout = (body: string): TransportRequest => ({
  method: 'POST',
  url: `${sandbox.url}/paymentlink/checkout`,
  headers: { 'content-type': 'application/json' },
  body,
})

const getOrder = (orderCode: string, base = sandbox.url): TransportRequest => ({
  method: 'GET',
  url: `${base}/paymentlink/order/${orderCode}`,
  headers: {},
})

/** Runs `use` with the base URL of a plain HTTP server answering with `handler`. */
const withServer = async <A>(
  handler: RequestListener,
  use: (base: string) => Promise<A>,
): Promise<A> => {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    return await use(`http://127.0.0.1:${String((server.address() as AddressInfo).port)}`)
  } finally {
    server.close()
  }
}

const tokenRequests = () => sandbox.requests().filter((r) => r.path === '/token').length

interface Outcomes {
  readonly outcomes: ReadonlyArray<{
    readonly response?: { status: number; headers: Record<string, string>; body: string }
    readonly error?: { failure: string; sent: string; detail: string }
  }>
  readonly credentialFailure: string | null
}

const probe = async (
  requests: ReadonlyArray<TransportRequest>,
  data?: Readonly<Record<string, string>>,
) => {
  const result = await probeOk(sandbox, sendAll(requests), data === undefined ? {} : { data })
  return { ...result, output: result.output as unknown as Outcomes }
}

describe('n8nTransport: answers', () => {
  it('an HTTP error status is a response, not a failure: status, headers in lower case, the body as text', async () => {
    const { output } = await probe([getOrder('no-such-order')])
    const response = output.outcomes[0]?.response
    expect(response?.status).toBe(404)
    expect(response?.headers['content-type']).toMatch(/^application\/(problem\+)?json/)
    expect(Object.keys(response?.headers ?? {}).every((name) => name === name.toLowerCase())).toBe(
      true,
    )
    expect(JSON.parse(response?.body ?? '')).toMatchObject({ status: 404 })
  })

  it('the body goes on the wire byte for byte: 25.50 stays 25.50, text outside ASCII as UTF-8', async () => {
    const body = '{"amount":25.50,"currency":"EUR","orderReference":"crème-brûlée-ü"}'
    const received: Array<Buffer> = []
    const { output } = await withServer(
      (req, res) => {
        req.on('data', (chunk: Buffer) => received.push(chunk))
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'))
      },
      (base) =>
        probe([{ ...checkout(body), url: `${base}/paymentlink/checkout`, credential: 'none' }]),
    )
    expect(output.outcomes[0]?.response?.status).toBe(200)
    expect(Buffer.concat(received).equals(Buffer.from(body, 'utf8'))).toBe(true)
  })

  it('a redirect is answered as it came, not followed', async () => {
    const { output } = await withServer(
      (_, res) => res.writeHead(302, { location: `${sandbox.url}/paymentlink/order/x` }).end(),
      (base) => probe([{ ...getOrder('x', base), credential: 'none' }]),
    )
    expect(output.outcomes[0]?.response?.status).toBe(302)
    expect(output.outcomes[0]?.response?.headers['location']).toContain('/paymentlink/order/x')
  })
})

describe('n8nTransport: no answer', () => {
  it('a closed port: refused, and not sent (safe to send again)', async () => {
    const closed = await useSandbox()
    const base = closed.url
    await closed.close()
    const { output } = await probe([{ ...getOrder('x', base), credential: 'none' }])
    expect(output.outcomes[0]?.error).toMatchObject({ failure: 'refused', sent: 'no' })
  })

  it('no answer within timeoutMs: timeout, maybe sent', async () => {
    sandbox.setLatency(3000, { method: 'GET', path: '/paymentlink/order/slow', times: 1 })
    try {
      const { output } = await probe([{ ...getOrder('slow'), timeoutMs: 200 }])
      expect(output.outcomes[0]?.error).toMatchObject({ failure: 'timeout', sent: 'maybe' })
    } finally {
      sandbox.clearFaults()
    }
  })
})

describe('n8nTransport: the access token', () => {
  it('20 requests at once with no token stored: n8n obtains one, once, and every request is answered with it', async () => {
    const before = tokenRequests()
    const result = await probe(
      Array.from({ length: 20 }, (_, i) =>
        checkout(`{"amount":1,"currency":"EUR","orderReference":"t-${String(i)}"}`),
      ),
    )
    expect(result.output.outcomes.map((o) => o.response?.status)).toEqual(Array(20).fill(200))
    // n8n's preAuthentication ran for the first request alone; the token came from the
    // service or from the process's cache of an earlier test, once at most.
    expect(result.preAuthenticationRuns).toBe(1)
    expect(tokenRequests() - before).toBeLessThanOrEqual(1)
  })

  it('a request with credential "none" carries no token, and n8n fetches none', async () => {
    const before = tokenRequests()
    const result = await probe([
      {
        method: 'POST',
        url: `${sandbox.url}/token`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(defaultCredentials),
        credential: 'none',
      },
    ])
    expect(result.output.outcomes[0]?.response?.status).toBe(200)
    expect(result.preAuthenticationRuns).toBe(0)
    expect(tokenRequests() - before).toBe(1)
    expect(sandbox.requests().at(-1)?.headers['authorization']).toBeUndefined()
  })

  it('a stored token that expired: the 401s are sent again after one renewal, each answered once', async () => {
    const first = await probe([checkout('{"amount":1,"currency":"EUR"}')])
    sandbox.advanceClock(3601 * 1000)
    const orders = Object.keys(sandbox.state().orders).length
    const before = tokenRequests()
    const second = await probeOk(
      sandbox,
      sendAll(
        Array.from({ length: 10 }, (_, i) =>
          checkout(`{"amount":1,"currency":"EUR","orderReference":"renew-${String(i)}"}`),
        ),
      ),
      { credentials: first.credentials },
    )
    const { outcomes } = second.output as unknown as Outcomes
    expect(outcomes.map((o) => o.response?.status)).toEqual(Array(10).fill(200))
    expect(tokenRequests() - before).toBe(1)
    expect(Object.keys(sandbox.state().orders).length - orders).toBe(10)
  })

  it('a wrong client secret: no access token (not sent), the failure names the field and holds no secret', async () => {
    const secret = 'wrong-secret-Tr4n5'
    const { output } = await probe([getOrder('x')], { clientSecret: secret })
    expect(output.outcomes[0]?.error).toMatchObject({ failure: 'refused', sent: 'no' })
    expect(output.credentialFailure).toMatch(/client secret/i)
    expect(JSON.stringify(output)).not.toContain(secret)
  })
})
