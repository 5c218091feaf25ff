import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from '@paykit/tools/lib/root'
import { pack } from '@paykit/tools/package-check'
import { childEnv, describeFailure, run } from '@paykit/tools/lib/run'
import { readmeSnippets } from '@paykit/tools/docs-check/readme-snippets'
import { checkSnippets } from '@paykit/tools/docs-check/snippets'

// A user's project in a temporary folder installs the packed tarballs (no workspace links),
// type-checks the README snippets under strict with the workspace's TypeScript 6.0.3 and
// runs them: with npm (the lowest fp-ts / io-ts the peer ranges allow) and with pnpm's
// strict layout (the versions the workspace uses). Uses the registry's cache first.
// The pnpm case is also the docs check's one run of the README and docs pages' snippets
// (readme-snippets.test.ts says why not a second one against the workspace):
// `--project docs install.test.ts -t pnpm` while editing a page.
const packs = mkdtempSync(join(tmpdir(), 'paykit-packs-'))
const projects: Array<string> = []
afterAll(() => {
  for (const dir of [packs, ...projects]) rmSync(dir, { recursive: true, force: true })
}, 120_000)

/** The two tarballs, packed once for both cases (each `pnpm pack` costs ~1.2 CPU-s). */
let packed: Promise<readonly [string, string]> | undefined
const tarballs = (): Promise<readonly [string, string]> =>
  (packed ??= Promise.all([pack('core', packs), pack('testkit', packs)]))

const common = {
  'fast-check': '4.10.2',
  '@types/node': '24.19.2',
  vitest: '5.1.0',
  msw: '2.15.0', // the optional peer of @paykit/testkit/msw, for its README snippets
  '@fast-check/vitest': '0.5.0', // what the model's vitest snippet runs its stories with
}

const cases = [
  {
    manager: 'npm',
    peers: { 'fp-ts': '2.16.0', 'io-ts': '2.2.20' },
    install: ['npm', 'install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
  },
  {
    manager: 'pnpm',
    peers: { 'fp-ts': '2.16.11', 'io-ts': '2.2.22' },
    install: ['pnpm', 'install', '--prefer-offline', '--config.confirmModulesPurge=false'],
  },
] as const

describe.each(cases)('a clean project installing the tarballs with $manager', (c) => {
  it('installs, type-checks and runs every README snippet', { timeout: 600_000 }, async () => {
    const [core, testkit] = await tarballs()
    const project = mkdtempSync(join(tmpdir(), `paykit-clean-${c.manager}-`))
    projects.push(project)
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'paykit-user',
        private: true,
        type: 'module',
        dependencies: {
          '@paykit/core': `file:${core}`,
          '@paykit/testkit': `file:${testkit}`,
          ...c.peers,
          ...common,
        },
        // The testkit's `@paykit/core: ^0.1.0` is not on the registry yet: take the tarball.
        overrides: { '@paykit/core': `file:${core}` },
        pnpm: { overrides: { '@paykit/core': `file:${core}` } },
      }),
    )
    const [command, ...args] = c.install
    const installed = await run(command, args, {
      cwd: project,
      env: childEnv(),
      timeoutMs: 300_000,
    })
    expect(installed.code, describeFailure(`${c.manager} install`, installed)).toBe(0)
    const report = await checkSnippets(project, readmeSnippets(ROOT))
    console.log(
      `${c.manager}: install ${installed.ms} ms;`,
      Object.entries(report.timings)
        .map(([k, v]) => `${k} ${v} ms`)
        .join('; '),
    )
    expect(report.failures).toEqual([])
  })
})
