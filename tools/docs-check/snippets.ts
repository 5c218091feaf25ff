/**
 * Type-checks and runs snippets (README blocks or `@example` blocks) inside a project that
 * has `@paykit/core`, `@paykit/testkit`, fp-ts, io-ts, fast-check, vitest and @types/node in
 * its `node_modules`.
 */
import { fork } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { childEnv, describeFailure, run, type RunResult } from '@paykit/tools/lib/run'
import { writeSnippetProject, type Snippet } from '@paykit/tools/docs-check/readme-snippets'
import { ROOT } from '@paykit/tools/lib/root'
import type { ExampleResult } from '@paykit/tools/docs-check/example-worker'

/** The workspace's TypeScript (6.0.3): the compiler every check uses. */
export const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')

export interface CheckOptions {
  /**
   * Run the `node` snippets in this many worker processes, one after another in each
   * (`example-worker.ts`: fails one that does not clean up), instead of a process each.
   */
  readonly pool?: number
}

export interface SnippetReport {
  readonly failures: ReadonlyArray<string>
  readonly timings: Readonly<Record<string, number>>
}

/** Writes the snippets into `project/snippets`, type-checks and runs them. */
export const checkSnippets = async (
  project: string,
  snippets: ReadonlyArray<Snippet>,
  options: CheckOptions = {},
): Promise<SnippetReport> => {
  writeSnippetProject(project, snippets)
  const dir = join(project, 'snippets')
  const env = childEnv()
  const failures: Array<string> = []
  const timings: Record<string, number> = {}
  const located = (text: string): string => toSourceLocations(text, snippets)
  const note = (what: string, r: RunResult): void => {
    timings[what] = r.ms
    if (r.code !== 0) failures.push(located(describeFailure(what, r)))
  }
  const has = (mode: Snippet['mode']): boolean => snippets.some((s) => s.mode === mode)
  const nodeSnippets = snippets.filter((s) => s.mode === 'node')
  // The type checks and the runs are independent: started together.
  const checks: Array<Promise<void>> = []
  if (has('node') || has('vitest'))
    checks.push(
      run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir, env }).then((r) =>
        note('tsc (node + vitest snippets)', r),
      ),
    )
  if (has('browser'))
    checks.push(
      run(process.execPath, [TSC, '-p', 'tsconfig.browser.json'], { cwd: dir, env }).then((r) =>
        note('tsc (browser snippets, DOM lib)', r),
      ),
    )
  if (options.pool !== undefined) {
    const started = Date.now()
    const pool = options.pool
    checks.push(
      runPool(dir, nodeSnippets, pool, env).then((results) => {
        timings[`node (${nodeSnippets.length} in ${pool} workers)`] = Date.now() - started
        for (const [s, error] of results.failed)
          failures.push(located(`node ${s.source}:${s.line} failed:\n${error}`))
        for (const [s, ms] of results.slow) timings[`slow: ${s.source}:${s.line}`] = ms
      }),
    )
  } else {
    // A process each (README snippets: each as a user runs it), a few at a time: all at once,
    // the snippets that load the testkit outran their 60 s on a busy 2-core machine.
    const queue = [...nodeSnippets]
    const next = async (): Promise<void> => {
      const s = queue.shift()
      if (s === undefined) return
      note(
        `node ${s.source}:${s.line}`,
        await run(process.execPath, [s.fileName], { cwd: dir, env, timeoutMs: 60_000 }),
      )
      return next()
    }
    checks.push(Promise.all(Array.from({ length: defaultPool() }, next)).then(() => undefined))
  }
  if (has('vitest')) {
    const vitest = join(project, 'node_modules', 'vitest', 'vitest.mjs')
    checks.push(
      run(process.execPath, [vitest, 'run', '--config', 'vitest.config.mjs'], {
        cwd: dir,
        env,
        timeoutMs: 180_000,
      }).then((r) => note('vitest (vitest snippets)', r)),
    )
  }
  await Promise.all(checks)
  // In a stable order, whichever check finished first.
  failures.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
  return { failures, timings }
}

/**
 * Rewrites the generated files' positions in tsc or Node output (`x-L12.ts(3,5)`,
 * `.../snippets/x-L12.ts:3:5`) as the source's (`README.md:14:5`): line 1 of a generated file
 * is its header comment, line 2 the line after the fence.
 */
export const toSourceLocations = (text: string, snippets: ReadonlyArray<Snippet>): string => {
  const byFile = new Map(snippets.map((s) => [s.fileName, s]))
  return text.replace(
    /(?:file:\/\/)?(?:[^\s():'"]*\/)?([\w.-]+\.ts)(?:\((\d+),(\d+)\)|:(\d+):(\d+))/g,
    (all, file: string, l1?: string, c1?: string, l2?: string, c2?: string) => {
      const s = byFile.get(file)
      const line = Number(l1 ?? l2)
      if (s === undefined || !(line >= 2)) return all
      return `${s.source}:${s.line + line - 1}:${c1 ?? c2 ?? ''}`
    },
  )
}

/** A sensible pool size: the cores, at most 4. */
export const defaultPool = (): number => Math.max(1, Math.min(4, availableParallelism()))

const WORKER = join(ROOT, 'tools', 'docs-check', 'example-worker.ts')

/** An example slower than this is named in the timings. */
const SLOW_MS = 500

/** Per-example limit in a pool worker; past it the worker is killed and replaced. */
const EXAMPLE_TIMEOUT_MS = 30_000

/**
 * Runs the snippets (files in `dir`) in `size` forked workers, each taking the next one
 * when done; a worker that dies or hangs fails the example it was running and is replaced.
 * The failed snippets with their errors.
 */
const runPool = async (
  dir: string,
  snippets: ReadonlyArray<Snippet>,
  size: number,
  env: NodeJS.ProcessEnv,
): Promise<{
  readonly failed: ReadonlyArray<readonly [Snippet, string]>
  readonly slow: ReadonlyArray<readonly [Snippet, number]>
}> => {
  const queue = [...snippets]
  const failed: Array<readonly [Snippet, string]> = []
  const slow: Array<readonly [Snippet, number]> = []
  const worker = async (): Promise<void> => {
    while (queue.length > 0) {
      let stderr = ''
      const child = fork(WORKER, [], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
      child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)))
      child.stdout?.resume()
      // Runs snippets in this child until the queue is empty or the child is lost.
      await new Promise<void>((done) => {
        let current: Snippet | undefined
        let timer: NodeJS.Timeout | undefined
        const next = (): void => {
          current = queue.shift()
          if (current === undefined) {
            child.kill()
            return done()
          }
          const s = current
          timer = setTimeout(() => {
            failed.push([s, `timed out after ${EXAMPLE_TIMEOUT_MS} ms`])
            current = undefined
            child.kill('SIGKILL')
          }, EXAMPLE_TIMEOUT_MS)
          child.send({ file: join(dir, s.fileName) })
        }
        child.on('message', (m: ExampleResult) => {
          clearTimeout(timer)
          if (current !== undefined && m.error !== undefined) failed.push([current, m.error])
          if (current !== undefined && m.ms > SLOW_MS) slow.push([current, m.ms])
          next()
        })
        child.on('exit', (code, signal) => {
          clearTimeout(timer)
          if (current !== undefined)
            failed.push([
              current,
              `the process exited (${String(code ?? signal)}) while it ran:\n${stderr}`,
            ])
          current = undefined
          done()
        })
        next()
      })
    }
  }
  await Promise.all(Array.from({ length: Math.min(size, snippets.length) }, worker))
  return { failed, slow }
}
