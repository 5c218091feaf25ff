/**
 * What the node tests share: the BUILT package as n8n loads it (dist, CommonJS), the
 * sandbox over real HTTP, a stored `Paykit API` credential, and workflow JSON builders.
 */
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import type { IDataObject, INodeParameters } from 'n8n-workflow'
import { defaultCredentials } from '@paykit/testkit'
import { startSandbox } from '@paykit/testkit/sandbox'
import type { Sandbox } from '@paykit/testkit/sandbox'
import type { CredentialStore, RunWorkflowOptions, WorkflowJson } from '@paykit/testkit/n8n'
import { baseNodeTypes, runWorkflow } from '@paykit/testkit/n8n'
import { startCountingProxy } from '@paykit/tools/lib/countingProxy'
import type * as CredentialModule from '../credentials/PaykitApi.credentials.js'
import type * as WebhookCredentialModule from '../credentials/PaykitWebhookApi.credentials.js'
import type * as NodeModule from '../nodes/Paykit/Paykit.node.js'
import type * as TriggerModule from '../nodes/PaykitTrigger/PaykitTrigger.node.js'

const require = createRequire(import.meta.url)

/** The package's files as n8n `require`s them. */
export const dist = {
  credential: require('../dist/credentials/PaykitApi.credentials.js') as typeof CredentialModule,
  webhookCredential:
    require('../dist/credentials/PaykitWebhookApi.credentials.js') as typeof WebhookCredentialModule,
  node: require('../dist/nodes/Paykit/Paykit.node.js') as typeof NodeModule,
  trigger: require('../dist/nodes/PaykitTrigger/PaykitTrigger.node.js') as typeof TriggerModule,
}

/** The node type names a user's workflow refers to (`<package>.<node>`). */
export const PAYKIT = 'n8n-nodes-paykit.paykit'
export const PAYKIT_TRIGGER = 'n8n-nodes-paykit.paykitTrigger'

/** The node types a test workflow may use: the package's and a few of n8n's own. */
export const nodeTypes = () => ({
  [PAYKIT]: new dist.node.Paykit(),
  [PAYKIT_TRIGGER]: new dist.trigger.PaykitTrigger(),
  ...baseNodeTypes(['ManualTrigger', 'Set', 'SplitOut', 'NoOp', 'Webhook', 'RespondToWebhook'], {
    from: fileURLToPath(new URL('..', import.meta.url)),
  }),
})

/** The id under which tests store the `Paykit API` credential. */
export const CREDENTIAL_ID = 'paykit-1'

/** A stored `Paykit API` credential for the sandbox (no token yet). */
export const credentialsFor = (
  sandbox: Pick<Sandbox, 'url'>,
  data: Readonly<Record<string, string>> = {},
): CredentialStore => ({
  [CREDENTIAL_ID]: {
    type: 'paykitApi',
    name: 'Paykit sandbox',
    data: {
      baseUrl: sandbox.url,
      clientId: defaultCredentials.clientId,
      clientSecret: defaultCredentials.clientSecret,
      apiKey: '',
      accessToken: '',
      ...data,
    },
  },
})

/** A Paykit node of a workflow, with the stored credential. */
export const paykitNode = (
  name: string,
  parameters: INodeParameters,
  extra: Readonly<Record<string, unknown>> = {},
) => ({
  name,
  type: PAYKIT,
  parameters,
  credentials: { paykitApi: { id: CREDENTIAL_ID, name: 'Paykit sandbox' } },
  ...extra,
})

/** Manual Trigger -> `node`, the items given as the trigger's output. */
export const singleNodeWorkflow = (node: ReturnType<typeof paykitNode>): WorkflowJson => ({
  nodes: [{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} }, node],
  connections: { Start: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
})

/** Runs `workflow` against `sandbox` through the real engine, the given items as input. */
export const run = (
  sandbox: Pick<Sandbox, 'url'>,
  workflow: WorkflowJson,
  input: ReadonlyArray<IDataObject> = [{}],
  options: Partial<RunWorkflowOptions> = {},
) =>
  runWorkflow({
    workflow,
    nodeTypes: nodeTypes(),
    credentialTypes: [new dist.credential.PaykitApi()],
    credentials: credentialsFor(sandbox),
    input: input.map((json) => ({ json: { ...json } })),
    ...options,
  })

/** A sandbox for one test file, closed after it. */
export const useSandbox = async (
  options: Parameters<typeof startSandbox>[0] = {},
): Promise<Sandbox> => startSandbox({ expirySweepMs: 0, ...options })

/**
 * A pass-through HTTP proxy in front of `target` that counts what the node does on the
 * wire (tools/lib/countingProxy.ts, shared with the benchmarks), keeping every request
 * for `seen()`; `onRequest` is called as each arrives (`n` counts from 1).
 */
export const countingProxy = (
  target: string,
  onRequest: (n: number, path: string) => void = () => undefined,
) => startCountingProxy(target, { onRequest, record: true })
