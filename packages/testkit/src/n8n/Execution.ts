/**
 * What every harness entry point shares: the `additionalData` n8n's engine reads (URLs,
 * credentials helper, lifecycle hooks), nodes and workflows built from plain JSON, and
 * errors turned into the plain objects n8n reports.
 *
 * @since 0.2.0
 */
import type {
  ICredentialType,
  IDataObject,
  INode,
  INodeCredentials,
  INodeExecutionData,
  INodeParameters,
  INodeType,
  IVersionedNodeType,
  IWorkflowBase,
  IWorkflowExecuteAdditionalData,
  WorkflowExecuteMode,
} from 'n8n-workflow'
import type { CredentialStore, TestCredentialsHelper } from './CredentialsHelper.js'
import { loadN8n, type ExpressionEngine } from './Runtime.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * An error as n8n reports it in a run's result (`resultData.error`, a failed item's
 * `error`): a plain object, not an instance of n8n's classes. Compare `name` and
 * `message`; `description`, `httpCode` and `node` are there when n8n set them.
 *
 * @category model
 * @since 0.2.0
 */
export interface PlainError {
  readonly name: string
  readonly message: string
  readonly description?: string | null | undefined
  readonly httpCode?: string | null | undefined
  readonly node?: INode | undefined
  readonly [key: string]: unknown
}

/**
 * The base URL the harness gives n8n (`$execution.resumeUrl`, webhook URLs): nothing
 * listens there.
 *
 * @example
 * ```ts
 * import { HARNESS_BASE_URL, WEBHOOK_BASE_URL } from '@paykit/testkit/n8n'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(HARNESS_BASE_URL, 'http://127.0.0.1:5678') // n8n's default; nothing listens
 * assert.ok(WEBHOOK_BASE_URL.startsWith(HARNESS_BASE_URL))
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const HARNESS_BASE_URL = 'http://127.0.0.1:5678'

/**
 * The base URL of production webhooks (`getNodeWebhookUrl('default')` gives
 * `<this>/<webhookId>/<path>`).
 *
 * @example
 * ```ts
 * import { WEBHOOK_BASE_URL } from '@paykit/testkit/n8n'
 * import assert from 'node:assert/strict'
 *
 * // a node's production URL in runWebhook: <WEBHOOK_BASE_URL>/<webhookId>/<path>
 * assert.equal(WEBHOOK_BASE_URL, 'http://127.0.0.1:5678/webhook')
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const WEBHOOK_BASE_URL = `${HARNESS_BASE_URL}/webhook`

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * An error as n8n puts it into a run's result: its own enumerable fields, `message` and
 * `stack` copied into a plain object (as `WorkflowExecute` does), plus `name`.
 *
 * @example
 * ```ts
 * import { plainError } from '@paykit/testkit/n8n'
 * import assert from 'node:assert/strict'
 *
 * const error = plainError(Object.assign(new TypeError('boom'), { httpCode: '404' }))
 * assert.equal(error instanceof Error, false) // as in a run's result: compare name and message
 * assert.equal(error.name, 'TypeError')
 * assert.equal(error.message, 'boom')
 * assert.equal(error.httpCode, '404')
 * assert.deepEqual(plainError('text'), { name: 'Error', message: 'text' })
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const plainError = (error: unknown): PlainError => {
  if (error instanceof Error || (typeof error === 'object' && error !== null)) {
    const e = error as Error & Record<string, unknown>
    return {
      ...e,
      name: String(e.name ?? 'Error'),
      message: String(e.message ?? ''),
      stack: e.stack,
    }
  }
  return { name: 'Error', message: String(error) }
}

/**
 * Items with their `error` (set by n8n for Continue On Fail) as a {@link PlainError}.
 *
 * @category destructors
 * @since 0.2.0
 */
export const plainItems = (
  items: ReadonlyArray<INodeExecutionData>,
): ReadonlyArray<INodeExecutionData> =>
  items.map((item) =>
    item.error === undefined
      ? item
      : ({ ...item, error: plainError(item.error) } as unknown as INodeExecutionData),
  )

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The latest version a node type declares (a versioned type's `currentVersion`).
 *
 * @category constructors
 * @since 0.2.0
 */
export const latestVersionOf = (type: INodeType | IVersionedNodeType): number => {
  if ('nodeVersions' in type) return type.currentVersion
  const version = type.description.version
  return Array.isArray(version) ? Math.max(...version) : version
}

/**
 * What {@link runWebhook} and {@link runAsTool} take to place one node in a workflow of its
 * own: its type, version, name, parameters and credentials.
 *
 * @category model
 * @since 0.2.0
 */
export interface SingleNodeOptions {
  /** The node's type (an instance). */
  readonly nodeType: INodeType | IVersionedNodeType
  /** Its type name (default `CUSTOM.<description.name>`). */
  readonly type?: string
  /** Default the type's latest version. */
  readonly typeVersion?: number
  /** The node's name (default its `defaults.name`, else its display name). */
  readonly name?: string
  readonly parameters?: INodeParameters
  /** The node's credential references: `{ <type>: { id, name } }`. */
  readonly nodeCredentials?: INodeCredentials
  readonly credentialTypes?: ReadonlyArray<ICredentialType>
  readonly credentials?: CredentialStore
  /** Default `'vm'`. */
  readonly expressionEngine?: ExpressionEngine
}

/** What {@link additionalDataOf} needs. */
interface AdditionalDataInput {
  readonly credentialsHelper: TestCredentialsHelper
  readonly mode: WorkflowExecuteMode
  readonly executionId: string
  readonly workflow: IWorkflowBase
  readonly variables?: IDataObject | undefined
  readonly timeoutMs?: number | undefined
  readonly extra?: Partial<IWorkflowExecuteAdditionalData>
}

/**
 * The `additionalData` of one execution, as n8n's `WorkflowExecuteAdditionalData.getBase`
 * builds it, minus the server: fixed URLs under {@link HARNESS_BASE_URL}, the given
 * credentials helper, `ExecutionLifecycleHooks`, no sub-workflows and no task runner (the
 * Code node cannot run).
 *
 * @category constructors
 * @since 0.2.0
 */
export const additionalDataOf = (input: AdditionalDataInput): IWorkflowExecuteAdditionalData => {
  const { core } = loadN8n()
  const unsupported = (what: string) => (): never => {
    throw new Error(`${what} is not available in @paykit/testkit/n8n (no n8n server).`)
  }
  const data: IWorkflowExecuteAdditionalData = {
    credentialsHelper: input.credentialsHelper,
    hooks: new core.ExecutionLifecycleHooks(input.mode, input.executionId, input.workflow),
    executionId: input.executionId,
    currentNodeExecutionIndex: 0,
    restApiUrl: `${HARNESS_BASE_URL}/rest`,
    instanceBaseUrl: `${HARNESS_BASE_URL}/`,
    webhookBaseUrl: WEBHOOK_BASE_URL,
    webhookWaitingBaseUrl: `${HARNESS_BASE_URL}/webhook-waiting`,
    webhookTestBaseUrl: `${HARNESS_BASE_URL}/webhook-test`,
    formBaseUrl: `${HARNESS_BASE_URL}/form`,
    formWaitingBaseUrl: `${HARNESS_BASE_URL}/form-waiting`,
    formTestBaseUrl: `${HARNESS_BASE_URL}/form-test`,
    mcpBaseUrl: `${HARNESS_BASE_URL}/mcp`,
    mcpTestBaseUrl: `${HARNESS_BASE_URL}/mcp-test`,
    variables: input.variables ?? {},
    externalSecretsProxy: new core.ExternalSecretsProxy(),
    logAiEvent: () => undefined,
    executeWorkflow: unsupported('Executing a sub-workflow'),
    getRunExecutionData: async () => undefined,
    getRuntimeCredential: async () => undefined,
    startRunnerTask: unsupported("n8n's task runner (Code node)"),
    ...(input.timeoutMs === undefined
      ? {}
      : { executionTimeoutTimestamp: Date.now() + input.timeoutMs }),
    ...input.extra,
  }
  return data
}

/**
 * The `IWorkflowBase` of a workflow (for the lifecycle hooks).
 *
 * @category constructors
 * @since 0.2.0
 */
export const workflowBaseOf = (
  id: string,
  name: string,
  nodes: ReadonlyArray<INode>,
  connections: IWorkflowBase['connections'],
): IWorkflowBase =>
  ({
    id,
    name,
    active: false,
    isArchived: false,
    nodes: [...nodes],
    connections,
    settings: {},
    createdAt: new Date(0),
    updatedAt: new Date(0),
  }) as IWorkflowBase

let executions = 0

/**
 * A new execution id (`harness-<n>`).
 *
 * @category constructors
 * @since 0.2.0
 */
export const nextExecutionId = (): string => `harness-${++executions}`
