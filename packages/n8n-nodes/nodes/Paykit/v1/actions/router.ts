/**
 * The router of the Paykit node, version 1: the operation of the node's resource and
 * operation parameters, refused to an AI agent unless its file says it is safe as a tool,
 * its items on one output, or on the outputs its file declares, routed by its `route`.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow'
import { NodeOperationError } from 'n8n-workflow'
import { redactedNode } from '../helpers/errors'
import { RESOURCES } from './resources'

/** Runs the operation the node's parameters name and gives the node's outputs. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
  const resource = this.getNodeParameter('resource', 0) as string
  const operationName = this.getNodeParameter('operation', 0) as string
  const actions = Object.hasOwn(RESOURCES, resource) ? RESOURCES[resource]?.actions : undefined
  const action =
    actions !== undefined && Object.hasOwn(actions, operationName)
      ? actions[operationName]
      : undefined
  if (action === undefined)
    throw new NodeOperationError(
      this.getNode(),
      `Unknown operation "${operationName}" of resource "${resource}"`,
    )
  if (this.isToolExecution() && !action.toolSafe)
    throw new NodeOperationError(
      redactedNode(this.getNode()),
      `The Paykit ${resource} ${operationName} operation never runs as an AI tool call: it moves money or takes card data. Only payment-link creation, order reads and waits are available to agents.`,
    )
  const items = await action.execute(this)
  return action.route === undefined ? [items] : action.route(this, items)
}
