/**
 * What `npm run n8n -- --queue` keeps and writes (tools/n8n/queue.ts, stack.ts, backup.ts),
 * with one worker (the least that has every kind of process):
 *
 * - each process's output (main, worker, webhook processor, sandbox, Postgres, Redis) in
 *   `<userFolder>/logs/<name>.log`;
 * - a credential edited through n8n's REST API is still edited after a restart (the stack
 *   imports its two credentials only when missing);
 * - n8n's database backed up while the stack runs (n8n's `export:entities`) and restored
 *   into a new database (`import:entities`): the same workflows and credentials, every
 *   execution there when the backup began and none made after it ended;
 * - the banner `npm run n8n` prints (banner.ts) names what a user needs to drive every
 *   template by hand, and the stack returns once n8n reports each workflow published;
 * - the commands of docs/n8n/try-it.md, run with a shell as the page gives them: an invoice
 *   added and linked, then paid by hand, starts both the example's Paykit Trigger workflow
 *   and template 3's for that order's event, with nobody touching anything else.
 */
import { execFile } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENCRYPTION_KEY, startQueueStack, type QueueStack } from '@paykit/tools/n8n/queue'
import { databaseEnv } from '@paykit/tools/n8n/postgres'
import { backupDatabase, restoreDatabase } from '@paykit/tools/n8n/backup'
import { freePort } from '@paykit/tools/lib/freePort'
import { ROOT } from '@paykit/tools/lib/root'
import { banner } from '@paykit/tools/n8n/banner'
import {
  n8nEnv,
  WEBHOOK_CONCURRENCY,
  WEBHOOK_SECRET,
  WORKFLOW_IDS,
  exampleWorkflows,
} from '@paykit/tools/n8n/stack'
import { executionRunData, executionsOfWorkflow } from './support.js'

const userFolder = mkdtempSync(join(tmpdir(), 'paykit-stack-test-'))
// Within the reach of the `postgres` user (as root): the cluster stays in it, removed with it.
chmodSync(userFolder, 0o755)
const lines: Array<string> = []
let stack: QueueStack | undefined

const start = () =>
  startQueueStack({
    userFolder,
    workers: 1,
    publish: [
      'order-paid-read-back.json',
      'payment-link-from-form.json',
      'invoices-to-payment-links.json',
      'mark-paid-send-receipt.json',
    ],
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

const idOf = (file: string): string => {
  const id = exampleWorkflows().find((w) => w.file === file)?.id
  if (id === undefined) throw new Error(`no workflow ${file}`)
  return id
}
const EXAMPLE = idOf('order-paid-read-back.json')
const RECEIPT = idOf('mark-paid-send-receipt.json')

/** The page's fenced `bash` lines, each a command as a user copies it. */
const tryItCommands = (): ReadonlyArray<string> =>
  [...readFileSync(join(ROOT, 'docs/n8n/try-it.md'), 'utf8').matchAll(/```bash\n([\s\S]*?)```/g)]
    .flatMap((m) => (m[1] ?? '').split('\n'))
    .filter((line) => line.trim() !== '')

/** The one command of the page that `matches`. */
const commandOf = (matches: RegExp): string => {
  const found = tryItCommands().filter((c) => matches.test(c))
  if (found.length !== 1)
    throw new Error(`try-it.md: ${found.length} commands match ${String(matches)}`)
  return found[0] as string
}

/**
 * Runs a command of the page with `sh -c` as it stands there, the page's default addresses
 * replaced by this stack's (its ports are free ones, not 5678, 4010 and 5433).
 */
const runAsGiven = (command: string): Promise<{ stdout: string; stderr: string }> => {
  const s = running()
  const local = command
    .replaceAll('http://127.0.0.1:4010', s.sandboxUrl)
    .replaceAll('http://127.0.0.1:5678/', s.editorUrl)
    .replaceAll('-p 5433', `-p ${String(s.shop.port)}`)
  return new Promise((resolve, reject) =>
    execFile('sh', ['-c', local], { timeout: 60_000 }, (error, stdout, stderr) =>
      error === null ? resolve({ stdout, stderr }) : reject(new Error(`${local}: ${stderr}`)),
    ),
  )
}

describe('npm run n8n -- --queue: the banner, and every template driven by hand', () => {
  it('returns once n8n reports each workflow published, and says so', async () => {
    const published = running().published.map((w) => w.id)
    expect(published).toEqual([
      WORKFLOW_IDS['order-paid-read-back.json'],
      WORKFLOW_IDS['payment-link-from-form.json'],
      idOf('invoices-to-payment-links.json'),
      RECEIPT,
    ])
    for (const id of published) {
      const status = (await running().rest(`/workflows/${id}/publication-status`)) as {
        data: { status: string }
      }
      expect(status.data.status, id).toBe('published')
      expect(lines).toContain(`workflow ${id}: published (n8n reports it published)`)
    }
    expect(lines.some((l) => l.includes('(n8n publishes in the background)'))).toBe(true)
    // The sandbox sends to every Paykit Trigger: the example's and template 3's.
    expect(running().triggerUrls).toHaveLength(2)
    expect(running().triggerUrls[0]).toBe(running().triggerUrl)
    const sandboxLine = lines.find((l) => l.startsWith('paykit-sandbox: '))
    for (const url of running().triggerUrls) expect(sandboxLine).toContain(url)
    expect(lines.find((l) => l.startsWith('shop tables: '))).toMatch(
      /invoices.*payment_events.*payment_link_claim/,
    )
  })

  it('prints the secret (local only), the hand commands, MailDev’s API, each executions page', () => {
    const s = running()
    const text = banner(s, userFolder, s)
    const line = (start: string) => text.split('\n').find((l) => l.trim().startsWith(start))
    expect(line('secret')).toBe(
      `  secret   ${WEBHOOK_SECRET} (the sandbox's webhook signing secret: local only, never a real one)`,
    )
    expect(text).toContain(`  curl -X POST ${s.sandboxUrl}/__sandbox/orders/<orderCode>/pay\n`)
    expect(text).toContain(`  curl -X POST ${s.sandboxUrl}/__sandbox/events/<eventId>/resend\n`)
    expect(line('mail API')).toBe(`  mail API curl ${s.mail.url}api/email`)
    expect(line('shop db')).toBe(
      `  shop db  PGPASSWORD=${s.shop.password} psql -h ${s.shop.host} -p ${String(s.shop.port)} -U ${s.shop.user} shop`,
    )
    expect(line('tables:')).toMatch(/^ +tables: .*invoices, payment_events, payment_link_claim$/)
    for (const w of s.published)
      expect(line(w.file)).toMatch(new RegExp(` {2}${s.editorUrl}workflow/${w.id}/executions$`))
    expect(text).toContain('n8n publishes in the background')
    expect(text).toContain(`rest/workflows/<id>/publication-status`)
    expect(text).toContain('Queue mode: Postgres on 127.0.0.1:')
  })

  it('try-it.md’s commands, run as given: a paid invoice runs the example and template 3 for its event', async () => {
    const s = running()
    // The page says how many of a trigger's events the sandbox keeps in flight.
    expect(readFileSync(join(ROOT, 'docs/n8n/try-it.md'), 'utf8').replace(/\s+/g, ' ')).toContain(
      `at most ${String(WEBHOOK_CONCURRENCY)} of its events are in flight at once`,
    )
    const before = async (id: string) =>
      new Set((await executionsOfWorkflow(s, id)).map((e) => e.id))
    const [exampleBefore, receiptBefore] = [await before(EXAMPLE), await before(RECEIPT)]
    await runAsGiven(commandOf(/INSERT INTO invoices/))
    await runAsGiven(commandOf(/webhook\/invoices-to-links$/))
    const db = s.shop.client()
    await db.connect()
    let orderCode: string | undefined
    try {
      for (let i = 0; i < 120 && orderCode === undefined; i++) {
        const row = await db.query<{ order_code: string | null }>(
          "SELECT order_code FROM invoices WHERE invoice_number = 'INV-1'",
        )
        orderCode = row.rows[0]?.order_code ?? undefined
        if (orderCode === undefined) await new Promise((r) => setTimeout(r, 500))
      }
    } finally {
      await db.end()
    }
    expect(orderCode, 'template 2 linked INV-1').toMatch(/\S/)
    // The page's own command for it, the order code in place of <orderCode>.
    const pay = commandOf(/__sandbox\/orders\/<orderCode>\/pay$/)
    expect(pay).toBe('curl -X POST http://127.0.0.1:4010/__sandbox/orders/<orderCode>/pay')
    const paid = await runAsGiven(pay.replace('<orderCode>', orderCode ?? ''))
    expect(JSON.parse(paid.stdout)).toEqual({ ok: true })

    /** The new execution of `workflowId` that ran for this order's event, once it has ended. */
    const ranFor = async (workflowId: string, seen: Set<string>) => {
      for (let i = 0; i < 240; i++) {
        for (const e of await executionsOfWorkflow(s, workflowId)) {
          if (seen.has(e.id) || ['new', 'running', 'waiting'].includes(e.status)) continue
          const run = await s.rest(`/executions/${e.id}`)
          if (JSON.stringify(run).includes(orderCode ?? '')) return e
        }
        await new Promise((r) => setTimeout(r, 500))
      }
      throw new Error(`no execution of ${workflowId} for ${String(orderCode)}`)
    }
    const [example, receipt] = await Promise.all([
      ranFor(EXAMPLE, exampleBefore),
      ranFor(RECEIPT, receiptBefore),
    ])
    expect([example.status, receipt.status]).toEqual(['success', 'success'])
    expect((await executionRunData(s, receipt.id)).error).toBeUndefined()
  }, 180_000)
})

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
      const lastBefore = Math.max(0, ...(await rowsOf('n8n')).executions.map(Number))
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
      // The form's execution (the first after those before the request) has ended.
      let carried: string | undefined
      for (let i = 0; i < 120 && carried === undefined; i++) {
        const ended = await db.query<{ id: string }>(
          "SELECT id::text FROM execution_entity WHERE id > $1 AND status NOT IN ('new', 'running', 'waiting') ORDER BY id LIMIT 1",
          [lastBefore],
        )
        carried = ended.rows[0]?.id
        if (carried === undefined) await new Promise((r) => setTimeout(r, 500))
      }
      await db.end()
      expect(carried, 'the form workflow ran').toBeDefined()

      // n8n keeps running, and an order event may start an execution meanwhile: the backup
      // holds every row there when it began, and none made after it ended.
      const atStart = await rowsOf('n8n')
      await backupDatabase(await env('n8n'), backup)
      const atEnd = await rowsOf('n8n')
      expect(existsSync(join(backup, 'entities.zip'))).toBe(true)

      const admin = running().postgres.client()
      await admin.connect()
      await admin.query('CREATE DATABASE n8n_restored')
      await admin.end()
      await restoreDatabase(await env('n8n_restored'), backup)

      const restored = await rowsOf('n8n_restored')
      expect(atStart.workflows.length).toBeGreaterThanOrEqual(4) // the examples
      expect(atStart.credentials.map((c) => c.id)).toEqual(
        expect.arrayContaining(['paykit-sandbox', 'paykit-webhook']),
      )
      expect(restored.workflows).toEqual(atStart.workflows)
      expect(restored.credentials).toEqual(atStart.credentials)
      expect(restored.executions).toContain(carried)
      expect(restored.executions).toEqual(expect.arrayContaining(atStart.executions))
      expect(atEnd.executions).toEqual(expect.arrayContaining(restored.executions))
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
