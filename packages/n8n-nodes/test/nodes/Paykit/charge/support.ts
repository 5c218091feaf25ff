/**
 * What the Charge tests share: a card registered through the node (Payment Method →
 * Create) as a form or webhook delivers it, the Charge node's workflow, and the charges
 * the sandbox received.
 */
import { expect } from 'vitest'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { paykitNode, run, singleNodeWorkflow } from '../../../support.js'

/** The CVV of `cardItem`'s card. */
export const CVV = '987'

/** Payment Method → Create, the card read at the default field names (`card.*`). */
export const cardParameters = {
  resource: 'paymentMethod',
  operation: 'create',
  additionalFields: { cardHolder: 'Ada Lovelace', email: 'ada@example.com' },
}

/** An input item holding a card as a form or webhook delivers it. */
export const cardItem = (number: string) => ({
  card: {
    number,
    expirationMonth: '12',
    expirationYear: String(new Date().getUTCFullYear() + 3),
    cvv: CVV,
  },
})

/** A payment method of `sandbox` for `number`, through the node. */
export const paymentMethod = async (sandbox: Sandbox, number: string) => {
  const result = await run(sandbox, singleNodeWorkflow(paykitNode('Card', cardParameters)), [
    cardItem(number),
  ])
  expect(result.error).toBeUndefined()
  return result.nodes['Card']?.[0]?.[0]?.json as { id: string; bin: { countryCode: string } }
}

/** Manual Trigger -> Charge → Create (`Charge`) with `parameters`. */
export const chargeNode = (
  parameters: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) =>
  singleNodeWorkflow(
    paykitNode('Charge', { resource: 'charge', operation: 'create', ...parameters }, extra),
  )

/** The charges `sandbox` received. */
export const chargeRequests = (sandbox: Sandbox) =>
  sandbox.requests().filter((r) => r.path === '/charges')
