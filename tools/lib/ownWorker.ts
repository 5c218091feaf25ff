/**
 * Which test files of the testkit and the n8n nodes run in a worker of their own
 * (`vitest.workspace.ts`): those whose first line is the marker, the reason after it
 * (`// @paykit-test own-worker: nock's interceptors`). Every other file of its package shares
 * one worker's modules. `ownWorker.test.ts` fails on a file that touches what its process
 * shares without the marker.
 */
import { readFileSync } from 'node:fs'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** How a test file's first line starts when the file needs a worker of its own. */
export const OWN_WORKER = '// @paykit-test own-worker:'

/** A use of what a process shares, and the code that shows it. */
export interface ProcessStateUse {
  readonly use: string
  readonly shows: RegExp
}

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/** Whether the test file at `path` starts with the marker (its first line only is read). */
export const ownsWorker = (path: string): boolean => {
  const text = readFileSync(path, 'utf8')
  return text.slice(0, text.indexOf('\n')).startsWith(OWN_WORKER)
}

/**
 * What a file may do that outlives it or leaks into the next file of a shared worker (a shared
 * worker's demo.test got 0 Trigger items for an event id another file's sandbox had sent): each
 * needs the marker. A file whose reason is not here (n8n's engine loaded by the testkit's
 * test/n8n, a store set for the process) needs it as well: the check cannot see every way.
 */
export const PROCESS_STATE: ReadonlyArray<ProcessStateUse> = [
  {
    // The testkit loads nock on the first call of mockPaymentService, not on import.
    use: "nock's interceptors",
    shows: /\bimport (?!type\b)[^;]*?from 'nock'|\bmockPaymentService\(/,
  },
  { use: "MSW's patched fetch", shows: /\bfrom 'msw(\/\w+)?'|\bsetupServer\(/ },
  { use: 'a module mock (vi.mock)', shows: /\bvi\.(mock|doMock)\(/ },
  { use: 'fake timers (vi.useFakeTimers)', shows: /\bvi\.useFakeTimers\(/ },
  { use: 'a stubbed global (vi.stubGlobal, vi.stubEnv)', shows: /\bvi\.stub(Global|Env)\(/ },
  { use: 'a spy on a shared object (vi.spyOn)', shows: /\bvi\.spyOn\(/ },
  { use: "the Paykit Trigger's replay memory", shows: /\brunWebhook\(|\/engine-demo'/ },
  {
    use: "n8n's de-duplication store (Accept Once, One Link per Order Reference)",
    shows: /operation: 'acceptOnce'|\boneLinkPerReference: true|DataDeduplicationService/,
  },
]

/** The uses of `PROCESS_STATE` that the code of `text` (its comments left out) shows. */
export const processStateUses = (text: string): ReadonlyArray<string> => {
  const code = text
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n')
  return PROCESS_STATE.filter(({ shows }) => shows.test(code)).map(({ use }) => use)
}
