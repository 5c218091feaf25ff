/**
 * What the template tests share (templates.test.ts in regular mode, templatesQueue.test.ts in
 * queue mode): the tables of template 2's sticky note (which the stack creates in its database
 * `shop`), the templates the stack imported published, their executions waited for, links
 * counted at the sandbox, and Paykit's order events delivered signed to a template's trigger.
 */
import { readFileSync } from 'node:fs'
import { signWebhook } from '@paykit/core/webhook'
import { exampleWorkflows, shopTablesSql } from '@paykit/tools/n8n/stack'
import { WEBHOOK_SECRET, executionsOfWorkflow, sandboxRequests, type Stack } from './support.js'

// -------------------------------------------------------------------------------------
// templates
// -------------------------------------------------------------------------------------

/** A template's workflow JSON, by file name (`templates/<file>`). */
export const template = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../templates/${file}`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >

interface TemplateNode {
  readonly name: string
  readonly type: string
  readonly webhookId?: string
  readonly parameters: Record<string, unknown>
}

const nodesOf = (workflow: Record<string, unknown>) => workflow.nodes as ReadonlyArray<TemplateNode>

/** The SQL of the tables, as template 2's sticky note _Tables_ gives it (the stack runs it too). */
export const tablesSql = (): string => shopTablesSql()

/** The production path of a template's webhook (Webhook node) or Paykit Trigger. */
export const webhookPath = (workflow: Record<string, unknown>): string => {
  const nodes = nodesOf(workflow)
  const hook = nodes.find((n) => n.type === 'n8n-nodes-base.webhook')
  if (hook !== undefined) return String(hook.parameters.path)
  const trigger = nodes.find((n) => n.type === 'n8n-nodes-paykit.paykitTrigger')
  if (trigger?.webhookId === undefined) throw new Error('no webhook in the template')
  return `${trigger.webhookId}/webhook`
}

/** The path of a template's form (its Form Trigger's `options.path`), or undefined. */
export const formPathOf = (file: string): string | undefined => {
  const trigger = nodesOf(template(file)).find((n) => n.type === 'n8n-nodes-base.formTrigger')
  return (trigger?.parameters.options as { path?: string } | undefined)?.path
}

/**
 * Waits until each of `bases` serves the template's webhook, or its form (n8n registers them
 * after publishing).
 */
export const webhookServed = async (file: string, bases: ReadonlyArray<string>): Promise<void> => {
  const form = formPathOf(file)
  if (form !== undefined) {
    for (const base of bases) {
      const deadline = Date.now() + 30_000
      while ((await fetch(`${base}form/${form}`)).status !== 200) {
        if (Date.now() > deadline) throw new Error(`${base}form/${form}: not served`)
        await new Promise((r) => setTimeout(r, 250))
      }
    }
    return
  }
  const path = webhookPath(template(file))
  for (const base of bases) {
    const deadline = Date.now() + 30_000
    // A GET is told to use POST once the path is registered.
    for (;;) {
      const text = await (await fetch(`${base}webhook/${path}`)).text()
      if (text.includes('POST')) break
      if (Date.now() > deadline) throw new Error(`${base}webhook/${path}: not registered: ${text}`)
      await new Promise((r) => setTimeout(r, 250))
    }
  }
}

/** The id the stack imported a template under. */
export const templateId = (file: string): string => {
  const id = exampleWorkflows().find((w) => w.file === file)?.id
  if (id === undefined) throw new Error(`the stack imports no ${file}`)
  return id
}

/**
 * Publishes (activates) the template the stack imported, as the editor's Publish button does;
 * waits until each of `bases` serves its webhook or form. Returns the workflow's id.
 */
export const publishTemplate = async (
  stack: Pick<Stack, 'rest'>,
  file: string,
  bases: ReadonlyArray<string>,
): Promise<string> => {
  const id = templateId(file)
  const workflow = (await stack.rest(`/workflows/${id}`)) as { data: { versionId: string } }
  await stack.rest(`/workflows/${id}/activate`, {
    method: 'POST',
    body: JSON.stringify({ versionId: workflow.data.versionId }),
  })
  await webhookServed(file, bases)
  return id
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Waits until the workflow has at least `count` executions and none of them is still
 * running (but those `ignore` says to leave: a killed worker's). Returns them.
 */
export const settled = async (
  stack: Pick<Stack, 'rest'>,
  workflowId: string,
  count: number,
  ignore: (id: string) => boolean = () => false,
  timeoutMs = 120_000,
) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    // A main process busy with a burst of webhooks answers 500/503 for a moment (its
    // database pool timed out): asked again.
    const runs = await executionsOfWorkflow(stack, workflowId).catch((error: unknown) => {
      if (Date.now() > deadline) throw error
      return undefined
    })
    if (runs === undefined) {
      await sleep(1000)
      continue
    }
    const open = runs.filter(
      (r) => ['new', 'running', 'waiting'].includes(r.status) && !ignore(r.id),
    )
    if (runs.length >= count && open.length === 0) return runs
    if (Date.now() > deadline)
      throw new Error(`executions not settled: ${JSON.stringify(runs)} (${String(count)} wanted)`)
    await sleep(500)
  }
}

/** Links created per order reference, from the sandbox's request log. */
export const linksPerReference = async (
  stack: Pick<Stack, 'sandboxUrl'>,
): Promise<ReadonlyMap<string, number>> => {
  const counts = new Map<string, number>()
  for (const r of await sandboxRequests(stack))
    // every request that may have created a link, answered or not
    if (r.method === 'POST' && r.path === '/paymentlink/checkout') {
      const ref = String((JSON.parse(r.body) as { orderReference?: unknown }).orderReference)
      counts.set(ref, (counts.get(ref) ?? 0) + 1)
    }
  return counts
}

/** An order event as the sandbox recorded it (what it sent to its webhook URL). */
export interface OrderEvent {
  readonly id: string
  readonly type: string
  readonly data: { readonly orderCode: string; readonly orderStatus: string }
}

/** The sandbox's order events, oldest first. */
export const sandboxEvents = async (
  stack: Pick<Stack, 'sandboxUrl'>,
): Promise<ReadonlyArray<OrderEvent>> =>
  (await (await fetch(`${stack.sandboxUrl}/__sandbox/events`)).json()) as Array<OrderEvent>

/** A control move of the sandbox on an order: `pay`, `finalize`, `cancel`. */
export const moveOrder = async (
  stack: Pick<Stack, 'sandboxUrl'>,
  code: string,
  action: 'pay' | 'finalize' | 'cancel',
) => {
  const res = await fetch(`${stack.sandboxUrl}/__sandbox/orders/${code}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  })
  if (!res.ok) throw new Error(`${action} ${code}: ${String(res.status)} ${await res.text()}`)
}

/** Delivers `event` to `url` signed as the service signs it (a fresh signature each time). */
export const deliver = async (url: string, event: OrderEvent): Promise<number> => {
  const body = JSON.stringify(event)
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'paykit-signature': signWebhook({ secret: WEBHOOK_SECRET, body, timestamp: new Date() }),
    },
    body,
  })
  await res.text()
  return res.status
}

// -------------------------------------------------------------------------------------
// the shop's tables
// -------------------------------------------------------------------------------------

/** Creates the templates' tables in the stack's database `shop`, as the note says to. */
export const createTables = async (stack: Pick<Stack, 'shop'>): Promise<void> => {
  const db = stack.shop.client()
  await db.connect()
  try {
    await db.query(tablesSql())
  } finally {
    await db.end()
  }
}

/**
 * Delivers `event` as the service does: sent again, re-signed, while the answer is not 2xx
 * (up to 6 tries, 0.5 s to 8 s apart). The last status and how many tries it took.
 */
export const deliverUntilAccepted = async (
  url: string,
  event: OrderEvent,
): Promise<{ readonly status: number; readonly tries: number }> => {
  let status = 0
  for (let tries = 1; ; tries++) {
    status = await deliver(url, event).catch(() => 0)
    if ((status >= 200 && status < 300) || tries === 6) return { status, tries }
    await sleep(500 * 2 ** (tries - 1))
  }
}

// -------------------------------------------------------------------------------------
// template 1's form, as n8n's form page posts it
// -------------------------------------------------------------------------------------

/** Where a form's run ends for the buyer: the ending page's title and text, or its redirect. */
export interface FormAnswer {
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

/** The ending page's title, text and redirect link, from its HTML. */
export const formAnswerOf = (html: string): FormAnswer => ({
  title: htmlText(/<h1>([\s\S]*?)<\/h1>/.exec(html)?.[1]),
  message: htmlText(/<p style="white-space: pre-line;">([\s\S]*?)<\/p>/.exec(html)?.[1]),
  redirectUrl: /id='redirectUrl' href='([^']*)'/.exec(html)?.[1],
})

/** The options of a form page's first dropdown, from its HTML. */
export const dropdownOptions = (html: string): ReadonlyArray<string> =>
  [...html.matchAll(/<option value='([^']+)'/g)].map((m) => htmlText(m[1]))

const multipart = (values: ReadonlyArray<string>) => {
  const body = new FormData()
  for (const [i, value] of values.entries()) body.append(`field-${String(i)}`, value)
  return body
}

/** Polls the waiting execution's status (the page's script does) until its next page waits. */
const nextPage = async (formWaitingUrl: string, timeoutMs: number): Promise<string> => {
  const status = new URL(formWaitingUrl)
  status.pathname += '/n8n-execution-status'
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const text = (await (await fetch(status)).text()).trim()
    if (text === 'form-waiting') return await (await fetch(formWaitingUrl)).text()
    if (['error', 'crashed', 'canceled'].includes(text)) throw new Error(`execution ${text}`)
    if (Date.now() > deadline) throw new Error(`the execution is still ${text}`)
    await sleep(250)
  }
}

/** A buyer's answers to template 1: page 1 the email, page 2 a product (as listed) and a quantity. */
export interface FormSale {
  readonly email: string
  readonly product: string | ((offered: ReadonlyArray<string>) => string)
  readonly quantity: string
}

/**
 * Buys through template 1's form as n8n's form page does (multipart `field-N` posts, the
 * execution's status polled between pages, the ending page read and its resume POST sent).
 * Returns the ending page and the products page 2 offered.
 */
export const sellByHttp = async (
  formUrl: string,
  sale: FormSale,
  timeoutMs = 60_000,
): Promise<FormAnswer & { readonly offered: ReadonlyArray<string> }> => {
  const posted = await fetch(formUrl, { method: 'POST', body: multipart([sale.email]) })
  if (posted.status !== 200) throw new Error(`page 1: ${String(posted.status)}`)
  const { formWaitingUrl } = (await posted.json()) as { formWaitingUrl: string }
  const page2 = await nextPage(formWaitingUrl, timeoutMs)
  const offered = dropdownOptions(page2)
  const product = typeof sale.product === 'string' ? sale.product : sale.product(offered)
  const second = await fetch(formWaitingUrl, {
    method: 'POST',
    body: multipart([product, sale.quantity]),
  })
  await second.text()
  const ending = await nextPage(formWaitingUrl, timeoutMs)
  // The ending page's script POSTs back to finish the execution.
  await (await fetch(formWaitingUrl, { method: 'POST' })).text()
  return { ...formAnswerOf(ending), offered }
}
