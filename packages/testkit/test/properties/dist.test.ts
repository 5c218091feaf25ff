import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'

// Another package (or another runner) imports the built testkit by its name: the
// arbitraries and the fast-check properties run under plain Node ESM, with no vitest run.
const packageRoot = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)

// Whether the root loads vitest: a fresh Node process registers a resolve hook
// (`module.registerHooks`, in-thread, sees every `import` and `require` after it) that
// records each specifier naming vitest or one of its `@vitest/*` packages, then imports
// `@paykit/testkit`. Specifiers are checked, not file paths, so the check does not depend
// on where pnpm puts vitest, and nothing is blocked, so the root still runs and the
// failure says what asked for vitest. Then it imports `@paykit/testkit/vitest` in the same
// process, after which the hook must have seen vitest: a hook that sees nothing fails.
const script = `
import { registerHooks } from 'node:module'
const vitestSpecifiers = []
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (/^(vitest|@vitest\\/[^/]+)(\\/|$)/.test(specifier)) vitestSpecifiers.push(specifier)
    return nextResolve(specifier, context)
  },
})
const fc = await import('fast-check')
const core = await import('@paykit/core/codecs')
const entries = ['', '/sandbox', '/nock', '/properties', '/arbitraries']
const kit = Object.assign({}, ...(await Promise.all(
  entries.map((entry) => import('@paykit/testkit' + entry)))))
const rootLoaded = [...vitestSpecifiers]
const rootNames = ['startSandbox', 'mockPaymentService', 'paymentLinkValidationProperties',
  'refusesBeforeSending', 'paymentLinkRequest', 'invalidPaymentLinkRequest',
  'paymentMethodRequest', 'invalidPaymentMethodRequest', 'chargeRequestForPaymentMethod',
  'invalidChargeRequestFor', 'tokenRequest', 'invalidTokenRequest', 'assertSupportedNode']
const rootMissing = rootNames.filter((name) => typeof kit[name] !== 'function')
const rootSuites = Object.keys(kit).filter((name) => name.startsWith('describe'))
const p = kit.paymentLinkValidationProperties(core.validate(core.PaymentLinkRequest))
await fc.assert(p.acceptsValid, { numRuns: 30 })
await fc.assert(p.refusesInvalid, { numRuns: 30 })
const lenient = kit.paymentLinkValidationProperties(() => ({ _tag: 'Right', right: null }))
const caught = (await fc.check(lenient.refusesInvalid, { numRuns: 30 })).failed
const suites = await import('@paykit/testkit/vitest')
console.log(JSON.stringify({
  rootLoaded, rootMissing, rootSuites, caught,
  loaded: vitestSpecifiers,
  subpathExports: Object.keys(suites).filter((name) => typeof suites[name] === 'function').sort(),
}))
`

interface Result {
  readonly rootLoaded: ReadonlyArray<string>
  readonly rootMissing: ReadonlyArray<string>
  readonly rootSuites: ReadonlyArray<string>
  readonly caught: boolean
  readonly loaded: ReadonlyArray<string>
  readonly subpathExports: ReadonlyArray<string>
}

describe('built testkit under plain Node ESM', () => {
  let result: Result
  beforeAll(async () => {
    // No NODE_OPTIONS from the runner: the child loads only what the script imports.
    const env = { ...process.env }
    delete env['NODE_OPTIONS']
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: packageRoot,
      env,
    })
    result = JSON.parse(stdout) as Result
  }, 60_000)

  it('loads the root and the other entries without vitest, and the properties run outside vitest', () => {
    expect(result.rootLoaded).toEqual([])
    expect(result.rootMissing).toEqual([])
    expect(result.rootSuites).toEqual([])
    expect(result.caught).toBe(true)
  })

  it('exports the vitest suites from @paykit/testkit/vitest, which loads vitest', () => {
    expect(result.loaded).toContain('vitest')
    expect(result.subpathExports).toEqual([
      'describeChargeValidation',
      'describePaymentLinkValidation',
      'describePaymentMethodValidation',
      'describeProperties',
      'describeRefusesBeforeSending',
      'describeTokenValidation',
      'describeValidation',
    ])
  })
})
