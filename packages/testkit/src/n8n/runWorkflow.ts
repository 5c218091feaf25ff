/**
 * Runs n8n workflow JSON through the real engine (`WorkflowExecute` of n8n-core)
 * in-process, with the given node types, credential types and credentials.
 *
 * @since 0.2.0
 */
import type {
  ExecutionStatus,
  ICredentialType,
  IConnections,
  IDataObject,
  IExecuteResponsePromiseData,
  INode,
  INodeExecutionData,
  IPinData,
  IRun,
  ITaskData,
  IWorkflowSettings,
  Workflow,
  WorkflowExecuteMode,
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
} from './Execution.js'
import { nodeTypesOf, type NodeTypeMap } from './NodeTypes.js'
import { loadN8n, useExpressionEngine, type ExpressionEngine } from './Runtime.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A node of workflow JSON as n8n exports it; `id`, `position` and `typeVersion` may be
 * left out (then `node-<index>`, `[0, 0]` and the type's latest version).
 *
 * @category model
 * @since 0.2.0
 */
export type WorkflowNode = Omit<INode, 'id' | 'position' | 'typeVersion'> &
  Partial<Pick<INode, 'id' | 'position' | 'typeVersion'>>

/**
 * Workflow JSON as n8n exports it (the fields the engine reads). `settings` default to
 * `{ executionOrder: 'v1' }`, n8n's default for new workflows.
 *
 * @category model
 * @since 0.2.0
 */
export interface WorkflowJson {
  readonly id?: string
  readonly name?: string
  readonly nodes: ReadonlyArray<WorkflowNode>
  readonly connections: IConnections
  readonly settings?: IWorkflowSettings
  readonly pinData?: IPinData
  readonly staticData?: IDataObject
}

/**
 * Options of {@link runWorkflow}.
 *
 * @category model
 * @since 0.2.0
 */
export interface RunWorkflowOptions {
  readonly workflow: WorkflowJson
  /** Every node type the workflow uses, by type name. */
  readonly nodeTypes: NodeTypeMap
  /** Credential types the nodes use (instances). */
  readonly credentialTypes?: ReadonlyArray<ICredentialType>
  /** Stored credentials by id (copied: the run never changes the caller's object). */
  readonly credentials?: CredentialStore
  /** A helper to use instead of one built from `credentialTypes` and `credentials`. */
  readonly credentialsHelper?: TestCredentialsHelper
  /**
   * Items the start node receives. A trigger start node emits them as its output, as when
   * a production trigger fires (the mode is then `'trigger'` unless `mode` says otherwise).
   */
  readonly input?: ReadonlyArray<INodeExecutionData>
  /** The node to start from (default: n8n's choice, a trigger; else the first node without a parent). */
  readonly startNode?: string
  /** Default `'manual'` (as the editor's Execute button), `'trigger'` with `input`. */
  readonly mode?: WorkflowExecuteMode
  /** Default `'vm'`, the engine n8n's server uses. A process-wide setting. */
  readonly expressionEngine?: ExpressionEngine
  /** Cancels the run after this long (n8n's workflow timeout); no limit by default. */
  readonly timeoutMs?: number
  /** `$vars`. */
  readonly variables?: IDataObject
}

/**
 * Each output of a node (index 0 is the main output, 1 the error output with Continue On
 * Fail `continueErrorOutput`, ...), each a list of items.
 *
 * @category model
 * @since 0.2.0
 */
export type NodeOutputs = ReadonlyArray<ReadonlyArray<INodeExecutionData>>

/**
 * The result of {@link runWorkflow}.
 *
 * @category model
 * @since 0.2.0
 */
export interface WorkflowRunResult {
  /** n8n's execution status: `success`, `error`, `canceled`, `waiting`, ... */
  readonly status: ExecutionStatus
  /** The main outputs of each node's last run, by node name (items' `error` plain). */
  readonly nodes: Readonly<Record<string, NodeOutputs>>
  /** Every run of every node, as n8n records it (`runData`). */
  readonly runs: Readonly<Record<string, ReadonlyArray<ITaskData>>>
  /** The execution's error, as n8n reports it; undefined on success. */
  readonly error: PlainError | undefined
  /** The credential store after the run (tokens stored or renewed by `preAuthentication`). */
  readonly credentials: CredentialStore
  /** Every call the engine made to `preAuthentication`. */
  readonly preAuthentications: ReadonlyArray<PreAuthenticationCall>
  /** How many times a credential type's own `preAuthentication` ran. */
  readonly preAuthenticationRuns: number
  /** The workflow's static data after the run (`getWorkflowStaticData`). */
  readonly staticData: IDataObject
  /**
   * What Respond to Webhook nodes (or any node calling `sendResponse`) answered, in order:
   * the response n8n's webhook server would send (`body`, `headers`, `statusCode`).
   */
  readonly webhookResponses: ReadonlyArray<IExecuteResponsePromiseData>
  /** n8n's full `IRun`. */
  readonly run: IRun
}

// -------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------

const GRACE_MS = 2000

const nodesOf = (json: WorkflowJson, types: NodeTypeMap): Array<INode> =>
  json.nodes.map((node, index) => {
    const type = types[node.type]
    return {
      ...structuredClone(node),
      id: node.id ?? `node-${index}`,
      position: node.position ?? [0, 0],
      typeVersion: node.typeVersion ?? (type === undefined ? 1 : latestVersionOf(type)),
    }
  })

/** The first enabled node without a parent: where a workflow without a trigger starts. */
const firstRoot = (workflow: Workflow, nodes: ReadonlyArray<INode>): INode | undefined => {
  const root = nodes.find(
    (node) => node.disabled !== true && workflow.getParentNodes(node.name).length === 0,
  )
  return root === undefined ? undefined : (workflow.getNode(root.name) ?? undefined)
}

const outputsOf = (runs: ReadonlyArray<ITaskData> | undefined): NodeOutputs =>
  (runs?.at(-1)?.data?.['main'] ?? []).map((items) => plainItems(items ?? []))

// -------------------------------------------------------------------------------------
// run
// -------------------------------------------------------------------------------------

/**
 * Runs a workflow through n8n-core's `WorkflowExecute`, as n8n runs it, and resolves with
 * every node's output, the execution's error (a node error stops the run unless the node
 * has `continueOnFail` / `onError` set), and the credential store afterwards. Rejects only
 * when n8n refuses to start (for example `WorkflowHasIssuesError` for a missing required
 * parameter, or an unknown node type).
 *
 * @example
 * ```ts
 * import { baseNodeTypes, runWorkflow } from '@paykit/testkit/n8n'
 * import assert from 'node:assert/strict'
 *
 * // n8n-nodes-base, n8n-core and n8n-workflow installed as devDependencies
 * const result = await runWorkflow({
 *   workflow: {
 *     nodes: [
 *       { name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
 *       {
 *         name: 'Order',
 *         type: 'n8n-nodes-base.set',
 *         parameters: { mode: 'raw', jsonOutput: '={{ JSON.stringify({ total: 2 * 8.5 }) }}' },
 *       },
 *     ],
 *     connections: { Start: { main: [[{ node: 'Order', type: 'main', index: 0 }]] } },
 *   },
 *   nodeTypes: baseNodeTypes(['ManualTrigger', 'Set']),
 * })
 * assert.equal(result.status, 'success')
 * assert.equal(result.error, undefined)
 * assert.deepEqual(result.nodes['Order']?.[0]?.[0]?.json, { total: 17 })
 * ```
 *
 * @category run
 * @since 0.2.0
 */
export const runWorkflow = async (options: RunWorkflowOptions): Promise<WorkflowRunResult> => {
  const { core, workflow: nw } = loadN8n()
  await useExpressionEngine(options.expressionEngine ?? 'vm')
  const json = options.workflow
  const nodes = nodesOf(json, options.nodeTypes)
  const helper =
    options.credentialsHelper ??
    new TestCredentialsHelper({
      ...(options.credentialTypes === undefined
        ? {}
        : { credentialTypes: options.credentialTypes }),
      ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    })
  const mode = options.mode ?? (options.input === undefined ? 'manual' : 'trigger')
  const id = json.id ?? 'harness-workflow'
  const name = json.name ?? 'Harness workflow'
  const workflow = new nw.Workflow({
    id,
    name,
    nodes,
    connections: structuredClone(json.connections),
    active: false,
    nodeTypes: nodeTypesOf(options.nodeTypes),
    settings: json.settings ?? { executionOrder: 'v1' },
    ...(json.staticData === undefined ? {} : { staticData: structuredClone(json.staticData) }),
    ...(json.pinData === undefined ? {} : { pinData: json.pinData }),
  })
  const executionId = nextExecutionId()
  const additionalData = additionalDataOf({
    credentialsHelper: helper,
    mode,
    executionId,
    workflow: workflowBaseOf(id, name, nodes, json.connections),
    variables: options.variables,
    timeoutMs: options.timeoutMs,
  })
  const startNode =
    options.startNode === undefined ? undefined : (workflow.getNode(options.startNode) ?? undefined)
  if (options.startNode !== undefined && startNode === undefined)
    throw new Error(`The workflow has no node named "${options.startNode}".`)
  const start = startNode ?? workflow.getStartNode() ?? firstRoot(workflow, nodes)
  const webhookResponses: Array<IExecuteResponsePromiseData> = []
  additionalData.hooks?.addHandler('sendResponse', (response) => {
    webhookResponses.push(response)
  })
  const execute = new core.WorkflowExecute(additionalData, mode)
  const running = execute.run({
    workflow,
    ...(start === undefined ? {} : { startNode: start }),
    ...(json.pinData === undefined ? {} : { pinData: json.pinData }),
    ...(options.input === undefined || start === undefined
      ? {}
      : {
          triggerToStartFrom: {
            name: start.name,
            data: {
              startTime: Date.now(),
              executionTime: 0,
              executionIndex: 0,
              source: [],
              data: { main: [structuredClone([...options.input])] },
            },
          },
        }),
  })
  const run = await withTimeout(running, execute, options.timeoutMs, executionId)
  const runData = run.data.resultData.runData
  const calls = helper.preAuthentications()
  return {
    status: run.status,
    nodes: Object.fromEntries(Object.entries(runData).map(([n, runs]) => [n, outputsOf(runs)])),
    runs: runData,
    error:
      run.data.resultData.error === undefined ? undefined : plainError(run.data.resultData.error),
    credentials: helper.snapshot(),
    preAuthentications: calls,
    preAuthenticationRuns: calls.filter((call) => call.ran).length,
    staticData: JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject,
    webhookResponses,
    run,
  }
}

/**
 * Cancels the run after `timeoutMs` as n8n's workflow timeout does (in-flight requests are
 * aborted through the execution's cancel signal), then waits a little for the engine to
 * settle; a node that ignores the signal leaves a run reported as timed out.
 */
const withTimeout = async (
  running: Promise<IRun> & { cancel: () => void },
  execute: { timedOut: boolean },
  timeoutMs: number | undefined,
  executionId: string,
): Promise<IRun> => {
  if (timeoutMs === undefined) return await running
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs)
  })
  try {
    const first = await Promise.race([running, timedOut])
    if (first !== 'timeout') return first
    execute.timedOut = true
    running.cancel()
    const grace = new Promise<'stuck'>((resolve) => {
      timer = setTimeout(() => resolve('stuck'), GRACE_MS)
    })
    const settled = await Promise.race([running, grace])
    if (settled !== 'stuck') return settled
    const { TimeoutExecutionCancelledError } = loadN8n().workflow
    const error = new TimeoutExecutionCancelledError(executionId)
    return {
      data: { resultData: { runData: {}, error } },
      mode: 'manual',
      startedAt: new Date(),
      status: 'canceled',
    } as unknown as IRun
  } finally {
    clearTimeout(timer)
  }
}
