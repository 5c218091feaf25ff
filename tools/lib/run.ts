/**
 * Child processes for the tools and their tests: a command run to its end (never rejecting),
 * the environment it gets, and a failure told for a test message. A leaf of the tools: the
 * package checks, the docs checks, the matrix and the release rehearsal all run commands.
 */
import { execFile } from 'node:child_process'

export interface RunResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  readonly ms: number
}

/** Runs a command; never rejects (a failure is a non-zero `code`). */
export const run = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly timeoutMs?: number; readonly env?: NodeJS.ProcessEnv },
): Promise<RunResult> =>
  new Promise((resolve) => {
    const started = Date.now()
    execFile(
      command,
      [...args],
      {
        cwd: options.cwd,
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 64 * 1024 * 1024,
        env: options.env ?? process.env,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1
        resolve({ code, stdout, stderr, ms: Date.now() - started })
      },
    )
  })

/**
 * The environment for child processes: this Node first on PATH
 * (docs/decisions/0013-toolchain.md).
 */
export const childEnv = (): NodeJS.ProcessEnv => {
  const nodeBin = process.execPath.replace(/\/node$/, '')
  // pnpm's bin shims set NODE_PATH to the store's hoisted modules: a snippet would then load
  // packages its project does not have. Resolve only from the project, as a user's would.
  const { NODE_PATH: _hoisted, ...env } = process.env
  return { ...env, PATH: `${nodeBin}:${process.env['PATH'] ?? ''}`, NO_COLOR: '1' }
}

/** Where a snippet failed, for a test message. */
export const describeFailure = (what: string, r: RunResult): string =>
  `${what} failed (exit ${String(r.code)}):\n${r.stdout}\n${r.stderr}`.slice(0, 8000)
