/**
 * A test node that runs a piece of the nodes' shared code (the transport, the execution's
 * client) inside n8n's real engine: its `this` is the `IExecuteFunctions` n8n gives a node,
 * with n8n's own request helpers and the stored `Paykit API` credential (its
 * `preAuthentication` and `authenticate` as n8n runs them), against the sandbox.
 */
import type {
  IDataObject,
  IExecuteFunctions,
  INodeExecutionData,
  INodeParameters,
  INodeProperties,
  INodeType,
} from 'n8n-workflow'
import type { RunWorkflowOptions } from '@paykit/testkit/n8n'
import { CREDENTIAL_ID, credentialsFor, nodeTypes, run, singleNodeWorkflow } from '../support.js'

/** The type name of the probe node. */
const PROBE = 'test.probe'

/**
 * A node type whose execution is `body`: the JSON it gives is the node's one output item,
 * or the output items themselves when it gives a list of items. `properties` are the
 * node's fields (for the code under test to read).
 */
const probeType = (
  body: (ctx: IExecuteFunctions) => Promise<IDataObject | INodeExecutionData[]>,
  properties: INodeProperties[],
): INodeType => ({
  description: {
    displayName: 'Probe',
    name: 'probe',
    group: ['transform'],
    version: 1,
    description: 'Runs test code as a node',
    defaults: { name: 'Probe' },
    inputs: ['main'],
    outputs: ['main'],
    credentials: [{ name: 'paykitApi', required: true }],
    properties,
  },
  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const given = await body(this)
    return [Array.isArray(given) ? given : [{ json: given }]]
  },
})

/** What a probe run may set beside its body. */
interface ProbeOptions extends Partial<RunWorkflowOptions> {
  /** The stored credential's fields that differ from the sandbox's defaults. */
  readonly data?: Readonly<Record<string, string>>
  /** The node's fields and their values. */
  readonly properties?: INodeProperties[]
  readonly parameters?: INodeParameters
  /** The node's settings (`continueOnFail`, ...). */
  readonly settings?: Readonly<Record<string, unknown>>
  /** The node's input items (one empty item by default). */
  readonly items?: ReadonlyArray<IDataObject>
  /** The workflow's id (n8n keys a node's de-duplication records by it). */
  readonly workflowId?: string
}

/**
 * Runs `body` as a node of a workflow through the real engine, with the `Paykit API`
 * credential stored for `sandbox`. The run's error is the result's; `output` the node's.
 */
export const runProbe = async (
  sandbox: { readonly url: string },
  body: (ctx: IExecuteFunctions) => Promise<IDataObject | INodeExecutionData[]>,
  options: ProbeOptions = {},
) => {
  const {
    data,
    properties = [],
    parameters = {},
    settings = {},
    items = [{}],
    workflowId,
    ...rest
  } = options
  const workflow = singleNodeWorkflow({
    name: 'Probe',
    type: PROBE,
    parameters,
    credentials: { paykitApi: { id: CREDENTIAL_ID, name: 'Paykit sandbox' } },
    ...settings,
  })
  const result = await run(
    sandbox,
    workflowId === undefined ? workflow : { ...workflow, id: workflowId },
    items,
    {
      nodeTypes: { ...nodeTypes(), [PROBE]: probeType(body, properties) },
      credentials: credentialsFor(sandbox, data),
      ...rest,
    },
  )
  const output = result.nodes['Probe']?.[0] ?? []
  return { ...result, items: output, output: output[0]?.json ?? {} }
}

/** `runProbe`, its run's error thrown. */
export const probeOk = async (...args: Parameters<typeof runProbe>) => {
  const result = await runProbe(...args)
  if (result.error !== undefined) throw new Error(result.error.message)
  return result
}
