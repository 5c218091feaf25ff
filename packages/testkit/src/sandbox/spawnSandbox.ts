/**
 * The `paykit-sandbox` CLI as its own process: spawned with the running Node, resolved once
 * it prints `listening on http://127.0.0.1:<port>`. For a demo, a benchmark or a black-box
 * test that wants the sandbox out of its own event loop (`startSandbox` runs it in-process).
 *
 * @since 0.2.0
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * How to spawn the sandbox: its CLI flags, the script and the Node flags.
 *
 * @since 0.2.0
 */
export interface SpawnSandboxOptions {
  /** CLI flags (`paykit-sandbox --help`), after `--port <port>`. */
  readonly args?: ReadonlyArray<string>
  /** The port (default 0: a free one). */
  readonly port?: number
  /** The script to run (default `SANDBOX_BIN`): another build, or a wrapper of the CLI. */
  readonly bin?: string
  /** Flags for Node itself, before the script (`--cpu-prof`, `--expose-gc`). */
  readonly nodeArgs?: ReadonlyArray<string>
  /** The child's stderr: kept and readable with `stderr()` (default), or the parent's. */
  readonly stderr?: 'pipe' | 'inherit'
  /** Opens an IPC channel to the child (`child.send`, `child.on('message')`). */
  readonly ipc?: boolean
  /** Starts the child in its own process group (stop it with `process.kill(-pid)`). */
  readonly detached?: boolean
  /** How long to wait for the listening line before killing the child (default 15 s). */
  readonly timeoutMs?: number
}

/**
 * A running sandbox process.
 *
 * @since 0.2.0
 */
export interface SandboxProcess {
  /** Its base URL, `http://127.0.0.1:<port>`. */
  readonly url: string
  readonly port: number
  readonly child: ChildProcess
  /** What it wrote to stderr so far (empty with `stderr: 'inherit'`). */
  readonly stderr: () => string
  /** Sends SIGTERM (or `signal`) and resolves once it has exited. */
  readonly stop: (signal?: NodeJS.Signals) => Promise<void>
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * The built CLI of this package (`dist/bin/paykit-sandbox.js`), the script `spawnSandbox`
 * runs unless told another.
 *
 * @example
 * ```ts
 * import { SANDBOX_BIN } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * assert.match(SANDBOX_BIN, /dist[/\\]bin[/\\]paykit-sandbox\.js$/)
 * ```
 *
 * @since 0.2.0
 */
export const SANDBOX_BIN: string = fileURLToPath(
  // the same from src/sandbox/ and dist/sandbox/
  new URL('../../dist/bin/paykit-sandbox.js', import.meta.url),
)

const LISTENING = /^listening on (http:\/\/\S+:(\d+))$/m

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Spawns `paykit-sandbox --port 0 ...args` with the running Node and resolves once it
 * listens; rejects if it exits first or does not listen within `timeoutMs`.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { spawnSandbox } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * const sandbox = await spawnSandbox({ args: ['--control'] })
 * try {
 *   assert.match(sandbox.url, /^http:\/\/127\.0\.0\.1:\d+$/)
 *   const token = await fetch(`${sandbox.url}/token`, {
 *     method: 'POST',
 *     headers: { 'content-type': 'application/json' },
 *     body: JSON.stringify({
 *       clientId: defaultCredentials.clientId,
 *       clientSecret: defaultCredentials.clientSecret,
 *     }),
 *   })
 *   assert.equal(token.status, 200)
 * } finally {
 *   await sandbox.stop()
 * }
 * ```
 *
 * @since 0.2.0
 */
export const spawnSandbox = (options: SpawnSandboxOptions = {}): Promise<SandboxProcess> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...(options.nodeArgs ?? []),
        options.bin ?? SANDBOX_BIN,
        '--port',
        String(options.port ?? 0),
        ...(options.args ?? []),
      ],
      {
        stdio: [
          'ignore',
          'pipe',
          options.stderr ?? 'pipe',
          ...(options.ipc === true ? (['ipc'] as const) : []),
        ],
        detached: options.detached === true,
      },
    )
    let out = ''
    let err = ''
    const exited = new Promise<void>((done) => child.once('exit', () => done()))
    const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal)
        await exited
      }
    }
    const timer = setTimeout(() => {
      void stop()
      reject(new Error(`paykit-sandbox did not start in time: ${out} ${err}`))
    }, options.timeoutMs ?? 15_000)
    const failed = (code: number | null): void => {
      clearTimeout(timer)
      reject(new Error(`paykit-sandbox exited (${String(code)}) before listening: ${out} ${err}`))
    }
    child.once('error', (e) => {
      clearTimeout(timer)
      reject(e)
    })
    child.once('exit', failed)
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()))
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = LISTENING.exec(out)
      if (match?.[1] !== undefined && match[2] !== undefined) {
        clearTimeout(timer)
        child.off('exit', failed)
        resolve({ url: match[1], port: Number(match[2]), child, stderr: () => err, stop })
      }
    })
  })
