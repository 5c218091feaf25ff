import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from '@paykit/tools/lib/root'
import {
  README_FILES,
  extractSnippets,
  readmeSnippets,
} from '@paykit/tools/docs-check/readme-snippets'
import { checkSnippets } from '@paykit/tools/docs-check/snippets'

describe('extractSnippets', () => {
  it('takes ```ts blocks with their mode and the line of the fence, and nothing else', () => {
    const md = ['# x', '```ts', 'a()', '```', '```js', 'b()', '```', '```ts vitest', 'c()', '```']
    expect(extractSnippets(md.join('\n'), 'README.md')).toEqual([
      { source: 'README.md', line: 2, mode: 'node', code: 'a()', fileName: 'root-L2.ts' },
      { source: 'README.md', line: 8, mode: 'vitest', code: 'c()', fileName: 'root-L8.test.ts' },
    ])
  })

  it('is given every Markdown file that has a ```ts block (API reports aside)', () => {
    const markdown = execFileSync(
      'git',
      ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'],
      { cwd: ROOT, encoding: 'utf8' },
    )
      .split('\n')
      .filter((f) => f !== '' && !f.startsWith('docs/api/') && !f.includes('/api-report/'))
    const withTs = markdown.filter((f) =>
      /^```(ts|typescript)\b/m.test(readFileSync(join(ROOT, f), 'utf8')),
    )
    expect(withTs.filter((f) => !(README_FILES as ReadonlyArray<string>).includes(f))).toEqual([])
  })

  it('refuses an unknown mode', () => {
    expect(() => extractSnippets('```ts nodejs\n```', 'x/README.md')).toThrow(
      /unknown snippet mode/,
    )
  })
})

// Against the workspace's built packages (run after `pnpm run build`), through a project
// outside the repository whose node_modules is the workspace root's.
describe('the snippets of the READMEs and the docs pages', () => {
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
