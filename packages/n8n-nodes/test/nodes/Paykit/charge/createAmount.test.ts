import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '@paykit/core'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { defaultCredentials, testCards } from '@paykit/testkit'
import { paykitNode, run, singleNodeWorkflow, useSandbox } from '../../../support.js'

// The charge's Amount as n8n gives it to the node: a number when typed, the result of an
// expression otherwise, which is text when the value came from a form or a webhook.

let sandbox: Sandbox
let cardId: string
beforeAll(async () => {
  sandbox = await useSandbox()
  // The card is registered by the core's client, so that these tests depend on the Charge
  // operation alone.
  const client = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
  const method = await client.createPaymentMethod({
    card: {
      number: testCards.success.number,
      expirationMonth: '12',
      expirationYear: String(new Date().getUTCFullYear() + 3),
      cvv: '123',
    },
  })()
  if (E.isLeft(method)) throw new Error(method.left.message)
  cardId = method.right.id
})
afterAll(() => sandbox.close())

const charge = (parameters: Record<string, unknown>) =>
  singleNodeWorkflow(
    paykitNode('Charge', { resource: 'charge', operation: 'create', cardId, ...parameters }),
  )

const chargeRequests = () => sandbox.requests().filter((r) => r.path === '/charges')

describe('Charge -> Create: the Amount given as text', () => {
  it('an expression giving "25.50" from the input item charges 25.50 exactly', async () => {
    const result = await run(
      sandbox,
      charge({ orderId: 'text-amount-1', amount: '={{ $json.amount }}' }),
      [{ amount: '25.50' }],
    )
    expect(result.error).toBeUndefined()
    const json = result.nodes['Charge']?.[0]?.[0]?.json
    expect(json).toMatchObject({ status: 'SUCCEEDED', order: { amount: 25.5 } })
    expect((json?.request as { amount?: unknown } | undefined)?.amount).toBe(25.5)
    expect(JSON.parse(chargeRequests().at(-1)?.body ?? '{}')).toMatchObject({
      order: { id: 'text-amount-1', amount: 25.5 },
    })
  })

  it('a typed number is sent as it is', async () => {
    const result = await run(sandbox, charge({ orderId: 'text-amount-2', amount: 7.25 }))
    expect(result.error).toBeUndefined()
    expect(result.nodes['Charge']?.[0]?.[0]?.json).toMatchObject({ order: { amount: 7.25 } })
  })

  it('"12abc" is refused naming order.amount, with the other fields refused, and nothing is sent', async () => {
    const before = chargeRequests().length
    const result = await run(
      sandbox,
      charge({ orderId: 'text-amount-3', amount: '={{ "12abc" }}', cardId: '={{ "" }}' }),
    )
    expect(result.error?.name).toBe('NodeOperationError')
    expect(result.error?.message).toContain(
      'order.amount: must be a number, like 25.50 (got a text that is not a number)',
    )
    expect(result.error?.message).toContain('cardId')
    expect(result.error?.message).not.toContain('order.amount: must be a number;')
    expect(chargeRequests().length).toBe(before)
  })

  it('a text with more digits than a JSON number holds exactly is refused, not rounded', async () => {
    const before = chargeRequests().length
    const result = await run(
      sandbox,
      charge({ orderId: 'text-amount-4', amount: '={{ "10.000000000000000001" }}' }),
    )
    expect(result.error?.message).toContain('order.amount: has more digits than a JSON number')
    expect(chargeRequests().length).toBe(before)
  })

  it("the charge on the wire and the item's request are the validated request, each written once", async () => {
    const result = await run(
      sandbox,
      charge({
        orderId: 'text-amount-5',
        amount: '={{ $json.amount }}',
        additionalFields: { description: 'Two mugs', name: 'Order 5' },
        billingInfo: { countryCode: 'us', stateCode: 'CA', zipCode: '94105' },
      }),
      [{ amount: ' 19.90 ' }],
    )
    expect(result.error).toBeUndefined()
    // The billing country as the core decodes it (upper-case), the amount a JSON number.
    expect(JSON.parse(chargeRequests().at(-1)?.body ?? '{}')).toEqual({
      order: { id: 'text-amount-5', amount: 19.9, description: 'Two mugs', name: 'Order 5' },
      cardId,
      authenticationId: null,
      billingInfo: { countryCode: 'US', stateCode: 'CA', zipCode: '94105' },
    })
    expect(result.nodes['Charge']?.[0]?.[0]?.json.request).toEqual({
      orderId: 'text-amount-5',
      amount: 19.9,
      cardId,
      authenticationId: null,
    })
  })
})
