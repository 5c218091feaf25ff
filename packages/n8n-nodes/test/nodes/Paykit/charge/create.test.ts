/** Charge → Create through the real n8n engine against the sandbox over real HTTP. Its Amount given as text: createAmount.test.ts. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { testCards } from '@paykit/testkit'
import { Faults } from '@paykit/testkit/service'
import { paykitNode, run, useSandbox } from '../../../support.js'
import {
  chargeNode,
  chargeRequests as chargeRequestsOf,
  paymentMethod as paymentMethodIn,
} from './support.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

const paymentMethod = (number: string) => paymentMethodIn(sandbox, number)
const chargeRequests = () => chargeRequestsOf(sandbox)

describe('Charge -> Create', () => {
  it('charges a card: SUCCEEDED with the order, amounts as numbers', async () => {
    const card = await paymentMethod(testCards.success.number)
    const result = await run(
      sandbox,
      chargeNode({ orderId: 'n8n-ok-1', amount: 25.5, cardId: card.id }),
    )
    expect(result.error).toBeUndefined()
    expect(result.nodes['Charge']?.[0]?.[0]?.json).toMatchObject({
      status: 'SUCCEEDED',
      order: { reference: 'n8n-ok-1', amount: 25.5, currency: 'USD' },
      error: null,
      request: { orderId: 'n8n-ok-1', amount: 25.5, cardId: card.id, authenticationId: null },
    })
  })

  it('a declined card is a FAILED charge on the Failed output (not Succeeded), not a node error', async () => {
    const card = await paymentMethod(testCards.fraudPrevent.number)
    const result = await run(
      sandbox,
      chargeNode({ orderId: 'n8n-fraud', amount: 3, cardId: card.id }),
    )
    expect(result.error).toBeUndefined()
    const [succeeded, authenticationRequired, failed] = result.nodes['Charge'] ?? []
    expect(succeeded).toEqual([])
    expect(authenticationRequired).toEqual([])
    expect(failed?.[0]?.json).toMatchObject({ status: 'FAILED', error: { code: 'FRAUD_PREVENT' } })
  })

  it('Outputs: Single puts every outcome on one output, as before', async () => {
    const card = await paymentMethod(testCards.fraudPrevent.number)
    const result = await run(
      sandbox,
      chargeNode({ orderId: 'n8n-single', amount: 3, cardId: card.id, chargeOutputs: 'single' }),
    )
    expect(result.nodes['Charge']).toHaveLength(1)
    expect(result.nodes['Charge']?.[0]?.[0]?.json).toMatchObject({ status: 'FAILED' })
  })

  it('a workflow wired to Succeeded runs its next node only for charges that succeeded', async () => {
    const ok = await paymentMethod(testCards.success.number)
    const declined = await paymentMethod(testCards.declined.number)
    const result = await run(
      sandbox,
      {
        nodes: [
          { name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
          paykitNode('Charge', {
            resource: 'charge',
            operation: 'create',
            orderId: '={{ $json.orderId }}',
            amount: 4,
            cardId: '={{ $json.cardId }}',
          }),
          { name: 'Fulfil', type: 'n8n-nodes-base.noOp', parameters: {} },
          { name: 'Tell Buyer', type: 'n8n-nodes-base.noOp', parameters: {} },
        ],
        connections: {
          Start: { main: [[{ node: 'Charge', type: 'main', index: 0 }]] },
          Charge: {
            main: [
              [{ node: 'Fulfil', type: 'main', index: 0 }],
              [],
              [{ node: 'Tell Buyer', type: 'main', index: 0 }],
            ],
          },
        },
      },
      [
        { orderId: 'branch-ok', cardId: ok.id },
        { orderId: 'branch-declined', cardId: declined.id },
      ],
    )
    expect(result.error).toBeUndefined()
    expect(result.nodes['Fulfil']?.[0]?.map((i) => i.json.status)).toEqual(['SUCCEEDED'])
    expect(result.nodes['Tell Buyer']?.[0]?.map((i) => i.json.status)).toEqual(['FAILED'])
  })

  it('takes the card issuer country from the input item (bin.countryCode): billing info checked before sending', async () => {
    const card = await paymentMethod(testCards.successUsa.number)
    const before = chargeRequests().length
    const result = await run(
      sandbox,
      chargeNode({ orderId: 'n8n-usa-item', amount: 3, cardId: '={{ $json.id }}' }),
      [card],
    )
    expect(result.error?.message).toContain('billingInfo')
    expect(chargeRequests().length).toBe(before)
  })

  it('billing info is required for a USA card when its country is given: refused before sending', async () => {
    const card = await paymentMethod(testCards.successUsa.number)
    const before = chargeRequests().length
    const result = await run(
      sandbox,
      chargeNode({
        orderId: 'n8n-usa',
        amount: 3,
        cardId: card.id,
        additionalFields: { cardCountryCode: card.bin.countryCode },
      }),
    )
    expect(result.error?.message).toContain('billingInfo')
    expect(chargeRequests().length).toBe(before)
    const ok = await run(
      sandbox,
      chargeNode({
        orderId: 'n8n-usa',
        amount: 3,
        cardId: card.id,
        additionalFields: { cardCountryCode: 'USA' },
        billingInfo: { countryCode: 'US', stateCode: 'CA', zipCode: '94105' },
      }),
    )
    expect(ok.nodes['Charge']?.[0]?.[0]?.json.status).toBe('SUCCEEDED')
  })

  it('charges run one at a time, and an order that succeeded is never charged twice', async () => {
    const card = await paymentMethod(testCards.success.number)
    const result = await run(
      sandbox,
      chargeNode({ orderId: '={{ $json.orderId }}', amount: 1, cardId: card.id }),
      [{ orderId: 'dup-1' }, { orderId: 'dup-1' }],
    )
    const [succeeded, , failed] = result.nodes['Charge'] ?? []
    expect(succeeded?.map((i) => i.json.status)).toEqual(['SUCCEEDED'])
    expect(failed?.map((i) => i.json)).toMatchObject([
      { status: 'FAILED', error: { code: 'DUPLICATE_ORDER' } },
    ])
  })

  it('a charge that may have reached the service is never repeated (connection reset)', async () => {
    const card = await paymentMethod(testCards.success.number)
    sandbox.injectFault(Faults.connectionReset, { method: 'POST', path: '/charges', times: 1 })
    try {
      const before = chargeRequests().length
      const result = await run(
        sandbox,
        chargeNode({ orderId: 'reset-1', amount: 1, cardId: card.id }, { continueOnFail: true }),
      )
      // Continue On Fail: the error item goes to Failed, never to Succeeded.
      expect(result.nodes['Charge']?.[0]).toEqual([])
      const json = result.nodes['Charge']?.[2]?.[0]?.json
      expect(json).toMatchObject({ details: { errorType: 'NetworkError', outcomeUnknown: true } })
      expect(String(json?.error)).toContain('may have been processed')
      expect(chargeRequests().length).toBe(before + 1)
    } finally {
      sandbox.clearFaults()
    }
  })
})
