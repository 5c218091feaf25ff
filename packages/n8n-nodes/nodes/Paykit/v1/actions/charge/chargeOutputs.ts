/**
 * A charge's outputs: by default from version 1.1 one per outcome (Succeeded,
 * Authentication Required, Failed), as n8n's If and Switch nodes branch, so that a declined
 * charge cannot flow on as if it were paid; version 1 keeps its one output unless the user
 * chose otherwise. Both charge operations have them.
 */
import type { INodeExecutionData, INodeProperties } from 'n8n-workflow'
import type { Outputs, Route } from '../Action'
import { outputsShown } from '../Action'

// -------------------------------------------------------------------------------------
// description
// -------------------------------------------------------------------------------------

/** How a charge's items leave the node: one output per outcome, or all on one. */
type ChargeOutputs = 'byStatus' | 'single'

/**
 * The Outputs default of each version: version 1 had one output (a saved version-1 node is
 * wired to it alone), 1.1 one per outcome.
 */
export const chargeOutputsDefault = (typeVersion: number): ChargeOutputs =>
  typeVersion < 1.1 ? 'single' : 'byStatus'

const chargeOutputsField: INodeProperties = {
  displayName: 'Outputs',
  name: 'chargeOutputs',
  type: 'options',
  noDataExpression: true,
  options: [
    {
      name: 'One per Status',
      value: 'byStatus',
      description:
        'Succeeded, Authentication Required and Failed (a declined charge, or an item that failed with Continue On Fail)',
    },
    {
      name: 'Single',
      value: 'single',
      description: 'Every item on one output: branch on its status yourself',
    },
  ],
  default: 'byStatus',
  description: 'Whether a declined charge goes to an output of its own',
}

/** The Outputs field, per version: n8n saves only the values that differ from their default. */
export const chargeOutputsByVersion: ReadonlyArray<INodeProperties> = [
  { ...chargeOutputsField, displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } } },
  {
    ...chargeOutputsField,
    default: chargeOutputsDefault(1),
    displayOptions: { show: { '@version': [1] } },
  },
]

// -------------------------------------------------------------------------------------
// outputs
// -------------------------------------------------------------------------------------

/** Succeeded, Authentication Required and Failed unless the Outputs field says Single. */
export const outputs: Outputs = {
  field: chargeOutputsField.name,
  isNot: 'single' satisfies ChargeOutputs,
  names: ['Succeeded', 'Authentication Required', 'Failed'],
}

/**
 * Charge items by outcome: SUCCEEDED, AUTHENTICATION_REQUIRED, and everything else
 * (FAILED, or an error item of Continue On Fail) on Failed.
 */
const byChargeStatus = (items: ReadonlyArray<INodeExecutionData>): INodeExecutionData[][] => {
  const routed: INodeExecutionData[][] = [[], [], []]
  for (const item of items) {
    const status = item.json.status
    const index = status === 'SUCCEEDED' ? 0 : status === 'AUTHENTICATION_REQUIRED' ? 1 : 2
    routed[index]?.push(item)
  }
  return routed
}

/** The items by outcome, or all on one output when the node's Outputs field says Single. */
export const route: Route = (ctx, items) =>
  outputsShown(outputs)(
    ctx.getNodeParameter(outputs.field, 0, chargeOutputsDefault(ctx.getNode().typeVersion)),
  )
    ? byChargeStatus(items)
    : [items]
