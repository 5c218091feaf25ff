/**
 * The package in n8n's QUEUE MODE (tools/n8n/queue.ts): a real Postgres and Redis, the
 * main process, two `n8n worker` processes and one `n8n webhook` processor, the sandbox
 * behind a counting proxy (the credential's Base URL) that counts `POST /token`.
 *
 * 1. 2,000 orders become payment links through a published webhook workflow (40 requests
 *    of 50, half to the main process, half to the webhook processor): every order gets
 *    exactly one link, and the executions are spread over the workers;
 * 2. tokens: at most one `POST /token` per worker per token lifetime (the credential's
 *    per-process cache): at most one per worker at the start, and when the token expires
 *    mid-run (the sandbox clock moved past its lifetime twice) at most one per worker per
 *    expiry, and nothing fails;
 * 2b. One Link per Order Reference with executions at once on both workers: how many of
 *    1,000 references a second run links again (records lost to n8n's unlocked writes);
 * 3. each of 5 signed events delivered 50 times at once to both processes that take webhooks;
 *    a stale or forged one starts nothing;
 * 4. 300 orders paid at once: the sandbox's 300 signed events to each Paykit Trigger are each
 *    accepted on their first attempt and run once, with no database timeout or aborted body
 *    in any log (the stack's Postgres pool, queue.ts, and the sandbox holding back to 4
 *    events in flight per trigger, stack.ts);
 * 5. a worker SIGKILLed in the middle of 500 links and 500 charges: what n8n does with the
 *    execution, and what a re-run of the workflow costs (no order charged twice);
 * 6. the stack's own settings (stack.ts `n8nEnv`): Code nodes run in the task runner beside
 *    each worker, and over the whole run no n8n process logged a deprecation notice, the
 *    Python runner's failure, a database timeout or an aborted body.
 *
 * The figures are printed ("queue:" lines) for the README's "Queue mode" section.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { createClient } from '@paykit/core'
import { OrderDetails } from '@paykit/core/codecs'
import { signWebhook } from '@paykit/core/webhook'
import { defaultCredentials, testCards } from '@paykit/testkit'
import { type LoggedRequest } from '@paykit/testkit/service'
import { type Delivery } from '@paykit/testkit/sandbox'
import { startCountingProxy, type CountingProxy } from '@paykit/tools/lib/countingProxy'
import { startQueueStack, type QueueStack } from '@paykit/tools/n8n/queue'
import { paykitTriggers } from '@paykit/tools/n8n/stack'
import {
  batchOrders,
  batchWorkflow,
  createLinkNode,
  paykitNode,
  postJson,
  publishWorkflow,
  type Workflow,
} from '@paykit/tools/n8n/batch'
import {
  WEBHOOK_SECRET,
  WORKFLOW_IDS,
  executionRunData,
  sandboxRequests as sandboxRequestsOf,
} from './support.js'

const WORKERS = 2
const CONCURRENCY = 5

let stack: QueueStack
let proxy: CountingProxy | undefined
/** Execution id -> the worker whose log says it started it. */
const startedBy = new Map<string, string>()

const report = (line: string) => process.stderr.write(`queue: ${line}\n`)

// -------------------------------------------------------------------------------------
// workflows
// -------------------------------------------------------------------------------------

const charge = paykitNode('Charge', 200, {
  resource: 'charge',
  operation: 'create',
  orderId: '={{ $json.orderReference }}',
  amount: '={{ $json.amount }}',
  cardId: '={{ $json.cardId }}',
  additionalFields: {},
  chargeOutputs: 'single',
})

const publish = (workflow: Workflow): Promise<string> =>
  publishWorkflow(stack, workflow, [stack.editorUrl, stack.webhook.url])

// -------------------------------------------------------------------------------------
// what the service and n8n saw
// -------------------------------------------------------------------------------------

/** The sandbox's request log (kept whole: see `--request-log-size` below). */
const sandboxRequests = () => sandboxRequestsOf(stack)

const bodyOf = (r: LoggedRequest): Record<string, unknown> =>
  JSON.parse(r.body) as Record<string, unknown>

/** How many times each value occurs. */
const tally = (values: ReadonlyArray<string>): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  return counts
}

interface ExecutionRow {
  readonly id: string
  readonly status: string
  readonly finished: boolean
}

/** The execution rows n8n wrote in Postgres for a workflow. */
const executionRows = async (workflowId: string): Promise<ReadonlyArray<ExecutionRow>> => {
  const db = stack.postgres.client()
  await db.connect()
  try {
    const rows = await db.query<{ id: number; status: string; finished: boolean }>(
      'SELECT id, status, finished FROM execution_entity WHERE "workflowId" = $1 ORDER BY id',
      [workflowId],
    )
    return rows.rows.map((r) => ({ id: String(r.id), status: r.status, finished: r.finished }))
  } finally {
    await db.end()
  }
}

/**
 * Waits until `count` executions of the workflow have ended (those listed in `unfinished`
 * aside: a killed worker's stays running); returns them all.
 */
const ended = async (
  workflowId: string,
  count: number,
  timeoutMs = 90_000,
  unfinished: ReadonlyArray<string> = [],
) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const rows = await executionRows(workflowId)
    const done = rows.filter(
      (r) => !unfinished.includes(r.id) && !['new', 'running', 'waiting'].includes(r.status),
    )
    if (done.length >= count || Date.now() > deadline) return rows
    await new Promise((r) => setTimeout(r, 500))
  }
}

/** Executions per worker, from each worker's "Worker started execution" line. */
const perWorker = (ids: ReadonlyArray<string>): Record<string, number> =>
  Object.fromEntries(
    stack.workers.map((w) => [w.name, ids.filter((id) => startedBy.get(id) === w.name).length]),
  )

/** Main and webhook processor in turn: the production URL of `path` on each. */
const hookUrl = (i: number, path: string) =>
  `${(i % 2 === 0 ? stack.editorUrl : stack.webhook.url) + 'webhook/'}${path}`

const client = () =>
  createClient({ baseUrl: stack.sandboxUrl, credentials: { ...defaultCredentials } })

/** The sandbox's delivery attempts of order events, oldest first. */
const deliveries = async (): Promise<ReadonlyArray<Delivery>> =>
  (await (await fetch(`${stack.sandboxUrl}/__sandbox/deliveries`)).json()) as Array<Delivery>

/** The lines of an n8n process's log file (`<logsDir>/<name>.log`). */
const linesOf = (name: string): ReadonlyArray<string> =>
  readFileSync(join(stack.logsDir, `${name}.log`), 'utf8').split('\n')

/** How many lines each n8n process has logged so far. */
const logLines = (): ReadonlyMap<string, number> =>
  new Map(stack.processes.map((p) => [p.name, linesOf(p.name).length]))

/**
 * What a pool too small for a burst makes n8n log (its database monitor's ping timing out,
 * then its recovery; a request whose sender gave up while it waited for a connection).
 */
const DATABASE_ERRORS =
  /Database connection timed out|Database ping failed|database connection recovery|Postgres pool client error|Request body stream was aborted/

/** Per n8n process, the lines matching `DATABASE_ERRORS` logged after `before` (line counts). */
const logErrors = (before: ReadonlyMap<string, number>): Record<string, number> =>
  Object.fromEntries(
    stack.processes
      .map((p) => [p.name, linesOf(p.name).slice(before.get(p.name) ?? 0)] as const)
      .map(([name, lines]) => [name, lines.filter((l) => DATABASE_ERRORS.test(l)).length] as const)
      .filter(([, n]) => n > 0),
  )

/**
 * A process's deprecation notices (n8n's DeprecationService: a header, then one ` - ` line per
 * notice; Node's DeprecationWarning lines) and the Python runner's failure. Aside, as no
 * setting changes them: n8n's notice that running outside a container is deprecated (and the
 * header it alone brings), and pg's warning about a query on a busy client, which n8n 2.41's
 * own start on Postgres causes (AuthRolesService.syncScopes saving roles with TypeORM, whose
 * updates run at once on the transaction's one client) with the hint that follows it.
 */
const noticesOf = (lines: ReadonlyArray<string>): ReadonlyArray<string> => {
  const header = /There (is a deprecation|are deprecations) related to your n8n setup/
  const container = /Running n8n outside a container is deprecated/
  const n8nOwn =
    /DeprecationWarning: Calling client\.query\(\) when the client is already executing a query|^\(Use `node --trace-deprecation/
  const notices = lines.filter(
    (l) =>
      /^\s*- [A-Z][A-Z0-9_]* -> /.test(l) ||
      /Failed to start Python task runner/.test(l) ||
      (/deprecat/i.test(l) && !header.test(l) && !container.test(l) && !n8nOwn.test(l)),
  )
  const headers = lines.filter((l) => header.test(l)).length
  const containers = lines.filter((l) => container.test(l)).length
  return notices.length === 0 && headers > containers ? ['a deprecation header'] : notices
}

// -------------------------------------------------------------------------------------
// the stack
// -------------------------------------------------------------------------------------

let linksWorkflow = ''

beforeAll(async () => {
  const booted = Date.now()
  stack = await startQueueStack({
    workers: WORKERS,
    concurrency: CONCURRENCY,
    // Every request of the test kept (a 2,000-link run alone sends 2,000).
    sandboxArgs: ['--request-log-size', '100000'],
    // Every Paykit Trigger the sandbox sends its order events to, as `npm run n8n` has them.
    publish: paykitTriggers('').map((t) => t.file),
    serviceUrl: async (sandboxUrl) => {
      proxy = await startCountingProxy(sandboxUrl)
      return proxy.url
    },
    log: (line) => report(line),
    n8nLog: (line, from) => {
      const started = /Worker started execution (\d+)/.exec(line)
      if (started?.[1] !== undefined) startedBy.set(started[1], from)
    },
  })
  report(`stack ready in ${((Date.now() - booted) / 1000).toFixed(1)} s`)
  linksWorkflow = await publish(batchWorkflow('queue-links', 'lastNode', [createLinkNode(0)]))
}, 45 * 60_000) // installs n8n first on a machine without it

afterAll(async () => {
  await stack?.stop()
  await proxy?.close()
}, 120_000)

// -------------------------------------------------------------------------------------
// tests
// -------------------------------------------------------------------------------------

describe(`n8n queue mode: main, ${String(WORKERS)} workers, a webhook processor, Postgres, Redis`, () => {
  it('2,000 orders through a published webhook workflow: one link each, executions on both workers, one token per worker at most', async () => {
    proxy?.reset()
    const batches = Array.from({ length: 40 }, (_, b) => batchOrders(`Q${String(b + 1)}`, 50))
    const started = Date.now()
    const answers = await Promise.all(
      batches.map((batch, b) => postJson(hookUrl(b, 'queue-links'), { orders: batch })),
    )
    const seconds = (Date.now() - started) / 1000

    expect(answers.map((a) => a.status)).toEqual(batches.map(() => 200))
    const linked = answers.flatMap((a) => a.json as ReadonlyArray<Record<string, unknown>>)
    expect(new Set(linked.map((l) => l.orderCode)).size).toBe(2000)

    // What the service saw: each order reference created exactly once, nothing refused.
    const creates = (await sandboxRequests()).filter(
      (r) => r.method === 'POST' && r.path === '/paymentlink/checkout',
    )
    const perReference = tally(creates.map((r) => String(bodyOf(r).orderReference)))
    const sent = batches.flat().map((o) => o.orderReference)
    expect([...perReference.keys()].sort()).toEqual([...sent].sort())
    expect([...perReference.values()].every((n) => n === 1)).toBe(true)
    expect(creates.every((r) => r.status === 200 || r.status === 201)).toBe(true)

    const rows = await ended(linksWorkflow, 40)
    expect(rows.map((r) => r.status)).toEqual(rows.map(() => 'success'))
    const workers = perWorker(rows.map((r) => r.id))
    expect(Object.values(workers).reduce((a, b) => a + b, 0)).toBe(40)
    expect(Object.values(workers).every((n) => n > 0)).toBe(true)
    const tokens = proxy?.stats().tokenRequests ?? -1
    report(
      `2,000 links in ${seconds.toFixed(1)} s (${(2000 / seconds).toFixed(0)} links/s), 40 executions per worker ${JSON.stringify(workers)}, POST /token ${String(tokens)}`,
    )
    // The executions of one worker that start with no token share its one request.
    expect(tokens).toBeGreaterThanOrEqual(1)
    expect(tokens).toBeLessThanOrEqual(WORKERS)
  }, 300_000)

  it('the token expires twice mid-run: renewals stay bounded and every order still gets its one link', async () => {
    proxy?.reset()
    const before = (await sandboxRequests()).length
    const batches = Array.from({ length: 20 }, (_, b) => batchOrders(`T${String(b + 1)}`, 50))
    const answers: Array<Promise<{ status: number; json: unknown }>> = []
    const advance = () =>
      fetch(`${stack.sandboxUrl}/__sandbox/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advanceSeconds: 3601 }), // past the token's lifetime (1 h)
      })
    for (const [b, batch] of batches.entries()) {
      if (b === 7) expect((await advance()).status).toBe(200)
      // The second expiry once every execution has answered: a request refused at the first
      // and sent again with the renewed token would otherwise meet the second too, and the
      // node takes a 401 after a renewal as final (a real token lives an hour, not a second;
      // this happened once beside the full suite).
      if (b === 14) {
        await Promise.all(answers)
        expect((await advance()).status).toBe(200)
      }
      answers.push(postJson(hookUrl(b, 'queue-links'), { orders: batch }))
      await new Promise((r) => setTimeout(r, 150))
    }
    const done = await Promise.all(answers)
    expect(
      done.map((a) => a.status),
      JSON.stringify(done.filter((a) => a.status !== 200).map((a) => a.json)).slice(0, 2000),
    ).toEqual(batches.map(() => 200))
    const linked = done.flatMap((a) => a.json as ReadonlyArray<Record<string, unknown>>)
    expect(linked).toHaveLength(1000)
    expect(linked.every((l) => typeof l.orderCode === 'string')).toBe(true)

    const seen = (await sandboxRequests()).slice(before)
    const creates = seen.filter((r) => r.method === 'POST' && r.path === '/paymentlink/checkout')
    const created = creates.filter((r) => r.status === 200 || r.status === 201)
    const refused = creates.filter((r) => r.status === 401).length
    expect(tally(created.map((r) => String(bodyOf(r).orderReference))).size).toBe(1000)
    expect(created).toHaveLength(1000)
    expect(creates.length - created.length).toBe(refused) // only expired tokens were refused
    const tokens = proxy?.stats().tokenRequests ?? -1
    report(
      `token expired twice during 1,000 links: POST /token ${String(tokens)}, ${String(refused)} requests answered 401 and sent again`,
    )
    // The README's bound: at most one per worker per token lifetime, and the run spans three
    // (the one current at its start, and one after each expiry). 5 was seen at a load
    // average of 20, against a bound of 2 per worker that this test held before.
    expect(tokens).toBeGreaterThanOrEqual(1)
    expect(tokens).toBeLessThanOrEqual(3 * WORKERS)
  }, 300_000)

  it('One Link per Order Reference across the workers: 1,000 orders in 20 executions at once, then the same again', async () => {
    const onceWorkflow = await publish(
      batchWorkflow('queue-once', 'lastNode', [
        createLinkNode(0, 'Links Once', { oneLinkPerReference: true }),
      ]),
    )
    const batches = Array.from({ length: 20 }, (_, b) => batchOrders(`U${String(b + 1)}`, 50))
    const sent = batches.flat().map((o) => o.orderReference)
    const round = async () => {
      const before = (await sandboxRequests()).length
      const answers = await Promise.all(
        batches.map((batch, b) => postJson(hookUrl(b, 'queue-once'), { orders: batch })),
      )
      expect(answers.map((a) => a.status)).toEqual(batches.map(() => 200))
      return tally(
        (await sandboxRequests())
          .slice(before)
          .filter((r) => r.method === 'POST' && r.path === '/paymentlink/checkout')
          .map((r) => String(bodyOf(r).orderReference)),
      )
    }
    const first = await round()
    // Every reference is new: each execution creates its own 50 links once. (The first
    // executions of both workers insert the node's row at once: one INSERT fails on its
    // primary key and the node makes the call again, so no execution fails.)
    expect([...first.keys()].sort()).toEqual([...sent].sort())
    expect([...first.values()].every((n) => n === 1)).toBe(true)
    await ended(onceWorkflow, 20)

    // The same orders again. Each worker reads n8n's de-duplication row, changes it and
    // writes it back with no lock, so a write can drop the other's records; the node
    // checks each reference after its request and records a dropped one again, and while it
    // sees drops checks the run's references again 300 ms and 1 s after the run's end. A
    // record still dropped after that is linked again here: 270-367 of 1,000 before the
    // checks (five runs), 0 with them (seven runs, one under the whole suite's load).
    const second = await round()
    await ended(onceWorkflow, 40)
    const again = [...second.values()].reduce((a, b) => a + b, 0)
    report(
      `One Link per Order Reference, 1,000 orders in 20 executions at once on ${String(WORKERS)} workers, then again: ${String(again)} of 1,000 linked a second time (their records lost to a concurrent write of the de-duplication row)`,
    )
    expect([...second.keys()].every((ref) => sent.includes(ref))).toBe(true)
    expect([...second.values()].every((n) => n === 1)).toBe(true)
    expect(again).toBeLessThanOrEqual(30)
  }, 300_000)
})

describe('one signed event delivered 50 times at once to the main process and the webhook processor', () => {
  const ORDER_PAID = WORKFLOW_IDS['order-paid-read-back.json'] ?? ''
  const triggerPath = () => stack.triggerUrl.slice(stack.editorUrl.length)

  it('5 events one after another, each delivered 50 times at once: 5 to 10 executions in all, what follows Accept Once once or twice per event', async () => {
    const events = await Promise.all(
      Array.from({ length: 5 }, async (_, e) => {
        const link = await client().createPaymentLink({
          amount: 12.5,
          orderReference: `burst-${String(e + 1)}`,
        })()
        if (E.isLeft(link)) throw new Error(link.left.message)
        const order = await client().getOrder(link.right.orderCode)()
        if (E.isLeft(order)) throw new Error(order.left.message)
        const body = JSON.stringify({
          id: `evt_queue_burst_${String(e + 1)}`,
          type: 'order.paid',
          createdAt: new Date().toISOString(),
          data: { ...OrderDetails.encode(order.right), orderStatus: 'PAID' },
        })
        const signature = signWebhook({ secret: WEBHOOK_SECRET, body, timestamp: new Date() })
        return { orderCode: link.right.orderCode, body, signature }
      }),
    )
    const before = (await executionRows(ORDER_PAID)).length
    const logBefore = (await sandboxRequests()).length
    const answers: Array<string> = []
    for (const event of events)
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            fetch(`${i % 2 === 0 ? stack.editorUrl : stack.webhook.url}${triggerPath()}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'paykit-signature': event.signature },
              body: event.body,
            }).then(async (r) => (r.status === 200 ? '200' : `${r.status} ${await r.text()}`)),
          ),
        )),
      )
    expect(Object.fromEntries(tally(answers))).toEqual({ '200': 250 })
    await new Promise((r) => setTimeout(r, 3000))
    const rows = (await ended(ORDER_PAID, before + 5)).slice(before)
    await new Promise((r) => setTimeout(r, 2000))
    const rowsLater = (await ended(ORDER_PAID, before + rows.length)).slice(before)
    const reads = tally(
      (await sandboxRequests())
        .slice(logBefore)
        .filter((r) => r.method === 'GET' && r.path.startsWith('/paymentlink/order/'))
        .map((r) => r.path.slice('/paymentlink/order/'.length)),
    )
    const runs = events.map((e) => reads.get(e.orderCode) ?? 0)
    report(
      `5 events in turn, each delivered 50 times at once (25 to main, 25 to the webhook processor): ${String(rowsLater.length)} executions started (${JSON.stringify(Object.fromEntries(tally(rowsLater.map((r) => r.status))))}); Read Order after Accept Once ran per event ${JSON.stringify(runs)}`,
    )
    // The Trigger's replay memory is per process: one execution per event per process that
    // takes webhooks at most; Accept Once lets each event through at least once.
    expect(rowsLater.length).toBeGreaterThanOrEqual(5)
    expect(rowsLater.length).toBeLessThanOrEqual(10)
    expect(runs.every((n) => n >= 1 && n <= 2)).toBe(true)
  }, 120_000)

  it('a forged or stale signed event starts nothing, on either process', async () => {
    const before = (await ended(ORDER_PAID, (await executionRows(ORDER_PAID)).length)).length
    const body = JSON.stringify({ id: 'evt_forged', type: 'order.paid', createdAt: '', data: {} })
    const stale = signWebhook({
      secret: WEBHOOK_SECRET,
      body,
      timestamp: new Date(Date.now() - 3_600_000),
    })
    const statuses = await Promise.all(
      [stack.editorUrl, stack.webhook.url].flatMap((base) =>
        ['t=1,v1=00', stale].map((signature) =>
          fetch(`${base}${triggerPath()}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'paykit-signature': signature },
            body,
          }).then((r) => r.status),
        ),
      ),
    )
    expect(statuses).toEqual([401, 401, 401, 401])
    await new Promise((r) => setTimeout(r, 1500))
    expect((await executionRows(ORDER_PAID)).length).toBe(before)
  }, 60_000)
})

describe('a burst of 300 paid orders: the sandbox delivers 300 signed events to each Paykit Trigger at once', () => {
  it('every event accepted by each trigger on its first attempt and run once; no database timeout or aborted body in any log', async () => {
    const codes = (
      await Promise.all(
        Array.from({ length: 6 }, (_, chunk) =>
          Promise.all(
            Array.from({ length: 50 }, async (_, i) => {
              const link = await client().createPaymentLink({
                amount: 20 + i,
                orderReference: `paid-burst-${String(chunk * 50 + i + 1)}`,
              })()
              if (E.isLeft(link)) throw new Error(link.left.message)
              return link.right.orderCode
            }),
          ),
        ),
      )
    ).flat()
    const triggers = paykitTriggers(stack.editorUrl)
    expect(triggers.map((t) => t.url)).toEqual(stack.triggerUrls)
    const rowsBefore = new Map(
      await Promise.all(
        triggers.map(async (t) => [t.id, (await executionRows(t.id)).length] as const),
      ),
    )
    const requestsBefore = (await sandboxRequests()).length
    const deliveriesBefore = (await deliveries()).length
    const linesBefore = logLines()
    const started = Date.now()
    const paid = await Promise.all(
      codes.map((code) =>
        fetch(`${stack.sandboxUrl}/__sandbox/orders/${code}/pay`, { method: 'POST' }).then(
          (r) => r.status,
        ),
      ),
    )
    expect(paid).toEqual(codes.map(() => 200))
    // Every event's delivery to every trigger settled: delivered, or given up.
    const attemptsNow = async () => (await deliveries()).slice(deliveriesBefore)
    const settled = (ds: ReadonlyArray<Delivery>) =>
      new Set(ds.filter((d) => !d.willRetry).map((d) => `${d.eventId} ${d.url}`)).size
    const deadline = Date.now() + 360_000
    let attempts = await attemptsNow()
    while (settled(attempts) < codes.length * triggers.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500))
      attempts = await attemptsNow()
    }
    const deliveredIn = (Date.now() - started) / 1000
    const runs = await Promise.all(
      triggers.map(async (t) => {
        const before = rowsBefore.get(t.id) ?? 0
        await ended(t.id, before + codes.length, 360_000)
        await new Promise((r) => setTimeout(r, 2000))
        const rows = (await executionRows(t.id)).slice(before)
        return { file: t.file, statuses: tally(rows.map((r) => r.status)) }
      }),
    )
    const reads = tally(
      (await sandboxRequests())
        .slice(requestsBefore)
        .filter((r) => r.method === 'GET' && r.path.startsWith('/paymentlink/order/'))
        .map((r) => r.path.slice('/paymentlink/order/'.length)),
    )
    const errors = logErrors(linesBefore)
    const outcomes = tally(
      attempts.map((d) => (d.status === null ? String(d.error) : String(d.status))),
    )
    report(
      `300 orders paid at once: ${String(new Set(attempts.map((d) => d.eventId)).size)} events to ${String(triggers.length)} triggers, ${String(attempts.length)} delivery attempts (${JSON.stringify(Object.fromEntries(outcomes))}) settled in ${deliveredIn.toFixed(1)} s; executions ${runs.map((r) => `${r.file} ${JSON.stringify(Object.fromEntries(r.statuses))}`).join(', ')}; the example's Read Order ran for ${String(reads.size)} orders, ${String([...reads.values()].filter((n) => n > 1).length)} more than once; errors per log ${JSON.stringify(errors)}`,
    )
    expect(attempts).toHaveLength(codes.length * triggers.length)
    expect(attempts.every((d) => d.attempt === 1 && d.delivered)).toBe(true)
    for (const run of runs) expect(Object.fromEntries(run.statuses)).toEqual({ success: 300 })
    expect([...reads.keys()].sort()).toEqual([...codes].sort())
    expect([...reads.values()].every((n) => n === 1)).toBe(true)
    expect(errors).toEqual({})
  }, 900_000)
})

describe('a worker SIGKILLed in the middle of 500 links and 500 charges', () => {
  it('n8n leaves the execution running and never runs it again; a re-run charges no order twice, and creates no second link with One Link per Order Reference', async () => {
    const card = await client().createPaymentMethod({
      card: {
        number: testCards.success.number,
        expirationMonth: '12',
        expirationYear: String(new Date().getUTCFullYear() + 2),
        cvv: '123',
      },
    })()
    if (E.isLeft(card)) throw new Error(card.left.message)
    // Each order twice, under two references: `plain` for the node without the option,
    // `once` for the node with it; in n8n's v1 order the links (top) run before the charges.
    const crashWorkflow = await publish(
      batchWorkflow('queue-crash', 'onReceived', [
        createLinkNode(0, 'Links', { requestField: 'plain', oneLinkPerReference: false }),
        createLinkNode(100, 'Links Once', { requestField: 'once', oneLinkPerReference: true }),
        charge,
      ]),
    )
    const batch = batchOrders('K', 500).map((o) => ({
      ...o,
      cardId: card.right.id,
      plain: { amount: o.amount, orderReference: `${o.orderReference}-plain` },
      once: { amount: o.amount, orderReference: `${o.orderReference}-once` },
    }))
    const logBefore = (await sandboxRequests()).length
    const seen = async (path: string) =>
      (await sandboxRequests())
        .slice(logBefore)
        .filter((r) => r.method === 'POST' && r.path === path)
    const crash = await postJson(`${stack.editorUrl}webhook/queue-crash`, { orders: batch })
    expect(crash.status).toBe(200)
    // Killed once half the charges are through (both link nodes are done by then).
    const deadline = Date.now() + 90_000
    while ((await seen('/charges')).length < 250 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100))
    const [crashed] = await executionRows(crashWorkflow)
    if (crashed === undefined) throw new Error('no execution of the crash workflow')
    const worker = stack.workers.find((w) => w.name === startedBy.get(crashed.id))
    if (worker?.child.pid === undefined) throw new Error(`no worker started ${crashed.id}`)
    process.kill(-worker.child.pid, 'SIGKILL')
    await new Promise((r) => setTimeout(r, 5000))
    const afterKill = await executionRows(crashWorkflow)
    const chargedBefore = (await seen('/charges')).length
    const linksBefore = (await seen('/paymentlink/checkout')).length
    report(
      `SIGKILL of ${worker.name} at ${String(chargedBefore)} charges of 500 (links: ${String(linksBefore)} of 2 x 500): 5 s later the execution is ${afterKill.map((r) => `${r.id} ${r.status}`).join(', ')}, run by no other worker`,
    )
    // n8n does not run a stalled job again (its Bull queue has maxStalledCount 0).
    expect(afterKill).toEqual([{ id: crashed.id, status: 'running', finished: false }])
    expect(chargedBefore).toBeLessThan(500)
    expect(linksBefore).toBe(1000)

    // The user's re-run: the same orders posted again (the other worker takes it).
    expect(
      (await postJson(`${stack.editorUrl}webhook/queue-crash`, { orders: batch })).status,
    ).toBe(200)
    const rows = await ended(crashWorkflow, 1, 120_000, [crashed.id])
    const rerun = rows.find((r) => r.id !== crashed.id)
    expect(rerun?.status).toBe('success')
    expect(rows.find((r) => r.id === crashed.id)?.status).toBe('running')
    const run = await executionRunData(stack, rerun?.id ?? '')
    const charges = await seen('/charges')
    const links = tally(
      (await seen('/paymentlink/checkout')).map((r) => String(bodyOf(r).orderReference)),
    )
    const twice = (suffix: string) =>
      [...links.entries()].filter(([ref, n]) => ref.endsWith(suffix) && n > 1).length
    // The re-run's charges: those of orders charged before the kill refused, the rest made.
    const outcome = Object.fromEntries(
      tally(
        run
          .items('Charge')
          .map((o) => `${String(o.status)} ${(o.error as { code?: string } | null)?.code ?? ''}`),
      ),
    )
    report(
      `re-run: charges ${JSON.stringify(outcome)} (${String(charges.length - chargedBefore)} sent again); a second link for ${String(twice('-plain'))} of 500 orders without One Link per Order Reference, ${String(twice('-once'))} of 500 with it (${String(run.items('Links Once', 1).length)} items on Already Requested)`,
    )
    expect(outcome).toEqual({
      'FAILED DUPLICATE_ORDER': chargedBefore,
      'SUCCEEDED ': 500 - chargedBefore,
    })
    expect(twice('-plain')).toBe(500)
    expect(twice('-once')).toBe(0)
    expect(run.items('Links Once', 1)).toHaveLength(500)
  }, 300_000)
})

describe("the stack's own settings", () => {
  it('Code nodes run on the workers, in the task runner the stack starts beside each process that runs them', async () => {
    const code = {
      id: 'queue-code-double',
      name: 'Double',
      type: 'n8n-nodes-base.code',
      typeVersion: 2,
      position: [480, 0],
      parameters: {
        jsCode:
          'return $input.all().map((item) => ({ json: { orderReference: item.json.orderReference, doubled: item.json.amount * 2 } }))',
      },
    }
    const workflow = await publish(batchWorkflow('queue-code', 'lastNode', [code]))
    const batches = Array.from({ length: 4 }, (_, b) => batchOrders(`C${String(b + 1)}`, 5))
    const answers = await Promise.all(
      batches.map((batch, b) => postJson(hookUrl(b, 'queue-code'), { orders: batch })),
    )
    expect(answers.map((a) => a.json)).toEqual(
      batches.map((batch) =>
        batch.map((o) => ({ orderReference: o.orderReference, doubled: o.amount * 2 })),
      ),
    )
    const rows = await ended(workflow, 4)
    expect(rows.map((r) => r.status)).toEqual(['success', 'success', 'success', 'success'])
    // Each worker got its runner (n8n logs each registration; the main process, which
    // offloads its manual executions to the workers, serves no runner).
    for (const w of stack.workers)
      expect(linesOf(w.name).some((l) => l.includes('Registered runner'))).toBe(true)
    report(
      `Code node: 4 executions ${JSON.stringify(perWorker(rows.map((r) => r.id)))}, each answered with its items doubled`,
    )
  }, 120_000)

  it('no n8n process logged a deprecation notice, the Python runner failure, a database timeout or an aborted body during the whole run', () => {
    const notices = stack.processes.flatMap((p) =>
      noticesOf(linesOf(p.name)).map((line) => `${p.name}: ${line.trim()}`),
    )
    report(`notices over the run: ${notices.length === 0 ? 'none' : notices.join(' | ')}`)
    expect(notices).toEqual([])
    expect(logErrors(new Map())).toEqual({})
  })
})
