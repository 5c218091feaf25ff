/**
 * A real Redis server on 127.0.0.1 for n8n's queue mode (its Bull queue and pub/sub):
 * Debian's `redis-server` (tools/run.sh installs it with apt when missing), nothing saved
 * to disk (the queue's jobs are also in Postgres as executions).
 */
import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { startReadyServer } from '@paykit/tools/n8n/readyServer'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

export const REDIS_SERVER = '/usr/bin/redis-server'

export interface Redis {
  readonly port: number
  readonly child: ChildProcess
  /** n8n's settings for this Redis (`QUEUE_BULL_REDIS_*`). */
  readonly n8nEnv: Readonly<Record<string, string>>
  readonly stop: () => Promise<void>
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** Starts `redis-server` on `port`; resolves once it accepts connections. */
export const startRedis = (options: {
  readonly port: number
  readonly log?: (line: string) => void
}): Promise<Redis> => {
  if (!existsSync(REDIS_SERVER))
    return Promise.reject(
      new Error(`${REDIS_SERVER} is missing: apt-get install redis-server (tools/run.sh does)`),
    )
  const { child, ready, stop } = startReadyServer({
    name: 'redis-server',
    command: REDIS_SERVER,
    args: [
      '--port',
      String(options.port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    readyLine: 'Ready to accept connections',
    stopSignal: 'SIGTERM',
    log: options.log,
  })
  return ready.then(() => ({
    port: options.port,
    child,
    n8nEnv: {
      QUEUE_BULL_REDIS_HOST: '127.0.0.1',
      QUEUE_BULL_REDIS_PORT: String(options.port),
    },
    stop,
  }))
}
