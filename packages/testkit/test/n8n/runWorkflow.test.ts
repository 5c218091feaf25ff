// @paykit-test own-worker: n8n's engine in this process
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../src/sandbox/startSandbox.js'
import {
  activeExpressionEngine,
  baseNodeTypes,
  runWorkflow,
  type NodeTypeMap,
  type WorkflowJson,
} from '../../src/n8n/index.js'
import {
  BASE_NODES_FROM,
  getOrderNode,
  hookNode,
  nodeCredentials,
  paykitTestApi,
  sandboxWithLink,
  storeFor,
  tokenRequests,
} from './fixtures.js'

const PAYKIT = 'n8n-nodes-paykit.paykitTest'
const HOOK = 'n8n-nodes-paykit.hook'
const main = (node: string) => ({ main: [[{ node, type: 'main' as const, index: 0 }]] })

/** Manual Trigger -> Set (n copies of the order code) -> Split Out -> Paykit Test. */
const orderWorkflow = (orderCode: string, copies: number): WorkflowJson => ({
  nodes: [
    { name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
    {
      name: 'Codes',
      type: 'n8n-nodes-base.set',
      parameters: {
        mode: 'raw',
        jsonOutput: `={{ JSON.stringify({ codes: Array(${copies}).fill('${orderCode}') }) }}`,
      },
    },
    { name: 'Split', type: 'n8n-nodes-base.splitOut', parameters: { fieldToSplitOut: 'codes' } },
    {
      name: 'Get order',
      type: PAYKIT,
      parameters: { orderCode: '={{ $json.codes }}' },
      credentials: nodeCredentials,
    },
  ],
  connections: { Start: main('Codes'), Codes: main('Split'), Split: main('Get order') },
})

describe('runWorkflow', () => {
  let sandbox: Sandbox
  let orderCode: string
  let nodeTypes: NodeTypeMap
  beforeAll(async () => {
    ;({ sandbox, orderCode } = await sandboxWithLink())
    nodeTypes = {
      ...baseNodeTypes(['ManualTrigger', 'Set', 'SplitOut', 'NoOp'], { from: BASE_NODES_FROM }),
      [PAYKIT]: getOrderNode,
    }
  })
  afterAll(() => sandbox.close())

  it('runs Manual Trigger -> Set -> Split Out -> a custom node over HTTP, with pairedItem', async () => {
    const result = await runWorkflow({
      workflow: orderWorkflow(orderCode, 1),
      nodeTypes,
      credentialTypes: [paykitTestApi],
      credentials: storeFor(sandbox),
    })
    expect(activeExpressionEngine()).toBe('vm')
    expect(result.error).toBeUndefined()
    expect(result.status).toBe('success')
    expect(result.nodes['Start']).toEqual([[{ json: {}, pairedItem: { item: 0 } }]])
    expect(result.nodes['Get order']?.[0]).toEqual([
      {
        json: expect.objectContaining({ orderCode, orderStatus: 'PENDING' }),
        pairedItem: { item: 0 },
      },
    ])
  })

  it('fetches the token once for many items and stores it in the credential store', async () => {
    const before = tokenRequests(sandbox)
    const result = await runWorkflow({
      workflow: orderWorkflow(orderCode, 5),
      nodeTypes,
      credentialTypes: [paykitTestApi],
      credentials: storeFor(sandbox),
    })
    expect(result.error).toBeUndefined()
    expect(result.nodes['Get order']?.[0]?.map((item) => item.pairedItem)).toEqual(
      [0, 1, 2, 3, 4].map((item) => ({ item })),
    )
    expect(tokenRequests(sandbox) - before).toBe(1)
    expect(result.preAuthenticationRuns).toBe(1)
    expect(result.preAuthentications).toHaveLength(5)
    expect(result.preAuthentications.every((call) => !call.expired)).toBe(true)
    const stored = result.credentials['cred-1']?.data['accessToken']
    expect(stored).toEqual(expect.any(String))
    expect(stored).not.toBe('')
    const token = sandbox.state().tokens
    expect(JSON.stringify(token)).toContain(String(stored))
  })

  it('renews an expired token once (preAuthentication with expired=true) and the request succeeds', async () => {
    const before = tokenRequests(sandbox)
    const workflow = orderWorkflow(orderCode, 3)
    const result = await runWorkflow({
      workflow: {
        nodes: [
          ...workflow.nodes,
          // the sandbox clock passes the token's lifetime between the two readers
          { name: 'Clock', type: HOOK, parameters: {} },
          {
            name: 'Get order again',
            type: PAYKIT,
            parameters: { orderCode: '={{ $json.orderCode }}' },
            credentials: nodeCredentials,
          },
        ],
        connections: {
          ...workflow.connections,
          'Get order': main('Clock'),
          Clock: main('Get order again'),
        },
      },
      nodeTypes: { ...nodeTypes, [HOOK]: hookNode(() => sandbox.advanceClock(3601 * 1000)) },
      credentialTypes: [paykitTestApi],
      credentials: storeFor(sandbox),
    })
    expect(result.error).toBeUndefined()
    expect(result.nodes['Get order again']?.[0]).toHaveLength(3)
    const expired = result.preAuthentications.filter((call) => call.expired)
    expect(expired).toEqual([
      {
        credentialType: 'paykitTestApi',
        credentialId: 'cred-1',
        node: 'Get order again',
        expired: true,
        ran: true,
      },
    ])
    expect(result.preAuthenticationRuns).toBe(2)
    expect(tokenRequests(sandbox) - before).toBe(2)
    const unauthorized = sandbox
      .requests()
      .filter((r) => r.path.startsWith('/paymentlink/order/') && r.status === 401)
    expect(unauthorized).toHaveLength(1)
  })

  it('reports a node error as n8n does: a plain object with name and message', async () => {
    const result = await runWorkflow({
      workflow: orderWorkflow('no-such-order', 1),
      nodeTypes,
      credentialTypes: [paykitTestApi],
      credentials: storeFor(sandbox),
    })
    expect(result.status).toBe('error')
    expect(result.error).toMatchObject({
      name: 'NodeApiError',
      message: 'The resource you are requesting could not be found',
      httpCode: '404',
    })
    expect(Object.getPrototypeOf(result.error)).toBe(Object.prototype)
    expect(result.error?.node?.name).toBe('Get order')
    expect(result.nodes['Get order']).toEqual([])
  })

  it('turns the error into an item with continueOnFail', async () => {
    const workflow = orderWorkflow('no-such-order', 2)
    const result = await runWorkflow({
      workflow: {
        ...workflow,
        nodes: workflow.nodes.map((node) =>
          node.name === 'Get order' ? { ...node, continueOnFail: true } : node,
        ),
      },
      nodeTypes,
      credentialTypes: [paykitTestApi],
      credentials: storeFor(sandbox),
    })
    expect(result.status).toBe('success')
    expect(result.error).toBeUndefined()
    expect(result.nodes['Get order']?.[0]).toEqual([
      { json: { error: expect.any(String) }, pairedItem: { item: 0 } },
      { json: { error: expect.any(String) }, pairedItem: { item: 1 } },
    ])
  })

  it('feeds input items to the start node, with the legacy engine too', async () => {
    const result = await runWorkflow({
      workflow: {
        nodes: [
          {
            name: 'Double',
            type: 'n8n-nodes-base.set',
            parameters: { mode: 'raw', jsonOutput: '={{ JSON.stringify({ y: $json.x * 2 }) }}' },
          },
          { name: 'Done', type: 'n8n-nodes-base.noOp', parameters: {} },
        ],
        connections: { Double: main('Done') },
      },
      nodeTypes,
      input: [{ json: { x: 1 } }, { json: { x: 2 } }],
      expressionEngine: 'legacy',
    })
    expect(activeExpressionEngine()).toBe('legacy')
    expect(result.nodes['Done']).toEqual([
      [
        { json: { y: 2 }, pairedItem: { item: 0 } },
        { json: { y: 4 }, pairedItem: { item: 1 } },
      ],
    ])
  })

  it('emits the input items from a trigger start node', async () => {
    const result = await runWorkflow({
      workflow: {
        nodes: [
          { name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
          { name: 'Done', type: 'n8n-nodes-base.noOp', parameters: {} },
        ],
        connections: { Start: main('Done') },
      },
      nodeTypes,
      input: [{ json: { a: 1 } }],
    })
    expect(result.run.mode).toBe('trigger')
    expect(result.nodes['Done']).toEqual([[{ json: { a: 1 }, pairedItem: { item: 0 } }]])
  })

  it('cancels a run that passes timeoutMs as n8n does', async () => {
    const slow = hookNode(() => {
      const until = Date.now() + 150
      while (Date.now() < until) {
        // busy: the engine checks the timeout between nodes
      }
    })
    const result = await runWorkflow({
      workflow: {
        nodes: [
          { name: 'Slow', type: HOOK, parameters: {} },
          { name: 'Done', type: 'n8n-nodes-base.noOp', parameters: {} },
        ],
        connections: { Slow: main('Done') },
      },
      nodeTypes: { ...nodeTypes, [HOOK]: slow },
      input: [{ json: {} }],
      timeoutMs: 50,
    })
    expect(result.status).toBe('canceled')
    expect(result.error?.name).toBe('TimeoutExecutionCancelledError')
    expect(result.nodes['Done']).toBeUndefined()
  })

  it("records what Respond to Webhook answered, as n8n's webhook server would send it", async () => {
    const result = await runWorkflow({
      workflow: {
        nodes: [
          {
            name: 'Hook',
            type: 'n8n-nodes-base.webhook',
            parameters: { httpMethod: 'POST', path: 'h', responseMode: 'responseNode' },
          },
          {
            name: 'Answer',
            type: 'n8n-nodes-base.respondToWebhook',
            parameters: { respondWith: 'json', responseBody: '={{ { got: $json.body.n } }}' },
          },
        ],
        connections: { Hook: main('Answer') },
      },
      nodeTypes: {
        ...nodeTypes,
        ...baseNodeTypes(['Webhook', 'RespondToWebhook'], { from: BASE_NODES_FROM }),
      },
      input: [{ json: { headers: {}, params: {}, query: {}, body: { n: 7 } } }],
    })
    expect(result.error).toBeUndefined()
    expect(result.webhookResponses).toHaveLength(1)
    expect(result.webhookResponses[0]).toMatchObject({ body: { got: 7 } })
  })
})
