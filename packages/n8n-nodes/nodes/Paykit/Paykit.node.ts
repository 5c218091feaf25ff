import type {
  IExecuteFunctions,
  INodeExecutionData,
  INodeType,
  INodeTypeDescription,
} from 'n8n-workflow'
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow'
import { redactedNode } from '../../shared/errors'
import type { Operation } from '../../shared/items'
import { runOperation } from '../../shared/items'
import { chargeFields, chargeOperations } from './descriptions/charge'
import { orderEventFields, orderEventOperations } from './descriptions/orderEvent'
import { paymentLinkFields, paymentLinkOperations } from './descriptions/paymentLink'
import { paymentMethodFields, paymentMethodOperations } from './descriptions/paymentMethod'
import * as charge from './operations/charge'
import * as orderEvent from './operations/orderEvent'
import * as paymentLink from './operations/paymentLink'
import * as paymentMethod from './operations/paymentMethod'
import { byChargeStatus, configuredOutputs } from './outputs'

type Run = (ctx: IExecuteFunctions) => Promise<INodeExecutionData[]>

const run =
  <A>(operation: Operation<A>): Run =>
  (ctx) =>
    runOperation(ctx, operation)

/** Every operation of the node, by resource and operation name. */
const OPERATIONS: Readonly<Record<string, Readonly<Record<string, Run>>>> = {
  paymentLink: {
    create: run(paymentLink.create),
    getOrder: run(paymentLink.getOrder),
    waitForStatus: run(paymentLink.waitForStatus),
  },
  paymentMethod: { create: run(paymentMethod.create) },
  charge: { create: run(charge.create), completeAfter3ds: run(charge.completeAfter3ds) },
  orderEvent: { acceptOnce: orderEvent.acceptOnce },
}

/** What an AI agent may run as a tool: nothing that moves money or takes card data. */
const TOOL_SAFE = new Set([
  'paymentLink.create',
  'paymentLink.getOrder',
  'paymentLink.waitForStatus',
])

/**
 * The `Paykit` node: payment links, order reads and waits, cards and charges with 3DS,
 * over the core's client (validation, decoding, typed errors, safe retries) with n8n's
 * request helpers and the `Paykit API` credential.
 */
export class Paykit implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Paykit',
    name: 'paykit',
    icon: { light: 'file:paykit.svg', dark: 'file:paykit.dark.svg' },
    group: ['transform'],
    version: 1,
    subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
    description:
      'Create payment links, read orders, register cards, charge them with 3DS, accept order events once',
    defaults: { name: 'Paykit' },
    usableAsTool: true,
    inputs: [NodeConnectionTypes.Main],
    outputs: `={{(${configuredOutputs.toString()})($parameter)}}`,
    credentials: [{ name: 'paykitApi', required: true }],
    properties: [
      {
        displayName: 'Resource',
        name: 'resource',
        type: 'options',
        noDataExpression: true,
        options: [
          { name: 'Charge', value: 'charge' },
          { name: 'Order Event', value: 'orderEvent' },
          { name: 'Payment Link', value: 'paymentLink' },
          { name: 'Payment Method', value: 'paymentMethod' },
        ],
        default: 'paymentLink',
      },
      paymentLinkOperations,
      paymentMethodOperations,
      chargeOperations,
      orderEventOperations,
      ...paymentLinkFields,
      ...paymentMethodFields,
      ...chargeFields,
      ...orderEventFields,
    ],
  }

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const resource = this.getNodeParameter('resource', 0) as string
    const operationName = this.getNodeParameter('operation', 0) as string
    const operation = OPERATIONS[resource]?.[operationName]
    if (operation === undefined)
      throw new NodeOperationError(
        this.getNode(),
        `Unknown operation "${operationName}" of resource "${resource}"`,
      )
    if (this.isToolExecution() && !TOOL_SAFE.has(`${resource}.${operationName}`))
      throw new NodeOperationError(
        redactedNode(this.getNode()),
        `The Paykit ${resource} ${operationName} operation never runs as an AI tool call: it moves money or takes card data. Only payment-link creation, order reads and waits are available to agents.`,
      )
    const items = await operation(this)
    if (resource === 'charge' && this.getNodeParameter('chargeOutputs', 0, 'byStatus') !== 'single')
      return byChargeStatus(items)
    return [items]
  }
}
