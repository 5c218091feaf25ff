import type { INodeParameters } from 'n8n-workflow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { testCards } from '@paykit/testkit'
import { runAsTool } from '@paykit/testkit/n8n'
import { CREDENTIAL_ID, PAYKIT, credentialsFor, dist, useSandbox } from '../../support.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

const asTool = (parameters: INodeParameters) =>
  runAsTool({
    nodeType: new dist.node.Paykit(),
    type: PAYKIT,
    parameters,
    nodeCredentials: { paykitApi: { id: CREDENTIAL_ID, name: 'Paykit sandbox' } },
    credentialTypes: [new dist.credential.PaykitApi()],
    credentials: credentialsFor(sandbox),
  })

describe('Paykit as an AI agent tool', () => {
  it('creates a payment link when an agent calls it', async () => {
    const result = await asTool({
      resource: 'paymentLink',
      operation: 'create',
      orderBy: 'amount',
      amount: 15,
    })
    expect(result.error).toBeUndefined()
    expect(result.response).toContain('paymentLinkUrl')
  })

  it('never runs a charge as a tool call, and sends nothing', async () => {
    const before = sandbox.requests().length
    const result = await asTool({
      resource: 'charge',
      operation: 'create',
      orderId: 'agent-1',
      amount: 5,
      cardId: 'pm_000001',
    })
    expect(result.error?.message).toContain('never runs as an AI tool call')
    expect(sandbox.requests().length).toBe(before)
  })

  it('never takes card data as a tool call', async () => {
    const result = await asTool({
      resource: 'paymentMethod',
      operation: 'create',
      cardNumberField: 'card.number',
    })
    expect(result.error?.message).toContain('never runs as an AI tool call')
    expect(JSON.stringify(result)).not.toContain(testCards.success.number)
  })
})

describe('Paykit as an AI agent tool: One Link per Order Reference', () => {
  it('an agent calling Create twice for one order reference gets one link; the second call says it was already requested', async () => {
    const parameters = {
      resource: 'paymentLink',
      operation: 'create',
      orderBy: 'amount',
      amount: 15,
      additionalFields: { orderReference: `agent-${Date.now()}` },
    }
    const checkouts = () =>
      sandbox.requests().filter((r) => r.method === 'POST' && r.path === '/paymentlink/checkout')
        .length
    const before = checkouts()
    const first = await asTool(parameters)
    const second = await asTool(parameters)
    expect(first.response).toContain('paymentLinkUrl')
    expect(second.error).toBeUndefined()
    // An agent reads one output: the item it would otherwise never see is there.
    expect(JSON.parse(String(second.response))).toEqual([
      { orderReference: parameters.additionalFields.orderReference, alreadyRequested: true },
    ])
    expect(checkouts() - before).toBe(1)
  })
})
