import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from '@paykit/tools/lib/root'
import { extractSnippets, readmeSnippets } from '@paykit/tools/docs-check/readme-snippets'
import { checkSnippets } from '@paykit/tools/docs-check/snippets'

describe('extractSnippets', () => {
  it('takes ```ts blocks with their mode and the line of the fence, and nothing else', () => {
    const md = ['# x', '```ts', 'a()', '```', '```js', 'b()', '```', '```ts vitest', 'c()', '```']
    expect(extractSnippets(md.join('\n'), 'README.md')).toEqual([
      { source: 'README.md', line: 2, mode: 'node', code: 'a()', fileName: 'root-L2.ts' },
      { source: 'README.md', line: 8, mode: 'vitest', code: 'c()', fileName: 'root-L8.test.ts' },
    ])
  })

  it('refuses an unknown mode', () => {
    expect(() => extractSnippets('```ts nodejs\n```', 'x/README.md')).toThrow(
      /unknown snippet mode/,
    )
  })
})

// Against the workspace's built packages (run after `pnpm run build`), through a project
// outside the repository whose node_modules is the workspace root's.
describe('the README snippets (root, core, testkit)', () => {
  const project = mkdtempSync(join(tmpdir(), 'paykit-snippets-'))
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'))
  afterAll(() => rmSync(project, { recursive: true, force: true }), 60_000)

  it('type-check under strict and run', { timeout: 300_000 }, async () => {
    const snippets = readmeSnippets(ROOT)
    expect(snippets.filter((s) => s.mode === 'node').length).toBeGreaterThan(5)
    expect(snippets.filter((s) => s.mode === 'vitest').length).toBeGreaterThan(2)
    expect(snippets.filter((s) => s.mode === 'browser').length).toBeGreaterThan(0)
    const report = await checkSnippets(project, snippets)
    expect(report.failures).toEqual([])
  })
})
