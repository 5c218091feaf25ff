/**
 * The checks of a published tarball, as a vitest suite shared by
 * `packages/{core,testkit}/test/package.test.ts` (the helpers are in `package-check.ts`).
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ROOT } from '@paykit/tools/lib/root'
import {
  danglingReferences,
  disallowedFiles,
  pack,
  publishedMetadataProblems,
  sourcesOutsidePackage,
  tarballFiles,
  unpack,
} from '@paykit/tools/package-check'

/** Packs package `name` as `pnpm publish` would (after `pnpm run build`) and checks what ships. */
export const describeTarball = (name: 'core' | 'testkit') =>
  describe(`the published tarball of @paykit/${name}`, async () => {
    const tgz = await pack(name)
    const files = await tarballFiles(tgz)
    const dir = await unpack(tgz)

    it('holds only dist JavaScript, declarations and their maps, the sources the maps name, README and package.json', () => {
      expect(disallowedFiles(files)).toEqual([])
      expect(files).toContain('package.json')
      expect(files).toContain('README.md')
      expect(files).toContain('LICENSE')
      expect(files.some((f) => f.endsWith('.tsbuildinfo'))).toBe(false)
    })

    it('says where it comes from and how it is published (repository, bugs, homepage, provenance)', async () => {
      const { readFile } = await import('node:fs/promises')
      const manifest = JSON.parse(await readFile(`${dir}/package.json`, 'utf8')) as Record<
        string,
        unknown
      >
      expect(publishedMetadataProblems(manifest, name)).toEqual([])
    })

    it('has every file package.json and the source maps point at', () => {
      expect(danglingReferences(dir, files)).toEqual([])
    })

    it("names no source outside the package in its source maps (the bundle's libraries included)", () => {
      expect(files.some((f) => f.endsWith('.map'))).toBe(true)
      expect(sourcesOutsidePackage(dir, files)).toEqual([])
    })

    it('ships no workspace: ranges and no exact pins of runtime dependencies', async () => {
      const { readFile } = await import('node:fs/promises')
      const manifest = JSON.parse(await readFile(`${dir}/package.json`, 'utf8')) as Record<
        string,
        Record<string, string> | undefined
      >
      const ranges = { ...manifest['dependencies'], ...manifest['peerDependencies'] }
      for (const [name, range] of Object.entries(ranges)) {
        expect(range, name).not.toMatch(/^workspace:/)
        expect(range, name).not.toMatch(/^\d/)
      }
      expect(manifest['peerDependencies']).toMatchObject({ 'fp-ts': '^2.16.0', 'io-ts': '^2.2.20' })
      expect(Object.keys(manifest['dependencies'] ?? {})).not.toContain('fp-ts')
      expect(Object.keys(manifest['dependencies'] ?? {})).not.toContain('io-ts')
    })

    // Only a package with workspace dependencies (the testkit's @paykit/core) has this check.
    const source = JSON.parse(readFileSync(`${ROOT}/packages/${name}/package.json`, 'utf8')) as {
      readonly dependencies?: Readonly<Record<string, string>>
    }
    const workspaceDependencies = Object.entries(source.dependencies ?? {})
      .filter(([, range]) => range.startsWith('workspace:'))
      .map(([dependency]) => dependency)
    if (workspaceDependencies.length > 0)
      it('depends on its workspace packages at their current versions (workspace:^ as ^x.y.z)', () => {
        const packed = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as typeof source
        for (const dependency of workspaceDependencies) {
          const { version } = JSON.parse(
            readFileSync(
              `${ROOT}/packages/${dependency.replace('@paykit/', '')}/package.json`,
              'utf8',
            ),
          ) as { readonly version: string }
          expect(packed.dependencies?.[dependency], dependency).toBe(`^${version}`)
        }
      })
  })
