import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '@paykit/tools/lib/root'
import {
  README_FILES,
  extractSnippets,
  readmeSnippets,
} from '@paykit/tools/docs-check/readme-snippets'

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

// The snippets are type-checked under strict and run in install.test.ts: its pnpm case is a
// project with the workspace's versions (TypeScript, Node, fp-ts, io-ts, vitest, msw) and the
// packed tarballs under pnpm's strict layout, so it fails wherever a run against the
// workspace's own node_modules would, and also where the tarballs lack something. One run,
// not two (~78 CPU-s saved).
describe('the snippets of the READMEs and the docs pages', () => {
  it('include node, vitest and browser snippets', () => {
    const snippets = readmeSnippets(ROOT)
    expect(snippets.filter((s) => s.mode === 'node').length).toBeGreaterThan(5)
    expect(snippets.filter((s) => s.mode === 'vitest').length).toBeGreaterThan(2)
    expect(snippets.filter((s) => s.mode === 'browser').length).toBeGreaterThan(0)
  })
})
