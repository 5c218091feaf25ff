/**
 * Calls a trigger node's `webhook()` the way n8n's webhook server does: with n8n-core's
 * real `WebhookContext`, the request in `additionalData.httpRequest` and a recording
 * express-like response in `additionalData.httpResponse`.
 *
 * @since 0.2.0
 */
import type {
  IDataObject,
  IHttpRequestMethods,
  INode,
  INodeExecutionData,
  IWebhookData,
  IWebhookResponseData,
  IWorkflowExecuteAdditionalData,
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
 * The HTTP request the webhook receives. `headers` names are lower-cased; `body` is the
 * parsed body (n8n parses JSON before the node runs) and `rawBody` the bytes (n8n keeps
 * them as `req.rawBody`, what signature checks read); default `rawBody` is the JSON of
 * `body`.
 *
 * @category model
 * @since 0.2.0
 */
export interface WebhookRequest {
  readonly method?: IHttpRequestMethods
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: unknown
  readonly rawBody?: Buffer
  readonly query?: Readonly<Record<string, string | ReadonlyArray<string>>>
  readonly params?: Readonly<Record<string, string>>
}

/**
 * Options of {@link runWebhook}.
 *
 * @category model
 * @since 0.2.0
 */
export interface RunWebhookOptions extends SingleNodeOptions {
  /** Which of the node's webhooks is called (default `'default'`). */
  readonly webhookName?: string
  /** The node's `webhookId` (default `'harness-webhook'`): part of its URL. */
  readonly webhookId?: string
  readonly request: WebhookRequest
  /** `'webhook'` (production URL, the default) or `'manual'` (the editor's test URL). */
  readonly mode?: 'webhook' | 'manual'
  /** The workflow's static data before the call (`getWorkflowStaticData`). */
  readonly staticData?: IDataObject
  /**
   * The workflow's id (default `'harness-workflow'`). A node that keeps state per workflow
   * in its process (a replay memory) sees each id as another workflow.
   */
  readonly workflowId?: string
}

/**
 * What the node wrote through `getResponseObject()`.
 *
 * @category model
 * @since 0.2.0
 */
export interface RecordedResponse {
  readonly statusCode: number
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string | number | ReadonlyArray<string>>>
  /** What `json`, `send` or `end` was given (`write` chunks joined as a string). */
  readonly body: unknown
  /** Whether `json`, `send`, `end`, `sendStatus` or `redirect` was called. */
  readonly ended: boolean
}

/**
 * The result of {@link runWebhook}.
 *
 * @category model
 * @since 0.2.0
 */
export interface WebhookRunResult {
  /** The items the node emits into the workflow (none: the workflow does not run). */
  readonly workflowData: ReadonlyArray<ReadonlyArray<INodeExecutionData>> | undefined
  readonly webhookResponse: unknown
  /** True when the node answered the request itself. */
  readonly noWebhookResponse: boolean
  readonly response: RecordedResponse
  /** What `webhook()` threw, as a plain object. */
  readonly error: PlainError | undefined
  /** The workflow's static data after the call (node data under `node:<name>`). */
  readonly staticData: IDataObject
  readonly credentials: CredentialStore
  readonly preAuthentications: ReadonlyArray<PreAuthenticationCall>
}

// -------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------

type HeaderValue = string | number | ReadonlyArray<string>

interface Recorder {
  readonly response: () => RecordedResponse
  readonly res: Record<string, unknown>
}

/** A small express-like response that records what the node does with it. */
const recordingResponse = (): Recorder => {
  let statusCode = 200
  const headers = new Map<string, HeaderValue>()
  let body: unknown = undefined
  let ended = false
  const chunks: Array<string> = []
  const res: Record<string, unknown> = {}
  const end = (chunk?: unknown): typeof res => {
    if (chunk !== undefined && typeof chunk !== 'function') body = chunk
    else if (chunks.length > 0) body = chunks.join('')
    ended = true
    return res
  }
  const setHeader = (name: string, value: string | number | ReadonlyArray<string>): typeof res => {
    headers.set(name.toLowerCase(), value)
    return res
  }
  const set = (name: string | Record<string, string>, value?: string): typeof res => {
    if (typeof name === 'string') return setHeader(name, value ?? '')
    for (const [k, v] of Object.entries(name)) setHeader(k, v)
    return res
  }
  Object.assign(res, {
    locals: {},
    status: (code: number) => {
      statusCode = code
      return res
    },
    sendStatus: (code: number) => {
      statusCode = code
      return end(String(code))
    },
    setHeader,
    set,
    header: set,
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    removeHeader: (name: string) => {
      headers.delete(name.toLowerCase())
    },
    type: (contentType: string) => setHeader('content-type', contentType),
    writeHead: (code: number, more?: Record<string, string>) => {
      statusCode = code
      for (const [k, v] of Object.entries(more ?? {})) setHeader(k, v)
      return res
    },
    write: (chunk: unknown) => {
      chunks.push(Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk))
      return true
    },
    json: (value: unknown) => {
      if (!headers.has('content-type')) setHeader('content-type', 'application/json')
      return end(value)
    },
    send: (value?: unknown) => end(value),
    end,
    redirect: (a: number | string, b?: string) => {
      statusCode = typeof a === 'number' ? a : 302
      setHeader('location', typeof a === 'number' ? (b ?? '') : a)
      return end()
    },
    on: () => res,
    once: () => res,
    emit: () => false,
    flushHeaders: () => undefined,
  })
  Object.defineProperties(res, {
    statusCode: {
      get: () => statusCode,
      set: (code: number) => {
        statusCode = code
      },
    },
    headersSent: { get: () => ended },
    writableEnded: { get: () => ended },
    finished: { get: () => ended },
  })
  return {
    res,
    response: () => ({ statusCode, headers: Object.fromEntries(headers), body, ended }),
  }
}

/** An express-like request with what n8n's webhook server puts there (`rawBody` too). */
const requestOf = (request: WebhookRequest, path: string): Record<string, unknown> => {
  const headers = Object.fromEntries(
    Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
  )
  const rawBody =
    request.rawBody ??
    (request.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(request.body)))
  const header = (name: string): string | undefined => headers[name.toLowerCase()]
  return {
    method: request.method ?? 'POST',
    url: `/webhook/${path}`,
    path: `/webhook/${path}`,
    headers,
    body: request.body ?? {},
    rawBody,
    query: { ...(request.query ?? {}) },
    params: { ...(request.params ?? {}) },
    get: header,
    header,
  }
}

// -------------------------------------------------------------------------------------
// run
// -------------------------------------------------------------------------------------

/**
 * Calls the node's `webhook()` once, as n8n's `WebhookService.runWebhook` does (a
 * `Node`-class node gets the context as argument, others as `this`), and returns what it
 * answered: its `workflowData`, `webhookResponse`, and what it wrote to the response.
 * `getNodeWebhookUrl('default')` gives `http://127.0.0.1:5678/webhook/<webhookId>/<path>`.
 *
 * @example
 * ```ts
 * import { WEBHOOK_BASE_URL, runWebhook, type RunWebhookOptions } from '@paykit/testkit/n8n'
 * import assert from 'node:assert/strict'
 *
 * // A trigger of your own: emits the event it receives, with its URL.
 * const trigger: RunWebhookOptions['nodeType'] = {
 *   description: {
 *     displayName: 'Order Trigger',
 *     name: 'orderTrigger',
 *     group: ['trigger'],
 *     version: 1,
 *     description: 'Order events',
 *     defaults: { name: 'Order Trigger' },
 *     inputs: [],
 *     outputs: ['main'],
 *     webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'orders' }],
 *     properties: [],
 *   },
 *   async webhook() {
 *     const url = this.getNodeWebhookUrl('default')
 *     return { workflowData: [this.helpers.returnJsonArray({ ...this.getBodyData(), url })] }
 *   },
 * }
 * const result = await runWebhook({ nodeType: trigger, request: { body: { type: 'order.paid' } } })
 * assert.equal(result.error, undefined)
 * assert.deepEqual(result.workflowData?.[0]?.[0]?.json, {
 *   type: 'order.paid',
 *   url: `${WEBHOOK_BASE_URL}/harness-webhook/orders`,
 * })
 * ```
 *
 * @category run
 * @since 0.2.0
 */
export const runWebhook = async (options: RunWebhookOptions): Promise<WebhookRunResult> => {
  const { core, workflow: nw } = loadN8n()
  await useExpressionEngine(options.expressionEngine ?? 'vm')
  const description = options.nodeType.description
  const type = options.type ?? `CUSTOM.${description.name}`
  const typeVersion = options.typeVersion ?? latestVersionOf(options.nodeType)
  const nodeType = nw.NodeHelpers.getVersionedNodeType(options.nodeType, typeVersion)
  const webhookName = options.webhookName ?? 'default'
  const webhook = nodeType.description.webhooks?.find((w) => w.name === webhookName)
  if (nodeType.webhook === undefined || webhook === undefined)
    throw new Error(`Node type ${type} has no webhook named "${webhookName}".`)
  const node: INode = {
    id: 'webhook-node',
    name: options.name ?? nodeType.description.defaults.name ?? nodeType.description.displayName,
    type,
    typeVersion,
    position: [0, 0],
    parameters: structuredClone(options.parameters ?? {}),
    webhookId: options.webhookId ?? 'harness-webhook',
    ...(options.nodeCredentials === undefined ? {} : { credentials: options.nodeCredentials }),
  }
  const workflow = new nw.Workflow({
    id: options.workflowId ?? 'harness-workflow',
    name: 'Harness workflow',
    nodes: [node],
    connections: {},
    active: true,
    nodeTypes: nodeTypesOf({ [type]: options.nodeType }),
    staticData: structuredClone(options.staticData ?? {}),
  })
  const helper = new TestCredentialsHelper({
    ...(options.credentialTypes === undefined ? {} : { credentialTypes: options.credentialTypes }),
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
  })
  const mode = options.mode ?? 'webhook'
  const recorder = recordingResponse()
  const workflowNode = workflow.getNode(node.name) ?? node
  const path =
    (await workflow.expression.withIsolate(async () =>
      workflow.expression.getSimpleParameterValue(workflowNode, webhook.path, mode, {}),
    )) ?? ''
  const additionalData: IWorkflowExecuteAdditionalData = additionalDataOf({
    credentialsHelper: helper,
    mode,
    executionId: nextExecutionId(),
    workflow: workflowBaseOf(workflow.id, 'Harness workflow', [node], {}),
    extra: {
      httpRequest: requestOf(options.request, String(path)) as never,
      httpResponse: recorder.res as never,
    },
  })
  const webhookData: IWebhookData = {
    httpMethod: options.request.method ?? 'POST',
    node: node.name,
    path: String(path),
    webhookDescription: webhook,
    workflowId: workflow.id,
    workflowExecuteAdditionalData: additionalData,
    webhookId: node.webhookId ?? 'harness-webhook',
    isTest: mode === 'manual',
  }
  const closeFunctions: Array<() => Promise<void>> = []
  const context = new core.WebhookContext(
    workflow,
    workflowNode,
    additionalData,
    mode,
    webhookData,
    closeFunctions,
    null,
  )
  let answer: IWebhookResponseData | undefined
  let error: PlainError | undefined
  try {
    answer = await workflow.expression.withIsolate(async () =>
      nw.isNodeClassInstance(nodeType)
        ? await (nodeType.webhook as (c: typeof context) => Promise<IWebhookResponseData>)(context)
        : await (nodeType.webhook as (this: typeof context) => Promise<IWebhookResponseData>).call(
            context,
          ),
    )
  } catch (thrown) {
    error = plainError(thrown)
  } finally {
    for (const close of closeFunctions) await close().catch(() => undefined)
  }
  const calls = helper.preAuthentications()
  return {
    workflowData: answer?.workflowData,
    webhookResponse: answer?.webhookResponse,
    noWebhookResponse: answer?.noWebhookResponse === true,
    response: recorder.response(),
    error,
    staticData: JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject,
    credentials: helper.snapshot(),
    preAuthentications: calls,
  }
}
