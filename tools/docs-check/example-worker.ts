/**
 * A worker that runs examples one after another in one process (forked by `checkSnippets`
 * with `pool`): the parent sends `{ file }` (an absolute path), the worker imports it and
 * answers `{ file, error? }`. An example fails when its import rejects, when it throws
 * later (an uncaught exception or unhandled rejection while it is the one running), or when
 * it does not clean up: a server, socket or timer still open after it settled (1 s of
 * grace; a socket already destroyed is not counted), or a nock interceptor left
 * registered (`mockPaymentService(...).restore()` not called). Loading nock activates
 * it for the process: that alone is not a leak.
 */
import http from 'node:http'
import { createRequire } from 'node:module'
import { Socket } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

export interface ExampleRequest {
  readonly file: string
}

export interface ExampleResult {
  readonly file: string
  readonly ms: number
  readonly error?: string
}

// The nock the testkit loads (the same file, so the same instance), if it can be found.
const nockUrl = ((): string | undefined => {
  try {
    const require = createRequire(join(process.cwd(), 'x.js'))
    const testkit = require.resolve('@paykit/testkit/package.json')
    return pathToFileURL(createRequire(testkit).resolve('nock')).href
  } catch {
    return undefined
  }
})()

// nock patches these when it loads: until one changes, nock is not loaded (and not loaded here).
const patchable = (): ReadonlyArray<unknown> => [http.request, http.get, globalThis.fetch]
const unpatched = patchable()

/** The nock interceptors still registered, when nock was loaded. */
const nockLeft = async (): Promise<ReadonlyArray<string>> => {
  if (nockUrl === undefined || patchable().every((f, i) => f === unpatched[i])) return []
  const nock = ((await import(nockUrl)) as { default: NockApi }).default
  const left = nock.activeMocks()
  nock.cleanAll()
  return left
}

interface NockApi {
  readonly activeMocks: () => ReadonlyArray<string>
  readonly cleanAll: () => void
}

/** Sockets already destroyed whose handle is still listed (nock's fetch leaves one). */
const destroyedSockets = (): number => {
  const handles = (
    process as { _getActiveHandles?: () => ReadonlyArray<unknown> }
  )._getActiveHandles?.()
  return (handles ?? []).filter((h) => h instanceof Socket && h.destroyed).length
}

const counts = (): Map<string, number> => {
  const m = new Map<string, number>()
  for (const r of process.getActiveResourcesInfo()) m.set(r, (m.get(r) ?? 0) + 1)
  const tcp = (m.get('TCPSocketWrap') ?? 0) - destroyedSockets()
  if (tcp > 0) m.set('TCPSocketWrap', tcp)
  else m.delete('TCPSocketWrap')
  return m
}

/** What is open now beyond `baseline`, e.g. `TCPServerWrap x1`; empty when nothing. */
const leaked = (baseline: Map<string, number>): ReadonlyArray<string> =>
  [...counts()]
    .filter(([k, n]) => n > (baseline.get(k) ?? 0))
    .map(([k, n]) => `${k} x${n - (baseline.get(k) ?? 0)}`)

const describe = (e: unknown): string =>
  e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : `thrown: ${String(e)}`

// Created on first use: opened now so the first example's baseline has them.
void process.stdout.writable
void process.stderr.writable

let late: Array<string> = []
process.on('uncaughtException', (e) => late.push(`uncaught exception: ${describe(e)}`))
process.on('unhandledRejection', (e) => late.push(`unhandled rejection: ${describe(e)}`))

const runOne = async (file: string): Promise<ExampleResult> => {
  late = []
  const started = performance.now()
  // Measured once the import machinery is idle, so its own handles are not counted.
  await new Promise((r) => setImmediate(r))
  const baseline = counts()
  const problems: Array<string> = []
  try {
    await import(pathToFileURL(file).href)
  } catch (e) {
    problems.push(describe(e))
  }
  // A handle opened after the import settled (a listen on a host) shows up a little later.
  await new Promise((r) => setTimeout(r, 10))
  let open = leaked(baseline)
  for (let waited = 0; open.length > 0 && waited < 1000; waited += 20) {
    await new Promise((r) => setTimeout(r, 20))
    open = leaked(baseline)
  }
  if (open.length > 0) problems.push(`left open after it settled: ${open.join(', ')}`)
  const mocks = await nockLeft()
  if (mocks.length > 0)
    problems.push(`left nock interceptors (call restore()): ${mocks.slice(0, 5).join(', ')}`)
  problems.push(...late)
  const ms = Math.round(performance.now() - started)
  return problems.length === 0 ? { file, ms } : { file, ms, error: problems.join('\n') }
}

process.on('message', (m: ExampleRequest) => {
  void runOne(m.file).then((r) => process.send?.(r))
})
