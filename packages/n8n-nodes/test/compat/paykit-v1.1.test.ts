/**
 * Workflows saved with the Paykit node at type version 1.1 (fixtures/v1.1), run by the real
 * n8n engine against the sandbox: each does what it did at version 1.1. A charge has an
 * output per outcome (Succeeded, Authentication Required, Failed); a link creation has One
 * Link per Order Reference on unless it was switched off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FrameMessage } from '@paykit/core/machines'
import { testCards } from '@paykit/testkit'
import { type Sandbox } from '@paykit/testkit/sandbox'
import { authenticateHeadless } from '@paykit/testkit/buyer'
import { useSandbox } from '../support.js'
import { cardItem, clientOf, itemsOf, runSaved, saved, savedCard, value } from './support.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

const V = 1.1

describe('Paykit node, version 1.1: Charge', () => {
  it('Create has an output per outcome: Succeeded, Authentication Required, Failed', async () => {
    const ok = await savedCard(sandbox, testCards.success)
    const threeDs = await savedCard(sandbox, testCards.authentication)
    const declined = await savedCard(sandbox, testCards.declined)
    const result = await runSaved(sandbox, saved(V, 'charge-create'), [
      { orderId: 'v11-ok', amount: 10, cardId: ok },
      { orderId: 'v11-3ds', amount: 11, cardId: threeDs },
      { orderId: 'v11-declined', amount: 12, cardId: declined },
    ])
    expect(result.status).toBe('success')
    expect(result.nodes['Charge']).toHaveLength(3)
    expect(itemsOf(result, 'Succeeded')).toEqual([
      expect.objectContaining({
        status: 'SUCCEEDED',
        order: expect.objectContaining({ reference: 'v11-ok' }),
      }),
    ])
    expect(itemsOf(result, 'Authentication Required')).toEqual([
      expect.objectContaining({
        status: 'AUTHENTICATION_REQUIRED',
        authentication: expect.objectContaining({ url: expect.stringContaining('http') }),
      }),
    ])
    expect(itemsOf(result, 'Failed')).toEqual([
      expect.objectContaining({
        status: 'FAILED',
        error: expect.objectContaining({ code: 'CARD_DECLINED' }),
      }),
    ])
  })

  it('Complete After 3DS: the completed charge on Succeeded, a refused authentication (Continue On Fail) on Failed', async () => {
    const frames = await Promise.all(
      (['success', 'failed'] as const).map(async (how) => {
        const orderId = `v11-3ds-${how}`
        const cardId = await savedCard(sandbox, testCards.authentication)
        const first = await value(
          clientOf(sandbox).charge({ order: { id: orderId, amount: 8.25 }, cardId }),
        )
        if (first.authentication === null) throw new Error(`${orderId}: no 3DS asked`)
        const message = await value(
          authenticateHeadless(how)(first.authentication.url, first.authentication.id),
        )
        return { orderId, amount: 8.25, cardId, frameMessage: FrameMessage.encode(message) }
      }),
    )
    const result = await runSaved(sandbox, saved(V, 'charge-complete-after-3ds'), frames)
    expect(result.status).toBe('success')
    expect(itemsOf(result, 'Succeeded')).toEqual([
      expect.objectContaining({
        status: 'SUCCEEDED',
        order: expect.objectContaining({ reference: 'v11-3ds-success' }),
      }),
    ])
    expect(itemsOf(result, 'Failed').map((i) => String(i.error))).toEqual([
      expect.stringContaining('frameMessage.Status'),
    ])
  })
})

describe('Paykit node, version 1.1: Payment Link', () => {
  it('Create, as saved by default: One Link per Order Reference on, Created then Already Requested', async () => {
    const workflow = saved(V, 'payment-link-create-default')
    const order = { amount: 22, orderReference: 'v11-ref-once' }
    const first = await runSaved(sandbox, workflow, [order])
    expect(first.nodes['Create Payment Link']).toHaveLength(2)
    expect(itemsOf(first, 'Created')).toEqual([
      expect.objectContaining({ paymentLinkUrl: expect.stringContaining('/pay/') }),
    ])
    const again = await runSaved(sandbox, workflow, [order])
    expect(again.nodes['Created']).toBeUndefined()
    expect(itemsOf(again, 'Already Requested')).toEqual([
      { orderReference: 'v11-ref-once', alreadyRequested: true },
    ])
  })

  it('Create with the option switched off: one output, a new link on each run', async () => {
    const workflow = saved(V, 'payment-link-create-switched')
    const order = { amount: 23, orderReference: 'v11-ref-every-time' }
    const first = await runSaved(sandbox, workflow, [order])
    const again = await runSaved(sandbox, workflow, [order])
    for (const result of [first, again]) {
      expect(result.nodes['Create Payment Link']).toHaveLength(1)
      expect(itemsOf(result, 'Next Step')).toHaveLength(1)
    }
    expect(itemsOf(first, 'Next Step')[0]?.orderCode).not.toBe(
      itemsOf(again, 'Next Step')[0]?.orderCode,
    )
  })

  it('Get Order and Wait for Status read the order back, PAID once paid', async () => {
    const link = await value(
      clientOf(sandbox).createPaymentLink({ orderReference: 'v11-read', amount: 44.4 }),
    )
    sandbox.payOrder(link.orderCode)
    const result = await runSaved(sandbox, saved(V, 'payment-link-read'), [
      { orderCode: link.orderCode },
    ])
    expect(result.status).toBe('success')
    for (const node of ['Get Order', 'Wait For Paid'])
      expect(itemsOf(result, node)).toEqual([
        expect.objectContaining({ orderCode: link.orderCode, orderStatus: 'PAID', total: 44.4 }),
      ])
  })
})

describe('Paykit node, version 1.1: Payment Method and Order Event', () => {
  it('Payment Method → Create reads the card at the default field names and removes it from the item', async () => {
    const input = cardItem(testCards.success.number)
    const result = await runSaved(sandbox, saved(V, 'payment-method-create'), [input])
    expect(result.status).toBe('success')
    expect(itemsOf(result, 'Next Step')).toEqual([
      expect.objectContaining({
        id: expect.stringMatching(/^pm_/),
        card: expect.objectContaining({ last4: '4242' }),
      }),
    ])
    expect(JSON.stringify(result.run)).not.toContain(testCards.success.number)
  })

  it('Accept Once, saved without a Paykit API credential, passes each event id once', async () => {
    const workflow = saved(V, 'accept-once')
    expect(workflow.nodes.find((n) => n.name === 'Accept Once')?.credentials).toBeUndefined()
    const first = await runSaved(sandbox, workflow, [{ id: 'evt_v11_a' }, { id: 'evt_v11_a' }])
    expect(first.status).toBe('success')
    expect(itemsOf(first, 'Next Step').map((i) => i.id)).toEqual(['evt_v11_a'])
    const again = await runSaved(sandbox, workflow, [{ id: 'evt_v11_a' }, { id: 'evt_v11_b' }])
    expect(itemsOf(again, 'Next Step').map((i) => i.id)).toEqual(['evt_v11_b'])
  })
})
