import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

// Another package (or another runner) imports the built testkit by its name: the
// arbitraries and the fast-check properties run under plain Node ESM, with no vitest run.
const packageRoot = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)

const script = `
import * as fc from 'fast-check'
import * as core from '@paykit/core'
import * as kit from '@paykit/testkit'
const names = ['describePaymentLinkValidation', 'describePaymentMethodValidation',
  'describeChargeValidation', 'describeTokenValidation', 'describeRefusesBeforeSending',
  'paymentLinkValidationProperties', 'refusesBeforeSending', 'paymentLinkRequest',
  'invalidPaymentLinkRequest', 'paymentMethodRequest', 'invalidPaymentMethodRequest',
  'chargeRequestFor', 'invalidChargeRequestFor', 'tokenRequest', 'invalidTokenRequest']
const missing = names.filter((name) => typeof kit[name] !== 'function')
const p = kit.paymentLinkValidationProperties(core.validate(core.PaymentLinkRequest))
await fc.assert(p.acceptsValid, { numRuns: 30 })
await fc.assert(p.refusesInvalid, { numRuns: 30 })
const lenient = kit.paymentLinkValidationProperties(() => ({ _tag: 'Right', right: null }))
const caught = (await fc.check(lenient.refusesInvalid, { numRuns: 30 })).failed
console.log(JSON.stringify({ missing, caught }))
`

describe('built testkit under plain Node ESM', () => {
  it('exports the arbitraries and suites, and its properties run outside vitest', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: packageRoot,
    })
    expect(JSON.parse(stdout)).toEqual({ missing: [], caught: true })
  }, 60_000)
})
