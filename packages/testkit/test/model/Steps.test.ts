/**
 * What the steps say: each webhook move names the event and its order, and the final
 * "eventually" step says in which order it delivered the webhooks (the order that broke
 * an integration that takes each webhook's status as the order's); each move of the webhook
 * adversary names the event it sent.
 */
import { describe, expect, it } from 'vitest'
import { checkoutService, fixedCheckout } from '../../examples/checkout/checkoutService.js'
import { checkModel } from '../../src/model/Run.js'
import {
  buyerPaysLink,
  createLink,
  forgedWebhook,
  portal,
  reconcile,
  webhook,
} from '../../src/model/Steps.js'

describe('the "eventually" step', () => {
  it('says in which order it delivered the webhooks, event types and orders', async () => {
    const report = await checkModel({
      integration: checkoutService({ trustsWebhookOrder: true }),
      story: [
        createLink('o1'),
        buyerPaysLink('o1'),
        webhook('drop'),
        portal('finalize', 'o1'),
        createLink('o2'),
      ],
    })
    expect(report.problem).toBe('the integration has order o1 PAID, the service FINALIZED')
    expect(report.story).toEqual([
      'the shop creates a payment link for order o1',
      'the buyer pays the payment link of order o1',
      'the oldest pending webhook is lost (redelivered later): order.paid of o1',
      'the merchant portal finalizes order o1',
      'the shop creates a payment link for order o2',
      'eventually: the network recovers, the pending webhooks are delivered, in this order ' +
        '(order.finalized of o1, then order.paid of o1), the shop reconciles',
    ])
  })

  it('names one webhook, none, and those its reconcile caused', async () => {
    const one = await checkModel({
      integration: fixedCheckout,
      invariants: [{ name: 'the end', check: ({ quiet }) => (quiet ? 'shown' : undefined) }],
      story: [createLink('o2'), buyerPaysLink('o2')],
    })
    expect(one.story.at(-1)).toBe(
      'eventually: the network recovers, the pending webhook is delivered (order.paid of o2), the shop reconciles',
    )
    const none = await checkModel({
      integration: fixedCheckout,
      invariants: [{ name: 'the end', check: ({ quiet }) => (quiet ? 'shown' : undefined) }],
      story: [reconcile('o1')],
    })
    expect(none.story).toEqual([
      'the shop reconciles order o1',
      'eventually: the network recovers, no webhook is pending, the shop reconciles',
    ])
  })
})

describe('the webhook moves', () => {
  it('deliver one event twice at once: a check made before an await ships twice', async () => {
    const story = [createLink('o1'), buyerPaysLink('o1'), webhook('concurrent')]
    const racing = await checkModel({
      integration: checkoutService({ racesDuplicates: true }),
      story,
    })
    expect(racing.problem).toBe('the integration recorded order o1 as paid 2 times')
    expect(racing.story.at(-1)).toBe(
      'the oldest pending webhook is delivered twice at once (a retry in flight): order.paid of o1, then order.paid of o1',
    )
    // the same deliveries one after the other: the check sees the first
    const oneByOne = await checkModel({
      integration: checkoutService({ racesDuplicates: true }),
      story: [createLink('o1'), buyerPaysLink('o1'), webhook('deliverNext'), webhook('duplicate')],
    })
    expect(oneByOne.ok).toBe(true)
    expect((await checkModel({ integration: fixedCheckout, story })).ok).toBe(true)
  })

  it('name the event, its order, and an answer that refused it', async () => {
    const report = await checkModel({
      integration: (context) => ({
        ...fixedCheckout(context),
        handleWebhook: async () => ({ status: 503, body: 'try later' }),
      }),
      invariants: [{ name: 'the end', check: ({ quiet }) => (quiet ? 'shown' : undefined) }],
      story: [createLink('o1'), buyerPaysLink('o1'), webhook('deliverLatest')],
    })
    // refused, it stays pending: "eventually" tries it 5 times, each attempt listed
    expect(report.story.slice(2)).toEqual([
      'the newest pending webhook is delivered first (out of order): order.paid of o1 (answered 503 "try later")',
      'eventually: the network recovers, the pending webhooks are delivered, in this order (' +
        Array(5).fill('order.paid of o1 (answered 503 "try later")').join(', then ') +
        '), the shop reconciles',
    ])
  })
})

describe('the webhook adversary', () => {
  it('each forgery names its event, and a verifying route refuses every one', async () => {
    const report = await checkModel({
      integration: fixedCheckout,
      invariants: [{ name: 'the end', check: ({ quiet }) => (quiet ? 'shown' : undefined) }],
      story: [
        createLink('o1'),
        forgedWebhook('unsigned', 'o1'),
        forgedWebhook('otherSecret', 'o1'),
        forgedWebhook('stale', 'o1'),
        forgedWebhook('tampered', 'o1'),
        forgedWebhook('unknownOrder', 'o1'),
        forgedWebhook('replayed', 'o1'),
        buyerPaysLink('o1'),
        webhook('deliverNext'),
        forgedWebhook('replayed', 'o1'),
        forgedWebhook('unsigned', 'o2'),
      ],
    })
    expect(report.story.slice(1, 7)).toEqual([
      'an unsigned webhook about order o1 arrives (forged): order.paid of o1 (answered 401)',
      'a webhook about order o1 signed with another secret arrives (forged): order.paid of o1 (answered 401)',
      'a webhook about order o1 signed 2 h ago arrives (forged, stale): order.paid of o1 (answered 401)',
      'a webhook about order o1 altered after signing arrives (forged): order.paid of o1 (answered 401)',
      'a webhook about an order the shop never made arrives (forged): order.paid of o3 (answered 401)',
      'an earlier webhook about order o1 is replayed with a fresh signature: there is none',
    ])
    expect(report.story.slice(9, 11)).toEqual([
      'an earlier webhook about order o1 is replayed with a fresh signature: order.paid of o1',
      'an unsigned webhook about order o2 arrives (forged): order.paid of o2 (answered 401)',
    ])
  })
})
