// Issue 18, part 4: the API reference is built from the doc comments (TypeDoc with
// typedoc-plugin-markdown, `typedoc.json`) and published in the repository, in docs/api.
// This regenerates it into a temporary folder with the same settings and fails on any
// difference: run `pnpm run docs` and commit docs/api when it does.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { Application } from 'typedoc'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from '@paykit/tools/lib/root'

const PUBLISHED = join(ROOT, 'docs', 'api')
const out = mkdtempSync(join(tmpdir(), 'paykit-api-docs-'))
afterAll(() => rmSync(out, { recursive: true, force: true }))

/** Every file under `dir`, relative to it, sorted. */
const files = (dir: string): ReadonlyArray<string> => {
  const walk = (d: string): ReadonlyArray<string> =>
    readdirSync(d).flatMap((name) => {
      const path = join(d, name)
      return statSync(path).isDirectory() ? walk(path) : [relative(dir, path)]
    })
  return walk(dir).toSorted()
}

describe('docs/api (the API reference from the doc comments)', () => {
  it('is what `pnpm run docs` generates now (no drift)', { timeout: 120_000 }, async () => {
    const cwd = process.cwd()
    process.chdir(ROOT) // typedoc.json's paths are relative to the root
    try {
      const app = await Application.bootstrapWithPlugins({
        options: join(ROOT, 'typedoc.json'),
        out,
        logLevel: 'Warn',
      })
      const project = await app.convert()
      expect(project, 'TypeDoc could not convert the entry points').toBeDefined()
      if (project === undefined) return
      await app.generateOutputs(project)
      expect(app.logger.hasErrors(), 'TypeDoc reported errors').toBe(false)
    } finally {
      process.chdir(cwd)
    }
    const generated = files(out)
    expect(generated).toContain('README.md')
    expect(generated).toContain('@paykit/core.md')
    expect(files(PUBLISHED), 'files of docs/api: run `pnpm run docs`').toEqual(generated)
    const stale = generated.filter(
      (f) => readFileSync(join(out, f), 'utf8') !== readFileSync(join(PUBLISHED, f), 'utf8'),
    )
    expect(stale, 'docs/api is stale: run `pnpm run docs` and commit docs/api').toEqual([])
  })
})
