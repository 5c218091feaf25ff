/**
 * Version text in the READMEs, held to the manifests so that a release cannot make it stale:
 * a package README's "`dependency` `range`" says the range its package.json gives, and no
 * README gives a version range of the project's own packages (they are released together,
 * so each names the others without one).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '@paykit/tools/lib/root'
import { PUBLISHED } from '@paykit/tools/release/rehearse'

interface Manifest {
  readonly dependencies?: Readonly<Record<string, string>>
  readonly peerDependencies?: Readonly<Record<string, string>>
}

const OWN = Object.values(PUBLISHED) as ReadonlyArray<string>

/** Every "`name` `range`" pair of a README (a range: starts with ^, ~, >, < or a digit). */
const rangesIn = (text: string): ReadonlyArray<readonly [string, string]> =>
  [...text.matchAll(/`(@?[a-z0-9][\w./-]*)` `([\^~<>=\d][^`]*)`/g)].map(
    (m) => [m[1] ?? '', m[2] ?? ''] as const,
  )

describe('version text in the READMEs', () => {
  for (const dir of Object.keys(PUBLISHED)) {
    it(`packages/${dir}/README.md gives the ranges of its package.json, and none of ours`, () => {
      const text = readFileSync(join(ROOT, 'packages', dir, 'README.md'), 'utf8')
      const manifest = JSON.parse(
        readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8'),
      ) as Manifest
      const declared = { ...manifest.peerDependencies, ...manifest.dependencies }
      const pairs = rangesIn(text)
      expect(pairs.filter(([name]) => OWN.includes(name))).toEqual([])
      const wrong = pairs
        .filter(([name]) => name in declared)
        .filter(([name, range]) => declared[name] !== range)
        .map(([name, range]) => `${name}: README ${range}, package.json ${String(declared[name])}`)
      expect(wrong).toEqual([])
    })
  }

  it('the root README gives no range of our packages', () => {
    const text = readFileSync(join(ROOT, 'README.md'), 'utf8')
    expect(rangesIn(text).filter(([name]) => OWN.includes(name))).toEqual([])
  })
})
