/**
 * Card data in n8n's Postgres in QUEUE MODE (tools/n8n/queue.ts: Postgres 18, Redis, the
 * main process, two workers, a webhook processor), searched by pgScan.ts everywhere Postgres
 * keeps it: every table through SQL (n8n's execution data decoded), the data folder's files
 * and the WAL, pglz-compressed values and TOAST values decompressed.
 *
 * 1. the supported way: the card fetched inside the workflow from a card vault (Webhook
 *    with a card reference → HTTP Request → Paykit Payment Method → Create → Charge →
 *    Create), run by the workers: nothing found anywhere;
 * 2. the control, on the same database with the same scan: the card posted in the Webhook
 *    request's body. n8n writes the trigger's data into the execution row before any node
 *    runs; the node removes the card from what n8n keeps, so SQL finds nothing, but the WAL
 *    keeps the first row, compressed: found there decompressed, missed by a grep;
 * 3. what cleans up: after VACUUM (and VACUUM FULL) of n8n's execution data the data files
 *    hold no card; the WAL still does.
 *
 * The counts per place are printed ("postgres card data:" lines) for the README.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testCards } from '@paykit/testkit'
import { startQueueStack, type QueueStack } from '@paykit/tools/n8n/queue'
import { paykitNode, postJson, publishWorkflow } from '@paykit/tools/n8n/batch'
import { parseFlatted } from './support.js'
import { hitsPerPlace, scanCluster, type Card, type Decode, type ScanReport } from './pgScan.js'

const card: Card = {
  number: testCards.success.number,
  cvv: '7391',
  expirationMonth: '11',
  expirationYear: String(new Date().getUTCFullYear() + 3),
}

let stack: QueueStack
let userFolder = ''
let vault: Server | undefined
let vaultUrl = ''
/** Execution id -> the worker whose log says it started it. */
const startedBy = new Map<string, string>()

const report = (line: string) => process.stderr.write(`postgres card data: ${line}\n`)

// -------------------------------------------------------------------------------------
// workflows
// -------------------------------------------------------------------------------------

/**
 * Webhook `POST /webhook/<path>` `{ orderId, amount, ... }` → (the vault's card, with
 * `fromVault`) → Save Card → Charge, answering with the charge.
 */
const cardWorkflow = (path: string, fromVault: boolean) => {
  const at = (field: string) => (fromVault ? `card.${field}` : `body.card.${field}`)
  const checkout = (field: string) => `={{ $('Checkout').item.json.body.${field} }}`
  const nodes = [
    {
      id: `${path}-hook`,
      name: 'Checkout',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2.1,
      position: [0, 0],
      webhookId: crypto.randomUUID(),
      parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', options: {} },
    },
    ...(fromVault
      ? [
          {
            id: `${path}-vault`,
            name: 'Card Vault',
            type: 'n8n-nodes-base.httpRequest',
            typeVersion: 4.2,
            position: [240, 0],
            parameters: { url: `={{ '${vaultUrl}/cards/' + $json.body.cardRef }}`, options: {} },
          },
        ]
      : []),
    paykitNode('Save Card', 0, {
      resource: 'paymentMethod',
      operation: 'create',
      cardNumberField: at('number'),
      expirationMonthField: at('expirationMonth'),
      expirationYearField: at('expirationYear'),
      cvvField: at('cvv'),
      additionalFields: {},
    }),
    paykitNode('Charge', 0, {
      resource: 'charge',
      operation: 'create',
      orderId: checkout('orderId'),
      amount: checkout('amount'),
      cardId: '={{ $json.id }}',
      additionalFields: {},
      chargeOutputs: 'single',
    }),
  ]
  const names = nodes.map((n) => String(n.name))
  return {
    name: `Card data in Postgres: ${path}`,
    nodes: nodes.map((n, i) => ({ ...n, position: [240 * i, 0] })),
    connections: Object.fromEntries(
      names
        .slice(1)
        .map((next, i) => [names[i], { main: [[{ node: next, type: 'main', index: 0 }]] }]),
    ),
    settings: { executionOrder: 'v1' },
  }
}

/** A card vault: `GET /cards/<ref>` gives the test card. */
const startVault = async (): Promise<{ url: string; server: Server }> => {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ card }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`, server }
}

// -------------------------------------------------------------------------------------
// what n8n did, and the scan
// -------------------------------------------------------------------------------------

/** Waits until `count` executions of the workflow have ended; gives their ids and statuses. */
const ended = async (workflowId: string, count: number) => {
  const db = stack.postgres.client()
  await db.connect()
  try {
    for (let i = 0; ; i++) {
      const rows = await db.query<{ id: number; status: string }>(
        'SELECT id, status FROM execution_entity WHERE "workflowId" = $1 ORDER BY id',
        [workflowId],
      )
      const done = rows.rows.filter((r) => !['new', 'running', 'waiting'].includes(r.status))
      if (done.length >= count || i === 240) return done.map((r) => ({ ...r, id: String(r.id) }))
      await new Promise((r) => setTimeout(r, 500))
    }
  } finally {
    await db.end()
  }
}

/** n8n's execution data (flatted) as JSON; other texts are not decoded. */
const decodeExecutionData: Decode = (text) => {
  if (!text.startsWith('[')) return undefined
  try {
    return JSON.stringify(parseFlatted(text))
  } catch {
    return undefined
  }
}

const scan = async (): Promise<ScanReport> => {
  const db = stack.postgres.client()
  await db.connect()
  try {
    return await scanCluster(db, card, decodeExecutionData)
  } finally {
    await db.end()
  }
}

/** One line per place: what was read, and the number, CVV and expiry-with-number hits. */
const reportScan = (label: string, scanned: ScanReport) => {
  const hits = hitsPerPlace(scanned)
  for (const [place, h] of Object.entries(hits))
    report(
      `${label}: ${place} (${String(scanned.read[place as keyof typeof hits])} read): number ${String(h.number)}, CVV ${String(h.cvv)}, expiry with number ${String(h.expiryWithNumber)}`,
    )
  for (const f of scanned.findings.slice(0, 20))
    report(`${label}: found in ${f.place}: ${f.where} ${JSON.stringify(f.hits)}`)
}

const hookUrl = (i: number, path: string) =>
  `${i % 2 === 0 ? stack.editorUrl : stack.webhook.url}webhook/${path}`

// -------------------------------------------------------------------------------------
// the stack
// -------------------------------------------------------------------------------------

beforeAll(async () => {
  const started = await startVault()
  vault = started.server
  vaultUrl = started.url
  // As root, Postgres runs as `postgres`: a folder it can reach keeps the cluster inside
  // this one (postgres.ts puts it elsewhere in the temp folder otherwise, left behind).
  userFolder = mkdtempSync(join(tmpdir(), 'paykit-n8n-pg-card-'))
  chmodSync(userFolder, 0o755)
  stack = await startQueueStack({
    userFolder,
    workers: 2,
    log: (line) => report(line),
    n8nLog: (line, from) => {
      const execution = /Worker started execution (\d+)/.exec(line)
      if (execution?.[1] !== undefined) startedBy.set(execution[1], from)
    },
  })
}, 45 * 60_000) // installs n8n first on a machine without it

afterAll(async () => {
  await stack?.stop()
  vault?.close()
  if (userFolder !== '') rmSync(userFolder, { recursive: true, force: true })
}, 120_000)

// -------------------------------------------------------------------------------------
// tests
// -------------------------------------------------------------------------------------

describe('card data in n8n’s Postgres, queue mode (2 workers, a webhook processor)', () => {
  it('fetched from a vault inside the workflow: found nowhere; posted to a Webhook: found in the WAL, decompressed, and after VACUUM FULL in the WAL only', async () => {
    const urls = [stack.editorUrl, stack.webhook.url]
    const publish = (workflow: Record<string, unknown>) => publishWorkflow(stack, workflow, urls)
    const vaulted = await publish(cardWorkflow('paykit-pg-vault', true))
    const posted = await publish(cardWorkflow('paykit-pg-posted', false))

    // 1. The supported way: four charges, half posted to the main process, half to the
    // webhook processor, run by the workers.
    const charges = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        postJson(hookUrl(i, 'paykit-pg-vault'), {
          cardRef: `card-${String(i)}`,
          orderId: `pg-vault-${String(i)}`,
          amount: 20 + i,
        }),
      ),
    )
    expect(charges.map((c) => c.status)).toEqual([200, 200, 200, 200])
    expect(charges.map((c) => (c.json as { status?: string }).status)).toEqual(
      charges.map(() => 'SUCCEEDED'),
    )
    const runs = await ended(vaulted, 4)
    expect(runs.map((r) => r.status)).toEqual(['success', 'success', 'success', 'success'])
    expect(runs.every((r) => startedBy.get(r.id)?.startsWith('worker-'))).toBe(true)

    const supported = await scan()
    reportScan('card from a vault', supported)
    expect(supported.read['WAL records']).toBeGreaterThan(1000)
    expect(supported.read['WAL, decompressed']).toBeGreaterThan(0)
    expect(supported.findings).toEqual([])

    // 2. The control: the same card posted in the Webhook request's body.
    const postedCharges = await Promise.all(
      [1, 2].map((i) =>
        postJson(hookUrl(i, 'paykit-pg-posted'), {
          orderId: `pg-posted-${String(i)}`,
          amount: 30 + i,
          card,
        }),
      ),
    )
    expect(postedCharges.map((c) => (c.json as { status?: string }).status)).toEqual([
      'SUCCEEDED',
      'SUCCEEDED',
    ])
    const postedRuns = await ended(posted, 2)
    expect(postedRuns.map((r) => r.status)).toEqual(['success', 'success'])

    const control = await scan()
    reportScan('card posted to the Webhook', control)
    const hits = hitsPerPlace(control)
    // What n8n keeps (the rows SQL reads) holds none: the node removed the card.
    expect(hits['tables']).toEqual({ number: 0, cvv: 0, expiryWithNumber: 0 })
    // The first version of each execution's row, in the WAL, compressed.
    expect(hits['WAL, decompressed'].number).toBeGreaterThanOrEqual(2)
    expect(hits['WAL, decompressed'].cvv).toBeGreaterThanOrEqual(2)
    expect(hits['WAL, decompressed'].expiryWithNumber).toBeGreaterThanOrEqual(2)

    // 3. What cleans up: VACUUM removes the dead row versions (reported: 0 left in the files
    // in the runs seen), VACUUM FULL writes the table anew. Neither touches the WAL written.
    const vacuum = async (command: string) => {
      const db = stack.postgres.client()
      await db.connect()
      try {
        await db.query(command)
      } finally {
        await db.end()
      }
    }
    await vacuum('VACUUM execution_data')
    const vacuumed = hitsPerPlace(await scan())
    report(
      `after VACUUM: data files, decompressed: number ${String(vacuumed['data files, decompressed'].number)}; WAL, decompressed: number ${String(vacuumed['WAL, decompressed'].number)}`,
    )
    await vacuum('VACUUM FULL execution_data')
    const rewritten = await scan()
    reportScan('after VACUUM FULL execution_data', rewritten)
    const after = hitsPerPlace(rewritten)
    expect(after['tables'].number + after['data files, decompressed'].number).toBe(0)
    expect(after['data files, raw'].number).toBe(0)
    expect(after['WAL, decompressed'].number).toBeGreaterThanOrEqual(2)
  }, 600_000)
})
