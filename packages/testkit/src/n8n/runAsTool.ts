/**
 * Runs one node the way n8n runs a node wrapped as an AI-agent tool (`usableAsTool`):
 * n8n-core's `createNodeAsTool` builds the LangChain tool (its schema from the node's
 * `$fromAI()` parameters), and invoking it runs the node's `execute()` with n8n-core's
 * real `SupplyDataContext` on the `ai_tool` connection, so `this.isToolExecution()` is
 * true.
 *
 * @since 0.2.0
 */
import type {
  IDataObject,
  IExecuteData,
  IExecuteFunctions,
  INode,
  INodeExecutionData,
  INodeParameters,
  INodeType,
  Workflow,
} from 'n8n-workflow'
import {
  TestCredentialsHelper,
  type CredentialStore,
  type PreAuthenticationCall,
} from './CredentialsHelper.js'
import {
  additionalDataOf,
  latestVersionOf,
  nextExecutionId,
  plainError,
  plainItems,
  workflowBaseOf,
  type PlainError,
  type SingleNodeOptions,
} from './Execution.js'
import { nodeTypesOf } from './NodeTypes.js'
import { loadN8n, useExpressionEngine } from './Runtime.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Options of {@link runAsTool}.
 *
 * @category model
 * @since 0.2.0
 */
export interface RunAsToolOptions extends SingleNodeOptions {
  /** The type name (default `CUSTOM.<description.name>`); the tool node is `<type>Tool`. */
  readonly type?: string
  /** Parameters; `={{ $fromAI('key', ...) }}` ones are filled from `toolArgs`. */
  readonly parameters?: INodeParameters
  /** The arguments the agent passes (validated against the tool's schema). */
  readonly toolArgs?: IDataObject
  /** Default `'manual'`. */
  readonly mode?: 'manual' | 'trigger' | 'webhook'
}

/**
 * The result of {@link runAsTool}.
 *
 * @category model
 * @since 0.2.0
 */
export interface ToolRunResult {
  /** The tool as the agent sees it. */
  readonly tool: { readonly name: string; readonly description: string }
  /** What the tool returned to the agent: the JSON of the output items' `json`. */
  readonly response: string | undefined
  /** What the node's `execute()` returned. */
  readonly items: ReadonlyArray<ReadonlyArray<INodeExecutionData>> | undefined
  /** What the tool threw to the agent (n8n wraps it in a `NodeOperationError`). */
  readonly error: PlainError | undefined
  readonly credentials: CredentialStore
  readonly preAuthentications: ReadonlyArray<PreAuthenticationCall>
}

// -------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------

const AGENT: INode = {
  id: 'harness-agent',
  name: 'AI Agent',
  type: '@n8n/n8n-nodes-langchain.agent',
  typeVersion: 1,
  position: [0, 0],
  parameters: {},
}

interface ToolInternals {
  readonly createNodeAsTool: (options: {
    node: INode
    nodeType: INodeType
    handleToolInvocation: (toolArgs?: unknown) => Promise<unknown>
    context: unknown
    itemIndex: number
  }) => {
    response: {
      name: string
      description: string
      invoke: (args: unknown) => Promise<unknown>
    }
  }
  readonly makeHandleToolInvocation: (
    contextFactory: (runIndex: number) => unknown,
    node: INode,
    nodeType: INodeType,
    runExecutionData: unknown,
  ) => (toolArgs?: unknown) => Promise<unknown>
}

/** n8n-core's own tool wrapping (not exported from its root; n8n-core has no `exports` map). */
const toolInternals = (): ToolInternals => {
  const { require } = loadN8n()
  const base = 'n8n-core/dist/execution-engine/node-execution-context/utils'
  const { createNodeAsTool } = require(`${base}/create-node-as-tool.js`) as Pick<
    ToolInternals,
    'createNodeAsTool'
  >
  const { makeHandleToolInvocation } = require(`${base}/get-input-connection-data.js`) as Pick<
    ToolInternals,
    'makeHandleToolInvocation'
  >
  return { createNodeAsTool, makeHandleToolInvocation }
}

// -------------------------------------------------------------------------------------
// run
// -------------------------------------------------------------------------------------

/**
 * Invokes the node as an agent's tool once, with `toolArgs`, and returns what the agent
 * would get (`response` or `error`) and what `execute()` returned (`items`). Throws when
 * the node's description does not set `usableAsTool` (n8n offers no tool variant then).
 *
 * @example
 * ```ts
 * import { runAsTool, type RunAsToolOptions } from '@paykit/testkit/n8n'
 * import assert from 'node:assert/strict'
 *
 * // A node of your own with `usableAsTool`: an agent fills its `$fromAI` parameters.
 * const lookup: RunAsToolOptions['nodeType'] = {
 *   description: {
 *     displayName: 'Order Lookup',
 *     name: 'orderLookup',
 *     group: ['transform'],
 *     version: 1,
 *     description: 'Looks up an order by its code',
 *     defaults: { name: 'Order Lookup' },
 *     inputs: ['main'],
 *     outputs: ['main'],
 *     usableAsTool: true,
 *     properties: [{ displayName: 'Order Code', name: 'orderCode', type: 'string', default: '' }],
 *   },
 *   async execute() {
 *     const orderCode = this.getNodeParameter('orderCode', 0) as string
 *     return [[{ json: { orderCode, tool: this.isToolExecution() } }]]
 *   },
 * }
 * const result = await runAsTool({
 *   nodeType: lookup,
 *   parameters: { orderCode: "={{ $fromAI('orderCode', 'the order code', 'string') }}" },
 *   toolArgs: { orderCode: 'OC00001001' },
 * })
 * assert.equal(result.error, undefined)
 * assert.deepEqual(JSON.parse(result.response ?? ''), [{ orderCode: 'OC00001001', tool: true }])
 * ```
 *
 * @category run
 * @since 0.2.0
 */
export const runAsTool = async (options: RunAsToolOptions): Promise<ToolRunResult> => {
  const { core, workflow: nw } = loadN8n()
  await useExpressionEngine(options.expressionEngine ?? 'vm')
  const type = options.type ?? `CUSTOM.${options.nodeType.description.name}`
  const typeVersion = options.typeVersion ?? latestVersionOf(options.nodeType)
  const nodeType = nw.NodeHelpers.getVersionedNodeType(options.nodeType, typeVersion)
  if (nodeType.description.usableAsTool === undefined || nodeType.execute === undefined)
    throw new Error(`Node type ${type} is not usableAsTool (or has no execute()).`)
  let items: Array<Array<INodeExecutionData>> | undefined
  const execute = nodeType.execute
  const recording: INodeType = Object.create(nodeType, {
    execute: {
      value: async function (this: IExecuteFunctions) {
        const result = await (execute as (this: IExecuteFunctions) => Promise<unknown>).call(this)
        if (Array.isArray(result)) items = result as Array<Array<INodeExecutionData>>
        return result
      },
    },
  }) as INodeType
  const toolType = `${type}Tool`
  const node: INode = {
    id: 'tool-node',
    name: options.name ?? nodeType.description.defaults.name ?? nodeType.description.displayName,
    type: toolType,
    typeVersion,
    position: [0, 0],
    parameters: structuredClone(options.parameters ?? {}),
    ...(options.nodeCredentials === undefined ? {} : { credentials: options.nodeCredentials }),
  }
  const workflow: Workflow = new nw.Workflow({
    id: 'harness-workflow',
    name: 'Harness workflow',
    nodes: [node, AGENT],
    connections: {
      [node.name]: { ai_tool: [[{ node: AGENT.name, type: 'ai_tool', index: 0 }]] },
    },
    active: false,
    nodeTypes: nodeTypesOf({
      [toolType]: recording,
      [type]: options.nodeType,
      [AGENT.type]: { description: { properties: [] } } as unknown as INodeType,
    }),
  })
  const helper = new TestCredentialsHelper({
    ...(options.credentialTypes === undefined ? {} : { credentialTypes: options.credentialTypes }),
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
  })
  const mode = options.mode ?? 'manual'
  const additionalData = additionalDataOf({
    credentialsHelper: helper,
    mode,
    executionId: nextExecutionId(),
    workflow: workflowBaseOf(workflow.id, 'Harness workflow', [node, AGENT], {}),
  })
  const runExecutionData = nw.createRunExecutionData({
    executionData: { nodeExecutionStack: [] },
  })
  const toolNode = workflow.getNode(node.name) ?? node
  const parentNode = workflow.getNode(AGENT.name) ?? AGENT
  const executeData: IExecuteData = {
    node: parentNode,
    data: { main: [[{ json: {} }]] },
    source: null,
  }
  const contextFactory = (runIndex: number) =>
    new core.SupplyDataContext(
      workflow,
      toolNode,
      additionalData,
      mode,
      runExecutionData,
      runIndex,
      [{ json: {} }],
      {},
      'ai_tool',
      executeData,
      [],
      undefined,
      parentNode,
    )
  const { createNodeAsTool, makeHandleToolInvocation } = toolInternals()
  const tool = createNodeAsTool({
    node: toolNode,
    nodeType: recording,
    handleToolInvocation: makeHandleToolInvocation(
      (runIndex) => contextFactory(runIndex),
      toolNode,
      recording,
      runExecutionData,
    ),
    context: contextFactory(0),
    itemIndex: 0,
  }).response
  let response: string | undefined
  let error: PlainError | undefined
  try {
    const answer = await workflow.expression.withIsolate(
      async () => await tool.invoke(options.toolArgs ?? {}),
    )
    response = typeof answer === 'string' ? answer : JSON.stringify(answer)
  } catch (thrown) {
    error = plainError(thrown)
  }
  const calls = helper.preAuthentications()
  return {
    tool: { name: tool.name, description: tool.description },
    response,
    items: items?.map((output) => plainItems(output)),
    error,
    credentials: helper.snapshot(),
    preAuthentications: calls,
  }
}
