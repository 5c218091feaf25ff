/**
 * A test node that runs a piece of the nodes' shared code (the transport, the execution's
 * client) inside n8n's real engine: its `this` is the `IExecuteFunctions` n8n gives a node,
 * with n8n's own request helpers and the stored `Paykit API` credential (its
 * `preAuthentication` and `authenticate` as n8n runs them), against the sandbox.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow'
import type { RunWorkflowOptions } from '@paykit/testkit/n8n'
import { CREDENTIAL_ID, credentialsFor, nodeTypes, run, singleNodeWorkflow } from '../support.js'

/** The type name of the probe node. */
const PROBE = 'test.probe'

/** A node type whose execution is `body`, its JSON the node's one output item. */
const probeType = (body: (ctx: IExecuteFunctions) => Promise<IDataObject>): INodeType => ({
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
    properties: [],
  },
  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    return [[{ json: await body(this) }]]
  },
})

/**
 * Runs `body` as a node of a workflow through the real engine, with the `Paykit API`
 * credential stored for `sandbox` (its `data` overriding the defaults).
 */
export const runProbe = async (
  sandbox: { readonly url: string },
  body: (ctx: IExecuteFunctions) => Promise<IDataObject>,
  options: { readonly data?: Readonly<Record<string, string>> } & Partial<RunWorkflowOptions> = {},
) => {
  const { data, ...rest } = options
  const result = await run(
    sandbox,
    singleNodeWorkflow({
      name: 'Probe',
      type: PROBE,
      parameters: {},
      credentials: { paykitApi: { id: CREDENTIAL_ID, name: 'Paykit sandbox' } },
    }),
    [{}],
    {
      nodeTypes: { ...nodeTypes(), [PROBE]: probeType(body) },
      credentials: credentialsFor(sandbox, data),
      ...rest,
    },
  )
  if (result.error !== undefined) throw new Error(result.error.message)
  return { ...result, output: result.nodes['Probe']?.[0]?.[0]?.json ?? {} }
}
