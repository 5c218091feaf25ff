/**
 * The GitHub workflows cannot run here, so the test command checks them (issue 21, part 3):
 * every workflow and local action validated against GitHub's schemas by
 * `@action-validator/cli`, a broken one refused, and what a release depends on read from the
 * files themselves (the floor Node, the permissions, the publish step, pinned actions).
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { childEnv, run } from '@paykit/tools/lib/run'
import { ROOT } from '@paykit/tools/lib/root'

const VALIDATOR = join(ROOT, 'node_modules/.bin/action-validator')
const WORKFLOWS = join(ROOT, '.github/workflows')
const ACTIONS = join(ROOT, '.github/actions')

/** action-validator's verdict on one file: its exit code and the errors it printed. */
const validate = async (file: string) => {
  const r = await run(VALIDATOR, [file], { cwd: ROOT, env: childEnv() })
  return { code: r.code, output: `${r.stdout}${r.stderr}` }
}

interface Step {
  readonly uses?: string
  readonly run?: string
  readonly with?: Readonly<Record<string, unknown>>
  readonly env?: Readonly<Record<string, unknown>>
}
interface Job {
  readonly permissions?: Readonly<Record<string, string>>
  readonly steps?: ReadonlyArray<Step>
  readonly 'timeout-minutes'?: number
}
interface Workflow {
  readonly permissions?: Readonly<Record<string, string>>
  readonly concurrency?: unknown
  readonly jobs: Readonly<Record<string, Job>>
}

const workflowFiles = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f))
const actionFiles = readdirSync(ACTIONS).map((a) => join(ACTIONS, a, 'action.yml'))
const read = (name: string): Workflow =>
  parse(readFileSync(join(WORKFLOWS, name), 'utf8')) as Workflow
const steps = (w: Workflow): ReadonlyArray<Step> =>
  Object.values(w.jobs).flatMap((j) => j.steps ?? [])
const packageJson = (dir: string) =>
  JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as {
    readonly scripts?: Readonly<Record<string, string>>
    readonly engines?: { readonly node?: string }
  }

describe('the GitHub workflows', () => {
  it('are ci.yml and release.yml', () => {
    expect(workflowFiles.sort()).toEqual(['ci.yml', 'release.yml'])
  })

  it.each([...workflowFiles.map((f) => join(WORKFLOWS, f)), ...actionFiles])(
    'action-validator finds no error in %s',
    async (file) => {
      const { code, output } = await validate(file)
      expect(output).toBe('')
      expect(code).toBe(0)
    },
  )

  it('action-validator refuses a broken workflow (a job without runs-on, an unknown event)', async () => {
    const broken = readFileSync(join(WORKFLOWS, 'ci.yml'), 'utf8')
      .replace(/^ {4}runs-on: ubuntu-latest\n/m, '')
      .replace(/^ {2}pull_request:$/m, '  pull_requests:')
    const file = join(mkdtempSync(join(tmpdir(), 'paykit-workflow-')), 'ci.yml')
    writeFileSync(file, broken)
    const { code, output } = await validate(file)
    expect(code).not.toBe(0)
    expect(output).toContain('/jobs/test/runs-on')
    expect(output).toContain('"path": "/on"')
  })

  it('use remote actions pinned to a major version or a commit', () => {
    const uses = [
      ...workflowFiles.flatMap((f) => steps(read(f))),
      ...actionFiles.flatMap(
        (f) =>
          (parse(readFileSync(f, 'utf8')) as { runs: { steps: ReadonlyArray<Step> } }).runs.steps,
      ),
    ]
      .map((s) => s.uses)
      .filter((u): u is string => u !== undefined && !u.startsWith('./'))
    expect(uses.length).toBeGreaterThan(0)
    expect(uses.filter((u) => !/@(v\d+|[0-9a-f]{40})$/.test(u))).toEqual([])
  })

  it('every job has a time limit', () => {
    for (const f of workflowFiles)
      for (const [name, job] of Object.entries(read(f).jobs))
        expect(job['timeout-minutes'], `${f} ${name}`).toBeGreaterThan(0)
  })
})

describe('ci.yml', () => {
  const ci = read('ci.yml')

  it("runs the README's test command", () => {
    expect(ci.jobs['test']?.steps?.map((s) => s.run)).toContain('npm test')
  })

  it("runs the tests on the testkit's Node floor, the lowest that vitest also runs on", () => {
    const floor = /^>=(\d+\.\d+\.\d+)$/.exec(packageJson('packages/testkit').engines?.node ?? '')
    expect(floor?.[1]).toBeDefined()
    const nodes = (ci.jobs['floor']?.steps ?? []).map((s) => s.with?.['node-version'])
    expect(nodes).toContain(floor?.[1])
    expect(ci.jobs['floor']?.steps?.some((s) => s.run?.includes('vitest'))).toBe(true)
  })
})

describe('release.yml', () => {
  const release = read('release.yml')
  const job = release.jobs['release']

  it('may write the repository, pull requests and an OIDC token, and nothing more by default', () => {
    expect(release.permissions).toEqual({ contents: 'read' })
    expect(job?.permissions).toEqual({
      contents: 'write',
      'pull-requests': 'write',
      'id-token': 'write',
    })
  })

  it('opens the version pull request with Changesets and publishes with changeset publish', () => {
    const scripts = packageJson('.').scripts ?? {}
    const changesets = job?.steps?.find((s) => s.uses?.startsWith('changesets/action@'))
    expect(changesets?.with?.['version']).toBe('pnpm run version-packages')
    expect(scripts['version-packages']).toBe('changeset version')
    expect(job?.steps?.some((s) => s.run?.trim().endsWith('pnpm run release'))).toBe(true)
    expect(scripts['release']).toBe('changeset publish')
  })

  it('tests before it publishes, with provenance', () => {
    const runs = (job?.steps ?? []).map((s) => s.run?.trim() ?? '')
    const publish = runs.findIndex((r) => r.endsWith('pnpm run release'))
    expect(runs.indexOf('npm test')).toBeGreaterThan(-1)
    expect(runs.indexOf('npm test')).toBeLessThan(publish)
    expect(job?.steps?.[publish]?.env?.['NPM_CONFIG_PROVENANCE']).toBe('true')
  })
})
