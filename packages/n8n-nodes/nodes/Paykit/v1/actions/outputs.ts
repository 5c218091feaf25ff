/**
 * The Paykit node's outputs: one for most operations; for a charge, by default one per
 * outcome (Succeeded, Authentication Required, Failed), as n8n's If and Switch nodes
 * branch, so that a declined charge cannot flow on as if it were paid.
 */
import type { INodeExecutionData } from 'n8n-workflow'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The names of the charge outputs, in order. */
export const CHARGE_OUTPUT_NAMES = ['Succeeded', 'Authentication Required', 'Failed'] as const

/**
 * The outputs for the node's parameters. n8n evaluates it from the description as an
 * expression (`={{(fn)($parameter)}}`), so it stands alone: no import, no closure.
 */
export const configuredOutputs = (parameters: {
  readonly resource?: unknown
  readonly chargeOutputs?: unknown
}): Array<{ type: 'main'; displayName?: string }> =>
  parameters.resource === 'charge' && parameters.chargeOutputs !== 'single'
    ? [
        { type: 'main', displayName: 'Succeeded' },
        { type: 'main', displayName: 'Authentication Required' },
        { type: 'main', displayName: 'Failed' },
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
