/**
 * Type-checks and runs the README snippets inside a project that has `@paykit/core`,
 * `@paykit/testkit`, fp-ts, fast-check, vitest and @types/node in its `node_modules`.
 */
import { join } from 'node:path'
import {
  childEnv,
  describeFailure,
  run,
  writeSnippetProject,
  type RunResult,
  type Snippet,
} from '../readme-snippets.js'
import { ROOT } from '../package-check.js'

/** The workspace's TypeScript (6.0.3): the compiler every check uses. */
export const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')

export interface SnippetReport {
  readonly failures: ReadonlyArray<string>
  readonly timings: Readonly<Record<string, number>>
}

/** Writes the snippets into `project/snippets`, type-checks and runs them. */
export const checkSnippets = async (
  project: string,
  snippets: ReadonlyArray<Snippet>,
): Promise<SnippetReport> => {
  writeSnippetProject(project, snippets)
  const dir = join(project, 'snippets')
  const env = childEnv()
  const failures: Array<string> = []
  const timings: Record<string, number> = {}
  const note = (what: string, r: RunResult): void => {
    timings[what] = r.ms
    if (r.code !== 0) failures.push(describeFailure(what, r))
  }
  note(
    'tsc (node + vitest snippets)',
    await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir, env }),
  )
  note(
    'tsc (browser snippets, DOM lib)',
    await run(process.execPath, [TSC, '-p', 'tsconfig.browser.json'], { cwd: dir, env }),
  )
  const runs = await Promise.all(
    snippets
      .filter((s) => s.mode === 'node')
      .map(
        async (s) =>
          [
            s,
            await run(process.execPath, [s.fileName], { cwd: dir, env, timeoutMs: 60_000 }),
          ] as const,
      ),
  )
  for (const [s, r] of runs) note(`node ${s.readme}:${s.line}`, r)
  const vitest = join(project, 'node_modules', 'vitest', 'vitest.mjs')
  note(
    'vitest (vitest snippets)',
    await run(process.execPath, [vitest, 'run', '--config', 'vitest.config.mjs'], {
      cwd: dir,
      env,
      timeoutMs: 180_000,
    }),
  )
  return { failures, timings }
}
