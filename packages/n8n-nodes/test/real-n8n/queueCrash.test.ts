/**
 * A queue-mode worker SIGKILLed while link requests are in flight, three rounds on one
 * stack of four workers (tools/n8n/queue.ts): each round posts 300 orders in 6 batches of
 * 50 (half to the main process, half to the webhook processor) to two workflows at once,
 * with 150 ms of latency on `POST /paymentlink/checkout`, kills the worker running the most
 * of them once 40 % of the round's links are through, then posts the same batches again.
 *
 * - the node's One Link per Order Reference (n8n's de-duplication store): how many orders
 *   get a second link, against the stated bound: at most 2 x Concurrency x the worker's
 *   concurrency per kill (the dying worker's records not yet checked, dropped by another
 *   worker's write of n8n's unlocked row, with no process left to record them again), and
 *   no more than the link requests of the second before the kill;
 * - examples/orders-to-links-claimed-in-postgres.json (a claim in the user's own Postgres,
 *   `INSERT ... ON CONFLICT DO NOTHING`, before the request): no order ever gets a second
 *   link; each order is linked once or left claimed without a link (in doubt: the killed
 *   worker's), never lost without a trace.
 *
 * The figures are printed ("crash:" lines) for the README's guarantee table.
 */
import { readFileSync } from 'node:fs'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LoggedRequest } from '@paykit/testkit/service'
import { startQueueStack, type QueueStack } from '@paykit/tools/n8n/queue'
import {
  batchOrders,
  batchWorkflow,
  createLinkNode,
  postJson,
  publishWorkflow,
  type BatchOrder,
} from '@paykit/tools/n8n/batch'
import { clearFaults, linkLatency, sandboxRequests as sandboxRequestsOf } from './support.js'

const WORKERS = 4
const ROUNDS = WORKERS - 1 // each round kills one worker and leaves at least one
const BATCHES = 6
const PER_BATCH = 50
const LATENCY_MS = 150
const WORKER_CONCURRENCY = 5
/** The Paykit node's Concurrency option, by default (`DEFAULT_CONCURRENCY`). */
const NODE_CONCURRENCY = 8
/**
 * The stated bound per worker killed: the records it had not yet checked, those of its
 * requests in flight and of those it finished since its last store call, in each of the
 * executions it was running.
 */
const PER_KILL = 2 * NODE_CONCURRENCY * WORKER_CONCURRENCY
const CLAIM_EXAMPLE = 'orders-to-links-claimed-in-postgres.json'

let stack: QueueStack
let shop: pg.Client
/** Execution id -> the worker whose log says it started it. */
const startedBy = new Map<string, string>()
const killed = new Set<string>()

const report = (line: string) => process.stderr.write(`crash: ${line}\n`)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const sandboxRequests = () => sandboxRequestsOf(stack)
const linkCreates = (log: ReadonlyArray<LoggedRequest>) =>
  log.filter((r) => r.method === 'POST' && r.path === '/paymentlink/checkout')
const referenceOf = (r: LoggedRequest) =>
  String((JSON.parse(r.body) as { orderReference?: unknown }).orderReference)

/** Main and webhook processor in turn: the production URL of `path` on each. */
const hookUrl = (i: number, path: string) =>
  `${i % 2 === 0 ? stack.editorUrl : stack.webhook.url}webhook/${path}`

interface ExecutionRow {
  readonly id: string
  readonly workflowId: string
  readonly status: string
}

const executions = async (): Promise<ReadonlyArray<ExecutionRow>> => {
  const db = stack.postgres.client()
  await db.connect()
  try {
    const rows = await db.query<{ id: number; workflowId: string; status: string }>(
      'SELECT id, "workflowId", status FROM execution_entity ORDER BY id',
    )
    return rows.rows.map((r) => ({ id: String(r.id), workflowId: r.workflowId, status: r.status }))
  } finally {
    await db.end()
  }
}

/** When each execution was first seen not started by any worker. */
const unstartedSince = new Map<string, number>()
/** A job the killed worker took before it logged the start stays unstarted: given up after this. */
const UNSTARTED_MS = 60_000

/**
 * Waits until `count` executions after `after` exist and every one has ended, but those of
 * the killed workers (left running by n8n) and those no worker started within
 * `UNSTARTED_MS` (taken by a worker that died before it logged them).
 */
const settled = async (after: number, count: number, timeoutMs = 180_000) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const rows = (await executions()).filter((r) => Number(r.id) > after)
    const open = rows.filter((r) => {
      if (!['new', 'running', 'waiting'].includes(r.status)) return false
      const worker = startedBy.get(r.id)
      if (worker !== undefined) return !killed.has(worker)
      const since = unstartedSince.get(r.id) ?? Date.now()
      unstartedSince.set(r.id, since)
      return Date.now() - since < UNSTARTED_MS
    })
    if (rows.length >= count && open.length === 0) return rows
    if (Date.now() > deadline)
      throw new Error(`executions not settled: ${JSON.stringify(rows)} (${String(count)} wanted)`)
    await sleep(500)
  }
}

// -------------------------------------------------------------------------------------
// the stack
// -------------------------------------------------------------------------------------

beforeAll(async () => {
  const booted = Date.now()
  stack = await startQueueStack({
    workers: WORKERS,
    concurrency: WORKER_CONCURRENCY,
    sandboxArgs: ['--request-log-size', '100000'],
    log: (line) => report(line),
    n8nLog: (line, from) => {
      const started = /Worker started execution (\d+)/.exec(line)
      if (started?.[1] !== undefined) startedBy.set(started[1], from)
    },
  })
  report(`stack ready in ${((Date.now() - booted) / 1000).toFixed(1)} s`)

  // The shop's own database (the stack's `shop`, with the credential `shop-postgres` the example
  // names), where the stack created the example's claim table from its note.
  shop = stack.shop.client()
  await shop.connect()
  const claimTable = await shop.query<{ t: string | null }>(
    "SELECT to_regclass('payment_link_claim')::text AS t",
  )
  expect(claimTable.rows[0]?.t).toBe('payment_link_claim')

  const example = JSON.parse(
    readFileSync(new URL(`../../examples/${CLAIM_EXAMPLE}`, import.meta.url), 'utf8'),
  ) as Record<string, unknown>
  const urls = [stack.editorUrl, stack.webhook.url]
  await publishWorkflow(stack, example, urls)
  await publishWorkflow(
    stack,
    batchWorkflow('crash-store', 'onReceived', [
      createLinkNode(0, 'Links Once', { oneLinkPerReference: true }),
    ]),
    urls,
  )
}, 45 * 60_000)

afterAll(async () => {
  await shop?.end()
  await stack?.stop()
}, 120_000)

// -------------------------------------------------------------------------------------
// the rounds
// -------------------------------------------------------------------------------------

interface Round {
  readonly store: { readonly twice: number; readonly lastSecond: number }
  readonly claim: { readonly twice: number; readonly linked: number; readonly inDoubt: number }
  readonly victim: string
  readonly atKill: number
}

const rounds: Array<Round> = []

/** One round: the batches to both workflows, a worker killed mid-links, the same again. */
const crashRound = async (r: number): Promise<Round> => {
  const batches = Array.from({ length: BATCHES }, (_, b) =>
    batchOrders(`R${String(r)}B${String(b + 1)}`, PER_BATCH),
  )
  const as = (suffix: string, batch: ReadonlyArray<BatchOrder>) =>
    batch.map((o) => ({ ...o, orderReference: `${o.orderReference}-${suffix}` }))
  const post = async () => {
    const answers = await Promise.all(
      batches.flatMap((batch, b) => [
        postJson(hookUrl(b, 'crash-store'), { orders: as('store', batch) }),
        postJson(hookUrl(b, 'orders-to-links-once'), { orders: as('claim', batch) }),
      ]),
    )
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200))
  }
  const lastId = Math.max(0, ...(await executions()).map((e) => Number(e.id)))
  const logBefore = (await sandboxRequests()).length
  const total = 2 * BATCHES * PER_BATCH

  await post()
  // Killed once 40 % of the round's links are through: the worker running most of them.
  const deadline = Date.now() + 120_000
  while (linkCreates((await sandboxRequests()).slice(logBefore)).length < 0.4 * total) {
    if (Date.now() > deadline) throw new Error('the links did not start')
    await sleep(25)
  }
  const running = (await executions()).filter(
    (e) => Number(e.id) > lastId && e.status === 'running',
  )
  const alive = stack.workers.filter((w) => !killed.has(w.name))
  const load = (name: string) => running.filter((e) => startedBy.get(e.id) === name).length
  const victim = [...alive].sort((a, b) => load(b.name) - load(a.name))[0]
  if (victim?.child.pid === undefined) throw new Error('no worker to kill')
  process.kill(-victim.child.pid, 'SIGKILL')
  const killedAt = Date.now()
  killed.add(victim.name)
  const atKill = linkCreates((await sandboxRequests()).slice(logBefore)).length
  await settled(lastId, 2 * BATCHES)

  // The re-run: the same orders posted again, taken by the workers left.
  const lastBeforeRerun = Math.max(0, ...(await executions()).map((e) => Number(e.id)))
  await post()
  await settled(lastBeforeRerun, 2 * BATCHES)

  const creates = linkCreates((await sandboxRequests()).slice(logBefore))
  const perReference = new Map<string, number>()
  for (const c of creates)
    perReference.set(referenceOf(c), (perReference.get(referenceOf(c)) ?? 0) + 1)
  const twice = (suffix: string) =>
    [...perReference].filter(([ref, n]) => ref.endsWith(`-${suffix}`) && n > 1).length
  const lastSecond = creates.filter((c) => {
    const at = Date.parse(c.at)
    return referenceOf(c).endsWith('-store') && at <= killedAt && at > killedAt - 1000
  }).length
  const claims = await shop.query<{ status: string; n: string }>(
    'SELECT status, count(*) AS n FROM payment_link_claim WHERE order_reference LIKE $1 GROUP BY status',
    [`R${String(r)}B%`],
  )
  const count = (status: string) => Number(claims.rows.find((c) => c.status === status)?.n ?? 0)
  const claimRefs = batches.flat().map((o) => `${o.orderReference}-claim`)
  const inDoubt = await shop.query<{ order_reference: string }>(
    "SELECT order_reference FROM payment_link_claim WHERE order_reference LIKE $1 AND status = 'claimed'",
    [`R${String(r)}B%`],
  )
  // Every order of the claim workflow is linked once, or claimed without a link recorded.
  for (const ref of claimRefs) {
    const links = perReference.get(ref) ?? 0
    const doubt = inDoubt.rows.some((row) => row.order_reference === ref)
    expect({ ref, ok: links === 1 || doubt }).toEqual({ ref, ok: true })
  }
  return {
    store: { twice: twice('store'), lastSecond },
    claim: { twice: twice('claim'), linked: count('linked'), inDoubt: count('claimed') },
    victim: victim.name,
    atKill,
  }
}

describe(`a queue-mode worker SIGKILLed with link requests in flight (${String(ROUNDS)} rounds, ${String(WORKERS)} workers, ${String(LATENCY_MS)} ms on POST /paymentlink/checkout)`, () => {
  it(
    'One Link per Order Reference: second links only within the stated bound; the Postgres claim: none',
    async () => {
      expect(await linkLatency(stack, LATENCY_MS)).toBe(200)
      try {
        for (let r = 1; r <= ROUNDS; r++) {
          const round = await crashRound(r)
          rounds.push(round)
          report(
            `round ${String(r)}: ${round.victim} SIGKILLed at ${String(round.atKill)} of ${String(2 * BATCHES * PER_BATCH)} links; then the same orders again: One Link per Order Reference ${String(round.store.twice)} of ${String(BATCHES * PER_BATCH)} linked twice (bound: ${String(round.store.lastSecond)} link requests in the second before the kill); Postgres claim ${String(round.claim.twice)} linked twice, ${String(round.claim.linked)} linked, ${String(round.claim.inDoubt)} claimed without a link (in doubt)`,
          )
        }
      } finally {
        await clearFaults(stack)
      }
      for (const round of rounds) {
        // The claim in the user's database: never a second link.
        expect(round.claim.twice).toBe(0)
        expect(round.claim.linked + round.claim.inDoubt).toBe(BATCHES * PER_BATCH)
        // The node's store: at most the dying worker's unchecked records, and no more than the
        // link requests of the second before the kill.
        expect(round.store.twice).toBeLessThanOrEqual(PER_KILL)
        expect(round.store.twice).toBeLessThanOrEqual(round.store.lastSecond)
      }
      report(
        `in all: One Link per Order Reference ${String(rounds.reduce((a, r) => a + r.store.twice, 0))} of ${String(ROUNDS * BATCHES * PER_BATCH)} orders linked twice; the Postgres claim 0, ${String(rounds.reduce((a, r) => a + r.claim.inDoubt, 0))} in doubt`,
      )
    },
    15 * 60_000,
  )
})
