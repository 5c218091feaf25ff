// @paykit-test own-worker: n8n's engine in this process
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../src/sandbox/startSandbox.js'
import { runAsTool, runWorkflow } from '../../src/n8n/index.js'
import {
  getOrderNode,
  nodeCredentials,
  paykitTestApi,
  refusesAsToolNode,
  sandboxWithLink,
  storeFor,
} from './fixtures.js'

describe('runAsTool', () => {
  let sandbox: Sandbox
  let orderCode: string
  beforeAll(async () => {
    ;({ sandbox, orderCode } = await sandboxWithLink())
  })
  afterAll(() => sandbox.close())

  it('sees a node refuse when isToolExecution() is true, and run in a workflow', async () => {
    const asTool = await runAsTool({ nodeType: refusesAsToolNode })
    expect(asTool.response).toBeUndefined()
    expect(asTool.items).toBeUndefined()
    expect(asTool.error).toMatchObject({ name: 'NodeOperationError' })
    expect(asTool.error?.message).toContain('This node cannot run as an AI tool.')

    const inWorkflow = await runWorkflow({
      workflow: {
        nodes: [{ name: 'Charge', type: 'test.refuses', parameters: {} }],
        connections: {},
      },
      nodeTypes: { 'test.refuses': refusesAsToolNode },
      input: [{ json: { order: 1 } }],
    })
    expect(inWorkflow.nodes['Charge']).toEqual([
      [{ json: { order: 1, charged: true }, pairedItem: { item: 0 } }],
    ])
  })

  it('fills $fromAI parameters from the agent’s arguments and answers the JSON of the items', async () => {
    const result = await runAsTool({
      nodeType: getOrderNode,
      type: 'n8n-nodes-paykit.paykitTest',
      parameters: { orderCode: "={{ $fromAI('orderCode', 'The order code', 'string') }}" },
      nodeCredentials,
      credentialTypes: [paykitTestApi],
      credentials: storeFor(sandbox),
      toolArgs: { orderCode },
    })
    expect(result.error).toBeUndefined()
    expect(result.tool.name).toBe('Paykit_Test')
    expect(result.items?.[0]?.[0]?.json).toMatchObject({ orderCode, orderStatus: 'PENDING' })
    expect(JSON.parse(result.response ?? 'null')).toEqual([expect.objectContaining({ orderCode })])
    expect(result.credentials['cred-1']?.data['accessToken']).toEqual(expect.any(String))
  })

  it('refuses a node that is not usableAsTool', async () => {
    const { usableAsTool: _, ...description } = refusesAsToolNode.description
    await expect(runAsTool({ nodeType: { ...refusesAsToolNode, description } })).rejects.toThrow(
      'not usableAsTool',
    )
  })
})
