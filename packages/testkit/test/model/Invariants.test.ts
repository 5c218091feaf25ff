/**
 * Each built-in invariant catches a seeded bug in a sample integration (the example
 * checkout service with that one mistake), and the shrunk story has at most 5 steps.
 */
import { describe, expect, it } from 'vitest'
import { checkoutService, type Mistakes } from '../../examples/checkout/checkoutService.js'
import { checkModel } from '../../src/model/Run.js'

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
})
