/**
 * The kit against a shop's checkout service: the naive version is caught (the failure is
 * expected here, inside the test), each of its mistakes alone is caught by its invariant
 * with a short story, and the fixed version passes 1,000 stories.
 *
 * PAYKIT_PRINT_STORIES=1 prints each shrunk story (the README shows them).
 */
import { describe, expect, it } from 'vitest'
import { checkModel } from '@paykit/testkit/model'
import {
  checkoutService,
  fixedCheckout,
  MISTAKES,
  naiveCheckout,
  type Mistakes,
} from './checkoutService.js'

const print = (text: string): void => {
  if (process.env['PAYKIT_PRINT_STORIES'] === '1') console.log(text)
}

describe('the naive checkout service', () => {
  it('is caught, and the story is shrunk to at most 5 steps', async () => {
    const report = await checkModel({ integration: naiveCheckout, numRuns: 1000, seed: 19 })
    print(report.text)
    expect(report.ok).toBe(false)
    expect([
      'no order charged twice',
      'one link per order reference',
      'every paid order seen once',
      "the integration's view agrees with the service",
    ]).toContain(report.invariant)
    expect(report.story.length).toBeGreaterThan(0)
    expect(report.story.length).toBeLessThanOrEqual(5)
    expect(report.text).toMatch(/^Model-based test failed\. Invariant broken: /)
    expect(report.text).toContain(`  1. ${report.story[0] ?? ''}`)
    expect(report.text).toMatch(/Replay: \{ seed: 19, path: "[\d:]+" \}$/)
  })

  const cases: ReadonlyArray<readonly [keyof Mistakes, string, RegExp]> = [
    ['retriesWithNewOrderId', 'no order charged twice', /the buyer pays order o\d with a card/],
    [
      'createsSecondLink',
      'one link per order reference',
      /the shop creates a payment link for order o\d/,
    ],
    [
      'trustsWebhookOrder',
      "the integration's view agrees with the service",
      /the merchant portal finalizes order o\d/,
    ],
    [
      'marksPaidTwice',
      'every paid order seen once',
      /the buyer pays the payment link of order o\d/,
    ],
    [
      'paidOn3dsPending',
      'every paid order seen once',
      /the buyer pays order o\d with a card that needs 3DS/,
    ],
    ['forgetsLostCharge', 'every paid order seen once', /the service processes the next/],
    ['shipsOnAnyEvent', 'every paid order seen once', /the merchant portal cancels order o\d/],
    ['racesDuplicates', 'every paid order seen once', /twice at once/],
  ]
  for (const [mistake, invariant, step] of cases)
    it(`${mistake}: caught by "${invariant}" in at most 5 steps`, async () => {
      const report = await checkModel({
        integration: checkoutService({ [mistake]: true }),
        numRuns: 2000,
        seed: 19,
      })
      print(`${mistake}:\n${report.text}`)
      expect(report.invariant).toBe(invariant)
      expect(report.story.length).toBeLessThanOrEqual(5)
      expect(report.story.some((s) => step.test(s))).toBe(true)
    })
})

describe('each mistake is found within 200 stories on every seed 1-8', () => {
  for (const mistake of MISTAKES)
    it(mistake, { timeout: 60_000 }, async () => {
      const found: Array<number> = []
      for (let seed = 1; seed <= 8; seed++) {
        const report = await checkModel({
          integration: checkoutService({ [mistake]: true }),
          numRuns: 200,
          seed,
        })
        expect(report.ok, `seed ${seed}`).toBe(false)
        found.push(report.numRuns)
      }
      print(`${mistake}: found in ${found.join(', ')} stories on seeds 1-8`)
      expect(Math.max(...found)).toBeLessThanOrEqual(200)
    })
})

describe('the fixed checkout service', () => {
  it('passes 1,000 stories', { timeout: 60_000 }, async () => {
    const report = await checkModel({ integration: fixedCheckout, numRuns: 1000 })
    expect(report.text).toMatch(/^1000 stories, every invariant held/)
    expect(report.ok).toBe(true)
  })
})
