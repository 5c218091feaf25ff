import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'

// The built browser bundles (`pnpm run build` makes them): what a merchant page loads.
const packageRoot = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)
const api = ['FrameMessage', 'decodeFrameEvent', 'listenForFrameMessage', 'openAuthenticationFrame']

describe('browser bundles in dist/browser', () => {
  it('`@paykit/core/browser` resolves to the self-contained ESM bundle', async () => {
    const script = `
      const url = import.meta.resolve('@paykit/core/browser')
      const m = await import('@paykit/core/browser')
      console.log(JSON.stringify({ url, keys: Object.keys(m) }))`
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: packageRoot,
    })
    const out = JSON.parse(stdout) as { url: string; keys: ReadonlyArray<string> }
    expect(out.url).toMatch(/\/dist\/browser\/paykit-threeds\.esm\.js$/)
    expect(out.keys).toEqual(expect.arrayContaining(api))
    const code = readFileSync(new URL(out.url), 'utf8')
    expect(code).not.toMatch(/\bimport\s*[^(]*from\s*["']|\brequire\(["']/)
  })

  it('the classic-script bundle defines the `PaykitThreeDS` global and nothing else', () => {
    const code = readFileSync(`${packageRoot}dist/browser/paykit-threeds.iife.js`, 'utf8')
    const context: Record<string, unknown> = {}
    runInNewContext(code, context)
    expect(Object.keys(context)).toEqual(['PaykitThreeDS'])
    expect(Object.keys(context['PaykitThreeDS'] as object)).toEqual(expect.arrayContaining(api))
  })
})
