/**
 * A real Redis server on 127.0.0.1 for n8n's queue mode (its Bull queue and pub/sub):
 * Debian's `redis-server` (scripts/run.sh installs it with apt when missing), nothing saved
 * to disk (the queue's jobs are also in Postgres as executions).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createInterface } from 'node:readline'

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
      new Error(`${REDIS_SERVER} is missing: apt-get install redis-server (scripts/run.sh does)`),
    )
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(options.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  )
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill('SIGTERM')
    await exited
  }
  return new Promise((resolve, reject) => {
    const lines: Array<string> = []
    child.once('error', reject)
    child.once('exit', (code) =>
      reject(new Error(`redis-server exited (${String(code)}):\n${lines.join('\n')}`)),
    )
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on('line', (line) => {
        lines.push(line)
        options.log?.(line)
        if (line.includes('Ready to accept connections'))
          resolve({
            port: options.port,
            child,
            n8nEnv: {
              QUEUE_BULL_REDIS_HOST: '127.0.0.1',
              QUEUE_BULL_REDIS_PORT: String(options.port),
            },
            stop,
          })
      })
  })
}
