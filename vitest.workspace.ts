import { globSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { ownsWorker } from '@paykit/tools/lib/ownWorker'

// The one file that lists the test projects (vitest 5 reads no workspace file by itself).
// Tests that drive the n8n engine load n8n-core (and its isolated-vm expression engine) cold
// in each worker: seconds when both cores are busy, so those projects get a longer limit.
//
// `pnpm test:quick` (PAYKIT_QUICK=1, the core and testkit projects): the unit and property
// tests only, without the files that drive Chromium (testkit test/browser), the n8n engine
// (testkit test/n8n), a spawned, packed or bundled package (bin, dist, package, the core's
// browser bundles) or the sandbox under load, faults and fuzzing (testkit test/reliability;
// its load test is in the project testkit-alone).
const quick = process.env['PAYKIT_QUICK'] === '1'
// Every project's files write their CPU seconds when PAYKIT_TEST_CPU_LOG names a log
// (tools/lib/testCpu.ts); `npm test` ends with the files that used the most.
const setupFiles = [fileURLToPath(new URL('tools/lib/testCpu.ts', import.meta.url))]
const slow = {
  core: [
    'test/dist.test.ts',
    'test/package.test.ts',
    'test/node-floor.test.ts',
    'test/browser/bundle.test.ts',
  ],
  testkit: [
    'test/browser/**',
    'test/n8n/**',
    'test/bin/**',
    // Spawned processes: the built CLI (the black-box conformance suite, the CLI's and
    // spawnSandbox's own tests) and the Node floor's other Node versions.
    'test/conformance/**',
    'test/sandbox/cli.test.ts',
    'test/sandbox/spawnSandbox.test.ts',
    'test/engines/NodeVersion.test.ts',
    'test/package.test.ts',
    'test/properties/dist.test.ts',
    'test/reliability/**',
    // The failure matrix of outcomeUnknown: the client over the sandbox, nock and MSW with
    // faults at every point (14 s).
    'test/client/outcomeUnknown.test.ts',
  ],
}
// Files that run alone, after all others (a time budget that a second worker would eat).
const alone = ['test/reliability/load.test.ts']
/** Whether the test file at `path` boots the full n8n (see `needsFullN8n`). */
const bootsFullN8n = (path: string): boolean =>
  path.includes('/real-n8n/') || path.endsWith('test/bench.test.ts')
// A test file whose first line is the marker `// @paykit-test own-worker: <why>` runs in a
// worker of its own: it changes or relies on what its process shares (tools/lib/ownWorker.ts;
// its test names a file that shows such a use without the marker). Every other file of its
// package shares one worker's modules (the projects `<package>-shared`, isolate: false).
/** The test files under `root` (a package folder) matching `patterns`. */
const filesOf = (root: string, patterns: Array<string>): Array<string> =>
  globSync(patterns, { cwd: fileURLToPath(new URL(root, import.meta.url)) })
/** Whether `file` under `root` has the marker. */
const marked = (root: string) => (file: string) =>
  ownsWorker(fileURLToPath(new URL(`${root}/${file}`, import.meta.url)))
const testkitFiles = filesOf('packages/testkit', ['test/**/*.test.ts', 'examples/**/*.test.ts'])
const testkitOwn = marked('packages/testkit')
const nodesFiles = filesOf('packages/n8n-nodes', ['test/**/*.test.ts']).filter(
  (f) => !bootsFullN8n(f),
)
const nodesOwn = marked('packages/n8n-nodes')
/** A project of the testkit's files `include`, each file in a worker of its own or not. */
const testkitProject = (name: string, include: Array<string>, isolate: boolean) => ({
  test: {
    name,
    root: 'packages/testkit',
    include,
    exclude: ['**/node_modules/**', ...alone, ...(quick ? slow.testkit : [])],
    setupFiles,
    testTimeout: 30_000,
    isolate,
    // The testkit's own @fast-check/vitest links another copy of vitest (its @types/node
    // differs from the root's): inlined, its `vitest` import is the running one.
    server: { deps: { inline: ['@fast-check/vitest'] } },
  },
})
const skipWhenQuick = (files: ReadonlyArray<string>): { exclude?: Array<string> } =>
  quick ? { exclude: ['**/node_modules/**', ...files] } : {}

// The real-n8n tests wait for the full n8n (tools/n8n/install.sh, minutes on a fresh
// clone, which `npm test` starts in the background): they run last, so that the other files
// keep the workers busy meanwhile instead of every worker waiting on the install's lock.
// Their files: test/real-n8n/, the compatibility suite's test/compat/real-n8n/, and the bench
// smoke test (bench/queue.mjs boots a queue and a regular stack of the full n8n).
const needsFullN8n = (spec: TestSpecification): boolean => bootsFullN8n(spec.moduleId)
// The slowest files, slowest first (seconds in a fresh-clone `npm test`, stack boots
// included): started first in their group, so that the run does not end on one long file
// while the other worker idles. A fresh clone has no vitest cache of durations to sort by.
// The real-n8n files alternate queue-mode stacks (Q: main, workers, webhook processor,
// Postgres, Redis) with one-process ones (R): two queue stacks at once on 2 cores doubled
// queue.test's time (80 s -> 155 s in the fresh-clone run of 1 Dec).
const slowestFirst = [
  '/test/bench.test.ts', // 266, Q then R
  '/real-n8n/stack-fresh-clone.test.ts', // 204, R then Q
  '/real-n8n/queueCrash.test.ts', // Q (4 workers), three kill rounds
  '/real-n8n/templates-form.test.ts', // 80, R
  '/real-n8n/queue.test.ts', // 93 (before the burst of 300 paid orders), Q
  '/real-n8n/templatesAgent.test.ts', // ~180, R
  '/real-n8n/templates.test.ts', // 49, R
  '/real-n8n/templatesQueue.test.ts', // 85, Q
  '/real-n8n/n8n.test.ts', // 37, R
  '/real-n8n/stack.test.ts', // 70, Q
  '/real-n8n/safety.test.ts', // 33, R
  '/real-n8n/postgresCardData.test.ts', // 26, Q
  'tools/docs-check/install.test.ts', // 252
  'tools/docs-check/examples.test.ts', // 117
  'tools/matrix/matrix.test.ts', // 81
  'tools/release/rehearse.test.ts', // 77
  'tools/openapi/prism.test.ts', // 39
  '/test/trigger/PaykitTrigger.test.ts', // 26
  'tools/docs-check/api-docs.test.ts', // 25
]
const rank = (spec: TestSpecification): number => {
  const i = slowestFirst.findIndex((end) => spec.moduleId.endsWith(end))
  return i === -1 ? slowestFirst.length : i
}
class RealN8nLast extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    // Array.prototype.sort is stable: the other files keep vitest's order (cached durations,
    // else size).
    const sorted = (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
    return [...sorted.filter((f) => !needsFullN8n(f)), ...sorted.filter(needsFullN8n)]
  }
}

export default defineConfig({
  test: {
    // Most test files wait on something else (a sandbox, Chromium, n8n, npm, its install):
    // vitest's default of one worker fewer than the cores would run them one at a time on
    // two cores, so at least two files run at once.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: RealN8nLast },
    projects: [
      {
        test: {
          name: 'core',
          root: 'packages/core',
          include: ['test/**/*.test.ts'],
          // As the testkit's: a property of 1,000 runs over whole orders (test/model/Order.test.ts)
          // took 1-2 s alone and 5.1 s beside the full suite, past vitest's default of 5 s.
          setupFiles,
          testTimeout: 30_000,
          // The core's tests are pure (no sockets, no global mocks): its files share a worker's
          // modules instead of loading them again per file (~7 s in the quick run).
          isolate: false,
          ...skipWhenQuick(slow.core),
        },
      },
      testkitProject('testkit', testkitFiles.filter(testkitOwn), true),
      // The testkit's other files share a worker's modules, as the core's.
      testkitProject(
        'testkit-shared',
        testkitFiles.filter((f) => !testkitOwn(f)),
        false,
      ),
      {
        // The sandbox at scale against its time budget (10,000 links in 25 s on 2 cores): on
        // its own after every other file, as when one worker ran every file in turn.
        test: {
          name: 'testkit-alone',
          root: 'packages/testkit',
          include: alone,
          setupFiles,
          testTimeout: 30_000,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // The files that boot the full n8n (their stacks' processes, ports and temporary
        // folders are the file's own) or hold process state (above): a fresh worker each.
        test: {
          name: 'n8n-nodes',
          root: 'packages/n8n-nodes',
          include: [
            'test/**/real-n8n/*.test.ts',
            'test/bench.test.ts',
            ...nodesFiles.filter(nodesOwn),
          ],
          setupFiles,
          testTimeout: 30_000,
        },
      },
      {
        // The nodes through n8n's engine in this process, the lint: the files share a worker's
        // modules (n8n-core loaded once, not once per file).
        test: {
          name: 'n8n-nodes-shared',
          root: 'packages/n8n-nodes',
          include: nodesFiles.filter((f) => !nodesOwn(f)),
          setupFiles,
          testTimeout: 30_000,
          isolate: false,
        },
      },
      {
        // The tools package itself (tools/README.md): run by name under plain Node, its
        // dependencies one way, nothing left of the former scripts/ folder.
        test: {
          name: 'tools',
          root: 'tools',
          include: ['*.test.ts', 'lib/*.test.ts'],
          setupFiles,
          testTimeout: 30_000,
        },
      },
      {
        // The release set-up, which cannot run here: the GitHub workflows through
        // action-validator, Changesets' config through changeset version on a copy.
        test: {
          name: 'release',
          root: 'tools/release',
          include: ['*.test.ts'],
          setupFiles,
          testTimeout: 60_000,
        },
      },
      {
        // The packages' public API (issue 29 §1): each entry's committed API Extractor report
        // against the built declarations (`pnpm run api` rewrites them).
        test: {
          name: 'api',
          root: 'tools/api',
          include: ['*.test.ts'],
          setupFiles,
          testTimeout: 300_000,
        },
      },
      {
        // README snippets and the sources' @example blocks type-checked and run, and the
        // @example coverage of the public exports; the packed tarballs installed into clean
        // npm and pnpm projects (minutes: they install and compile real projects).
        test: {
          name: 'docs',
          root: 'tools/docs-check',
          include: ['*.test.ts'],
          setupFiles,
          testTimeout: 600_000,
        },
      },
      {
        // @paykit/testkit/msw under MSW 3 (its peer range takes ^2 and ^3; the testkit project
        // runs MSW 2): the files that drive the handlers without nock (MSW 3 cannot start once
        // nock is loaded) again, `msw` resolved to the msw3 devDependency (npm:msw@3.0.5).
        // test/msw/version.test.ts fails if it is not.
        test: {
          name: 'testkit-msw3',
          root: 'packages/testkit',
          include: [
            'test/msw/**/*.test.ts',
            'test/client/msw.test.ts',
            ...(quick ? [] : ['test/browser/Msw.test.ts']),
          ],
          env: { PAYKIT_MSW: 'msw3' },
          setupFiles,
          testTimeout: 30_000,
        },
        resolve: { alias: [{ find: /^msw(?=\/|$)/, replacement: 'msw3' }] },
      },
      {
        // The versions users run (issue 27): the compatibility matrix (tools/matrix/cells.ts:
        // a clean project from the packed tarballs per cell of Node, TypeScript, vitest, msw
        // and n8n versions), here its one representative cell (minutes: it installs and
        // compiles a project); `pnpm test:matrix` runs every cell and records the results in
        // the root README. Also the core's names over its history ("What moved").
        test: {
          name: 'matrix',
          root: 'tools/matrix',
          include: ['*.test.ts'],
          setupFiles,
          testTimeout: 900_000,
        },
      },
      {
        // openapi.yaml (issue 21): regenerated and compared, linted, its request schemas
        // against the codecs (ajv), the sandbox's conformance tests through a Prism proxy.
        test: {
          name: 'openapi',
          root: 'tools/openapi',
          include: ['*.test.ts'],
          setupFiles,
          testTimeout: 300_000,
        },
      },
    ],
  },
})
