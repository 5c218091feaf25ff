/**
 * Workflows saved with the Paykit node at type version 1 (fixtures/v1), run by the real n8n
 * engine against the sandbox: each does what it did at version 1. A charge has one output
 * (every outcome on it, the next step runs for each); a link is created every time unless
 * One Link per Order Reference was switched on; the card parameters of the first version
 * still read a card given by expressions, and a card typed into them is refused by name.
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

const V = 1

/** A charge of `cardId` awaiting 3DS, and the frame message of its authentication ended `how`. */
const awaiting3ds = async (orderId: string, how: 'success' | 'failed') => {
  const cardId = await savedCard(sandbox, testCards.authentication)
  const first = await value(
    clientOf(sandbox).charge({ order: { id: orderId, amount: 12.5 }, cardId }),
  )
  if (first.authentication === null) throw new Error(`${orderId}: no 3DS asked`)
  const message = await value(
    authenticateHeadless(how)(first.authentication.url, first.authentication.id),
  )
  return { orderId, amount: 12.5, cardId, frameMessage: FrameMessage.encode(message) }
}

describe('Paykit node, version 1: Charge', () => {
  it('Create has one output: succeeded, 3DS and declined charges all reach the step wired to it, in order', async () => {
    const ok = await savedCard(sandbox, testCards.success)
    const threeDs = await savedCard(sandbox, testCards.authentication)
    const declined = await savedCard(sandbox, testCards.declined)
    const result = await runSaved(sandbox, saved(V, 'charge-create'), [
      { orderId: 'v1-ok', amount: 10, cardId: ok },
      { orderId: 'v1-3ds', amount: 11, cardId: threeDs },
      { orderId: 'v1-declined', amount: 12, cardId: declined },
    ])
    expect(result.status).toBe('success')
    expect(result.nodes['Charge']).toHaveLength(1)
    const next = itemsOf(result, 'Next Step')
    expect(next.map((i) => i.status)).toEqual(['SUCCEEDED', 'AUTHENTICATION_REQUIRED', 'FAILED'])
    expect(next[0]).toMatchObject({
      order: { reference: 'v1-ok', amount: 10 },
      request: { orderId: 'v1-ok', amount: 10, cardId: ok, authenticationId: null },
    })
    expect(next[1]).toMatchObject({
      authentication: { url: expect.stringContaining('http'), id: expect.any(String) },
    })
    expect(next[2]).toMatchObject({ error: { code: 'CARD_DECLINED' } })
  })

  it('Create with Outputs switched to One per Status: Succeeded, Authentication Required, Failed', async () => {
    const ok = await savedCard(sandbox, testCards.success)
    const declined = await savedCard(sandbox, testCards.declined)
    const result = await runSaved(sandbox, saved(V, 'charge-create-by-status'), [
      { orderId: 'v1-by-status-ok', amount: 5, cardId: ok },
      { orderId: 'v1-by-status-declined', amount: 6, cardId: declined },
    ])
    expect(result.nodes['Charge']).toHaveLength(3)
    expect(itemsOf(result, 'Succeeded').map((i) => i.status)).toEqual(['SUCCEEDED'])
    expect(itemsOf(result, 'Authentication Required')).toEqual([])
    expect(itemsOf(result, 'Failed').map((i) => i.status)).toEqual(['FAILED'])
  })

  it('Create behind a Webhook (answering with the last node): a 3DS charge reaches the next step, which answers', async () => {
    const cardId = await savedCard(sandbox, testCards.authentication)
    const result = await runSaved(sandbox, saved(V, 'charge-create-from-webhook'), [
      { headers: {}, params: {}, query: {}, body: { orderId: 'v1-hook-3ds', amount: 9.5, cardId } },
    ])
    expect(result.status).toBe('success')
    expect(itemsOf(result, 'Next Step')).toEqual([
      expect.objectContaining({
        status: 'AUTHENTICATION_REQUIRED',
        authentication: expect.objectContaining({ id: expect.any(String) }),
      }),
    ])
  })

  it('Complete After 3DS has one output: the completed charge and, with Continue On Fail, the refused authentication reach the next step', async () => {
    const passed = await awaiting3ds('v1-3ds-passed', 'success')
    const refused = await awaiting3ds('v1-3ds-refused', 'failed')
    const result = await runSaved(sandbox, saved(V, 'charge-complete-after-3ds'), [passed, refused])
    expect(result.status).toBe('success')
    expect(result.nodes['Complete Charge']).toHaveLength(1)
    const next = itemsOf(result, 'Next Step')
    expect(next).toHaveLength(2)
    expect(next[0]).toMatchObject({
      status: 'SUCCEEDED',
      order: { reference: 'v1-3ds-passed', amount: 12.5 },
    })
    expect(String(next[1]?.error)).toContain('frameMessage.Status')
  })
})

describe('Paykit node, version 1: Payment Link', () => {
  it('Create, as saved by default: one output, and the same order reference linked again on each run', async () => {
    const workflow = saved(V, 'payment-link-create-default')
    const order = { amount: 20, orderReference: 'v1-ref-every-time' }
    const first = await runSaved(sandbox, workflow, [order])
    const again = await runSaved(sandbox, workflow, [order])
    for (const result of [first, again]) {
      expect(result.status).toBe('success')
      expect(result.nodes['Create Payment Link']).toHaveLength(1)
      expect(itemsOf(result, 'Next Step')).toEqual([
        expect.objectContaining({
          orderCode: expect.any(String),
          paymentLinkUrl: expect.stringContaining('/pay/'),
        }),
      ])
    }
    expect(itemsOf(first, 'Next Step')[0]?.orderCode).not.toBe(
      itemsOf(again, 'Next Step')[0]?.orderCode,
    )
  })

  it('Create with One Link per Order Reference switched on: Created, then Already Requested', async () => {
    const workflow = saved(V, 'payment-link-create-switched')
    const order = { amount: 21, orderReference: 'v1-ref-once' }
    const first = await runSaved(sandbox, workflow, [order])
    expect(itemsOf(first, 'Created')).toEqual([
      expect.objectContaining({ paymentLinkUrl: expect.stringContaining('/pay/') }),
    ])
    const orders = Object.keys(sandbox.state().orders).length
    const again = await runSaved(sandbox, workflow, [order])
    expect(again.nodes['Created']).toBeUndefined()
    expect(itemsOf(again, 'Already Requested')).toEqual([
      { orderReference: 'v1-ref-once', alreadyRequested: true },
    ])
    expect(Object.keys(sandbox.state().orders)).toHaveLength(orders)
  })

  it('Get Order and Wait for Status read the order back, PAID once paid', async () => {
    const link = await value(
      clientOf(sandbox).createPaymentLink({ orderReference: 'v1-read', amount: 33.3 }),
    )
    sandbox.payOrder(link.orderCode)
    const result = await runSaved(sandbox, saved(V, 'payment-link-read'), [
      { orderCode: link.orderCode },
    ])
    expect(result.status).toBe('success')
    for (const node of ['Get Order', 'Wait For Paid'])
      expect(itemsOf(result, node)).toEqual([
        expect.objectContaining({
          orderCode: link.orderCode,
          orderReference: 'v1-read',
          orderStatus: 'PAID',
          total: 33.3,
        }),
      ])
  })
})

describe('Paykit node, version 1: Payment Method', () => {
  it('Create reads the card at the default field names; the output keeps the last four digits', async () => {
    const result = await runSaved(sandbox, saved(V, 'payment-method-create'), [
      cardItem(testCards.success.number),
    ])
    expect(result.status).toBe('success')
    expect(itemsOf(result, 'Next Step')).toEqual([
      expect.objectContaining({
        id: expect.stringMatching(/^pm_/),
        card: expect.objectContaining({ last4: '4242' }),
      }),
    ])
    expect(JSON.stringify(result.run)).not.toContain(testCards.success.number)
  })

  it('Create saved with the first card parameters as expressions reads the card through them, as it did', async () => {
    const result = await runSaved(sandbox, saved(V, 'payment-method-create-card-expressions'), [
      { number: testCards.success.number, month: '11', year: '2032', cvv: '321' },
    ])
    expect(result.error).toBeUndefined()
    expect(itemsOf(result, 'Next Step')).toEqual([
      expect.objectContaining({
        id: expect.stringMatching(/^pm_/),
        card: { last4: '4242', expirationMonth: '11', expirationYear: '2032' },
      }),
    ])
  })

  it('Create saved with a card typed into its parameters is refused, naming the parameter and the card fields, without the number', async () => {
    const before = sandbox.requests().length
    // The item holds another card, which was never read at version 1 either.
    const result = await runSaved(sandbox, saved(V, 'payment-method-create-card-typed'), [
      cardItem(testCards.successUsa.number),
    ])
    expect(result.status).toBe('error')
    expect(result.error?.message).toContain('Card Number (cardNumber)')
    expect(result.error?.message).toContain('Card Number Field')
    expect(result.error?.message).toContain('CVV (cvv)')
    // Not in the error nor in the node's run (n8n's execution stack keeps the saved node).
    const text = JSON.stringify(result.error) + JSON.stringify(result.runs['Card'])
    expect(text).not.toContain('4242424242424242')
    expect(text).not.toContain('"123"')
    expect(sandbox.requests().length).toBe(before)
  })
})

describe('Paykit node, version 1: Order Event', () => {
  it('Accept Once (saved with the credential it used to ask for) passes each event id once', async () => {
    const workflow = saved(V, 'accept-once')
    const first = await runSaved(sandbox, workflow, [{ id: 'evt_v1_a' }, { id: 'evt_v1_b' }])
    expect(first.status).toBe('success')
    expect(itemsOf(first, 'Next Step').map((i) => i.id)).toEqual(['evt_v1_a', 'evt_v1_b'])
    const again = await runSaved(sandbox, workflow, [{ id: 'evt_v1_b' }, { id: 'evt_v1_c' }])
    expect(itemsOf(again, 'Next Step').map((i) => i.id)).toEqual(['evt_v1_c'])
  })
})
