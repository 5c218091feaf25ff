/**
 * n8n's task runner for Code nodes in EXTERNAL mode, beside an n8n process of the stack
 * (stack.ts): what n8n 2.41 documents instead of its internal mode, which it deprecates
 * (`N8N_RUNNERS_MODE`: "run the task runner launcher as a separate process, set this
 * variable to `external` and share `N8N_RUNNERS_AUTH_TOKEN` with the launcher"). Done here
 * as n8n's launcher (n8n-io/task-runner-launcher) does it for a JavaScript runner: ask the
 * process's task broker for a grant token with the shared auth token (`POST /runners/auth`),
 * then start `@n8n/task-runner` with it, and again whenever it exits while its n8n process
 * lives. No Python runner: none of the stack's workflows has a Python Code node, and
 * external mode spares each process the "Failed to start Python task runner" warning of the
 * internal mode without Python 3.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { createInterface } from 'node:readline'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** A task runner kept running beside one n8n process. */
export interface TaskRunner {
  /** Stops the runner and starts no other. */
  readonly stop: () => Promise<void>
}

/**
 * Whether `n8n <args>` with `env` runs Code nodes, so serves a task broker for a runner: n8n's
 * `needsTaskRunner` (commands/start.js, worker.js, execute*.js), which a queue-mode main
 * process that offloads its manual executions to the workers does not set.
 */
export const needsTaskRunner = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv): boolean =>
  ['worker', 'execute', 'execute-batch'].includes(args[0] ?? '') ||
  (args[0] === 'start' &&
    !(env.EXECUTIONS_MODE === 'queue' && env.OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS === 'true'))

/** What the runner gets of its n8n process's environment (n8n's internal mode passes the same). */
const PASSED_ON = [
  'PATH',
  'HOME',
  'NODE_PATH',
  'GENERIC_TIMEZONE',
  'NODE_FUNCTION_ALLOW_BUILTIN',
  'NODE_FUNCTION_ALLOW_EXTERNAL',
  'N8N_RUNNERS_MAX_PAYLOAD',
  'N8N_RUNNERS_MAX_CONCURRENCY',
  'N8N_RUNNERS_TASK_TIMEOUT',
  'N8N_RUNNERS_HEARTBEAT_INTERVAL',
  'NODE_COMPILE_CACHE',
] as const

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** `@n8n/task-runner`'s start script, as the n8n at `n8nBin` resolves it. */
const runnerScript = (n8nBin: string): string =>
  createRequire(n8nBin).resolve('@n8n/task-runner/start')

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A grant token from the broker at `brokerUri`; retried until its n8n process serves it. */
const grantToken = async (
  brokerUri: string,
  authToken: string,
  alive: () => boolean,
): Promise<string | undefined> => {
  while (alive()) {
    const token = await fetch(`${brokerUri}/runners/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: authToken }),
    })
      .then(async (r) =>
        r.ok ? ((await r.json()) as { data?: { token?: string } }).data?.token : undefined,
      )
      .catch(() => undefined) // not listening yet
    if (token !== undefined) return token
    await sleep(500)
  }
  return undefined
}

/**
 * Keeps a JavaScript task runner connected to the task broker of `n8n` (the process started
 * from `n8nBin` with `env`, whose `N8N_RUNNERS_BROKER_PORT` and `N8N_RUNNERS_AUTH_TOKEN` it uses) for as
 * long as that process runs; the runner's output goes to `log`.
 */
export const startTaskRunner = (options: {
  /** n8n's `bin/n8n`, whose `@n8n/task-runner` is started. */
  readonly n8nBin: string
  readonly env: NodeJS.ProcessEnv
  readonly n8n: ChildProcess
  readonly log: (line: string) => void
}): TaskRunner => {
  const { env, n8n, log } = options
  const authToken = env.N8N_RUNNERS_AUTH_TOKEN
  if (env.N8N_RUNNERS_MODE !== 'external' || authToken === undefined)
    throw new Error('a task runner beside n8n needs N8N_RUNNERS_MODE=external and its auth token')
  const brokerUri = `http://127.0.0.1:${String(env.N8N_RUNNERS_BROKER_PORT)}`
  let stopped = false
  let runner: ChildProcess | undefined
  const alive = () => !stopped && n8n.exitCode === null && n8n.signalCode === null
  const script = runnerScript(options.n8nBin)
  const loop = (async () => {
    while (alive()) {
      const token = await grantToken(brokerUri, authToken, alive)
      if (token === undefined) return
      const passed = Object.fromEntries(
        PASSED_ON.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]),
      )
      // n8n's own flags for its runner (unless N8N_RUNNERS_INSECURE_MODE).
      const child = spawn(
        process.execPath,
        ['--disallow-code-generation-from-strings', '--disable-proto=delete', script],
        {
          env: {
            ...passed,
            N8N_RUNNERS_GRANT_TOKEN: token,
            N8N_RUNNERS_TASK_BROKER_URI: brokerUri,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
          // Its own process group: a Ctrl-C in the terminal reaches n8n, not the runner.
          detached: true,
        },
      )
      runner = child
      for (const stream of [child.stdout, child.stderr])
        createInterface({ input: stream }).on('line', (line) => log(`[task runner] ${line}`))
      const code = await new Promise<number | string | null>((resolve) => {
        child.once('error', (error) => resolve(error.message))
        child.once('exit', (exit, signal) => resolve(exit ?? signal))
      })
      runner = undefined
      if (!alive()) return
      log(`[task runner] exited (${String(code)}), starting another`)
      await sleep(1000)
    }
  })()
  return {
    stop: async () => {
      stopped = true
      const child = runner
      if (child !== undefined && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
        await exited
        clearTimeout(timer)
      }
      await loop
    },
  }
}
