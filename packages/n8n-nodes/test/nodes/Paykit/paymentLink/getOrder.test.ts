/** Payment Link → Get Order through the real n8n engine against the sandbox over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { Faults } from '@paykit/testkit/service'
import { paykitNode, run, singleNodeWorkflow, useSandbox } from '../../../support.js'
import { expectNodeWords, newOrder as newOrderIn } from './support.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

const newOrder = (amount: number) => newOrderIn(sandbox, amount)

describe('Payment Link -> Get Order', () => {
  it('reads an order back as plain JSON, amounts as JSON numbers', async () => {
    const orderCode = await newOrder(12.34)
    const result = await run(
      sandbox,
      singleNodeWorkflow(
        paykitNode('Get', {
          resource: 'paymentLink',
          operation: 'getOrder',
          orderCode: '={{ $json.code }}',
        }),
      ),
      [{ code: orderCode }],
    )
    const json = result.nodes['Get']?.[0]?.[0]?.json
    expect(json).toMatchObject({ orderCode, orderStatus: 'PENDING', total: 12.34, subtotal: 12.34 })
    expect(typeof json?.total).toBe('number')
  })

  it('an unknown order code is a 404 NodeApiError', async () => {
    const result = await run(
      sandbox,
      singleNodeWorkflow(
        paykitNode('Get', { resource: 'paymentLink', operation: 'getOrder', orderCode: 'OC-NONE' }),
      ),
    )
    expect(result.error?.name).toBe('NodeApiError')
    expect(result.error?.message).toContain('404')
  })

  it("a request that takes too long names the node's Request Timeout (Seconds)", async () => {
    const orderCode = await newOrder(2)
    // Every attempt hangs: a read is retried after a timeout.
    sandbox.injectFault(Faults.hang, { method: 'GET', path: '/paymentlink/order/*' })
    try {
      const result = await run(
        sandbox,
        singleNodeWorkflow(
          paykitNode('Get', {
            resource: 'paymentLink',
            operation: 'getOrder',
            orderCode,
            options: { timeout: 1 },
          }),
        ),
      )
      expect(result.error?.message).toBe(
        `GET /paymentlink/order/${orderCode} did not finish within 1 s. Try again later, or raise Options → Request Timeout (Seconds).`,
      )
      expectNodeWords(result.error)
    } finally {
      sandbox.clearFaults()
    }
  })
})
