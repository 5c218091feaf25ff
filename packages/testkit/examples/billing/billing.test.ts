/**
 * The billing service under the kit: the correct service holds (its own invoice numbers,
 * integer cents and states, no renaming in its adapter), and each realistic bug is found
 * within 200 stories, by the invariant of its family: a cent lost converting, a forged or
 * stale webhook trusted, its own ids mixed up.
 *
 * PAYKIT_PRINT_STORIES=1 prints each report with the stories and seconds it took.
 */
import { describe, expect, it } from 'vitest'
import { checkModel } from '@paykit/testkit/model'
import type { Bugs } from './billingService.js'
import { billingModel, underTheKit } from './underTheKit.js'

const print = (text: string): void => {
  if (process.env['PAYKIT_PRINT_STORIES'] === '1') console.log(text)
}

describe('the correct billing service', () => {
  it('holds in 1,000 stories, with its own invoice numbers', { timeout: 120_000 }, async () => {
    const report = await checkModel({ ...billingModel, numRuns: 1000, seed: 37 })
    print(report.text)
    expect(report.text).toMatch(/^1000 stories, every invariant held/)
  })
})

describe('each seeded bug is found within 200 stories', () => {
  const cases: ReadonlyArray<readonly [keyof Bugs, string, RegExp]> = [
    [
      'floorCents',
      "every amount sent is the order's",
      /^order o\d \(the integration's INV-\d{4}\) is [\d.]+ USD, the integration (charged|created a payment link of) [\d.]+ USD/,
    ],
    [
      'trustsUnsigned',
      'no change from a webhook the service did not send',
      /^the unsigned order\.\w+ of o\d \(INV-\d{4}\)(, an order the shop never made,)? changed the integration's view/,
    ],
    [
      'acceptsStale',
      'no change from a webhook the service did not send',
      /^the order\.\w+ of o\d \(INV-\d{4}\) signed 2 h ago changed the integration's view/,
    ],
    [
      'renumbersOnRetry',
      'no order charged twice',
      /^order o\d \(the integration's INV-\d{4}, INV-\d{4}\) was paid 2 times at the service/,
    ],
    [
      'invoiceByIndex',
      "the integration's view agrees with the service",
      /^the integration has order o\d \(the integration's INV-\d{4}\) "(paid|void)" \((PAID or FINALIZED|CANCELLED)\)/,
    ],
  ]
  for (const [bug, invariant, problem] of cases)
    it(`${bug}: "${invariant}"`, { timeout: 60_000 }, async () => {
      const started = performance.now()
      const report = await checkModel({
        ...billingModel,
        integration: underTheKit({ [bug]: true }),
        numRuns: 200,
        seed: 37,
      })
      const seconds = (performance.now() - started) / 1000
      print(`${bug} (${report.numRuns} stories, ${seconds.toFixed(2)} s):\n${report.text}\n`)
      expect(report.ok).toBe(false)
      expect(report.numRuns).toBeLessThanOrEqual(200)
      expect(report.invariant).toBe(invariant)
      expect(report.problem).toMatch(problem)
      expect(report.story.length).toBeLessThanOrEqual(8)
    })
})
