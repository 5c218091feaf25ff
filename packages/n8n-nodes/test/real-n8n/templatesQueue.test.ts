/**
 * Templates 2 and 3 in queue mode (tools/n8n/queue.ts: three workers, a webhook processor),
 * the shop's tables in the stack's database `shop` (on its Postgres server), the mail captured
 * by the stack's MailDev, and in each a worker SIGKILLed mid-run:
 *
 * - invoices-to-payment-links.json: 300 invoices, 12 runs at once (half through the main
 *   process, half through the webhook processor), 150 ms on each link request, the worker
 *   running the most of them killed once 40 % of the links are through, then re-runs. No
 *   invoice gets a second link; the killed worker's invoices stay in doubt (`linking`, no
 *   order code) until the link lifetime has passed since their claim (the claim times moved
 *   back in the database), and are then linked once more;
 * - mark-paid-send-receipt.json: 40 invoices paid, each event sent by the sandbox and three
 *   times more at once by the test (main and webhook processor, five events at a time, sent
 *   again on a non-2xx), a worker killed once a quarter of the receipts are out, then every
 *   event delivered again. No
 *   invoice gets two receipts; at most what the killed worker was running is left unpaid or
 *   without its receipt (never sent twice).
 * - sell-with-a-form.json, with templates 3 and 5: a burst of 50 form sales posted as n8n's
 *   form page posts them (half to the main process, half to the webhook processor), 200 ms on
 *   each link request, a worker SIGKILLed once 15 are linked; every linked sale then paid at
 *   the sandbox, whose events reach template 3 by themselves. No sale has two links (none can
 *   be paid twice), no buyer gets two receipts, and every sale claimed is either paid with its
 *   receipt or listed by the daily summary.
 *
 * The figures are printed ("templates-queue:" lines) for the docs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type pg from 'pg'
import { startQueueStack, type QueueStack } from '@paykit/tools/n8n/queue'
import {
  formPathOf,
  sellByHttp,
  templateId,
  deliverUntilAccepted,
  linksPerReference,
  moveOrder,
  publishTemplate,
  sandboxEvents,
  settled,
  createTables,
  template,
  webhookPath,
} from './templatesShop.js'
import { clearFaults, linkLatency } from './support.js'
import { createClient } from '@paykit/core'
import { defaultCredentials } from '@paykit/testkit'
import * as E from 'fp-ts/lib/Either.js'

const INVOICES = 'invoices-to-payment-links.json'
const RECEIPT = 'mark-paid-send-receipt.json'
const FORM = 'sell-with-a-form.json'
const SUMMARY = 'daily-payments-summary.json'
// One worker killed in each of the three tests.
const WORKERS = 4
const COUNT = 300
const RUNS = 12 // 25 invoices claimed per run
const LATENCY_MS = 150
const PAID = 40
const SALES = 50

let stack: QueueStack
let db: pg.Client
const ids: Record<string, string> = {}
/** Execution id -> the worker whose log says it started it. */
const startedBy = new Map<string, string>()
const killed = new Set<string>()
const unstartedSince = new Map<string, number>()

const report = (line: string) => process.stderr.write(`templates-queue: ${line}\n`)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A killed worker's executions stay 'running'; a job it took before logging stays unstarted. */
const leftByKill = (id: string) => {
  const worker = startedBy.get(id)
  if (worker !== undefined) return killed.has(worker)
  const since = unstartedSince.get(id) ?? Date.now()
  unstartedSince.set(id, since)
  return Date.now() - since > 60_000
}

beforeAll(async () => {
  const booted = Date.now()
  stack = await startQueueStack({
    workers: WORKERS,
    concurrency: 5,
    sandboxArgs: ['--request-log-size', '100000'],
    log: report,
    n8nLog: (line, from) => {
      const started = /Worker started execution (\d+)/.exec(line)
      if (started?.[1] !== undefined) startedBy.set(started[1], from)
      // Errors of any n8n process in the test's output: what to read when a count is off.
      if (/error/i.test(line)) report(`${from}: ${line}`)
    },
  })
  await createTables(stack)
  db = stack.shop.client()
  await db.connect()
  for (const file of [INVOICES, RECEIPT, SUMMARY])
    ids[file] = await publishTemplate(stack, file, [stack.editorUrl, stack.webhook.url])
  ids[FORM] = await publishTemplate(stack, FORM, [stack.editorUrl, stack.webhook.url])
  report(`stack, tables and templates ready in ${((Date.now() - booted) / 1000).toFixed(1)} s`)
}, 45 * 60_000)

afterAll(async () => {
  await db?.end()
  await stack?.stop()
}, 120_000)

/** Main and webhook processor in turn. */
const hook = (file: string, i: number) =>
  `${i % 2 === 0 ? stack.editorUrl : stack.webhook.url}webhook/${webhookPath(template(file))}`
const runNow = async (i: number) => {
  const res = await fetch(hook(INVOICES, i), { method: 'POST' })
  await res.text()
  return res.status
}
/** How many executions the workflow has (the newest 100 at most), running or not. */
const executionCount = async (file: string) =>
  (await settled(stack, ids[file] ?? '', 0, () => true)).length
const running = async (file: string) =>
  (await settled(stack, ids[file] ?? '', 0, () => true)).filter((e) => e.status === 'running')

/** Kills the live worker running the most of `file`'s executions. */
const killBusiestWorker = async (file: string) => {
  const now = await running(file)
  const alive = stack.workers.filter((w) => !killed.has(w.name))
  const load = (name: string) => now.filter((e) => startedBy.get(e.id) === name).length
  const victim = [...alive].sort((a, b) => load(b.name) - load(a.name))[0]
  if (victim?.child.pid === undefined) throw new Error('no worker to kill')
  process.kill(-victim.child.pid, 'SIGKILL')
  killed.add(victim.name)
  return { name: victim.name, running: load(victim.name) }
}

describe(`templates in queue mode, a worker SIGKILLed mid-run (${String(WORKERS)} workers)`, () => {
  it(
    'template 2: no invoice linked twice; those in doubt linked once the link lifetime has passed',
    async () => {
      await db.query(
        `INSERT INTO invoices (invoice_number, customer_email, amount)
       SELECT 'Q-' || lpad(n::text, 4, '0'), 'q' || n || '@example.com', 10 + n % 90
       FROM generate_series(1, ${String(COUNT)}) AS n`,
      )
      expect(await linkLatency(stack, LATENCY_MS)).toBe(200)
      let victim: { name: string; running: number }
      let atKill: number
      try {
        const before = await executionCount(INVOICES)
        expect(await Promise.all(Array.from({ length: RUNS }, (_, i) => runNow(i)))).toEqual(
          Array.from({ length: RUNS }, () => 200),
        )
        const deadline = Date.now() + 120_000
        const through = async () =>
          [...(await linksPerReference(stack)).keys()].filter((r) => r.startsWith('Q-')).length
        while ((await through()) < 0.4 * COUNT) {
          if (Date.now() > deadline) throw new Error('the links did not start')
          await sleep(25)
        }
        victim = await killBusiestWorker(INVOICES)
        atKill = await through()
        await settled(stack, ids[INVOICES] ?? '', before + RUNS, leftByKill, 180_000)
        // Re-runs by the workers left: the in-doubt invoices are not taken again yet.
        const rerun = await executionCount(INVOICES)
        expect(await Promise.all([0, 1, 2, 3].map(runNow))).toEqual([200, 200, 200, 200])
        await settled(stack, ids[INVOICES] ?? '', rerun + 4, leftByKill, 180_000)
      } finally {
        await clearFaults(stack)
      }
      const links = await linksPerReference(stack)
      const rows = (
        await db.query<{ invoice_number: string; status: string; order_code: string | null }>(
          "SELECT invoice_number, status, order_code FROM invoices WHERE invoice_number LIKE 'Q-%'",
        )
      ).rows
      const inDoubt = rows.filter((r) => r.status === 'linking').map((r) => r.invoice_number)
      for (const row of rows) {
        const n = links.get(row.invoice_number) ?? 0
        const ok =
          (row.status === 'linked' && n === 1 && row.order_code !== null) ||
          (row.status === 'linking' && n <= 1 && row.order_code === null)
        expect({ invoice: row.invoice_number, ok }).toEqual({
          invoice: row.invoice_number,
          ok: true,
        })
      }
      const twice = [...links].filter(([r, n]) => r.startsWith('Q-') && n > 1).length
      expect(twice).toBe(0)
      const doubtWithLink = inDoubt.filter((r) => links.has(r)).length
      report(
        `template 2: ${victim.name} SIGKILLed (running ${String(victim.running)} of its executions) at ${String(atKill)} of ${String(COUNT)} links; after 4 re-runs: ${String(twice)} invoices linked twice, ${String(rows.length - inDoubt.length)} linked, ${String(inDoubt.length)} in doubt (${String(doubtWithLink)} of them with a link request at the sandbox)`,
      )

      // The link lifetime passes for the claims: 71 minutes older in the database. (The
      // sandbox's clock stays: moved, it would expire every link at once and send 300
      // order.cancelled events to the published example's trigger; the expiry itself is the
      // service's, read in the regular-mode test.)
      await db.query(
        "UPDATE invoices SET claimed_at = claimed_at - interval '71 minutes' WHERE status = 'linking'",
      )
      const client = createClient({
        baseUrl: stack.sandboxUrl,
        credentials: { ...defaultCredentials },
      })
      const recover = await executionCount(INVOICES)
      // 25 claimed per run: as many runs at once as the invoices in doubt need.
      const runs = Array.from({ length: Math.ceil(inDoubt.length / 25) }, (_, i) => i)
      expect(await Promise.all(runs.map(runNow))).toEqual(runs.map(() => 200))
      await settled(stack, ids[INVOICES] ?? '', recover + runs.length, leftByKill, 180_000)
      const after = await linksPerReference(stack)
      const left = await db.query<{ n: string }>(
        "SELECT count(*) AS n FROM invoices WHERE invoice_number LIKE 'Q-%' AND status <> 'linked'",
      )
      expect(Number(left.rows[0]?.n)).toBe(0)
      for (const [ref, n] of after)
        if (ref.startsWith('Q-'))
          expect({ ref, n: n <= (inDoubt.includes(ref) ? 2 : 1) }).toEqual({ ref, n: true })
      // The link recorded for a recovered invoice is the new one, payable.
      const recovered = inDoubt[0]
      if (recovered !== undefined) {
        const code = (
          await db.query<{ order_code: string }>(
            'SELECT order_code FROM invoices WHERE invoice_number = $1',
            [recovered],
          )
        ).rows[0]?.order_code
        const order = await client.getOrder(code ?? '')()
        expect(E.isRight(order) && order.right.orderStatus).toBe('PENDING')
      }
      const second = [...after].filter(([r, n]) => r.startsWith('Q-') && n > 1).length
      report(
        `template 2 after the lifetime: all ${String(COUNT)} linked; ${String(second)} of the ${String(inDoubt.length)} in doubt got a second link (a request had reached the service before the kill), none of the others`,
      )
    },
    20 * 60_000,
  )

  it(
    'template 3: no invoice gets two receipts; replays after the kill mark the rest paid',
    async () => {
      // Invoices linked in the round above, with a link that is payable now.
      const fresh = await db.query<{ invoice_number: string }>(
        `INSERT INTO invoices (invoice_number, customer_email, amount)
       SELECT 'P-' || lpad(n::text, 4, '0'), 'p' || n || '@example.com', 20 + n
       FROM generate_series(1, ${String(PAID)}) AS n RETURNING invoice_number`,
      )
      expect(fresh.rows).toHaveLength(PAID)
      const linking = await executionCount(INVOICES)
      expect(await Promise.all([0, 1, 2].map(runNow))).toEqual([200, 200, 200])
      await settled(stack, ids[INVOICES] ?? '', linking + 3, leftByKill)
      const linked = (
        await db.query<{ invoice_number: string; order_code: string; customer_email: string }>(
          "SELECT invoice_number, order_code, customer_email FROM invoices WHERE invoice_number LIKE 'P-%' AND status = 'linked'",
        )
      ).rows
      expect(linked).toHaveLength(PAID)
      // The sandbox sends each order.paid to every Paykit Trigger, template 3's among them: its
      // receipts start with the first payment, so the mailbox is emptied before it, and the
      // copies below race with those deliveries.
      await stack.mail.clear()
      const before = await executionCount(RECEIPT)
      for (const row of linked) await moveOrder(stack, row.order_code, 'pay')
      const codes = new Set(linked.map((r) => r.order_code))
      const events = (await sandboxEvents(stack)).filter(
        (e) => e.type === 'order.paid' && codes.has(e.data.orderCode),
      )
      expect(events).toHaveLength(PAID)

      // Five events at a time, each three times at once, sent again on a non-2xx as the
      // service does (a busy main process answers 500 when its database pool times out).
      const inWaves = async (copies: number) => {
        const out: Array<{ status: number; tries: number }> = []
        for (let w = 0; w < events.length; w += 5)
          out.push(
            ...(await Promise.all(
              events
                .slice(w, w + 5)
                .flatMap((event, i) =>
                  Array.from({ length: copies }, (_, copy) =>
                    deliverUntilAccepted(hook(RECEIPT, w + i + copy), event),
                  ),
                ),
            )),
          )
        return out
      }
      const sends = inWaves(3)
      const deadline = Date.now() + 120_000
      while ((await stack.mail.messages()).length < PAID / 4) {
        if (Date.now() > deadline) throw new Error('no receipts')
        await sleep(20)
      }
      const victim = await killBusiestWorker(RECEIPT)
      const atKill = (await stack.mail.messages()).length
      const sent = await sends
      expect(sent.every((s) => s.status === 200)).toBe(true)
      await settled(stack, ids[RECEIPT] ?? '', before + 1, leftByKill, 180_000)
      // Every event delivered again (as the service re-delivers), to the processes left.
      const replay = await executionCount(RECEIPT)
      const replays = await inWaves(1)
      expect(replays.every((s) => s.status === 200)).toBe(true)
      const again = [...sent, ...replays].filter((s) => s.tries > 1).length
      await sleep(3000)
      await settled(stack, ids[RECEIPT] ?? '', replay, leftByKill, 180_000)

      const mails = await stack.mail.messages()
      const per = new Map<string, number>()
      for (const m of mails) per.set(m.to, (per.get(m.to) ?? 0) + 1)
      for (const row of linked)
        expect({ to: row.customer_email, ok: (per.get(row.customer_email) ?? 0) <= 1 }).toEqual({
          to: row.customer_email,
          ok: true,
        })
      const rows = (
        await db.query<{ status: string; receipt_sent_at: Date | null; customer_email: string }>(
          "SELECT status, receipt_sent_at, customer_email FROM invoices WHERE invoice_number LIKE 'P-%'",
        )
      ).rows
      const paid = rows.filter((r) => r.status === 'paid').length
      const recorded = rows.filter((r) => r.receipt_sent_at !== null).length
      // A row with its receipt recorded got exactly one.
      for (const r of rows.filter((row) => row.receipt_sent_at !== null))
        expect(per.get(r.customer_email)).toBe(1)
      // What the killed worker held is all that can be missing: at most its running executions.
      expect(PAID - paid).toBeLessThanOrEqual(5)
      expect(PAID - mails.length).toBeLessThanOrEqual(5)
      const twice = [...per.values()].filter((n) => n > 1).length
      expect(twice).toBe(0)
      report(
        `template 3: ${String(PAID)} orders paid, each event sent by the sandbox and 3 times at once by the test (main and webhook processor); ${victim.name} SIGKILLed at ${String(atKill)} receipts (running ${String(victim.running)} executions); every event delivered again (${String(again)} deliveries sent more than once after a non-2xx): ${String(paid)} paid rows, ${String(mails.length)} receipts (${String(twice)} invoices with two), ${String(recorded)} receipts recorded, ${String((await executionCount(RECEIPT)) - before)} executions`,
      )
    },
    15 * 60_000,
  )

  it(
    'template 1: a burst of form sales, a worker killed: no sale paid twice, no receipt twice, none lost without the summary listing it',
    async () => {
      await stack.mail.clear()
      expect(await linkLatency(stack, 200)).toBe(200)
      const formPath = `form/${formPathOf(FORM) ?? ''}`
      type Outcome = { readonly email: string; readonly ending: string }
      const outcomes: Array<Outcome> = []
      let victim: { name: string; running: number } | undefined
      let atKill = 0
      const linkedSales = async () =>
        Number(
          (
            await db.query<{ n: string }>(
              "SELECT count(*) AS n FROM invoices WHERE kind = 'form sale' AND status = 'linked'",
            )
          ).rows[0]?.n,
        )
      try {
        const started = Date.now()
        // Ten buyers at a time, half on the main process, half on the webhook processor.
        const buy = async (i: number): Promise<Outcome> => {
          const email = `burst-${String(i)}@example.com`
          const base = i % 2 === 0 ? stack.editorUrl : stack.webhook.url
          const answer = await sellByHttp(
            `${base}${formPath}`,
            { email, product: 'T-shirt, 19.99 USD', quantity: String(1 + (i % 3)) },
            90_000,
          ).catch((error: unknown) => ({ error: String(error) }))
          if ('error' in answer) return { email, ending: `no ending page (${answer.error})` }
          return {
            email,
            ending: answer.redirectUrl?.includes('/pay/') === true ? 'checkout page' : answer.title,
          }
        }
        const queue = Array.from({ length: SALES }, (_, i) => i)
        const lanes = Array.from({ length: 10 }, async () => {
          for (let i = queue.shift(); i !== undefined; i = queue.shift())
            outcomes.push(await buy(i))
        })
        const killer = (async () => {
          const deadline = Date.now() + 180_000
          while ((await linkedSales()) < 15) {
            if (Date.now() > deadline) throw new Error('the sales did not start')
            await sleep(50)
          }
          victim = await killBusiestWorker(FORM)
          atKill = await linkedSales()
        })()
        await Promise.all([...lanes, killer])
        report(
          `template 1: ${String(SALES)} form sales in ${((Date.now() - started) / 1000).toFixed(1)} s; ${victim?.name ?? '?'} SIGKILLed at ${String(atKill)} linked (running ${String(victim?.running ?? 0)} executions of the form)`,
        )
      } finally {
        await clearFaults(stack)
      }

      // Every sale the shop linked is paid at the sandbox: its events go to template 3 by themselves.
      const sales = async () =>
        (
          await db.query<{
            invoice_number: string
            customer_email: string
            status: string
            order_code: string | null
            receipt_sent_at: Date | null
          }>("SELECT * FROM invoices WHERE kind = 'form sale' ORDER BY invoice_number")
        ).rows
      const linked = (await sales()).filter((r) => r.status === 'linked')
      const paying = Date.now()
      // Buyers paying one after another, 200 ms apart.
      for (const row of linked) {
        await moveOrder(stack, row.order_code ?? '', 'pay')
        await sleep(200)
      }
      const receipts = async () =>
        (await stack.mail.messages()).filter((m) => m.subject.startsWith('Receipt for order'))
      const receiptsFor = async (timeoutMs: number) => {
        const deadline = Date.now() + timeoutMs
        while ((await receipts()).length < linked.length && Date.now() < deadline) await sleep(500)
        await sleep(3000)
        await settled(stack, templateId(RECEIPT), 1, leftByKill, 180_000)
        return (await receipts()).length
      }
      const byThemselves = await receiptsFor(120_000)
      // What the sandbox's deliveries of these events met (each URL, each attempt).
      const paidCodes = new Set(linked.map((r) => r.order_code))
      const paidIds = new Set(
        (await sandboxEvents(stack))
          .filter((e) => e.type === 'order.paid' && paidCodes.has(e.data.orderCode))
          .map((e) => e.id),
      )
      const attempts = (
        (await (await fetch(`${stack.sandboxUrl}/__sandbox/deliveries`)).json()) as Array<{
          eventId: string
          status: number | null
          error: string | null
          willRetry: boolean
        }>
      ).filter((d) => paidIds.has(d.eventId))
      const met = new Map<string, number>()
      for (const d of attempts) {
        const what =
          d.status !== null && d.status < 300
            ? '2xx'
            : `${String(d.status ?? d.error ?? '?').slice(0, 40)}${d.willRetry ? '' : ' (given up)'}`
        met.set(what, (met.get(what) ?? 0) + 1)
      }
      report(
        `template 1: the sandbox's ${String(attempts.length)} delivery attempts of the ${String(paidIds.size)} order.paid events (to every trigger): ${[...met].map(([w, n]) => `${String(n)} ${w}`).join(', ')}`,
      )
      report(
        `template 1: ${String(linked.length)} sales paid at the sandbox, 200 ms apart: ${String(byThemselves)} receipts from the sandbox's own deliveries within ${((Date.now() - paying) / 1000).toFixed(0)} s`,
      )
      // The events of the sales still without a receipt sent again, freshly signed, as the
      // sandbox's resend control does by hand (a replay of a delivered one changes nothing).
      const receipted = new Set((await receipts()).map((m) => m.to))
      const codes = new Set(
        linked.filter((r) => !receipted.has(r.customer_email)).map((r) => r.order_code),
      )
      const again = (await sandboxEvents(stack)).filter(
        (e) => e.type === 'order.paid' && codes.has(e.data.orderCode),
      )
      for (const event of again) {
        const res = await fetch(`${stack.sandboxUrl}/__sandbox/events/${event.id}/resend`, {
          method: 'POST',
        })
        expect(res.status).toBe(202)
        await sleep(200)
      }
      const afterResend = await receiptsFor(120_000)
      report(
        `template 1: ${String(again.length)} events sent again by the sandbox's resend control: ${String(afterResend)} receipts`,
      )

      // The summary, as the next morning's run sees what a stopped run left (older than 5 minutes).
      await db.query(
        "UPDATE invoices SET claimed_at = claimed_at - interval '10 minutes', receipt_claimed_at = receipt_claimed_at - interval '10 minutes' WHERE kind = 'form sale'",
      )
      const summaryAt = await executionCount(SUMMARY)
      const summarized = await fetch(
        `${stack.editorUrl}webhook/${webhookPath(template(SUMMARY))}`,
        {
          method: 'POST',
        },
      )
      expect(summarized.status).toBe(200)
      await settled(stack, ids[SUMMARY] ?? '', summaryAt + 1, leftByKill)
      const summary = (await stack.mail.messages()).find((m) =>
        m.subject.startsWith('Payments summary'),
      )
      const text = summary?.text ?? ''
      const listed = (heading: string) =>
        (new RegExp(`^${heading}: (.*)$`, 'm').exec(text)?.[1] ?? '')
          .split(', ')
          .map((item) => item.replace(/ \(.*\)$/, ''))
          .filter((item) => item !== 'none' && item !== '')

      const rows = await sales()
      const links = await linksPerReference(stack)
      const mails = await receipts()
      const receiptsOf = (row: { invoice_number: string }) =>
        mails.filter((m) => m.subject === `Receipt for order ${row.invoice_number}`).length
      // No sale has two links: none can be paid twice.
      const twoLinks = rows.filter((r) => (links.get(r.invoice_number) ?? 0) > 1)
      expect(twoLinks).toEqual([])
      // Every link requested belongs to a sale claimed first.
      const claimed = new Set(rows.map((r) => r.invoice_number))
      expect([...links.keys()].filter((r) => r.startsWith('form-') && !claimed.has(r))).toEqual([])
      // No receipt twice.
      const twice = rows.filter((r) => receiptsOf(r) > 1)
      expect(twice).toEqual([])
      // Every sale claimed: paid with its one receipt, or listed by the summary.
      const headings = [
        'In doubt, claimed but never linked',
        'In doubt, receipt claimed but not recorded as sent',
        'Paid at Paykit, not marked paid here',
      ]
      const inDoubt = new Set(headings.flatMap(listed))
      report(
        `template 1: the summary lists ${headings.map((h) => `${String(listed(h).length)} under "${h}"`).join(', ')}`,
      )
      const done = rows.filter(
        (r) => r.status === 'paid' && r.receipt_sent_at !== null && receiptsOf(r) === 1,
      )
      const lost = rows.filter((r) => !done.includes(r) && !inDoubt.has(r.invoice_number))
      expect(lost).toEqual([])
      // A buyer with no row was never claimed: no link, nothing to pay.
      const endings = new Map<string, number>()
      for (const o of outcomes)
        endings.set(
          o.ending.replace(/\(.*/s, '').trim(),
          (endings.get(o.ending.replace(/\(.*/s, '').trim()) ?? 0) + 1,
        )
      report(
        `template 1: ${String(SALES)} buyers: ${[...endings].map(([e, n]) => `${String(n)} ended on ${e}`).join(', ')}; ${String(rows.length)} sales claimed, ${String(linked.length)} linked and paid at the sandbox, ${String(done.length)} marked paid with one receipt, ${String(mails.length)} receipts (${String(twice.length)} sales with two), ${String(twoLinks.length)} sales with two links, ${String(inDoubt.size)} listed in doubt by the summary (${[...inDoubt].join(', ') || 'none'}), ${String(lost.length)} lost unlisted`,
      )
    },
    20 * 60_000,
  )
})
