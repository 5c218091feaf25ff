/**
 * An existing order service under the kit with a thin adapter (underTheKit.ts): it holds
 * in every story with its own meaning of `paid`; read strictly (its `paid` taken for the
 * service's PAID) the kit reports the disagreement once the portal finalizes an order.
 */
import { test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import {
  checkModel,
  stories,
  type MakeIntegration,
  type RegisteredCard,
} from '@paykit/testkit/model'
import { orderServiceModel, underTheKit } from './underTheKit.js'

describe('the order service under the kit', () => {
  it(
    'holds in 1,000 stories, its states read through `statuses`',
    { timeout: 60_000 },
    async () => {
      const report = await checkModel({ ...orderServiceModel, numRuns: 1000, seed: 23 })
      expect(report.text).toMatch(/^1000 stories, every invariant held/)
    },
  )

  test.prop([stories({ ...orderServiceModel, maxSteps: 15 })], { numRuns: 50 })(
    'and in the vitest form',
    (story) => story.play(),
  )

  it('gets registered cards only: a payment method id, never a card', async () => {
    const given: Array<ReadonlyArray<string>> = []
    const recording: MakeIntegration<RegisteredCard> = (context) => {
      const inner = underTheKit(context)
      return {
        ...inner,
        payOrder: (order, card) => {
          given.push(Object.keys(card))
          return inner.payOrder(order, card)
        },
      }
    }
    const report = await checkModel({
      ...orderServiceModel,
      integration: recording,
      numRuns: 100,
      seed: 4,
    })
    expect(report.ok).toBe(true)
    expect(given.length).toBeGreaterThan(50)
    expect(new Set(given.map((keys) => keys.join()))).toEqual(new Set(['paymentMethodId']))
  })
})

describe('"the view agrees", strict or told what the integration means', () => {
  // The same service, its `paid` written as the service's PAID (as a first adapter would).
  const asServiceWords: MakeIntegration<RegisteredCard> = (context) => {
    const inner = underTheKit(context)
    const words = {
      awaiting_payment: 'PENDING',
      link_sent: 'PENDING',
      paid: 'PAID',
      cancelled: 'CANCELLED',
    }
    return {
      ...inner,
      view: () =>
        inner.view().map((o) => ({ ...o, status: words[o.status as keyof typeof words] })),
    }
  }

  it('strict (the default): a finalized order recorded as PAID is reported', async () => {
    const report = await checkModel({
      integration: asServiceWords,
      registerCards: true,
      numRuns: 2000,
      seed: 23,
    })
    expect(report.invariant).toBe("the integration's view agrees with the service")
    expect(report.problem).toMatch(/^the integration has order o\d PAID, the service FINALIZED$/)
    expect(report.story.some((s) => /the merchant portal finalizes order o\d$/.test(s))).toBe(true)
    expect(report.story.length).toBeLessThanOrEqual(5)
  })

  it('told that its PAID means paid, finalized since or not: it holds', async () => {
    const report = await checkModel({
      integration: asServiceWords,
      registerCards: true,
      statuses: { PENDING: 'PENDING', PAID: ['PAID', 'FINALIZED'], CANCELLED: 'CANCELLED' },
      numRuns: 500,
      seed: 23,
    })
    expect(report.text).toMatch(/^500 stories, every invariant held/)
  })

  it('a status it was not told about is an error naming the field', async () => {
    const report = await checkModel({
      integration: underTheKit,
      registerCards: true,
      numRuns: 100,
      seed: 23,
    })
    expect(report.invariant).toBe("the integration's view and log can be read")
    expect(report.problem).toMatch(
      /^view\(\)\[0\]\.status: "(awaiting_payment|link_sent|paid|cancelled)" is not a status of the service \(PENDING, PAID, CANCELLED, FINALIZED\); say what it means with the option statuses$/,
    )
  })
})
