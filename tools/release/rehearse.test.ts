/**
 * The release rehearsal (`rehearse.ts`, `pnpm release:rehearse`) run for real: versioned with
 * Changesets in a copy, published to a local Verdaccio, installed by name with npm and pnpm,
 * each package's snippet run; and the checkout left as it was.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { childEnv, run } from '@paykit/tools/lib/run'
import { ROOT } from '@paykit/tools/lib/root'
import { PUBLISHED, rehearse, type Rehearsal } from '@paykit/tools/release/rehearse'

const manifests = (): string =>
  Object.keys(PUBLISHED)
    .map((d) => readFileSync(join(ROOT, 'packages', d, 'package.json'), 'utf8'))
    .join('\n')

const changesets = (): ReadonlyArray<string> => readdirSync(join(ROOT, '.changeset')).sort()

const tags = async (): Promise<string> =>
  (await run('git', ['tag'], { cwd: ROOT, env: childEnv() })).stdout

describe('the release rehearsal', () => {
  const before = { manifests: manifests(), changesets: changesets() }
  let tagsBefore = ''
  let result: Rehearsal | undefined
  const rehearsed = async (): Promise<Rehearsal> => {
    if (result === undefined) {
      tagsBefore = await tags()
      result = await rehearse()
    }
    return result
  }

  it('versions the three packages with the pending changesets (the first release is 0.2.0)', async () => {
    const r = await rehearsed()
    const current = Object.keys(PUBLISHED).map(
      (d) =>
        (
          JSON.parse(readFileSync(join(ROOT, 'packages', d, 'package.json'), 'utf8')) as {
            readonly version: string
          }
        ).version,
    )
    // Every package moves on from the checkout's version; before the first release, from the
    // unpublished 0.1.0 to 0.2.0 (docs/releasing.md says why).
    expect(Object.values(r.versions)).toHaveLength(3)
    Object.values(r.versions).forEach((v, i) => {
      expect(v).not.toBe(current[i])
      if (current[i] === '0.1.0') expect(v).toBe('0.2.0')
    })
  }, 360_000)

  it('publishes tarballs that carry their CHANGELOG.md', async () => {
    const r = await rehearsed()
    for (const name of Object.values(PUBLISHED)) {
      expect(r.tarballs[name], name).toContain('CHANGELOG.md')
      expect(r.tarballs[name], name).toContain('package.json')
    }
  }, 360_000)

  it('without a git identity, changeset publish says "Created git tags" and makes none; changeset tag with one does', async () => {
    const r = await rehearsed()
    expect(r.publishTagLine).toMatch(/Created git tags/)
    expect(r.tagsAfterPublish).toEqual([])
    expect(r.tagsAfterRepublish).toEqual([])
    expect([...r.tagsAfterTag].sort()).toEqual(
      Object.entries(r.versions)
        .map(([name, version]) => `${name}@${version}`)
        .sort(),
    )
  }, 360_000)

  it('installs by name with npm and pnpm; each package works: the client against a sandbox, the arbitraries, the nodes loaded by n8n', async () => {
    const r = await rehearsed()
    const core = JSON.stringify({ status: 'PENDING', bad: ['lineItems[0].quantity'] })
    const testkit = JSON.stringify({ sampled: 50, valid: 50 })
    const n8n = JSON.stringify({
      package: 'n8n-nodes-paykit',
      nodes: ['paykit', 'paykitTrigger'],
      credentials: ['paykitApi', 'paykitWebhookApi'],
    })
    expect(r.snippets).toEqual({
      'npm:core': core,
      'npm:testkit': testkit,
      'npm:n8n': n8n,
      'pnpm:core': core,
      'pnpm:testkit': testkit,
      'pnpm:n8n': n8n,
      'n8n-folder:n8n': n8n,
    })
  }, 360_000)

  it("leaves the checkout's versions, publishConfig, changesets and tags as they were", async () => {
    await rehearsed()
    expect(manifests()).toBe(before.manifests)
    expect(manifests()).toContain('"provenance": true')
    expect(changesets()).toEqual(before.changesets)
    expect(await tags()).toBe(tagsBefore)
  }, 360_000)
})
