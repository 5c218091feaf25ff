import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ICredentialDataDecryptedObject } from 'n8n-workflow'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { defaultCredentials } from '@paykit/testkit'
import { TestCredentialsHelper } from '@paykit/testkit/n8n'
import {
  CREDENTIAL_ID,
  countingProxy,
  credentialsFor,
  dist,
  paykitNode,
  run,
  singleNodeWorkflow,
  useSandbox,
} from '../support.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

const links = (concurrency: number) =>
  singleNodeWorkflow(
    paykitNode('Links', {
      resource: 'paymentLink',
      operation: 'create',
      orderSource: 'item',
      options: { concurrency },
    }),
  )

const tokenRequests = () => sandbox.requests().filter((r) => r.path === '/token')

/**
 * The credential's declarative Test request, its `={{$credentials.x}}` values filled in as
 * n8n does, sent to the sandbox.
 */
const sendTestRequest = async (data: ICredentialDataDecryptedObject) => {
  const { request } = new dist.credential.PaykitApi().test
  const fill = (value: unknown): unknown =>
    typeof value === 'string'
      ? value.replace(/^=\{\{\$credentials\.(\w+)\}\}$/, (_, name: string) => String(data[name]))
      : value
  const body = Object.fromEntries(
    Object.entries(request.body as object).map(([k, v]) => [k, fill(v)]),
  )
  const response = await fetch(`${String(fill(request.baseURL))}${request.url}`, {
    method: request.method ?? 'GET',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return response.status
}

describe('Paykit API credential', () => {
  it('gets one access token through preAuthentication and n8n stores it', async () => {
    const before = tokenRequests().length
    const result = await run(
      sandbox,
      links(8),
      Array.from({ length: 40 }, () => ({ amount: 1 })),
    )
    expect(result.error).toBeUndefined()
    expect(result.nodes['Links']?.[0]).toHaveLength(40)
    expect(tokenRequests().length - before).toBe(1)
    expect(result.preAuthenticationRuns).toBe(1)
    expect(String(result.credentials[CREDENTIAL_ID]?.data.accessToken)).toMatch(/\S/)
  })

  it('reads the stored credential once per run, not once per request', async () => {
    // n8n loads a credential from its database and decrypts it at each read.
    class CountingReads extends TestCredentialsHelper {
      reads = 0
      override async getDecrypted(
        ...args: Parameters<TestCredentialsHelper['getDecrypted']>
      ): ReturnType<TestCredentialsHelper['getDecrypted']> {
        this.reads++
        return super.getDecrypted(...args)
      }
    }
    const helper = new CountingReads({
      credentialTypes: [new dist.credential.PaykitApi()],
      credentials: credentialsFor(sandbox),
    })
    const result = await run(
      sandbox,
      links(8),
      Array.from({ length: 30 }, () => ({ amount: 1 })),
      { credentialsHelper: helper },
    )
    expect(result.error).toBeUndefined()
    expect(result.nodes['Links']?.[0]).toHaveLength(30)
    expect(helper.reads).toBe(1)
    expect(result.preAuthenticationRuns).toBe(1)
  })

  it('a stored token that expired is renewed once through n8n, and no item is lost or doubled', async () => {
    const first = await run(sandbox, links(1), [{ amount: 1 }])
    sandbox.advanceClock(3601 * 1000)
    const orders = Object.keys(sandbox.state().orders).length
    const second = await run(
      sandbox,
      links(4),
      Array.from({ length: 12 }, (_, i) => ({ amount: 1, orderReference: `renew-${i}` })),
      { credentials: first.credentials },
    )
    expect(second.error).toBeUndefined()
    expect(second.preAuthenticationRuns).toBe(1)
    expect(second.preAuthentications.filter((c) => c.expired)).toHaveLength(1)
    expect(second.credentials[CREDENTIAL_ID]?.data.accessToken).not.toBe(
      first.credentials[CREDENTIAL_ID]?.data.accessToken,
    )
    expect(Object.keys(sandbox.state().orders).length - orders).toBe(12)
  })

  it('a token that expires mid-run is renewed once while items are in flight', async () => {
    // The token lapses once 20 requests went through, while others are in flight.
    const proxy = await countingProxy(sandbox.url, (n) => {
      if (n === 20) sandbox.advanceClock(3601 * 1000)
    })
    sandbox.setLatency(20, { method: 'POST', path: '/paymentlink/checkout' })
    try {
      const result = await run(
        proxy,
        links(4),
        Array.from({ length: 60 }, (_, i) => ({ amount: 2, orderReference: `mid-${i}` })),
      )
      expect(result.error).toBeUndefined()
      const out = result.nodes['Links']?.[0] ?? []
      expect(new Set(out.map((i) => i.json.orderCode)).size).toBe(60)
      expect(result.preAuthenticationRuns).toBe(2)
      expect(result.preAuthentications.filter((c) => c.expired)).toHaveLength(1)
      expect(proxy.stats().requests).toBeGreaterThan(60 + 2) // the refused ones were sent again
    } finally {
      sandbox.clearFaults()
      await proxy.close()
    }
  })

  it('wrong client secret: the run fails with a clear message that holds no secret', async () => {
    const secret = 'wrong-secret-Zq81'
    const result = await run(sandbox, links(2), [{ amount: 1 }, { amount: 2 }], {
      credentials: credentialsFor(sandbox, { clientSecret: secret }),
    })
    expect(result.error?.message).toContain('refused the client ID or client secret')
    expect(JSON.stringify(result.run)).not.toContain(secret)
  })

  it("the credential's Test request really calls the service: 200 with the right secrets, 401 without", async () => {
    const data = credentialsFor(sandbox)[CREDENTIAL_ID]?.data ?? {}
    expect(await sendTestRequest(data)).toBe(200)
    expect(await sendTestRequest({ ...data, clientSecret: 'nope-secret-77' })).toBe(401)
  })

  it('an unreachable base URL fails with a message naming the Base URL', async () => {
    const result = await run(sandbox, links(1), [{ amount: 1 }], {
      credentials: credentialsFor({ url: 'http://127.0.0.1:9' }),
    })
    expect(result.error?.message).toContain('Could not reach Paykit at http://127.0.0.1:9')
  })

  it('uses the API key on the payment-link endpoints when one is set, the token elsewhere', async () => {
    const proxy = await countingProxy(sandbox.url)
    try {
      const result = await run(
        proxy,
        {
          nodes: [
            { name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
            paykitNode('Link', {
              resource: 'paymentLink',
              operation: 'create',
              orderSource: 'item',
            }),
            paykitNode('Get', {
              resource: 'paymentLink',
              operation: 'getOrder',
              orderCode: '={{ $json.orderCode }}',
            }),
          ],
          connections: {
            Start: { main: [[{ node: 'Link', type: 'main', index: 0 }]] },
            Link: { main: [[{ node: 'Get', type: 'main', index: 0 }]] },
          },
        },
        [{ amount: 1 }],
        { credentials: credentialsFor(proxy, { apiKey: defaultCredentials.apiKey }) },
      )
      expect(result.error).toBeUndefined()
      const byPath = (prefix: string) =>
        proxy
          .seen()
          .filter((r) => r.path.startsWith(prefix))
          .map((r) => r.authorization)
      expect(byPath('/paymentlink/')).toEqual([
        `Bearer ${defaultCredentials.apiKey}`,
        `Bearer ${defaultCredentials.apiKey}`,
      ])
      expect(byPath('/token')).toEqual([undefined])
    } finally {
      await proxy.close()
    }
  })
})

describe('one POST /token per process and token lifetime', () => {
  // Each test goes through its own counting proxy: a new Base URL is a new cache key.
  const withProxy = async (
    body: (proxy: Awaited<ReturnType<typeof countingProxy>>) => Promise<void>,
  ) => {
    const proxy = await countingProxy(sandbox.url)
    try {
      await body(proxy)
    } finally {
      await proxy.close()
    }
  }
  const items = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ amount: 1, orderReference: `${prefix}-${i}` }))

  it('two executions started at once, each with no token saved yet, make one POST /token', () =>
    withProxy(async (proxy) => {
      const [a, b] = await Promise.all([
        run(proxy, links(5), items('two-a', 25)),
        run(proxy, links(5), items('two-b', 25)),
      ])
      expect([a.error, b.error]).toEqual([undefined, undefined])
      expect(a.preAuthenticationRuns + b.preAuthenticationRuns).toBe(2) // both asked
      expect(proxy.stats().tokenRequests).toBe(1)
      expect(a.credentials[CREDENTIAL_ID]?.data.accessToken).toBe(
        b.credentials[CREDENTIAL_ID]?.data.accessToken,
      )
    }))

  it('50 executions of one item each, at once, make one POST /token', () =>
    withProxy(async (proxy) => {
      const runs = await Promise.all(items('fifty', 50).map((item) => run(proxy, links(1), [item])))
      expect(runs.map((r) => r.error).filter((e) => e !== undefined)).toEqual([])
      expect(runs.map((r) => r.nodes['Links']?.[0]?.length)).toEqual(runs.map(() => 1))
      expect(proxy.stats().tokenRequests).toBe(1)
    }))

  it('after the token expires (sandbox clock), executions at once renew it exactly once and lose no item', () =>
    withProxy(async (proxy) => {
      const first = await run(proxy, links(1), items('before', 1))
      sandbox.advanceClock(3601 * 1000)
      const orders = Object.keys(sandbox.state().orders).length
      // Each execution starts with the expired token saved: every one of them gets a 401.
      const runs = await Promise.all(
        [0, 1, 2, 3].map((n) =>
          run(proxy, links(5), items(`after-${n}`, 10), {
            credentials: structuredClone(first.credentials),
          }),
        ),
      )
      expect(runs.map((r) => r.error).filter((e) => e !== undefined)).toEqual([])
      expect(runs.flatMap((r) => r.preAuthentications.filter((c) => c.expired))).toHaveLength(4)
      expect(proxy.stats().tokenRequests).toBe(2) // the first token and one renewal
      expect(Object.keys(sandbox.state().orders).length - orders).toBe(40)
    }))

  it('a wrong secret is asked of the service, not answered by the token of the right one', () =>
    withProxy(async (proxy) => {
      const right = await run(proxy, links(1), items('right', 1))
      expect(right.error).toBeUndefined()
      const wrong = await run(proxy, links(1), items('wrong', 1), {
        credentials: credentialsFor(proxy, { clientSecret: 'wrong-secret-Pq3' }),
      })
      expect(wrong.error?.message).toContain('refused the client ID or client secret')
      // Every call for the wrong secret asked the service (none kept its failure).
      const asked = wrong.preAuthentications.filter((c) => c.ran).length
      expect(asked).toBeGreaterThan(0)
      expect(proxy.stats().tokenRequests).toBe(1 + asked)
    }))
})
