// @paykit-test own-worker: nock's interceptors (the nock service)
/**
 * The model's runner and its vitest form: the same stories on the in-memory service, the
 * nock mock and the sandbox over HTTP; a failure replays from its seed and path; a story
 * written by hand; the user's own invariants; the options checked.
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { checkoutService, fixedCheckout } from '../../examples/checkout/checkoutService.js'
import * as Faults from '../../src/service/Faults.js'
import * as E from 'fp-ts/lib/Either.js'
import { createClient } from '@paykit/core'
import {
  buyerPaysLink,
  createLink,
  injectFault,
  payOrder,
  reconcile,
  webhook,
} from '../../src/model/Steps.js'
import { checkModel, stories, type ModelOptions } from '../../src/model/Run.js'
import type { MakeIntegration } from '../../src/model/Integration.js'
import type { Invariant } from '../../src/model/Invariants.js'
import type { Step } from '../../src/model/Steps.js'

/** Plays `story` as written; rejects with the report's text when an invariant breaks. */
const runStory =
  (options: ModelOptions) =>
  async (story: ReadonlyArray<Step>): Promise<void> => {
    const report = await checkModel({ ...options, story })
    if (!report.ok) throw new Error(report.text)
  }

describe('the same model on every fake', () => {
  for (const service of ['nock', 'sandbox'] as const)
    it(`${service}: the fixed service holds, a second link after a lost answer is caught`, async () => {
      const ok = await checkModel({
        integration: fixedCheckout,
        service,
        numRuns: 15,
        maxSteps: 12,
        seed: 3,
      })
      expect(ok.text).toMatch(/^15 stories, every invariant held/)
      // the shrunk story of the in-memory run, played on this fake, fails the same way
      const story = [
        injectFault(Faults.processedThen500, { operation: 'createPaymentLink' }),
        createLink('o1'),
      ]
      await expect(
        runStory({ integration: checkoutService({ createsSecondLink: true }), service })(story),
      ).rejects.toThrow(/one link per order reference: order o1 has 2 payment links/)
    })

  it('a paid link delivered twice is a second payment recorded, on nock as in memory', async () => {
    const story = [
      createLink('o2'),
      buyerPaysLink('o2'),
      webhook('deliverNext'),
      webhook('duplicate'),
    ]
    for (const service of ['memory', 'nock'] as const)
      await expect(
        runStory({ integration: checkoutService({ marksPaidTwice: true }), service })(story),
      ).rejects.toThrow(
        [
          'every paid order seen once: the integration recorded order o2 as paid 2 times',
          'The story (4 steps):',
          '  1. the shop creates a payment link for order o2',
          '  2. the buyer pays the payment link of order o2',
          '  3. the oldest pending webhook is delivered: order.paid of o2',
          '  4. the last delivered webhook is delivered again: order.paid of o2',
        ].join('\n'),
      )
  })
})

describe('checkModel', () => {
  it('a failure replays from its seed and path: the same story', async () => {
    const integration = checkoutService({ retriesWithNewOrderId: true })
    const first = await checkModel({ integration, numRuns: 500, seed: 11 })
    expect(first.ok).toBe(false)
    const again = await checkModel({ integration, seed: first.seed ?? 0, path: first.path ?? '' })
    expect(again.story).toEqual(first.story)
    expect(again.problem).toBe(first.problem)
  })

  it("checks the user's own invariants after the built-in ones", async () => {
    const noCancelled: Invariant = {
      name: 'no order cancelled',
      check: ({ view }) =>
        view.find((o) => o.status === 'CANCELLED') === undefined
          ? undefined
          : 'an order was cancelled',
    }
    const report = await checkModel({
      integration: fixedCheckout,
      invariants: [noCancelled],
      numRuns: 500,
      seed: 5,
    })
    expect(report.invariant).toBe('no order cancelled')
    expect(report.story.length).toBeLessThanOrEqual(5)
  })

  it('plays a story written by hand: no seed, no replay line', async () => {
    const report = await checkModel({
      integration: checkoutService({ logsCard: true }),
      story: [payOrder('o1', 'declined')],
    })
    expect(report).toMatchObject({ ok: false, numRuns: 1, seed: undefined, path: undefined })
    expect(report.invariant).toBe('no secret or card datum logged')
    expect(report.story).toEqual(['the buyer pays order o1 with a declined card'])
    expect(report.text).not.toMatch(/Replay/)
    const held = await checkModel({
      integration: fixedCheckout,
      story: [payOrder('o1', 'success')],
    })
    expect(held).toMatchObject({ ok: true, numRuns: 1, text: 'the story held every invariant' })
  })

  it('refuses options it cannot use, naming the option', async () => {
    const bad: ReadonlyArray<readonly [Partial<ModelOptions>, RegExp]> = [
      [{ orders: 0 }, /^orders: expected an integer of at least 1, got 0$/],
      [{ orders: [] }, /^orders: expected at least one order$/],
      [
        { orders: [{ amount: 19.999 }] },
        /^orders\[0\]\.amount: expected an amount in decimal major units, whole cents, above 0 \(19\.99\), got 19\.999$/,
      ],
      [
        { orders: [{ amount: 10 }, { lineItems: [{ name: 'Tea', price: 0.1, quantity: 0 }] }] },
        /^orders\[1\]\.lineItems\[0\]\.quantity: expected an integer of at least 1, got 0$/,
      ],
      [
        { orders: [{ amount: 0.3000001, lineItems: [{ name: 'Tea', price: 0.1, quantity: 3 }] }] },
        /^orders\[0\]\.amount: expected an amount in decimal major units/,
      ],
      [
        { orders: [{ amount: 0.31, lineItems: [{ name: 'Tea', price: 0.1, quantity: 3 }] }] },
        /^orders\[0\]\.amount: expected the line items' total 0\.3, got 0\.31$/,
      ],
      [{ forgedWebhooks: 'no' as never }, /^forgedWebhooks: expected true or false, got "no"$/],
      [{ numRuns: 1.5 }, /^numRuns: expected an integer of at least 1, got 1.5$/],
      [{ minSteps: 5, maxSteps: 2 }, /^maxSteps: expected an integer of at least 5, got 2$/],
      [{ service: 'prism' as never }, /^service: expected one of memory, nock, sandbox/],
      [
        { statuses: { paid: 'SHIPPED' as never } },
        /^statuses\.paid: "SHIPPED" is not a status of the service/,
      ],
      [{ invariants: [{ name: 'x' } as never] }, /^invariants\[0\]: expected \{ name, check/],
    ]
    for (const [options, error] of bad)
      await expect(
        checkModel({ integration: fixedCheckout, ...options } as ModelOptions),
      ).rejects.toThrow(error)
  })

  it('an integration that throws is part of the story, its message checked for secrets', async () => {
    const story = [payOrder('o1', 'success')]
    await expect(
      runStory({
        integration: (context) => ({
          ...fixedCheckout(context),
          payOrder: async (_order, card) => {
            throw new Error(`card ${card.number} refused`)
          },
        }),
      })(story),
    ).rejects.toThrow(/no secret or card datum logged: .*card \[redacted\] refused/)
  })
})

describe('seeded bugs on the in-memory service', () => {
  it('a charge repeated under a new order id after a processed-then-500 is paid twice', async () => {
    const story = [
      injectFault(Faults.processedThen500, { operation: 'charge' }),
      payOrder('o1', 'success'),
    ]
    await expect(
      runStory({ integration: checkoutService({ retriesWithNewOrderId: true }) })(story),
    ).rejects.toThrow(
      [
        "no order charged twice: order o1 (the integration's o1-retry) was paid 2 times at the service (ch_000001, ch_000002)",
        'The story (2 steps):',
        '  1. the service processes the next charge, then answers 500',
        '  2. the buyer pays order o1 with a card that succeeds',
        'The orders: o1 59.97 USD (19.99 x 3), o2 0.30 USD (0.10 + 0.20)',
      ].join('\n'),
    )
    // the fixed service sends the same order id again: DUPLICATE_ORDER, paid once
    await runStory({ integration: fixedCheckout })([...story, reconcile()])
  })

  it('an access token in the log is a secret logged', async () => {
    const tokenLogger: MakeIntegration = (context) => {
      const lines: Array<string> = []
      const client = createClient(context.clientConfig)
      return {
        ...fixedCheckout(context),
        payOrder: async () => {
          const token = await client.getToken()()
          if (E.isRight(token)) lines.push(`calling the service with ${token.right}`)
        },
        log: () => lines,
      }
    }
    await expect(
      runStory({ integration: tokenLogger })([payOrder('o1', 'success')]),
    ).rejects.toThrow(/no secret or card datum logged/)
  })
})

describe('the vitest form', () => {
  test.prop([stories({ integration: fixedCheckout, maxSteps: 15 })], { numRuns: 100 })(
    'the fixed checkout service holds in every story',
    (story) => story.play(),
  )

  it('a story prints as its steps, and how its webhooks end', () => {
    const drawn = fc.sample(stories({ integration: fixedCheckout, minSteps: 2, maxSteps: 3 }), {
      numRuns: 20,
      seed: 2,
    })
    for (const story of drawn) {
      expect(story.steps.length).toBeGreaterThanOrEqual(2)
      // its orders, then its steps, then (half the stories) the late webhooks of the end
      expect(fc.stringify(story)).toMatch(/^o1 [\d.]+ USD(.*), o2 [\d.]+ USD(.*): \[/)
      const steps = `: [${story.steps.map(String).join(',')}]`
      expect([steps, `${steps}, webhooks late in the end`]).toContain(
        fc.stringify(story).slice(fc.stringify(story).lastIndexOf(': [')),
      )
    }
    const late = drawn.filter((s) => fc.stringify(s).endsWith('late in the end')).length
    expect(late).toBeGreaterThan(2)
    expect(late).toBeLessThan(18)
  })
})
