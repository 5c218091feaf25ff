/**
 * n8n's queue mode around the stack of `npm run n8n` (stack.ts): a real Postgres
 * (postgres.ts) and Redis (redis.ts) on 127.0.0.1, the main process, N `n8n worker`
 * processes taking the executions from Redis, and one `n8n webhook` processor serving
 * production webhooks on its own port. Used by `npm run n8n -- --queue [--workers N]` and
 * packages/n8n-nodes/test/real-n8n/queue.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { freePort } from '@paykit/tools/lib/freePort'
import { startPostgres, type Postgres } from '@paykit/tools/n8n/postgres'
import { startRedis, type Redis } from '@paykit/tools/n8n/redis'
import {
  openLogFile,
  startStack,
  type N8nProcess,
  type Stack,
  type StackOptions,
} from '@paykit/tools/n8n/stack'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

export interface QueueStackOptions extends Omit<StackOptions, 'env' | 'firstStart' | 'beside'> {
  /** `n8n worker` processes (default 2). */
  readonly workers?: number
  /** Executions each worker runs at once (`--concurrency`, default 5). */
  readonly concurrency?: number
  /** Postgres's port (default a free one). */
  readonly postgresPort?: number
}

export interface QueueStack extends Stack {
  readonly postgres: Postgres
  readonly redis: Redis
  /** The `n8n worker` processes, `worker-1` ... */
  readonly workers: ReadonlyArray<N8nProcess>
  /** The `n8n webhook` processor (production webhooks only, on its own port). */
  readonly webhook: N8nProcess
}

/** A fixed key: every process of the stack decrypts the credentials the others wrote. */
export const ENCRYPTION_KEY = 'paykit-n8n-queue-mode-local-key'

/**
 * Connections in each n8n process's Postgres pool (`DB_POSTGRESDB_POOL_SIZE`; n8n's default,
 * 2, made main's requests wait on two connections in a burst of order events): main, the
 * webhook processor and four workers take 60 of Postgres's 100, beside the shop's pools.
 */
export const POOL_SIZE = 10

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Starts Postgres and Redis, then the stack of `startStack` in queue mode with its workers
 * and webhook processor. Its `stop` stops the n8n processes first, then Redis and Postgres.
 * Postgres keeps its data in `<userFolder>/postgres`; its output and Redis's go to
 * `<userFolder>/logs/postgres.log` and `redis.log`.
 */
export const startQueueStack = async (options: QueueStackOptions = {}): Promise<QueueStack> => {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const workers = options.workers ?? 2
  const concurrency = options.concurrency ?? 5
  const temporary = options.userFolder === undefined
  const userFolder = options.userFolder ?? mkdtempSync(join(tmpdir(), 'paykit-n8n-queue-'))
  let postgres: Postgres | undefined
  let redis: Redis | undefined
  const logs = [
    openLogFile(join(userFolder, 'logs'), 'postgres'),
    openLogFile(join(userFolder, 'logs'), 'redis'),
  ] as const
  const stopServers = async () => {
    await redis?.stop()
    await postgres?.stop()
    await Promise.all(logs.map((l) => l.close()))
  }
  try {
    const started = Date.now()
    ;[postgres, redis] = await Promise.all([
      startPostgres({
        dataDir: join(userFolder, 'postgres'),
        port: options.postgresPort ?? (await freePort()),
        log: logs[0].write,
      }),
      startRedis({ port: await freePort(), log: logs[1].write }),
    ])
    log(
      `postgres ${String(postgres.port)} (${postgres.created ? 'new' : 'kept'} in ${postgres.dataDir}), redis ${String(redis.port)}: ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    )
    const stack = await startStack({
      ...options,
      userFolder,
      firstStart: postgres.created,
      env: {
        ...postgres.n8nEnv,
        ...redis.n8nEnv,
        EXECUTIONS_MODE: 'queue',
        DB_POSTGRESDB_POOL_SIZE: String(POOL_SIZE),
        N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
        OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
        N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
      },
      beside: [
        ...Array.from({ length: workers }, (_, i) => ({
          name: `worker-${String(i + 1)}`,
          args: ['worker', `--concurrency=${String(concurrency)}`],
          ready: 'n8n worker is now ready',
        })),
        { name: 'webhook', args: ['webhook'], ready: 'Webhook listener waiting for requests' },
      ],
    })
    const byName = (name: string) => stack.processes.find((p) => p.name === name) as N8nProcess
    // As root with a 0700 userFolder the cluster is in the system's temp: removed with it.
    const clusterOutside =
      dirname(postgres.dataDir) !== userFolder ? dirname(postgres.dataDir) : undefined
    return {
      ...stack,
      postgres,
      redis,
      workers: stack.processes.filter((p) => p.name.startsWith('worker-')),
      webhook: byName('webhook'),
      stop: async () => {
        await stack.stop()
        await stopServers()
        if (temporary)
          for (const dir of [userFolder, clusterOutside])
            if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    await stopServers()
    throw error
  }
}
