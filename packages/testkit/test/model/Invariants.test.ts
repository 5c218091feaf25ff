/**
 * Each built-in invariant catches a seeded bug in a sample integration (the example
 * checkout service with that one mistake), and the shrunk story has at most 5 steps; the
 * amounts (float trouble, counted in cents) and the webhook adversary.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  checkoutService,
  fixedCheckout,
  type Mistakes,
} from '../../examples/checkout/checkoutService.js'
import * as Arbitraries from '../../src/arbitraries/All.js'
import type { MakeIntegration, ShopOrder } from '../../src/model/Integration.js'
import { paidSeenOnce, type ServiceOrder } from '../../src/model/Invariants.js'
import { checkModel, stories } from '../../src/model/Run.js'
import { buyerPaysLink, createLink, forgedWebhook, webhook } from '../../src/model/Steps.js'

const seeded: ReadonlyArray<readonly [string, Mistakes]> = [
  ['no order charged twice', { retriesWithNewOrderId: true }],
  ['one link per order reference', { createsSecondLink: true }],
  ['every paid order seen once', { marksPaidTwice: true }],
  ['no secret or card datum logged', { logsCard: true }],
  ["the integration's view agrees with the service", { trustsWebhookOrder: true }],
]

describe('the built-in invariants', () => {
  for (const [invariant, mistakes] of seeded)
    it(`"${invariant}" catches ${Object.keys(mistakes).join()} in at most 5 steps`, async () => {
      const report = await checkModel({
        integration: checkoutService(mistakes),
        numRuns: 2000,
        seed: 7,
      })
      expect(report.ok).toBe(false)
      expect(report.invariant).toBe(invariant)
      expect(report.story.length).toBeGreaterThan(0)
      expect(report.story.length).toBeLessThanOrEqual(5)
      // the printed story is the numbered steps, the last one where it broke
      const lines = report.text.split('\n').filter((l) => /^ {2}\d+\. /.test(l))
      expect(lines).toEqual(report.story.map((s, i) => `  ${i + 1}. ${s}`))
    })

  it('the secret check shows where, never the card number nor any of its digits', async () => {
    const report = await checkModel({
      integration: checkoutService({ logsCard: true }),
      numRuns: 100,
      seed: 7,
    })
    expect(report.problem).toMatch(/registering card \[redacted\] for o\d/)
    expect(report.text).not.toMatch(/\d{4}/)
  })

  it('"every paid order seen once": a payment recorded for an order the service was never paid for', () => {
    const cancelled: ServiceOrder = {
      reference: 'o1',
      ownIds: ['INV-0001'],
      amount: 19.99,
      currency: 'USD',
      charges: [],
      succeededCharges: [],
      links: [{ orderCode: 'OC00001001', status: 'CANCELLED', total: 19.99 }],
      total: 0,
      status: 'CANCELLED',
    }
    const shipped = {
      reference: 'INV-0001',
      order: 'o1',
      status: 'void',
      means: ['CANCELLED' as const],
      timesPaid: 1,
    }
    const observe = (timesPaid: number, quiet: boolean) =>
      paidSeenOnce.check({
        service: [cancelled],
        view: [{ ...shipped, timesPaid }],
        log: [],
        secrets: [],
        quiet,
      })
    // at any step, not only once the world is quiet
    expect(observe(1, false)).toBe(
      "the integration recorded order o1 (the integration's INV-0001) as paid, the service has not been paid for it",
    )
    expect(observe(0, false)).toBeUndefined()
    expect(observe(0, true)).toBeUndefined()
  })
})

describe('amounts: the orders break float arithmetic, the kit counts in cents', () => {
  // The fixed checkout with its amounts converted as many integrations do.
  const floored: MakeIntegration = (context) => {
    const inner = fixedCheckout(context)
    const floor = (order: ShopOrder): ShopOrder => ({
      ...order,
      amount: Math.floor(order.amount * 100) / 100,
    })
    return {
      ...inner,
      payOrder: (order, card) => inner.payOrder(floor(order), card),
      createLink: (order) => inner.createLink(floor(order)),
    }
  }

  it('a Math.floor(amount * 100) conversion is found within 200 stories, on three seeds', async () => {
    for (const seed of [1, 2, 3]) {
      const report = await checkModel({ integration: floored, numRuns: 200, seed })
      expect(report.invariant).toBe("every amount sent is the order's")
      expect(report.problem).toMatch(
        /^order o\d is [\d.]+ USD, the integration (charged [\d.]+ USD \(ch_\d+\)|created a payment link of [\d.]+ USD \(OC\d+\))$/,
      )
      expect(report.text).toMatch(/\nThe orders: o1 [\d.]+ USD.*, o2 [\d.]+ USD/)
      expect(report.orders.map((o) => o.reference)).toEqual(['o1', 'o2'])
    }
  })

  it('the orders are drawn toward float trouble, their line items summing to the amount', async () => {
    const [story] = fc.sample(stories({ integration: fixedCheckout, orders: 3 }), {
      numRuns: 1,
      seed: 9,
    })
    expect(story?.orders.map((o) => o.reference)).toEqual(['o1', 'o2', 'o3'])
    const drawn = fc.sample(stories({ integration: fixedCheckout }), { numRuns: 300, seed: 4 })
    const amounts = drawn.flatMap((s) => s.orders.map((o) => o.amount))
    // a sixth or more are amounts whose hundredfold is not whole in binary
    expect(
      amounts.filter((a) => Math.floor(a * 100) !== Math.round(a * 100)).length,
    ).toBeGreaterThan(amounts.length / 6)
    for (const order of drawn.flatMap((s) => s.orders)) {
      expect(order.currency).toBe('USD')
      expect(Arbitraries.lineItemsTotal(order.lineItems)).toBe(order.amount)
    }
  })

  it('what the integration records as paid is checked against what the service charged', async () => {
    const recording =
      (toCents: (amount: number) => number): MakeIntegration =>
      (context) => {
        const inner = fixedCheckout(context)
        const amounts = new Map<string, number>()
        const remember = (order: ShopOrder): void => void amounts.set(order.reference, order.amount)
        return {
          ...inner,
          payOrder: (order, card) => (remember(order), inner.payOrder(order, card)),
          createLink: (order) => (remember(order), inner.createLink(order)),
          view: () =>
            inner.view().map((o) => ({
              ...o,
              ...(o.timesPaid > 0
                ? { amountPaid: toCents(amounts.get(o.reference) ?? 0) / 100 }
                : {}),
            })),
        }
      }
    const floor = await checkModel({
      integration: recording((a) => Math.floor(a * 100)),
      numRuns: 200,
      seed: 5,
    })
    expect(floor.invariant).toBe('the amount recorded paid is the amount charged')
    expect(floor.problem).toMatch(
      /^the integration recorded [\d.]+ USD paid for order o\d, the service charged [\d.]+ USD$/,
    )
    const exact = await checkModel({
      integration: recording((a) => Math.round(a * 100)),
      numRuns: 200,
      seed: 5,
    })
    expect(exact.text).toMatch(/^200 stories, every invariant held/)
  })

  it('orders given by hand: every story uses them', async () => {
    const seen: Array<ShopOrder> = []
    const report = await checkModel({
      integration: (context) => {
        const inner = fixedCheckout(context)
        return { ...inner, createLink: (order) => (seen.push(order), inner.createLink(order)) }
      },
      orders: [{ amount: 19.99 }, { lineItems: [{ name: 'Tea', price: 0.7, quantity: 3 }] }],
      story: [createLink('o1'), createLink('o2')],
    })
    expect(report.ok).toBe(true)
    expect(seen).toEqual([
      {
        reference: 'o1',
        amount: 19.99,
        currency: 'USD',
        lineItems: [{ name: 'Order total', price: 19.99, quantity: 1 }],
      },
      {
        reference: 'o2',
        amount: 2.1,
        currency: 'USD',
        lineItems: [{ name: 'Tea', price: 0.7, quantity: 3 }],
      },
    ])
  })
})

describe('the webhook adversary', () => {
  it('a route that trusts an unsigned event is found within 200 stories, on three seeds', async () => {
    for (const seed of [1, 2, 3]) {
      const report = await checkModel({
        integration: checkoutService({ trustsUnsigned: true }),
        numRuns: 200,
        seed,
      })
      expect(report.invariant).toBe('no change from a webhook the service did not send')
      expect(report.problem).toMatch(
        /^the unsigned order\.\w+ of o\d.* changed the integration's view: order o\d/,
      )
      expect(
        report.story.some((s) => /^an unsigned webhook about order o\d arrives \(forged\)/.test(s)),
      ).toBe(true)
    }
  })

  it('an integration that reads every event back holds, signatures unchecked', async () => {
    const report = await checkModel({
      integration: checkoutService({ readsBack: true }),
      numRuns: 300,
      seed: 8,
    })
    expect(report.text).toMatch(/^300 stories, every invariant held/)
  })

  it('turned off (forgedWebhooks: false), the same route passes: the reason to keep it on', async () => {
    const report = await checkModel({
      integration: checkoutService({ trustsUnsigned: true }),
      forgedWebhooks: false,
      numRuns: 200,
      seed: 1,
    })
    expect(report.ok).toBe(true)
  })

  it('a replayed genuine event books a payment twice in a route that books per delivery', async () => {
    const report = await checkModel({
      integration: checkoutService({ marksPaidTwice: true }),
      story: [
        createLink('o1'),
        buyerPaysLink('o1'),
        webhook('deliverNext'),
        forgedWebhook('replayed', 'o1'),
      ],
    })
    expect(report.problem).toBe(
      "the order.paid of o1 replayed with a fresh signature changed the integration's view: order o1 is recorded paid 2 times (before: 1), the service was paid 1",
    )
  })
})
