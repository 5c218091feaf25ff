// @paykit-test own-worker: nock's interceptors, MSW's patched fetch
/**
 * One table of scenarios (suite.ts `scenarios`), each with its expected result, run on the
 * three fakes (the nock mock, the sandbox over real HTTP, MSW's setupServer): every cell
 * must be the expected result, so the three give the same results. The table (scenario x
 * fake) is printed at the end.
 */
import { createClient } from '@paykit/core'
import { afterAll, describe, expect, it } from 'vitest'
import { defaultCredentials } from '../../src/simulator/TestCards.js'
import { fakes } from './fakes.js'
import { scenarios } from './suite.js'

const results = new Map<string, Map<string, string>>()

describe.each(fakes)('the scenario table on %s', (fakeName, start) => {
  it.each(scenarios)('$name', async (scenario) => {
    const fake = await start()
    try {
      const client = createClient({
        baseUrl: fake.baseUrl,
        credentials: defaultCredentials,
        timeoutMs: 5_000,
        retry: { baseDelayMs: 5, maxDelayMs: 20 },
      })
      const result = await scenario.run(fake, client)
      const row = results.get(scenario.name) ?? new Map<string, string>()
      results.set(scenario.name, row.set(fakeName, result))
      expect(result).toBe(scenario.expected)
    } finally {
      await fake.close()
    }
  })
})

afterAll(() => {
  const names = fakes.map(([name]) => name)
  const lines = [
    `| scenario | ${names.join(' | ')} |`,
    `|---|${names.map(() => '---').join('|')}|`,
    ...scenarios.map(
      (s) =>
        `| ${s.name} | ${names.map((n) => results.get(s.name)?.get(n) ?? '(not run)').join(' | ')} |`,
    ),
  ]
  console.log(`The scenario table on the three fakes:\n${lines.join('\n')}`)
})
