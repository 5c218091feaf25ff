/**
 * Templates 1 and 4 (packages/n8n-nodes/templates/) in a running n8n (`n8n start`, the stack
 * of `npm run n8n`: the shop's Postgres database, MailDev capturing the mail, both
 * credentials imported), published as `npm run n8n` publishes them:
 *
 * - sell-with-a-form.json: the Form Trigger's production form submitted by HTTP as n8n's form
 *   page sends it (multipart `field-N`, then the page's `formWaitingUrl`, its status and the
 *   completion page); the email read back from MailDev holds the link, the link is a real
 *   sandbox order; bad answers are refused by name with no link and no email; in Chromium:
 *   the form filled, the browser sent to the checkout page, paid with the test card, the
 *   order PAID.
 * - remind-and-renew.json: linked invoices in template 2's table `invoices` (the stack creates
 *   it), their links expired by the sandbox clock; one run renews the expired one and emails
 *   one reminder, marks the paid one paid without a reminder, refuses a negative amount by
 *   name (no link), leaves the open one; a second run sends nothing more.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { Money, createClient } from '@paykit/core'
import { defaultCredentials } from '@paykit/testkit'
import {
  SCREENSHOTS_DIR,
  OWNER,
  WORKFLOW_IDS,
  executionsOfWorkflow,
  launchChromium,
  payOnCheckoutPage,
  startStack,
  type Stack,
} from './support.js'

const FORM = 'sell-with-a-form.json'
const REMIND = 'remind-and-renew.json'
const TEMPLATES = new URL('../../templates/', import.meta.url)

let stack: Stack
let formUrl = ''

const template = (file: string) =>
  JSON.parse(readFileSync(new URL(file, TEMPLATES), 'utf8')) as {
    nodes: ReadonlyArray<{ name: string; webhookId?: string; parameters: Record<string, unknown> }>
  }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

beforeAll(async () => {
  stack = await startStack({ publish: [FORM, REMIND] })
  const trigger = template(FORM).nodes.find((n) => n.name === 'Sell Form')
  const path = (trigger?.parameters.options as { path?: string } | undefined)?.path
  formUrl = `${stack.editorUrl}form/${path ?? ''}`
  // Publishing returns before n8n has registered the form: wait until it serves it.
  const deadline = Date.now() + 30_000
  while ((await fetch(formUrl)).status !== 200) {
    if (Date.now() > deadline) throw new Error(`${formUrl} not served`)
    await sleep(250)
  }
}, 300_000)

afterAll(async () => {
  await stack?.stop()
}, 60_000)

const orderOf = async (orderCode: string) => {
  const client = createClient({ baseUrl: stack.sandboxUrl, credentials: { ...defaultCredentials } })
  const order = await client.getOrder(orderCode)()
  if (E.isLeft(order)) throw new Error(order.left.message)
  return order.right
}

/** The answer the buyer's browser ends on: the completion page's title, text and redirect. */
interface FormAnswer {
  readonly status: number
  readonly title: string
  readonly message: string
  readonly redirectUrl: string | undefined
}

const htmlText = (html: string | undefined) =>
  (html ?? '')
    .replace(/<[^>]*>/g, '')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim()

/**
 * Submits the form as n8n's form page does: the multipart POST of `field-0..3`, then (the
 * page's script) the execution's status polled until its Form Ending waits, the ending page
 * read, and its resume POST sent.
 */
const submitForm = async (answers: {
  Product: string
  Amount: string
  Quantity: string
  Email: string
}): Promise<FormAnswer> => {
  const body = new FormData()
  for (const [i, value] of [
    answers.Product,
    answers.Amount,
    answers.Quantity,
    answers.Email,
  ].entries())
    body.append(`field-${String(i)}`, value)
  const posted = await fetch(formUrl, { method: 'POST', body })
  expect(posted.status).toBe(200)
  const { formWaitingUrl } = (await posted.json()) as { formWaitingUrl: string }
  const status = new URL(formWaitingUrl)
  status.pathname += '/n8n-execution-status'
  const deadline = Date.now() + 60_000
  for (;;) {
    const text = (await (await fetch(status)).text()).trim()
    if (text === 'form-waiting') break
    if (['error', 'crashed', 'canceled'].includes(text)) throw new Error(`execution ${text}`)
    if (Date.now() > deadline) throw new Error(`the execution is still ${text}`)
    await sleep(250)
  }
  const page = await fetch(formWaitingUrl)
  const html = await page.text()
  // The ending page's script POSTs back to finish the execution.
  await fetch(formWaitingUrl, { method: 'POST' })
  return {
    status: page.status,
    title: htmlText(/<h1>([\s\S]*?)<\/h1>/.exec(html)?.[1]),
    message: htmlText(/<p style="white-space: pre-line;">([\s\S]*?)<\/p>/.exec(html)?.[1]),
    redirectUrl: /id='redirectUrl' href='([^']*)'/.exec(html)?.[1],
  }
}

const linkCreates = async () => {
  const log = (await (await fetch(`${stack.sandboxUrl}/__sandbox/requests`)).json()) as Array<{
    method: string
    path: string
  }>
  return log.filter((r) => r.method === 'POST' && r.path === '/paymentlink/checkout').length
}

describe('template 1: sell with a form', () => {
  it('a submitted form creates a real link, emails it to the buyer and sends the browser to it', async () => {
    await stack.mail.clear()
    const answer = await submitForm({
      Product: 'Workshop ticket',
      Amount: '12.5',
      Quantity: '2',
      Email: 'ada@example.com',
    })
    expect(answer.redirectUrl).toMatch(new RegExp(`^${stack.sandboxUrl}/pay/`))
    const link = answer.redirectUrl ?? ''
    const orderCode = link.split('/').pop() ?? ''
    const order = await orderOf(orderCode)
    expect(order.orderStatus).toBe('PENDING')
    expect(Money.toString(order.total)).toBe('25')
    expect(order.orderReference).toMatch(/^form-\d+$/)
    // The checkout page itself answers.
    expect((await fetch(link)).status).toBe(200)
    const mail = await stack.mail.messages()
    expect(mail).toHaveLength(1)
    expect(mail[0]).toMatchObject({
      to: 'ada@example.com',
      from: 'shop@paykit.test',
      subject: 'Your payment link for Workshop ticket',
    })
    expect(mail[0]?.text).toContain(link)
    expect(mail[0]?.text).toContain(orderCode)
  }, 120_000)

  it('bad answers are refused by name: no link, no email', async () => {
    await stack.mail.clear()
    const before = await linkCreates()
    const cases = [
      [{ Amount: 'abc', Quantity: '1', Email: 'ada@example.com' }, ['Amount']],
      [{ Amount: '10', Quantity: '0', Email: 'ada@example.com' }, ['Quantity']],
      [{ Amount: '10', Quantity: '1', Email: 'not-an-email' }, ['Email']],
      [{ Amount: '-3', Quantity: '1.5', Email: 'a@b' }, ['Amount', 'Quantity', 'Email']],
    ] as const
    for (const [answers, named] of cases) {
      const answer = await submitForm({ Product: 'Mug', ...answers })
      expect(answer.title).toBe('Not accepted')
      expect(answer.redirectUrl).toBeUndefined()
      for (const field of ['Amount', 'Quantity', 'Email'])
        if ((named as ReadonlyArray<string>).includes(field))
          expect(answer.message).toContain(`${field} must be`)
        else expect(answer.message).not.toContain(`${field} must be`)
      expect(answer.message).toContain('Nothing was charged or sent')
    }
    expect(await linkCreates()).toBe(before)
    expect(await stack.mail.messages()).toHaveLength(0)
  }, 180_000)

  it('in Chromium: fill the form, land on the checkout page, pay with the test card: PAID', async () => {
    await stack.mail.clear()
    mkdirSync(SCREENSHOTS_DIR, { recursive: true })
    const browser = await launchChromium()
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
      page.setDefaultTimeout(60_000)
      await page.goto(formUrl)
      await page.locator('#field-0').fill('Gift card')
      await page.locator('#field-1').fill('40')
      await page.locator('#field-2').fill('1')
      await page.locator('#field-3').fill('grace@example.com')
      await page.locator('#submit-btn').click()
      await page.waitForURL((url) => url.href.startsWith(`${stack.sandboxUrl}/pay/`))
      const link = page.url()
      const orderCode = link.split('/').pop() ?? ''
      expect((await orderOf(orderCode)).orderStatus).toBe('PENDING')
      // The buyer pays on the page the form sent them to (its form, as the page posts it).
      const paid = await payOnCheckoutPage(link)
      expect(paid.status).toBeLessThan(400)
      expect((await orderOf(orderCode)).orderStatus).toBe('PAID')
      const mail = await stack.mail.messages()
      expect(mail.map((m) => m.to)).toEqual(['grace@example.com'])
      expect(mail[0]?.text).toContain(link)
    } finally {
      await browser.close()
    }
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
    const id = WORKFLOW_IDS[REMIND] ?? ''
    const before = (await executionsOfWorkflow(stack, id)).length
    const run = await stack.cli(['execute', `--id=${id}`])
    expect(run.code, run.stdout + run.stderr).toBe(0)
    return before
  }

  it('renews an expired link once with one reminder; a paid invoice is marked paid, not reminded; a negative amount is refused by name', async () => {
    // The tables of template 2, which the stack created as `npm run n8n` does.
    const shop = stack.shop.client()
    await shop.connect()
    try {
      const expired = await createLink('INV-401', 30)
      const paid = await createLink('INV-402', 45)
      const corrected = await createLink('INV-404', 5)
      await payOnCheckoutPage(paid.paymentLinkUrl)
      // Linked rows, as template 2 leaves them.
      const insert = (n: string, email: string, amount: number, link: typeof expired) =>
        shop.query(
          "INSERT INTO invoices (invoice_number, customer_email, amount, status, order_code, payment_link_url, linked_at) VALUES ($1, $2, $3, 'linked', $4, $5, now())",
          [n, email, amount, link.orderCode, link.paymentLinkUrl],
        )
      await insert('INV-401', 'late@example.com', 30, expired)
      await insert('INV-402', 'paid@example.com', 45, paid)
      // An invoice whose amount was corrected to a negative one after it was linked.
      await insert('INV-404', 'bad@example.com', -5, corrected)
      // Rows of the other states are not this template's.
      await shop.query(
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
          await shop.query<{
            invoice_number: string
            status: string
            order_code: string | null
            payment_link_url: string | null
            reminders: number
            reminded_at: Date | null
            problem: string | null
          }>(
            'SELECT invoice_number, status, order_code, payment_link_url, reminders, reminded_at, problem FROM invoices ORDER BY invoice_number',
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
      expect(mail).toHaveLength(1)
      expect(mail[0]).toMatchObject({
        to: 'late@example.com',
        subject: 'Reminder: invoice INV-401 is unpaid',
      })
      expect(mail[0]?.text).toContain(renewed?.payment_link_url ?? '?')
      expect(after[2]?.order_code).toBe(open.orderCode)

      // Run again: every link is paid or open, nothing more is created or sent.
      await runOnce()
      expect(await rows()).toEqual(after)
      expect(await linkCreates()).toBe(creates + 1)
      expect(await stack.mail.messages()).toHaveLength(1)
    } finally {
      await shop.end()
    }
  }, 300_000)

  it('is published: its Schedule Trigger is active in the running n8n', async () => {
    const workflow = (await stack.rest(`/workflows/${WORKFLOW_IDS[REMIND] ?? ''}`)) as {
      data: { active: boolean }
    }
    expect(workflow.data.active).toBe(true)
  })
})

describe("the templates in the editor (the README's screenshots)", () => {
  it('opens templates 1 and 4 on the canvas, their sticky notes and nodes shown', async () => {
    mkdirSync(SCREENSHOTS_DIR, { recursive: true })
    const browser = await launchChromium()
    try {
      const page = await browser.newPage({ viewport: { width: 1600, height: 900 } })
      page.setDefaultTimeout(60_000)
      await page.goto(`${stack.editorUrl}signin`)
      await page.locator('input[type="email"]').fill(OWNER.email)
      await page.locator('input[type="password"]').fill(OWNER.password)
      await page.getByRole('button', { name: /sign in/i }).click()
      await page.waitForURL((url) => !url.pathname.includes('signin'))
      for (const [file, node, png] of [
        [FORM, 'Go to Checkout', 'template-sell-with-a-form.png'],
        [REMIND, 'Email the Reminder', 'template-remind-and-renew.png'],
      ] as const) {
        await page.goto(`${stack.editorUrl}workflow/${WORKFLOW_IDS[file] ?? ''}`)
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
