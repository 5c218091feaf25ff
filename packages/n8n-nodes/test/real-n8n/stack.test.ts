/**
 * What `npm run n8n -- --queue` keeps and writes (tools/n8n/queue.ts, stack.ts, backup.ts),
 * with one worker (the least that has every kind of process):
 *
 * - each process's output (main, worker, webhook processor, sandbox, Postgres, Redis) in
 *   `<userFolder>/logs/<name>.log`;
 * - a credential edited through n8n's REST API is still edited after a restart (the stack
 *   imports its two credentials only when missing);
 * - n8n's database backed up while the stack runs (n8n's `export:entities`) and restored
 *   into a new database (`import:entities`): the same workflows, credentials and executions.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENCRYPTION_KEY, startQueueStack, type QueueStack } from '@paykit/tools/n8n/queue'
import { databaseEnv } from '@paykit/tools/n8n/postgres'
import { backupDatabase, restoreDatabase } from '@paykit/tools/n8n/backup'
import { freePort } from '@paykit/tools/lib/freePort'
import { n8nEnv } from '@paykit/tools/n8n/stack'

const userFolder = mkdtempSync(join(tmpdir(), 'paykit-stack-test-'))
// Within the reach of the `postgres` user (as root): the cluster stays in it, removed with it.
chmodSync(userFolder, 0o755)
const lines: Array<string> = []
let stack: QueueStack | undefined

const start = () =>
  startQueueStack({
    userFolder,
    workers: 1,
    publish: ['order-paid-read-back.json', 'payment-link-from-form.json'],
    log: (line) => {
      lines.push(line)
      process.stderr.write(`stack: ${line}\n`)
    },
  })

beforeAll(async () => {
  stack = await start()
}, 45 * 60_000) // installs n8n first on a machine without it

afterAll(async () => {
  await stack?.stop()
  rmSync(userFolder, { recursive: true, force: true })
}, 120_000)

const running = (): QueueStack => {
  if (stack === undefined) throw new Error('the stack is not running')
  return stack
}

interface Credential {
  readonly name: string
  readonly type: string
  readonly data: Record<string, unknown>
}

const credential = async (id: string): Promise<Credential> =>
  ((await running().rest(`/credentials/${id}?includeData=true`)) as { data: Credential }).data

/** The rows of n8n's tables that a backup must carry, from `database`. */
const rowsOf = async (database: string) => {
  const db = running().postgres.client(database)
  await db.connect()
  try {
    const ids = async (table: string) =>
      (await db.query<{ id: string }>(`SELECT id::text FROM ${table} ORDER BY id`)).rows.map(
        (r) => r.id,
      )
    const credentials = await db.query<{ id: string; data: string }>(
      'SELECT id, data FROM credentials_entity ORDER BY id',
    )
    return {
      workflows: await ids('workflow_entity'),
      executions: await ids('execution_entity'),
      credentials: credentials.rows,
    }
  } finally {
    await db.end()
  }
}

describe('npm run n8n -- --queue: logs, kept credentials, backups', () => {
  it('writes each process’s output to <userFolder>/logs/<name>.log', () => {
    const logs = running().logsDir
    expect(logs).toBe(join(userFolder, 'logs'))
    const expected: Record<string, string> = {
      main: 'Editor is now accessible via',
      'worker-1': 'n8n worker is now ready',
      webhook: 'Webhook listener waiting for requests',
      sandbox: `listening on ${running().sandboxUrl}`,
      postgres: 'database system is ready to accept connections',
      redis: 'Ready to accept connections',
    }
    for (const [name, line] of Object.entries(expected)) {
      const file = join(logs, `${name}.log`)
      expect(existsSync(file), file).toBe(true)
      expect(readFileSync(file, 'utf8'), file).toContain(line)
    }
    expect(lines.some((l) => l.startsWith(`logs: ${logs}/<name>.log`))).toBe(true)
  })

  it('backs up n8n’s database while it runs and restores it into a new database', async () => {
    const backup = mkdtempSync(join(tmpdir(), 'paykit-backup-'))
    try {
      const key = { N8N_ENCRYPTION_KEY: ENCRYPTION_KEY }
      const env = async (database: string) =>
        n8nEnv(userFolder, await freePort(), await freePort(), {
          ...databaseEnv(running().postgres.port, database),
          ...key,
        })
      // An execution to carry: the published form workflow, run by the worker.
      // n8n registers a published workflow's webhook a moment after answering: 404 until then.
      let posted: Response | undefined
      for (let i = 0; i < 60 && (posted === undefined || posted.status === 404); i++) {
        if (posted !== undefined) await new Promise((r) => setTimeout(r, 500))
        posted = await fetch(`${running().editorUrl}webhook/paykit-order`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ amount: 30 }),
        })
      }
      expect(posted?.status).toBe(200)
      const db = running().postgres.client()
      await db.connect()
      for (let i = 0; i < 120; i++) {
        const ended = await db.query(
          "SELECT id FROM execution_entity WHERE status NOT IN ('new', 'running', 'waiting')",
        )
        if (ended.rowCount !== 0) break
        await new Promise((r) => setTimeout(r, 500))
      }
      await db.end()

      await backupDatabase(await env('n8n'), backup)
      expect(existsSync(join(backup, 'entities.zip'))).toBe(true)

      const admin = running().postgres.client()
      await admin.connect()
      await admin.query('CREATE DATABASE n8n_restored')
      await admin.end()
      await restoreDatabase(await env('n8n_restored'), backup)

      const [original, restored] = [await rowsOf('n8n'), await rowsOf('n8n_restored')]
      expect(original.workflows.length).toBeGreaterThanOrEqual(4) // the examples
      expect(original.executions.length).toBeGreaterThanOrEqual(1)
      expect(original.credentials.map((c) => c.id)).toEqual(
        expect.arrayContaining(['paykit-sandbox', 'paykit-webhook']),
      )
      expect(restored).toEqual(original)
    } finally {
      rmSync(backup, { recursive: true, force: true })
    }
  }, 240_000)

  it('keeps a credential edited in n8n across a restart (imported only when missing)', async () => {
    const before = await credential('paykit-sandbox')
    expect(before.data.clientId).toBe('sandbox-client')
    await running().rest('/credentials/paykit-sandbox', {
      method: 'PATCH',
      body: JSON.stringify({
        name: 'Paykit sandbox (edited)',
        type: before.type,
        data: { ...before.data, clientId: 'edited-client' },
      }),
    })
    await running().stop()
    stack = undefined
    lines.length = 0
    stack = await start()

    const after = await credential('paykit-sandbox')
    expect(after.name).toBe('Paykit sandbox (edited)')
    expect(after.data.clientId).toBe('edited-client')
    // Every credential the stack sets up was there: none imported again.
    const said = lines.filter((l) => l.startsWith('credentials: '))
    expect(said).toHaveLength(1)
    expect(said[0]).toContain(
      'Paykit sandbox (paykit-sandbox), Paykit webhook secret (paykit-webhook)',
    )
    expect(said[0]).toMatch(/ kept as they are$/)
    // The sandbox's port changed with the restart: said, the credential left as edited.
    expect(lines).toContain(
      `credential Paykit sandbox: its Base URL is ${before.data.baseUrl as string}, the sandbox is at ${running().sandboxUrl} (edit the credential, or start with --fresh)`,
    )
  }, 300_000)
})
