/**
 * Templates 1 and 4 (packages/n8n-nodes/templates/) in a running n8n (`n8n start`, the stack
 * of `npm run n8n`: its sandbox sending every order event to each Paykit Trigger, the shop's
 * Postgres database with its catalog, MailDev capturing the mail), published as
 * `npm run n8n` publishes them, with templates 3 and 5:
 *
 * - sell-with-a-form.json in Chromium, as a buyer does it: the email typed, a product chosen
 *   from the list the catalog gave, the quantity typed, submitted; the checkout page paid by
 *   typing the test card. Then, with nothing else done: the receipt (items, total, currency)
 *   in MailDev, the sale paid in the shop's database, and template 5's summary counting it.
 *   Each bad answer typed into the page, and what the page shows; no link, no mail, no row.
 * - the same form posted past the page (as n8n's page posts it): an answer the page would
 *   have stopped is refused by the template itself, by name.
 * - remind-and-renew.json: linked invoices in the shop's table `invoices`, their links expired
 *   by the sandbox clock; one run renews the expired one and emails one reminder, marks the
 *   paid one paid without a reminder, refuses a negative amount by name (no link), leaves the
 *   open one; a second run sends nothing more.
 *
 * Prints its timings ("templates-form:" lines).
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { createClient } from '@paykit/core'
import { Money } from '@paykit/core/money'
import { defaultCredentials, testCards } from '@paykit/testkit'
import {
  SCREENSHOTS_DIR,
  executionsOfWorkflow,
  launchChromium,
  signedInPage,
  payOnCheckoutPage,
  startStack,
  type Stack,
} from './support.js'
import {
  formPathOf,
  sellByHttp,
  settled,
  template,
  templateId,
  webhookPath,
  webhookServed,
} from './templatesShop.js'

const FORM = 'sell-with-a-form.json'
const RECEIPT = 'mark-paid-send-receipt.json'
const SUMMARY = 'daily-payments-summary.json'
const REMIND = 'remind-and-renew.json'

let stack: Stack
let db: pg.Client
let formUrl = ''

/** A browser page, as the testkit's Chromium opens it. */
type Page = Awaited<ReturnType<Awaited<ReturnType<typeof launchChromium>>['newPage']>>

const report = (line: string) => process.stderr.write(`templates-form: ${line}\n`)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

beforeAll(async () => {
  stack = await startStack({ publish: [FORM, RECEIPT, SUMMARY, REMIND], log: report })
  db = stack.shop.client()
  await db.connect()
  formUrl = `${stack.editorUrl}form/${formPathOf(FORM) ?? ''}`
  // Publishing returns before n8n has registered the form and the webhooks: wait for them.
  for (const file of [FORM, RECEIPT, SUMMARY]) await webhookServed(file, [stack.editorUrl])
}, 300_000)

afterAll(async () => {
  await db?.end()
  await stack?.stop()
}, 60_000)

const orderOf = async (orderCode: string) => {
  const client = createClient({ baseUrl: stack.sandboxUrl, credentials: { ...defaultCredentials } })
  const order = await client.getOrder(orderCode)()
  if (E.isLeft(order)) throw new Error(order.left.message)
  return order.right
}

const linkCreates = async () => {
  const log = (await (await fetch(`${stack.sandboxUrl}/__sandbox/requests`)).json()) as Array<{
    method: string
    path: string
  }>
  return log.filter((r) => r.method === 'POST' && r.path === '/paymentlink/checkout').length
}

/** The catalog's products as the form lists them (the shop's view `catalog`). */
const catalogChoices = async () =>
  (await db.query<{ choice: string }>('SELECT choice FROM catalog ORDER BY name')).rows.map(
    (r) => r.choice,
  )

const formSales = async () =>
  (
    await db.query<{
      invoice_number: string
      status: string
      amount: string
      currency: string
      order_code: string | null
      receipt_sent_at: Date | null
    }>("SELECT * FROM invoices WHERE kind = 'form sale' ORDER BY claimed_at")
  ).rows

/** Waits for a mail that `match` picks; returns it. */
const mailWhere = async (
  match: (m: { to: string; subject: string; text: string }) => boolean,
  timeoutMs = 60_000,
) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = (await stack.mail.messages()).find(match)
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error('no such mail')
    await sleep(100)
  }
}

// -------------------------------------------------------------------------------------
// the buyer in Chromium
// -------------------------------------------------------------------------------------

/** Page 1 of the form: the email typed, Next pressed. */
const firstPage = async (page: Page, email: string) => {
  await page.goto(formUrl)
  await page.locator('#field-0').fill(email)
  await page.locator('#submit-btn').click()
}

/** Page 2 as it opens: its product list. */
const secondPage = async (page: Page) => {
  await page.locator('select#field-0').waitFor()
  return (await page.locator('select#field-0 option:not([disabled])').allInnerTexts()).map(
    (t: string) => t.trim(),
  )
}

/** What the buyer sees under a field of the page (n8n's own check), or '' when nothing. */
const errorUnder = async (page: Page, field: number) => {
  const error = page.locator(`.error-field-${String(field)}`)
  return (await error.getAttribute('class'))?.includes('error-show') === true
    ? (await error.innerText()).trim()
    : ''
}

/** The ending page the buyer lands on: its title and text. */
const endingPage = async (page: Page) => {
  await page.locator('h1', { hasText: /Not accepted|No payment link/ }).waitFor()
  return {
    title: (await page.locator('h1').innerText()).trim(),
    message: (await page.locator('p[style="white-space: pre-line;"]').innerText()).trim(),
  }
}

describe('template 1: sell with a form, in Chromium, paid, with nothing else done', () => {
  it('form -> checkout page -> card typed -> receipt with items, total and currency, sale paid, counted by the summary', async () => {
    await stack.mail.clear()
    const browser = await launchChromium()
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
      page.setDefaultTimeout(60_000)
      await firstPage(page, 'grace@example.com')
      // Page 2 lists the catalog as the shop's database holds it.
      const offered = await secondPage(page)
      expect(offered).toEqual(await catalogChoices())
      expect(offered).toContain('T-shirt, 19.99 USD')
      expect(await page.locator('body').innerText()).toContain('Prices in USD. Up to 10')
      await page.locator('select#field-0').selectOption('T-shirt, 19.99 USD')
      await page.locator('#field-1').pressSequentially('3')
      const submitted = Date.now()
      await page.locator('#submit-btn').click()
      await page.waitForURL((url) => url.href.startsWith(`${stack.sandboxUrl}/pay/`))
      const toPayPage = Date.now() - submitted
      const link = page.url()
      const orderCode = link.split('/').pop() ?? ''
      // The checkout page: the item and the total in the catalog's currency.
      expect(await page.locator('#total').innerText()).toBe('$59.97 USD')
      expect(await page.locator('tbody').innerText()).toContain('T-shirt')
      // The sale was a row of the shop's orders before its link; now linked with it.
      const [sale] = await formSales()
      expect(sale).toMatchObject({
        status: 'linked',
        amount: '59.97',
        currency: 'USD',
        order_code: orderCode,
      })
      const linkMail = await mailWhere((m) => m.subject.startsWith('Your payment link'))
      expect(linkMail.to).toBe('grace@example.com')
      expect(linkMail.text).toContain(link)
      expect(linkMail.text).toContain('3 x T-shirt at 19.99 USD: 59.97 USD\nTotal: 59.97 USD')

      // The buyer types the test card and pays.
      await page.getByLabel('Card number').fill(testCards.success.number)
      await page.getByLabel('Expiry month (MM)').fill('12')
      await page.getByLabel('Expiry year (YYYY)').fill(String(new Date().getUTCFullYear() + 2))
      await page.getByLabel('CVV').fill('123')
      await page.getByLabel('Name on card').fill('Grace Buyer')
      await page.getByLabel('E-mail').fill('grace@example.com')
      const paidAt = Date.now()
      await Promise.all([
        page.waitForEvent('load'),
        page.getByRole('button', { name: /^Pay/ }).click(),
      ])
      expect(await page.locator('h1').innerText()).toBe('Payment received')

      // Nothing else done: the sandbox's signed event reaches template 3 by itself.
      const receipt = await mailWhere((m) => m.subject.startsWith('Receipt'))
      const toReceipt = Date.now() - paidAt
      expect(receipt).toMatchObject({
        to: 'grace@example.com',
        subject: `Receipt for order ${sale?.invoice_number ?? '?'}`,
      })
      expect(receipt.text).toContain('3 x T-shirt at 19.99 USD: 59.97 USD')
      expect(receipt.text).toContain('Total: 59.97 USD')
      expect(receipt.text).toContain(orderCode)
      await settled(stack, templateId(RECEIPT), 1)
      const [paid] = await formSales()
      expect(paid?.status).toBe('paid')
      expect(paid?.receipt_sent_at).toBeInstanceOf(Date)
      expect((await orderOf(orderCode)).orderStatus).toBe('PAID')
      // One receipt, however many copies of the events arrived.
      await sleep(2000)
      expect((await stack.mail.messages()).filter((m) => m.subject.startsWith('Receipt'))).toEqual([
        receipt,
      ])

      // The owner's summary (its Send Now webhook) counts the sale.
      const summarized = await fetch(
        `${stack.editorUrl}webhook/${webhookPath(template(SUMMARY))}`,
        { method: 'POST' },
      )
      expect(summarized.status).toBe(200)
      const summary = await mailWhere((m) => m.subject.startsWith('Payments summary'))
      const today = new Date().toISOString().slice(0, 10)
      expect(summary.text).toContain(`${today}: 1 paid (1 form sales, 0 invoices), 59.97 USD`)
      expect(summary.text).toContain('In doubt, claimed but never linked: none')
      report(
        `Chromium: submit -> pay page ${(toPayPage / 1000).toFixed(1)} s; Pay pressed -> receipt in MailDev ${(toReceipt / 1000).toFixed(1)} s`,
      )
    } finally {
      await browser.close()
    }
  }, 240_000)

  it('bad answers typed into the page: what the buyer sees; no link, no mail, no sale', async () => {
    await stack.mail.clear()
    const creates = await linkCreates()
    const sales = (await formSales()).length
    const browser = await launchChromium()
    const seen: Array<string> = []
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
      page.setDefaultTimeout(60_000)

      // Page 1: emails n8n's page cannot read are stopped on the page itself.
      for (const email of ['not-an-email', 'ada@example']) {
        await firstPage(page, email)
        await sleep(500)
        expect(await errorUnder(page, 0)).toBe('Enter a valid email address in this field')
        expect(page.url()).toBe(formUrl)
        seen.push(`email "${email}": under Email, "${await errorUnder(page, 0)}"`)
      }

      /** Page 2 with the product chosen and the quantity typed key by key. */
      const choose = async (quantity: string, product = 'Coffee mug, 12.50 USD') => {
        await firstPage(page, 'ada@example.com')
        await secondPage(page)
        if (product !== '') await page.locator('select#field-0').selectOption(product)
        await page.locator('#field-1').pressSequentially(quantity)
        const kept = await page.locator('#field-1').inputValue()
        await page.locator('#submit-btn').click()
        return kept
      }

      // Letters: the number field drops them, and the page says the field is required.
      expect(await choose('abc')).toBe('')
      await sleep(500)
      expect(await errorUnder(page, 1)).toBe('This field is required')
      seen.push(`quantity "abc": the field keeps "", under Quantity "${await errorUnder(page, 1)}"`)
      // No product chosen: the page says so.
      await choose('1', '')
      await sleep(500)
      expect(await errorUnder(page, 0)).toBe('This field is required')
      seen.push(`no product chosen: under Product "${await errorUnder(page, 0)}"`)

      // What the page lets through, the template refuses by name.
      const quantityRefused = 'Quantity: a whole number from 1 to 10'
      for (const quantity of ['0', '-3', '1.5', '11']) {
        const kept = await choose(quantity)
        const ending = await endingPage(page)
        expect(ending).toEqual({
          title: 'Not accepted',
          message: `${quantityRefused}. Nothing was charged or sent: go back and correct it.`,
        })
        seen.push(
          `quantity "${quantity}" (the field keeps "${kept}"): ${ending.title}: ${ending.message}`,
        )
      }

      // A product withdrawn while the buyer was choosing.
      await firstPage(page, 'ada@example.com')
      await secondPage(page)
      await db.query("UPDATE products SET active = false WHERE sku = 'MUG'")
      try {
        await page.locator('select#field-0').selectOption('Coffee mug, 12.50 USD')
        await page.locator('#field-1').pressSequentially('1')
        await page.locator('#submit-btn').click()
        const ending = await endingPage(page)
        expect(ending.title).toBe('Not accepted')
        expect(ending.message).toMatch(/^Product: choose one of the products offered/)
        seen.push(`a product withdrawn meanwhile: ${ending.title}: ${ending.message}`)
      } finally {
        await db.query("UPDATE products SET active = true WHERE sku = 'MUG'")
      }

      // A catalog product priced in another currency than the store's.
      await db.query(
        "INSERT INTO products (sku, name, price, currency) VALUES ('POSTER', 'Poster', 8.00, 'EUR')",
      )
      try {
        await firstPage(page, 'ada@example.com')
        expect(await secondPage(page)).toContain('Poster, 8.00 EUR')
        await page.locator('select#field-0').selectOption('Poster, 8.00 EUR')
        await page.locator('#field-1').pressSequentially('1')
        await page.locator('#submit-btn').click()
        const ending = await endingPage(page)
        expect(ending).toEqual({
          title: 'Not accepted',
          message:
            'Product: Poster is priced in EUR, and this shop takes USD only. Nothing was charged or sent: go back and correct it.',
        })
        seen.push(`a product priced in EUR: ${ending.title}: ${ending.message}`)
      } finally {
        await db.query("DELETE FROM products WHERE sku = 'POSTER'")
      }
    } finally {
      await browser.close()
    }
    expect(await linkCreates()).toBe(creates)
    expect(await stack.mail.messages()).toHaveLength(0)
    expect(await formSales()).toHaveLength(sales)
    for (const line of seen) report(`the buyer sees: ${line}`)
  }, 300_000)
})

describe('template 1 posted past the page, as the page posts it', () => {
  it('an email the page would stop is refused by the template by name; a good sale is linked, paid and receipted', async () => {
    await stack.mail.clear()
    const creates = await linkCreates()
    const refused = await sellByHttp(formUrl, {
      email: 'ada@b',
      product: 'Sticker, 0.10 USD',
      quantity: '3',
    })
    expect(refused).toMatchObject({
      title: 'Not accepted',
      message:
        'Email: an email address, like you@example.com. Nothing was charged or sent: go back and correct it.',
      redirectUrl: undefined,
    })
    expect(await linkCreates()).toBe(creates)
    // Prices that binary floats cannot hold: 3 x 0.10 is 0.30, computed by Postgres.
    const sold = await sellByHttp(formUrl, {
      email: 'lin@example.com',
      product: 'Sticker, 0.10 USD',
      quantity: '3',
    })
    expect(sold.redirectUrl).toMatch(new RegExp(`^${stack.sandboxUrl}/pay/`))
    const orderCode = sold.redirectUrl?.split('/').pop() ?? ''
    const order = await orderOf(orderCode)
    expect(order.orderStatus).toBe('PENDING')
    expect(Money.toString(order.total)).toBe('0.3')
    expect(order.orderReference).toMatch(/^form-\d+$/)
    expect(await linkCreates()).toBe(creates + 1)
    expect((await payOnCheckoutPage(sold.redirectUrl ?? '')).status).toBeLessThan(400)
    const receipt = await mailWhere((m) => m.subject.startsWith('Receipt'))
    expect(receipt.to).toBe('lin@example.com')
    expect(receipt.text).toContain('3 x Sticker at 0.10 USD: 0.30 USD\nTotal: 0.30 USD')
  }, 180_000)
})

describe('template 4: remind and renew', () => {
  const createLink = async (orderReference: string, amount: number) => {
    const res = await fetch(`${stack.sandboxUrl}/paymentlink/checkout`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${defaultCredentials.apiKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ orderReference, amount, expirationMinutes: 60 }),
    })
    expect(res.status).toBe(200)
    return (await res.json()) as { orderCode: string; paymentLinkUrl: string }
  }

  const runOnce = async () => {
    const id = templateId(REMIND)
    const before = (await executionsOfWorkflow(stack, id)).length
    const run = await stack.cli(['execute', `--id=${id}`])
    expect(run.code, run.stdout + run.stderr).toBe(0)
    return before
  }

  it('renews an expired link once with one reminder; a paid invoice is marked paid, not reminded; a negative amount is refused by name', async () => {
    const expired = await createLink('INV-401', 30)
    const paid = await createLink('INV-402', 45)
    const corrected = await createLink('INV-404', 5)
    // Paid before its row exists: template 3 gets the event and finds no order to mark.
    const receipts = (await executionsOfWorkflow(stack, templateId(RECEIPT))).length
    await payOnCheckoutPage(paid.paymentLinkUrl)
    await settled(stack, templateId(RECEIPT), receipts + 1)
    // Linked rows, as template 2 leaves them.
    const insert = (n: string, email: string, amount: number, link: typeof expired) =>
      db.query(
        "INSERT INTO invoices (invoice_number, customer_email, amount, status, order_code, payment_link_url, linked_at) VALUES ($1, $2, $3, 'linked', $4, $5, now())",
        [n, email, amount, link.orderCode, link.paymentLinkUrl],
      )
    await insert('INV-401', 'late@example.com', 30, expired)
    await insert('INV-402', 'paid@example.com', 45, paid)
    // An invoice whose amount was corrected to a negative one after it was linked.
    await insert('INV-404', 'bad@example.com', -5, corrected)
    // Rows of the other states are not this template's.
    await db.query(
      "INSERT INTO invoices (invoice_number, customer_email, amount) VALUES ('INV-405', 'new@example.com', 7)",
    )
    // Two hours later the first links are past their 60 minutes; a fourth is new.
    const clock = await fetch(`${stack.sandboxUrl}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceSeconds: 7200 }),
    })
    expect(clock.status).toBe(200)
    const open = await createLink('INV-403', 12)
    await insert('INV-403', 'open@example.com', 12, open)
    expect((await orderOf(expired.orderCode)).orderStatus).toBe('CANCELLED')

    await stack.mail.clear()
    const creates = await linkCreates()
    await runOnce()
    const rows = async () =>
      (
        await db.query<{
          invoice_number: string
          status: string
          order_code: string | null
          payment_link_url: string | null
          reminders: number
          reminded_at: Date | null
          problem: string | null
        }>(
          "SELECT invoice_number, status, order_code, payment_link_url, reminders, reminded_at, problem FROM invoices WHERE invoice_number LIKE 'INV-40%' ORDER BY invoice_number",
        )
      ).rows
    const after = await rows()
    expect(after.map((r) => [r.invoice_number, r.status, r.reminders])).toEqual([
      ['INV-401', 'linked', 1],
      ['INV-402', 'paid', 0],
      ['INV-403', 'linked', 0],
      ['INV-404', 'refused', 0],
      ['INV-405', 'new', 0],
    ])
    const renewed = after[0]
    expect(renewed?.order_code).not.toBe(expired.orderCode)
    expect(renewed?.reminded_at).toBeInstanceOf(Date)
    expect((await orderOf(renewed?.order_code ?? '')).orderStatus).toBe('PENDING')
    // The refusal names the field; nothing was created for it.
    expect(after[3]?.problem).toMatch(/amount/)
    expect(after[3]?.order_code).toBe(corrected.orderCode)
    expect(await linkCreates()).toBe(creates + 1)
    const mail = await stack.mail.messages()
    expect(mail.map((m) => [m.to, m.subject])).toEqual([
      ['late@example.com', 'Reminder: invoice INV-401 is unpaid'],
    ])
    expect(mail[0]?.text).toContain('(30.00 USD)')
    expect(mail[0]?.text).toContain(renewed?.payment_link_url ?? '?')
    expect(after[2]?.order_code).toBe(open.orderCode)
    // The new link lives as long as the shop's setting says (60 minutes by default).
    const renewal = (await (
      await fetch(`${stack.sandboxUrl}/__sandbox/requests`)
    ).json()) as Array<{
      method: string
      path: string
      body: string
    }>
    const request = renewal.filter((r) => r.path === '/paymentlink/checkout').pop()
    expect(JSON.parse(request?.body ?? '{}')).toMatchObject({
      orderReference: 'INV-401-r1',
      expirationMinutes: 60,
    })

    // Run again: every link is paid or open, nothing more is created or sent.
    await runOnce()
    expect(await rows()).toEqual(after)
    expect(await linkCreates()).toBe(creates + 1)
    expect(await stack.mail.messages()).toHaveLength(1)
  }, 300_000)

  it('is published: its Schedule Trigger is active in the running n8n', async () => {
    const workflow = (await stack.rest(`/workflows/${templateId(REMIND)}`)) as {
      data: { active: boolean }
    }
    expect(workflow.data.active).toBe(true)
  })
})

describe("the templates in the editor (the docs' screenshots)", () => {
  it('opens templates 1 and 4 on the canvas, their sticky notes and nodes shown', async () => {
    mkdirSync(SCREENSHOTS_DIR, { recursive: true })
    const browser = await launchChromium()
    try {
      const page = await signedInPage(browser, stack, { width: 1600, height: 900 }, 60_000)
      for (const [file, node, png] of [
        [FORM, 'Go to Checkout', 'template-sell-with-a-form.png'],
        [REMIND, 'Email the Reminder', 'template-remind-and-renew.png'],
      ] as const) {
        await page.goto(`${stack.editorUrl}workflow/${templateId(file)}`)
        await page.locator('[data-test-id="canvas-node"]', { hasText: node }).waitFor()
        // n8n opens its Production Checklist on a published workflow: closed as a user would.
        const checklist = page.getByText('Production Checklist')
        if (await checklist.isVisible().catch(() => false)) {
          await page.keyboard.press('Escape')
          await checklist.waitFor({ state: 'hidden', timeout: 10_000 })
        }
        // The whole workflow, its notes included, in the view.
        await page.locator('[data-test-id="zoom-to-fit"]').click()
        await sleep(1500)
        await page.screenshot({ path: join(SCREENSHOTS_DIR, png) })
      }
    } finally {
      await browser.close()
    }
  }, 180_000)
})
