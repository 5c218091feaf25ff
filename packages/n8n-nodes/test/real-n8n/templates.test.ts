/**
 * Templates 2, 3 and 5 (templates/invoices-to-payment-links.json, mark-paid-send-receipt.json,
 * daily-payments-summary.json) published in a running n8n (`n8n start`, regular mode) as the
 * stack imports them, the shop's tables in the stack's database `shop` (an embedded Postgres),
 * the mail captured by the stack's MailDev: links per invoice counted at the sandbox, receipts
 * read back from MailDev, rows read from Postgres. The stack's sandbox sends each order event
 * to template 3's trigger by itself; the tests deliver copies and replays on top. Takes the
 * editor's screenshots of the three (packages/n8n-nodes/docs/template-*.png).
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { createClient } from '@paykit/core'
import { defaultCredentials } from '@paykit/testkit'
import {
  SCREENSHOTS_DIR,
  launchChromium,
  sandboxRequests,
  signedInPage,
  startStack,
  type Stack,
} from './support.js'
import {
  deliver,
  linksPerReference,
  moveOrder,
  sandboxEvents,
  settled,
  tablesSql,
  templateId,
  webhookPath,
  webhookServed,
  template,
} from './templatesShop.js'
import { PUBLISHED_ON_START } from '@paykit/tools/n8n/stack'

const INVOICES = 'invoices-to-payment-links.json'
const RECEIPT = 'mark-paid-send-receipt.json'
const SUMMARY = 'daily-payments-summary.json'

let stack: Stack
let db: pg.Client
const ids: Record<string, string> = {}

const report = (line: string) => process.stderr.write(`templates: ${line}\n`)

beforeAll(async () => {
  const booted = Date.now()
  // Published as `npm run n8n` publishes them (not template 4: its hourly run would race template 3's).
  stack = await startStack({
    sandboxArgs: ['--request-log-size', '100000'],
    log: report,
    publish: PUBLISHED_ON_START.filter(
      (f) => f === 'order-paid-read-back.json' || [INVOICES, RECEIPT, SUMMARY].includes(f),
    ),
  })
  db = stack.shop.client()
  await db.connect()
  for (const file of [INVOICES, RECEIPT, SUMMARY]) {
    ids[file] = templateId(file)
    await webhookServed(file, [stack.editorUrl])
  }
  report(`stack, tables and templates ready in ${((Date.now() - booted) / 1000).toFixed(1)} s`)
}, 10 * 60_000)

afterAll(async () => {
  await db?.end()
  await stack?.stop()
}, 120_000)

const hook = (file: string) => `${stack.editorUrl}webhook/${webhookPath(template(file))}`
const runNow = async (file: string) => {
  const res = await fetch(hook(file), { method: 'POST' })
  await res.text()
  return res.status
}
const executions = async (file: string) => (await settled(stack, ids[file] ?? '', 0)).length

interface InvoiceRow {
  readonly invoice_number: string
  readonly customer_email: string
  readonly status: string
  readonly problem: string | null
  readonly order_code: string | null
  readonly payment_link_url: string | null
  readonly receipt_sent_at: Date | null
}
const invoices = async (like = '%') =>
  (
    await db.query<InvoiceRow>(
      'SELECT * FROM invoices WHERE invoice_number LIKE $1 ORDER BY invoice_number',
      [like],
    )
  ).rows
const invoice = async (number: string) => (await invoices(number))[0] as InvoiceRow

const GOOD = 40

describe('what `npm run n8n` sets up for templates 2, 3 and 5', () => {
  it("creates the tables of template 2's note in the shop database, its settings and catalog, and publishes the three", async () => {
    const tables = await db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    )
    // Each table and view the note's SQL creates (the stack adds the claim example's table).
    const noted = [...tablesSql().matchAll(/CREATE (?:TABLE IF NOT EXISTS|OR REPLACE VIEW) (\w+)/g)]
      .map((m) => m[1])
      .sort()
    expect(noted).toEqual(['catalog', 'invoices', 'payment_events', 'products', 'shop_settings'])
    expect(tables.rows.map((r) => r.table_name)).toEqual(expect.arrayContaining(noted))
    const columns = await db.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'invoices' ORDER BY ordinal_position",
    )
    // Every column the note's SQL names (its CREATE TABLE, then its ALTER TABLEs), and no other.
    const sql = tablesSql()
    const created = /CREATE TABLE IF NOT EXISTS invoices \(([\s\S]*?)\n\);/.exec(sql)?.[1] ?? ''
    const named = [
      ...[...created.matchAll(/^ {2}(\w+) /gm)].map((m) => m[1]),
      ...[...sql.matchAll(/ALTER TABLE invoices ADD COLUMN IF NOT EXISTS (\w+) /g)].map(
        (m) => m[1],
      ),
    ]
    expect(columns.rows.map((r) => r.column_name)).toEqual(named)
    expect(named).toEqual(
      expect.arrayContaining(['order_code', 'reminders', 'kind', 'currency', 'items']),
    )
    // The defaults: one currency (the sandbox store's), links of 60 minutes, at most 10 of one product.
    const settings = await db.query(
      'SELECT currency, link_lifetime_minutes, max_quantity FROM shop_settings',
    )
    expect(settings.rows).toEqual([
      { currency: 'USD', link_lifetime_minutes: 60, max_quantity: 10 },
    ])
    const catalog = await db.query<{ choice: string }>('SELECT choice FROM catalog ORDER BY name')
    expect(catalog.rows.map((r) => r.choice)).toEqual([
      'Coffee mug, 12.50 USD',
      'Sticker, 0.10 USD',
      'T-shirt, 19.99 USD',
      'Workshop ticket, 45.00 USD',
    ])
    // The note's SQL runs again on a next start: it changes nothing, and keeps the owner's edits.
    await db.query("UPDATE products SET price = 13.00 WHERE sku = 'MUG'")
    await db.query(tablesSql())
    expect((await db.query("SELECT price FROM products WHERE sku = 'MUG'")).rows[0]).toEqual({
      price: '13.00',
    })
    await db.query("UPDATE products SET price = 12.50 WHERE sku = 'MUG'")
    for (const file of [INVOICES, RECEIPT, SUMMARY]) {
      const workflow = (await stack.rest(`/workflows/${ids[file] ?? ''}`)) as {
        data: { active: boolean }
      }
      expect({ file, active: workflow.data.active }).toEqual({ file, active: true })
    }
  })
})

describe('template 2: invoices to payment links, exactly once (regular mode)', () => {
  it('links each invoice once through runs at once and re-runs; refuses a negative amount by name', async () => {
    await db.query(
      `INSERT INTO invoices (invoice_number, customer_email, amount, description)
       SELECT 'INV-' || lpad(n::text, 4, '0'), 'buyer-' || n || '@example.com', 10 + n, 'Invoice ' || n
       FROM generate_series(1, ${String(GOOD)}) AS n`,
    )
    await db.query(
      "INSERT INTO invoices (invoice_number, customer_email, amount) VALUES ('INV-BAD', 'bad@example.com', -5)",
    )
    // An invoice in another currency than the store's.
    await db.query(
      "INSERT INTO invoices (invoice_number, customer_email, amount, currency) VALUES ('INV-EUR', 'eur@example.com', 9, 'EUR')",
    )
    const before = await executions(INVOICES)
    // Three runs at once (each claims up to 25), then two re-runs.
    expect(await Promise.all([1, 2, 3].map(() => runNow(INVOICES)))).toEqual([200, 200, 200])
    await settled(stack, ids[INVOICES] ?? '', before + 3)
    expect([await runNow(INVOICES), await runNow(INVOICES)]).toEqual([200, 200])
    await settled(stack, ids[INVOICES] ?? '', before + 5)

    const links = await linksPerReference(stack)
    const rows = await invoices('INV-0%')
    expect(rows).toHaveLength(GOOD)
    for (const row of rows) {
      expect({ row: row.invoice_number, links: links.get(row.invoice_number) }).toEqual({
        row: row.invoice_number,
        links: 1,
      })
      expect(row.status).toBe('linked')
      expect(row.order_code).toMatch(/^OC/)
      expect(row.payment_link_url).toMatch(/^http/)
    }
    const bad = await invoice('INV-BAD')
    expect(bad.status).toBe('refused')
    expect(bad.problem).toMatch(/amount/)
    expect(links.has('INV-BAD')).toBe(false)
    const eur = await invoice('INV-EUR')
    expect(eur.status).toBe('refused')
    expect(eur.problem).toBe("currency: EUR is not the store's currency (USD); nothing was created")
    expect(links.has('INV-EUR')).toBe(false)
    // Each link lives as long as the shop's setting says.
    const asked = (await sandboxRequests(stack)).filter((r) => r.path === '/paymentlink/checkout')
    expect(
      new Set(
        asked.map((r) => (JSON.parse(r.body) as { expirationMinutes?: number }).expirationMinutes),
      ),
    ).toEqual(new Set([60]))
    report(
      `template 2: ${String(GOOD)} invoices, 3 runs at once then 2 re-runs: ${String([...links.values()].reduce((a, n) => a + n, 0))} links (1 per invoice); INV-BAD refused: ${String(bad.problem)}`,
    )
  }, 180_000)

  it('retries an invoice left in doubt only once the link lifetime (60 min + 10) has passed since its claim; never a form sale', async () => {
    // As a run that stopped between claim and record leaves them: 'linking', no order code.
    await db.query(
      `INSERT INTO invoices (invoice_number, customer_email, amount, status, claimed_at, kind) VALUES
       ('INV-DOUBT-RECENT', 'recent@example.com', 30, 'linking', now() - interval '69 minutes', 'invoice'),
       ('INV-DOUBT-OLD', 'old@example.com', 31, 'linking', now() - interval '71 minutes', 'invoice'),
       ('form-DOUBT', 'buyer@example.com', 32, 'linking', now() - interval '2 days', 'form sale')`,
    )
    const before = await executions(INVOICES)
    expect(await runNow(INVOICES)).toBe(200)
    await settled(stack, ids[INVOICES] ?? '', before + 1)
    const links = await linksPerReference(stack)
    expect((await invoice('INV-DOUBT-OLD')).status).toBe('linked')
    expect(links.get('INV-DOUBT-OLD')).toBe(1)
    const recent = await invoice('INV-DOUBT-RECENT')
    expect(recent.status).toBe('linking')
    expect(recent.order_code).toBeNull()
    expect(links.has('INV-DOUBT-RECENT')).toBe(false)
    // A form sale in doubt is not linked again (its buyer has left): template 5 lists it.
    expect((await invoice('form-DOUBT')).status).toBe('linking')
    expect(links.has('form-DOUBT')).toBe(false)
  }, 120_000)
})

describe('template 3: mark paid once, send a receipt (regular mode)', () => {
  it('replays, copies at once and an out-of-order order.finalized: one paid row and one receipt each', async () => {
    const [a, b, c] = await invoices('INV-000%')
    if (a?.order_code == null || b?.order_code == null || c?.order_code == null)
      throw new Error('template 2 linked no invoices')
    await moveOrder(stack, a.order_code, 'pay')
    await moveOrder(stack, b.order_code, 'pay')
    await moveOrder(stack, b.order_code, 'finalize')
    const events = await sandboxEvents(stack)
    const of = (code: string, type: string) => {
      const event = events.find((e) => e.data.orderCode === code && e.type === type)
      if (event === undefined) throw new Error(`no ${type} event for ${code}`)
      return event
    }
    const aPaid = of(a.order_code, 'order.paid')
    const bPaid = of(b.order_code, 'order.paid')
    const bFinalized = of(b.order_code, 'order.finalized')
    const url = hook(RECEIPT)
    const before = await executions(RECEIPT)
    // A: 10 copies at once, then 5 replays one by one. B: finalized first, then 5 paid at once.
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => deliver(url, aPaid)),
      deliver(url, bFinalized),
    ])
    for (let i = 0; i < 5; i++) answers.push(await deliver(url, aPaid))
    answers.push(...(await Promise.all(Array.from({ length: 5 }, () => deliver(url, bPaid)))))
    expect(answers.every((s) => s === 200)).toBe(true)
    // A paid, B finalized, B paid: three events, each run at least once.
    await settled(stack, ids[RECEIPT] ?? '', before + 3)
    await new Promise((r) => setTimeout(r, 2000))
    await settled(stack, ids[RECEIPT] ?? '', before + 3)

    const mails = await stack.mail.messages()
    const to = (email: string) => mails.filter((m) => m.to === email)
    expect(to(a.customer_email)).toHaveLength(1)
    expect(to(b.customer_email)).toHaveLength(1)
    expect(to(c.customer_email)).toHaveLength(0)
    expect(to(a.customer_email)[0]?.subject).toBe(`Receipt for invoice ${a.invoice_number}`)
    expect(to(a.customer_email)[0]?.text).toContain(a.order_code)
    // INV-0001's amount is 11: the receipt states the total and its currency.
    expect(to(a.customer_email)[0]?.text).toContain('Total: 11.00 USD')
    for (const row of [await invoice(a.invoice_number), await invoice(b.invoice_number)]) {
      expect(row.status).toBe('paid')
      expect(row.receipt_sent_at).not.toBeNull()
    }
    expect((await invoice(c.invoice_number)).status).toBe('linked')
    const paid = await db.query<{ n: string }>(
      "SELECT count(*) AS n FROM invoices WHERE status = 'paid'",
    )
    const recorded = await db.query<{ n: string }>('SELECT count(*) AS n FROM payment_events')
    expect(Number(paid.rows[0]?.n)).toBe(2)
    expect(Number(recorded.rows[0]?.n)).toBe(3)
    report(
      `template 3: ${String(answers.length)} deliveries (A paid x15, B finalized then paid x5): ${String(paid.rows[0]?.n)} paid rows, ${String(mails.length)} receipts, ${String(recorded.rows[0]?.n)} events recorded, ${String((await executions(RECEIPT)) - before)} executions`,
    )
  }, 180_000)
})

describe('template 5: daily payments summary (regular mode)', () => {
  it('emails the paid totals per day read back from Paykit, and an order paid there but not marked here', async () => {
    const [a, b, c] = await invoices('INV-000%')
    if (c?.order_code == null) throw new Error('no third invoice')
    // Paid at the service; the sandbox sends its event to template 3, which marks it paid.
    const before3 = await executions(RECEIPT)
    await moveOrder(stack, c.order_code, 'pay')
    await settled(stack, ids[RECEIPT] ?? '', before3 + 1)
    expect((await invoice(c.invoice_number)).status).toBe('paid')
    // As if that event had been lost: the row as it was before it.
    await db.query(
      "UPDATE invoices SET status = 'linked', paid_at = NULL, receipt_claimed_at = NULL, receipt_sent_at = NULL WHERE invoice_number = $1",
      [c.invoice_number],
    )
    // What a stopped run leaves, older than 5 minutes: a receipt claimed and not recorded sent
    // (form-DOUBT, claimed and never linked, is there from template 2's test).
    await db.query(
      "INSERT INTO invoices (invoice_number, customer_email, amount, status, order_code, linked_at, paid_at, receipt_claimed_at, kind) VALUES ('form-UNSENT', 'u@example.com', 5, 'paid', 'OC-NOT-AT-PAYKIT', now(), now(), now() - interval '6 minutes', 'form sale')",
    )
    await stack.mail.clear()
    const before = await executions(SUMMARY)
    expect(await runNow(SUMMARY)).toBe(200)
    await settled(stack, ids[SUMMARY] ?? '', before + 1)
    const mails = await stack.mail.messages()
    expect(mails).toHaveLength(1)
    const summary = mails[0]
    expect(summary?.to).toBe('owner@example.com')
    const today = new Date().toISOString().slice(0, 10)
    // INV-0001 and INV-0002: amounts 11 and 12.
    expect(summary?.text).toContain(`${today}: 2 paid (0 form sales, 2 invoices), 23.00 USD`)
    expect(summary?.text).toContain(`Paid at Paykit, not marked paid here: ${c.invoice_number}`)
    expect(summary?.text).toContain('Marked paid here, not paid at Paykit: none')
    expect(summary?.text).toContain('Not read back from Paykit: form-UNSENT')
    // INV-DOUBT-RECENT waits for the lifetime to pass before template 2 links it again.
    expect(summary?.text).toContain(
      'In doubt, claimed but never linked: INV-DOUBT-RECENT (invoice), form-DOUBT (form sale)',
    )
    expect(summary?.text).toContain(
      'In doubt, receipt claimed but not recorded as sent: form-UNSENT (form sale)',
    )
    expect([a?.invoice_number, b?.invoice_number]).toEqual(['INV-0001', 'INV-0002'])
    report(`template 5: one summary mail:\n${String(summary?.text)}`)
  }, 120_000)
})

describe('the templates in the editor', () => {
  it('shows each template on the canvas with its notes (screenshots for the README)', async () => {
    mkdirSync(SCREENSHOTS_DIR, { recursive: true })
    const browser = await launchChromium()
    try {
      const page = await signedInPage(browser, stack, { width: 1600, height: 1000 })
      for (const [file, first] of [
        [INVOICES, 'Claim Invoices'],
        [RECEIPT, 'Mark Invoice Paid'],
        [SUMMARY, 'In Doubt'],
      ] as const) {
        await page.goto(`${stack.editorUrl}workflow/${ids[file] ?? ''}`)
        await page.locator('[data-test-id="canvas-node"]', { hasText: first }).waitFor()
        // n8n opens its Production Checklist on a published workflow: closed as a user would.
        const checklist = page.getByText('Production Checklist')
        if (await checklist.isVisible().catch(() => false)) {
          await page.keyboard.press('Escape')
          await checklist.waitFor({ state: 'hidden', timeout: 10_000 })
        }
        await page.locator('[data-test-id="zoom-to-fit"]').click()
        await page.waitForTimeout(1500)
        await page.screenshot({
          path: join(SCREENSHOTS_DIR, `template-${file.replace(/\.json$/, '')}.png`),
        })
      }
    } finally {
      await browser.close()
    }
  }, 180_000)
})

describe('template 3 after template 4 marked the invoice paid', () => {
  it("the order's event still sends its one receipt", async () => {
    const d = await invoice('INV-0005')
    if (d.order_code == null) throw new Error('INV-0005 was not linked')
    // Template 4's read-back got there before the event: paid, no receipt claimed.
    await db.query(
      "UPDATE invoices SET status = 'paid', paid_at = now() WHERE invoice_number = $1 AND status = 'linked'",
      [d.invoice_number],
    )
    await moveOrder(stack, d.order_code, 'pay')
    const event = (await sandboxEvents(stack)).find(
      (e) => e.data.orderCode === d.order_code && e.type === 'order.paid',
    )
    if (event === undefined) throw new Error(`no order.paid event for ${d.order_code}`)
    const before = await executions(RECEIPT)
    expect(await deliver(hook(RECEIPT), event)).toBe(200)
    expect(await deliver(hook(RECEIPT), event)).toBe(200) // a replay
    await settled(stack, ids[RECEIPT] ?? '', before + 1)
    await new Promise((r) => setTimeout(r, 2000))
    await settled(stack, ids[RECEIPT] ?? '', before + 1)
    const receipts = (await stack.mail.messages()).filter((m) => m.to === d.customer_email)
    expect(receipts).toHaveLength(1)
    expect(receipts[0]?.subject).toBe(`Receipt for invoice ${d.invoice_number}`)
    expect((await invoice(d.invoice_number)).receipt_sent_at).not.toBeNull()
  }, 120_000)
})

describe('the link lifetime that template 2 waits out', () => {
  it('a link older than its expirationMinutes (60) reads CANCELLED: it cannot be paid', async () => {
    const [row] = await invoices('INV-0004')
    if (row?.order_code == null) throw new Error('INV-0004 was not linked')
    // The sandbox's clock past the 60 minutes template 2 asks for (last: every link expires).
    const clock = await fetch(`${stack.sandboxUrl}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceSeconds: 61 * 60 }),
    })
    expect(clock.status).toBe(200)
    const client = createClient({
      baseUrl: stack.sandboxUrl,
      credentials: { ...defaultCredentials },
    })
    const order = await client.getOrder(row.order_code)()
    expect(E.isRight(order) && order.right.orderStatus).toBe('CANCELLED')
    const pay = await fetch(`${stack.sandboxUrl}/__sandbox/orders/${row.order_code}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(pay.status).toBe(409)
  }, 60_000)
})
