/** Payment Link → Wait for Status through the real n8n engine against the sandbox over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { paykitNode, run, singleNodeWorkflow, useSandbox } from '../../../support.js'
import { newOrder as newOrderIn } from './support.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

const newOrder = (amount: number) => newOrderIn(sandbox, amount)

describe('Payment Link -> Wait for Status', () => {
  it('waits until the order is paid', async () => {
    const orderCode = await newOrder(2)
    setTimeout(() => sandbox.payOrder(orderCode), 300)
    const result = await run(
      sandbox,
      singleNodeWorkflow(
        paykitNode('Wait', {
          resource: 'paymentLink',
          operation: 'waitForStatus',
          orderCode,
          statuses: ['PAID'],
          waitTimeout: 10,
          pollInterval: 0.1,
        }),
      ),
    )
    expect(result.error).toBeUndefined()
    expect(result.nodes['Wait']?.[0]?.[0]?.json).toMatchObject({ orderCode, orderStatus: 'PAID' })
  })

  it('times out naming the last status seen', async () => {
    const orderCode = await newOrder(2)
    const result = await run(
      sandbox,
      singleNodeWorkflow(
        paykitNode('Wait', {
          resource: 'paymentLink',
          operation: 'waitForStatus',
          orderCode,
          statuses: ['PAID'],
          waitTimeout: 1,
          pollInterval: 0.2,
        }),
      ),
    )
    expect(result.error?.message).toBe(
      `Stopped waiting for order ${orderCode} to be PAID after 1 s (last status PENDING). Raise Wait Timeout (Seconds) to wait longer.`,
    )
  })

  it("refusals of the node's own fields name them as the editor shows them", async () => {
    const result = await run(
      sandbox,
      singleNodeWorkflow(
        paykitNode('Wait', {
          resource: 'paymentLink',
          operation: 'waitForStatus',
          orderCode: '={{ "" }}',
          statuses: ['PAID'],
          waitTimeout: '={{ 0 }}',
          pollInterval: 1,
        }),
      ),
    )
    expect(result.error?.message).toBe(
      'Invalid order code, nothing was sent. Fix: Order Code: is required',
    )
    const wait = await run(
      sandbox,
      singleNodeWorkflow(
        paykitNode('Wait', {
          resource: 'paymentLink',
          operation: 'waitForStatus',
          orderCode: 'OC1',
          statuses: ['PAID'],
          waitTimeout: '={{ 0 }}',
          pollInterval: '={{ -1 }}',
        }),
      ),
    )
    expect(wait.error?.message).toBe(
      'Invalid Wait for Status parameters, nothing was sent. Fix: Wait Timeout (Seconds): must be greater than 0; Poll Interval (Seconds): must be greater than 0',
    )
  })
})
