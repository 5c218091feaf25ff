/**
 * `@paykit/testkit/n8n`: run n8n workflow JSON, a trigger's webhook, or a node used as an
 * AI-agent tool through the real n8n engine (n8n-core + n8n-workflow, optional peer
 * dependencies) in-process, for community-node authors.
 *
 * The root `@paykit/testkit` does not import this module.
 *
 * @module @paykit/testkit/n8n
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// run
// -------------------------------------------------------------------------------------
export {
  runWorkflow,
  type NodeOutputs,
  type RunWorkflowOptions,
  type WorkflowJson,
  type WorkflowNode,
  type WorkflowRunResult,
} from './runWorkflow.js'
export {
  runWebhook,
  type RecordedResponse,
  type RunWebhookOptions,
  type WebhookRequest,
  type WebhookRunResult,
} from './runWebhook.js'
export { runAsTool, type RunAsToolOptions, type ToolRunResult } from './runAsTool.js'

// -------------------------------------------------------------------------------------
// n8n's de-duplication store, in memory
// -------------------------------------------------------------------------------------
export { memoryDeduplicator } from './Deduplication.js'

// -------------------------------------------------------------------------------------
// node types
// -------------------------------------------------------------------------------------
export {
  BASE_PACKAGE,
  baseNodeType,
  baseNodeTypes,
  nodeTypesOf,
  type BaseNodeTypeOptions,
  type NodeTypeMap,
} from './NodeTypes.js'

// -------------------------------------------------------------------------------------
// credentials
// -------------------------------------------------------------------------------------
export {
  TestCredentialsHelper,
  type CredentialStore,
  type PreAuthenticationCall,
  type StoredCredential,
  type TestCredentialsHelperOptions,
} from './CredentialsHelper.js'

// -------------------------------------------------------------------------------------
// engine
// -------------------------------------------------------------------------------------
export { HARNESS_BASE_URL, WEBHOOK_BASE_URL, plainError, type PlainError } from './Execution.js'
export {
  LOOPBACK_IP_RANGES,
  activeExpressionEngine,
  disposeExpressionEngine,
  loadN8n,
  useExpressionEngine,
  type ExpressionEngine,
  type N8nRuntime,
} from './Runtime.js'
