/**
 * Changesets' set-up (issue 21, part 3), run for real on a copy of the workspace's manifests:
 * `changeset version` with the repository's `.changeset/config.json` bumps the three
 * published packages, writes their changelogs, keeps `workspace:` ranges for pnpm publish to
 * replace, and leaves the private root alone.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { childEnv, run } from '@paykit/tools/lib/run'
import { ROOT } from '@paykit/tools/lib/root'

const PUBLISHED = {
  core: '@paykit/core',
  testkit: '@paykit/testkit',
  'n8n-nodes': 'n8n-nodes-paykit',
}
type Dir = keyof typeof PUBLISHED
const DIRS = Object.keys(PUBLISHED) as ReadonlyArray<Dir>

interface Manifest {
  readonly name: string
  readonly version: string
  readonly dependencies?: Readonly<Record<string, string>>
  readonly devDependencies?: Readonly<Record<string, string>>
}

const manifest = (root: string, dir: string): Manifest =>
  JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Manifest

/** The root's and the packages' manifests, the workspace file and the Changesets config. */
const copyWorkspace = (changesets: Readonly<Record<string, string>>): string => {
  const root = mkdtempSync(join(tmpdir(), 'paykit-changesets-'))
  for (const file of ['package.json', 'pnpm-workspace.yaml', '.changeset/config.json']) {
    mkdirSync(join(root, file, '..'), { recursive: true })
    cpSync(join(ROOT, file), join(root, file))
  }
  for (const dir of DIRS) {
    mkdirSync(join(root, 'packages', dir), { recursive: true })
    cpSync(join(ROOT, 'packages', dir, 'package.json'), join(root, 'packages', dir, 'package.json'))
  }
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir')
  for (const [name, text] of Object.entries(changesets))
    writeFileSync(join(root, '.changeset', name), text)
  return root
}

const changesetVersion = async (root: string) => {
  const bin = join(ROOT, 'node_modules/@changesets/cli/bin.js')
  const r = await run(process.execPath, [bin, 'version'], { cwd: root, env: childEnv() })
  expect(`${r.stdout}${r.stderr}`, 'changeset version').not.toMatch(/error/i)
  expect(r.code).toBe(0)
}

/** The repository's own changesets: every .md of .changeset/ but its README. */
const repositoryChangesets = (): Readonly<Record<string, string>> =>
  Object.fromEntries(
    readdirSync(join(ROOT, '.changeset'))
      .filter((f) => f.endsWith('.md') && f !== 'README.md')
      .map((f) => [f, readFileSync(join(ROOT, '.changeset', f), 'utf8')]),
  )

describe('Changesets', () => {
  it("the repository's changesets name only published packages, and version applies them", async () => {
    const changesets = repositoryChangesets()
    const named = new Set(
      Object.values(changesets).flatMap((text) =>
        [
          ...(/^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '').matchAll(
            /^'([^']+)': (major|minor|patch)$/gm,
          ),
        ].map((m) => m[1]),
      ),
    )
    expect([...named].filter((n) => !Object.values(PUBLISHED).includes(n as never))).toEqual([])
    const root = copyWorkspace(changesets)
    await changesetVersion(root)
    for (const dir of DIRS) {
      const before = manifest(ROOT, `packages/${dir}`)
      const after = manifest(root, `packages/${dir}`)
      if (named.has(before.name)) {
        expect(after.version, before.name).not.toBe(before.version)
        expect(existsSync(join(root, 'packages', dir, 'CHANGELOG.md')), before.name).toBe(true)
      }
    }
    expect(readdirSync(join(root, '.changeset')).filter((f) => f.endsWith('.md'))).toEqual([])
  }, 60_000)

  it('a core minor bumps the testkit that depends on it; the nodes, which bundle it, only when named; the root never', async () => {
    const root = copyWorkspace({
      'core-minor.md': "---\n'@paykit/core': minor\n---\n\nA new rule for the test.\n",
    })
    const before = Object.fromEntries(DIRS.map((d) => [d, manifest(root, `packages/${d}`)]))
    const rootBefore = readFileSync(join(root, 'package.json'), 'utf8')
    await changesetVersion(root)
    const after = Object.fromEntries(DIRS.map((d) => [d, manifest(root, `packages/${d}`)]))
    const [major, minor] = (before['core']?.version ?? '').split('.').map(Number)
    expect(after['core']?.version).toBe(`${major}.${(minor ?? 0) + 1}.0`)
    expect(after['testkit']?.version).not.toBe(before['testkit']?.version)
    expect(after['testkit']?.dependencies?.['@paykit/core']).toBe('workspace:^')
    expect(after['n8n-nodes']?.version).toBe(before['n8n-nodes']?.version)
    expect(readFileSync(join(root, 'packages/core/CHANGELOG.md'), 'utf8')).toContain(
      'A new rule for the test.',
    )
    expect(readFileSync(join(root, 'package.json'), 'utf8')).toBe(rootBefore)
  }, 60_000)
})
