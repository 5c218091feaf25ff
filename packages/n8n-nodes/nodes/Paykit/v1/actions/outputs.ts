/**
 * The Paykit node's outputs: one for most operations; for a charge, by default from version
 * 1.1 one per outcome (Succeeded, Authentication Required, Failed), as n8n's If and Switch nodes
 * branch, so that a declined charge cannot flow on as if it were paid; for a link creation
 * with One Link per Order Reference, Created and Already Requested, so that an order whose
 * link an earlier run requested is neither lost nor sent on as if it had a new link.
 */
import type { INodeExecutionData } from 'n8n-workflow'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The outputs for the node's parameters. n8n evaluates it from the description as an
 * expression (`={{(fn)($parameter)}}`), so it stands alone: no import, no closure.
 */
export const configuredOutputs = (parameters: {
  readonly resource?: unknown
  readonly operation?: unknown
  readonly chargeOutputs?: unknown
  readonly oneLinkPerReference?: unknown
}): Array<{ type: 'main'; displayName?: string }> =>
  parameters.resource === 'charge' && parameters.chargeOutputs !== 'single'
    ? [
        { type: 'main', displayName: 'Succeeded' },
        { type: 'main', displayName: 'Authentication Required' },
        { type: 'main', displayName: 'Failed' },
      ]
    : parameters.resource === 'paymentLink' &&
        parameters.operation === 'create' &&
        parameters.oneLinkPerReference === true
      ? [
          { type: 'main', displayName: 'Created' },
          { type: 'main', displayName: 'Already Requested' },
        ]
      : [{ type: 'main' }]

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/**
 * Charge items by outcome: SUCCEEDED, AUTHENTICATION_REQUIRED, and everything else
 * (FAILED, or an error item of Continue On Fail) on Failed.
 */
export const byChargeStatus = (
  items: ReadonlyArray<INodeExecutionData>,
): INodeExecutionData[][] => {
  const outputs: INodeExecutionData[][] = [[], [], []]
  for (const item of items) {
    const status = item.json.status
    const index = status === 'SUCCEEDED' ? 0 : status === 'AUTHENTICATION_REQUIRED' ? 1 : 2
    outputs[index]?.push(item)
  }
  return outputs
}

/**
 * Link creation items: created links (and error items of Continue On Fail) on Created,
 * the items whose order reference an earlier run requested on Already Requested.
 */
export const byAlreadyRequested = (
  items: ReadonlyArray<INodeExecutionData>,
): INodeExecutionData[][] => [
  items.filter((item) => item.json.alreadyRequested !== true),
  items.filter((item) => item.json.alreadyRequested === true),
]
