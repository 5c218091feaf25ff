/**
 * The core's client of one execution (`shared/client.ts`), made in n8n's real engine (a
 * probe node, `probe.ts`) from the stored `Paykit API` credential, against the sandbox
 * over real HTTP: the credential's Base URL, the bound on each request, the retries of a
 * read with n8n's sleep, and a Base URL that is no URL.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { IDataObject } from 'n8n-workflow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { executionClient } from '../../shared/client.js'
import { useSandbox } from '../support.js'
import { probeOk } from './probe.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

/** The JSON of a client call's outcome: its value or its error. */
const settled = (result: E.Either<unknown, unknown>): IDataObject =>
  JSON.parse(JSON.stringify(E.isRight(result) ? { value: result.right } : { error: result.left }))

const createLink = (timeoutMs: number, orderReference: string, data?: Record<string, string>) =>
  probeOk(
    sandbox,
    async (ctx) => {
      const { client } = await executionClient(ctx, timeoutMs)
      const created = await client.createPaymentLink({ amount: 12, orderReference })()
      if (E.isLeft(created)) return settled(created)
      const read = await client.getOrder(created.right.orderCode)()
      return { created: settled(created), read: settled(read) }
    },
    data === undefined ? {} : { data },
  )

describe('executionClient', () => {
  it("calls the service at the credential's Base URL, a trailing slash dropped: a link created is read back", async () => {
    const { output } = await createLink(5000, 'client-1', { baseUrl: `${sandbox.url}/` })
    const created = (output['created'] as { value: { orderCode: string } }).value
    expect(output['read']).toMatchObject({ value: { orderCode: created.orderCode } })
    const paths = sandbox.requests().map((r) => r.path)
    expect(paths).toContain('/paymentlink/checkout')
    expect(paths).toContain(`/paymentlink/order/${created.orderCode}`)
    expect(paths.some((p) => p.startsWith('//'))).toBe(false)
  })

  it('a read answered 500 once is made again after a wait, and answered', async () => {
    sandbox.injectFault({ kind: 'status500' }, { method: 'GET', times: 1 })
    try {
      const before = sandbox.requests().length
      const { output } = await createLink(5000, 'client-2')
      expect(output['read']).toMatchObject({ value: { orderReference: 'client-2' } })
      const reads = sandbox
        .requests()
        .slice(before)
        .filter((r) => r.method === 'GET')
      expect(reads.map((r) => r.status)).toEqual([500, 200])
    } finally {
      sandbox.clearFaults()
    }
  })

  it('timeoutMs bounds each request: a service slower than it fails the call as a timeout', async () => {
    sandbox.setLatency(3000, { method: 'POST', path: '/paymentlink/checkout', times: 1 })
    try {
      const started = Date.now()
      const { output } = await createLink(300, 'client-3')
      expect(JSON.stringify(output['error'])).toMatch(/timeout/i)
      expect(Date.now() - started).toBeLessThan(2500)
    } finally {
      sandbox.clearFaults()
    }
  })

  it('a Base URL that is no http(s) URL fails before any request, naming the Base URL, without the secret', async () => {
    const before = sandbox.requests().length
    const failure = await createLink(5000, 'client-4', {
      baseUrl: 'ftp://paykit.example',
      clientSecret: 'secret-Cl13nt',
    }).then(
      () => undefined,
      (error: unknown) => error as Error,
    )
    expect(failure?.message).toContain('Base URL')
    expect(failure?.message).not.toContain('secret-Cl13nt')
    expect(sandbox.requests().length).toBe(before)
  })
})
