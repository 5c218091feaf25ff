import { globSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { OWN_WORKER, ownsWorker, processStateUses } from '@paykit/tools/lib/ownWorker'
import { ROOT } from '@paykit/tools/lib/root'

// The packages whose test files share a worker unless marked (vitest.workspace.ts); the
// files that boot the full n8n get a worker each by their path.
const files = globSync(
  [
    'packages/testkit/test/**/*.test.ts',
    'packages/testkit/examples/**/*.test.ts',
    'packages/n8n-nodes/test/**/*.test.ts',
  ],
  { cwd: ROOT, exclude: ['**/real-n8n/**', 'packages/n8n-nodes/test/bench.test.ts'] },
).sort()

const work = mkdtempSync(join(tmpdir(), 'own-worker-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))
/** A test file of `text` in a temporary folder, its path. */
const file = (name: string, text: string): string => {
  const path = join(work, name)
  writeFileSync(path, text)
  return path
}

describe('the own-worker marker', () => {
  it('counts on the first line only', () => {
    expect(ownsWorker(file('first.test.ts', `${OWN_WORKER} nock\nimport nock from 'nock'\n`))).toBe(
      true,
    )
    expect(ownsWorker(file('second.test.ts', `// nock\n${OWN_WORKER} nock\n`))).toBe(false)
    expect(ownsWorker(file('one-line.test.ts', `${OWN_WORKER} nock`))).toBe(true)
  })

  it("tells a use of the process's state by the code, not by the comments", () => {
    expect(
      processStateUses("// nock, msw, vi.mock('x')\n/**\n * vi.useFakeTimers()\n */\n"),
    ).toEqual([])
    expect(
      processStateUses("import nock from 'nock'\nimport { setupServer } from 'msw/node'\n"),
    ).toEqual(["nock's interceptors", "MSW's patched fetch"])
    // Nock is loaded by the first mockPaymentService call, not by the testkit's import.
    expect(
      processStateUses("import type Nock from 'nock'\nimport * as n from '../src/nock/index.js'\n"),
    ).toEqual([])
    expect(processStateUses('const mock = mockPaymentService({ baseUrl })\n')).toEqual([
      "nock's interceptors",
    ])
    expect(processStateUses("  vi.useFakeTimers()\n  vi.stubGlobal('fetch', f)\n")).toEqual([
      'fake timers (vi.useFakeTimers)',
      'a stubbed global (vi.stubGlobal, vi.stubEnv)',
    ])
    expect(
      processStateUses("await runWebhook(workflow, { body })\noperation: 'acceptOnce',"),
    ).toEqual([
      "the Paykit Trigger's replay memory",
      "n8n's de-duplication store (Accept Once, One Link per Order Reference)",
    ])
  })
})

describe("the testkit's and the nodes' test files", () => {
  it('are found', () => {
    expect(files).toContain('packages/testkit/test/client/nock.test.ts')
    expect(files).toContain('packages/n8n-nodes/test/trigger/PaykitTrigger.test.ts')
  })

  it('that touch what their process shares start with the marker (a worker of their own)', () => {
    const unmarked = files.flatMap((f) => {
      const uses = processStateUses(readFileSync(join(ROOT, f), 'utf8'))
      return uses.length > 0 && !ownsWorker(join(ROOT, f)) ? [`${f}: ${uses.join(', ')}`] : []
    })
    expect(unmarked, `put "${OWN_WORKER} <why>" on line 1 of each`).toEqual([])
  })

  it('that have the marker say why after it', () => {
    const silent = files.filter((f) => {
      const first = readFileSync(join(ROOT, f), 'utf8').split('\n', 1)[0] ?? ''
      return first.startsWith(OWN_WORKER) && first.slice(OWN_WORKER.length).trim() === ''
    })
    expect(silent).toEqual([])
  })
})
