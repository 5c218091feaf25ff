import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '@paykit/testkit'
import { Faults, testCards } from '@paykit/testkit'
import { paykitNode, run, singleNodeWorkflow, useSandbox } from '../../support.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

const CVV = '987'

/** Payment Method → Create, the card read at the default field names (`card.*`). */
const cardParameters = {
  resource: 'paymentMethod',
  operation: 'create',
  additionalFields: { cardHolder: 'Ada Lovelace', email: 'ada@example.com' },
}

/** An input item holding a card as a form or webhook delivers it. */
const cardItem = (number: string) => ({
  card: {
    number,
    expirationMonth: '12',
    expirationYear: String(new Date().getUTCFullYear() + 3),
    cvv: CVV,
  },
})

/** A payment method of the sandbox for `number`, through the node. */
const paymentMethod = async (number: string) => {
  const result = await run(sandbox, singleNodeWorkflow(paykitNode('Card', cardParameters)), [
    cardItem(number),
  ])
  expect(result.error).toBeUndefined()
  return result.nodes['Card']?.[0]?.[0]?.json as { id: string; bin: { countryCode: string } }
}

const chargeNode = (parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  singleNodeWorkflow(
    paykitNode('Charge', { resource: 'charge', operation: 'create', ...parameters }, extra),
  )

const chargeRequests = () => sandbox.requests().filter((r) => r.path === '/charges')

describe('Payment Method -> Create', () => {
  it('registers a card; the output keeps the last four digits, never the number or the CVV', async () => {
    const input = cardItem(testCards.success.number)
    const result = await run(sandbox, singleNodeWorkflow(paykitNode('Card', cardParameters)), [
      input,
    ])
    const json = result.nodes['Card']?.[0]?.[0]?.json
    expect(json).toMatchObject({
      id: expect.stringMatching(/^pm_/),
      type: 'card',
      bin: { brand: 'VISA', countryCode: 'CRI' },
      card: { last4: '4242' },
    })
    const text = JSON.stringify(result.run)
    expect(text).not.toContain(testCards.success.number)
    expect(text).not.toContain(`"${CVV}"`)
  })

  it('a card that fails the Luhn check is refused before sending, naming card.number, without the number', async () => {
    const before = sandbox.requests().length
    const result = await run(sandbox, singleNodeWorkflow(paykitNode('Card', cardParameters)), [
      cardItem('4242424242424241'),
    ])
    expect(result.error?.name).toBe('NodeOperationError')
    expect(result.error?.message).toContain('card.number')
    expect(JSON.stringify(result.error)).not.toContain('4242424242424241')
    expect(sandbox.requests().length).toBe(before)
  })
})

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

describe('Charge -> Complete After 3DS', () => {
  const start3ds = async (orderId: string) => {
    const card = await paymentMethod(testCards.authentication.number)
    const first = await run(sandbox, chargeNode({ orderId, amount: 10, cardId: card.id }))
    const json = first.nodes['Charge']?.[1]?.[0]?.json as {
      status: string
      authentication: { url: string; id: string }
    }
    expect(json.status).toBe('AUTHENTICATION_REQUIRED')
    return { card, authentication: json.authentication }
  }

  const complete = (parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    chargeNode({ operation: 'completeAfter3ds', amount: 10, ...parameters }, extra)

  const frameMessage = (orderId: string, id: string, messageType: string, status: string) => ({
    MessageType: messageType,
    Status: status,
    AuthenticationId: id,
    OrderId: orderId,
    OrderAmount: 10,
  })

  it('repeats the charge with the id from a frame message authentication.complete + SUCCESS', async () => {
    const { card, authentication } = await start3ds('3ds-ok')
    sandbox.completeAuthentication(authentication.id, 'success')
    const result = await run(
      sandbox,
      complete({ orderId: '3ds-ok', cardId: card.id, frameMessage: '={{ $json.message }}' }),
      [
        {
          message: frameMessage('3ds-ok', authentication.id, 'authentication.complete', 'SUCCESS'),
        },
      ],
    )
    expect(result.error).toBeUndefined()
    expect(result.nodes['Charge']?.[0]?.[0]?.json).toMatchObject({
      status: 'SUCCEEDED',
      request: { authenticationId: authentication.id },
    })
  })

  it('a failed authentication does not repeat the charge: an error naming frameMessage.Status', async () => {
    const { card, authentication } = await start3ds('3ds-failed')
    sandbox.completeAuthentication(authentication.id, 'failed')
    const before = chargeRequests().length
    const result = await run(
      sandbox,
      complete({
        orderId: '3ds-failed',
        cardId: card.id,
        frameMessage: JSON.stringify(
          frameMessage('3ds-failed', authentication.id, 'authentication.failed', 'FAILED'),
        ),
      }),
    )
    expect(result.error?.message).toContain('frameMessage.Status')
    expect(chargeRequests().length).toBe(before)
  })

  it('a malformed frame message names its field; a message for another order is refused', async () => {
    const { card, authentication } = await start3ds('3ds-bad')
    const bad = await run(
      sandbox,
      complete({ orderId: '3ds-bad', cardId: card.id, frameMessage: '{"MessageType":"x"}' }),
    )
    expect(bad.error?.message).toContain('frameMessage.MessageType')
    const other = await run(
      sandbox,
      complete({
        orderId: '3ds-bad',
        cardId: card.id,
        frameMessage: JSON.stringify(
          frameMessage('another-order', authentication.id, 'authentication.complete', 'SUCCESS'),
        ),
      }),
    )
    expect(other.error?.message).toContain('frameMessage.OrderId')
  })

  it('completes with an authentication id given directly', async () => {
    const { card, authentication } = await start3ds('3ds-id')
    sandbox.completeAuthentication(authentication.id, 'success')
    const result = await run(
      sandbox,
      complete({
        orderId: '3ds-id',
        cardId: card.id,
        authenticationFrom: 'authenticationId',
        authenticationId: authentication.id,
      }),
    )
    expect(result.nodes['Charge']?.[0]?.[0]?.json.status).toBe('SUCCEEDED')
  })
})
