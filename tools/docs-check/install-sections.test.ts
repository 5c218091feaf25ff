// Issue 18, part 4: each package README starts with an Install section that says how to
// install it (npm and pnpm), its peer dependencies and their ranges as package.json has
// them, whether it is ESM only and what CommonJS users do, the Node versions of `engines`,
// and where its API reference is (a link into docs/api that exists).
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '@paykit/tools/lib/root'

interface Manifest {
  readonly name: string
  readonly type?: string
  readonly engines: { readonly node: string }
  readonly peerDependencies?: Readonly<Record<string, string>>
}

const packages = ['core', 'testkit', 'n8n-nodes'] as const

/** The README's first `##` section: its heading and its text up to the next `##`. */
const firstSection = (markdown: string): { heading: string; body: string } => {
  const lines = markdown.split('\n')
  const start = lines.findIndex((l) => l.startsWith('## '))
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '))
  return {
    heading: lines[start] ?? '',
    body: lines.slice(start + 1, end < 0 ? undefined : end).join('\n'),
  }
}

describe.each(packages)('packages/%s/README.md', (dir) => {
  const readmePath = join(ROOT, 'packages', dir, 'README.md')
  const manifest = JSON.parse(
    readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8'),
  ) as Manifest
  const { heading, body } = firstSection(readFileSync(readmePath, 'utf8'))

  it('starts with an Install section', () => {
    expect(heading).toBe('## Install')
  })

  it('gives the npm and the pnpm command', () => {
    expect(body).toMatch(new RegExp(`^\\s*npm install (--save-dev )?${manifest.name}\\b`, 'm'))
    expect(body).toMatch(new RegExp(`^\\s*pnpm add (-D )?${manifest.name}\\b`, 'm'))
  })

  it("names each peer dependency with package.json's range", () => {
    const peers = Object.entries(manifest.peerDependencies ?? {})
    expect(peers.length).toBeGreaterThan(0)
    for (const [name, range] of peers) {
      expect(body, name).toContain(`\`${name}\``)
      expect(body, `${name} ${range}`).toContain(`\`${range}\``)
    }
  })

  it('says whether it is ESM only and what CommonJS users do', () => {
    if (manifest.type === 'module') {
      expect(body).toContain('**ESM only**')
      expect(body).toContain('**CommonJS users:**')
      expect(body).toContain('require(')
    } else {
      expect(body).toContain('**CommonJS, not ESM:**')
    }
  })

  it("gives engines' Node versions", () => {
    expect(body).toContain(`\`${manifest.engines.node}\``)
  })

  it('links the API reference in docs/api (the file exists)', () => {
    const links = [...body.matchAll(/\]\(([^)#]*docs\/api\/[^)#]*)\)/g)].map((m) => m[1] ?? '')
    expect(links.length).toBeGreaterThan(0)
    for (const link of links)
      expect(existsSync(resolve(dirname(readmePath), link)), link).toBe(true)
  })
})
