/**
 * `npm run n8n`: the package in a real n8n on 127.0.0.1, next to a sandbox (see stack.ts).
 * Keeps its n8n data in `.tools/n8n-home` (your edits survive a restart; `--fresh` starts
 * over), each process's output in its `logs/` folder. Ctrl-C stops everything it started.
 *
 * Options: `--port <n>` (n8n, default 5678), `--sandbox-port <n>` (default 4010), `--fresh`,
 * `--queue` (n8n's queue mode, see queue.ts: Postgres, Redis, workers and a webhook
 * processor; its data in `.tools/n8n-queue-home`), `--workers <n>` (default 2),
 * `--postgres-port <n>` (default 5433; in regular mode the shop's own Postgres), `--smtp-port
 * <n>` (MailDev's SMTP, default 1025), `--mail-port <n>` (its mail page, default 1080),
 * `--model-port <n>` (the scripted chat model of the sales assistant, default 4020). `--backup <dir>` writes n8n's database to `dir` and
 * `--restore <dir>` loads one back (backup.ts), without starting n8n.
 */
import { existsSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { freePort } from '@paykit/tools/lib/freePort'
import { ROOT } from '@paykit/tools/lib/root'
import { backupDatabase, restoreDatabase } from '@paykit/tools/n8n/backup'
import { LOGIN, databaseEnv, startPostgres } from '@paykit/tools/n8n/postgres'
import { ENCRYPTION_KEY, startQueueStack, type QueueStack } from '@paykit/tools/n8n/queue'
import { banner } from '@paykit/tools/n8n/banner'
import { PUBLISHED_ON_START, n8nEnv, startStack, type Stack } from '@paykit/tools/n8n/stack'

const OPTIONS = {
  port: { type: 'string', default: '5678' },
  'sandbox-port': { type: 'string', default: '4010' },
  fresh: { type: 'boolean', default: false },
  queue: { type: 'boolean', default: false },
  workers: { type: 'string', default: '2' },
  'postgres-port': { type: 'string', default: '5433' },
  'smtp-port': { type: 'string', default: '1025' },
  'mail-port': { type: 'string', default: '1080' },
  'model-port': { type: 'string', default: '4020' },
  backup: { type: 'string' },
  restore: { type: 'string' },
} as const
const parsed = (() => {
  try {
    return parseArgs({ options: OPTIONS })
  } catch (error) {
    // An unknown option or a missing value, said in one line (the options: this file's header).
    process.stderr.write(`npm run n8n: ${(error as Error).message}\n`)
    return process.exit(2)
  }
})()
const { values } = parsed
/** A port or count option as a number; a clear error naming the option otherwise. */
const integerOption = (
  name:
    | 'port'
    | 'sandbox-port'
    | 'postgres-port'
    | 'smtp-port'
    | 'mail-port'
    | 'model-port'
    | 'workers',
): number => {
  const n = Number(values[name])
  if (!Number.isSafeInteger(n) || n < 0 || n > 65535) {
    process.stderr.write(`--${name} must be an integer from 0 to 65535, not ${values[name]}\n`)
    process.exit(2)
  }
  return n
}
const userFolder = join(ROOT, values.queue ? '.tools/n8n-queue-home' : '.tools/n8n-home')
const postgresPort = integerOption('postgres-port')

// -------------------------------------------------------------------------------------
// --backup, --restore
// -------------------------------------------------------------------------------------

/** Whether a server answers our login on `postgresPort` (the running queue stack's). */
const postgresRunning = async (): Promise<boolean> => {
  const client = new pg.Client({ host: '127.0.0.1', port: postgresPort, ...LOGIN })
  try {
    await client.connect()
    await client.end()
    return true
  } catch (error) {
    if ((error as { code?: string }).code === 'ECONNREFUSED') return false
    throw new Error(
      `127.0.0.1:${String(postgresPort)} answers but not as the stack's Postgres: ${(error as Error).message}`,
    )
  }
}

/** `--backup` / `--restore`: n8n's CLI on the stack's database, n8n itself not started. */
const backupOrRestore = async (): Promise<void> => {
  const restoring = values.restore !== undefined
  const dir = resolve(values.restore ?? values.backup ?? '')
  const run = async (more: Readonly<Record<string, string>>) => {
    const env = n8nEnv(userFolder, await freePort(), await freePort(), more)
    await (restoring ? restoreDatabase(env, dir) : backupDatabase(env, dir))
    process.stderr.write(`${restoring ? 'restored from' : 'backed up to'} ${dir}\n`)
  }
  if (!values.queue) {
    if (!existsSync(join(userFolder, '.n8n/database.sqlite')))
      throw new Error(`no n8n database in ${userFolder} yet: start it once with npm run n8n`)
    return run({})
  }
  const key = { N8N_ENCRYPTION_KEY: ENCRYPTION_KEY }
  if (await postgresRunning()) {
    if (restoring) throw new Error('stop the stack first (Ctrl-C), then --restore')
    return run({ ...databaseEnv(postgresPort), ...key })
  }
  // The stack is stopped: its kept cluster, started alone for the while.
  if (!restoring && !existsSync(join(userFolder, 'postgres')))
    throw new Error(
      `no n8n database in ${userFolder} yet: start it once with npm run n8n -- --queue`,
    )
  const postgres = await startPostgres({
    dataDir: join(userFolder, 'postgres'),
    port: postgresPort,
  })
  try {
    await run({ ...postgres.n8nEnv, ...key })
  } finally {
    await postgres.stop()
  }
}

if (values.backup !== undefined || values.restore !== undefined) {
  try {
    await backupOrRestore()
    process.exit(0)
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  }
}

// -------------------------------------------------------------------------------------
// the stack
// -------------------------------------------------------------------------------------

if (values.fresh && existsSync(userFolder)) rmSync(userFolder, { recursive: true, force: true })

let stack: Stack | undefined
let queue: QueueStack | undefined
let stopping = false
const shutdown = async (code: number) => {
  if (stopping) return
  stopping = true
  process.stderr.write('\nstopping n8n and the sandbox ...\n')
  await stack?.stop()
  process.exit(code)
}
process.on('SIGINT', () => void shutdown(0))
process.on('SIGTERM', () => void shutdown(0))

try {
  const options = {
    userFolder,
    n8nPort: integerOption('port'),
    sandboxPort: integerOption('sandbox-port'),
    smtpPort: integerOption('smtp-port'),
    mailPort: integerOption('mail-port'),
    modelPort: integerOption('model-port'),
    publish: PUBLISHED_ON_START,
  }
  if (values.queue) {
    queue = await startQueueStack({ ...options, workers: integerOption('workers'), postgresPort })
    stack = queue
  } else stack = await startStack({ ...options, shopPostgresPort: postgresPort })
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  await shutdown(1)
}
if (stack !== undefined) console.log(banner(stack, userFolder, queue))
