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

/** Waits until each of `bases` serves the template's webhook (n8n registers it after publishing). */
export const webhookServed = async (file: string, bases: ReadonlyArray<string>): Promise<void> => {
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
 * waits until each of `bases` serves its webhook. Returns the workflow's id.
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
