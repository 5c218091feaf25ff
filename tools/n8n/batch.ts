/**
 * Orders in batches through a published webhook workflow of a running stack (stack.ts or
 * queue.ts): `POST /webhook/<path>` with `{ orders: [...] }`, one item per order, then the
 * Paykit nodes given. Shared by packages/n8n-nodes/test/real-n8n/queue.test.ts and
 * bench/queue.mjs, so that the test and the benchmark run the same workflow.
 */
import type { Stack } from '@paykit/tools/n8n/stack'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** An order as the Paykit node's "From Input Item" reads it, with any extra field. */
export interface BatchOrder {
  readonly amount: number
  readonly orderReference: string
  readonly [field: string]: unknown
}

export type Workflow = {
  readonly name: string
  readonly nodes: ReadonlyArray<Record<string, unknown>>
  readonly connections: Record<string, unknown>
  readonly settings: Record<string, unknown>
}

const CREDENTIALS = { paykitApi: { id: 'paykit-sandbox', name: 'Paykit sandbox' } }
const to = (node: string) => [{ node, type: 'main', index: 0 }]

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** `n` orders `<prefix>-0001` ..., amounts 10 to 99, each with `extra`. */
export const batchOrders = (
  prefix: string,
  n: number,
  extra: Readonly<Record<string, unknown>> = {},
): ReadonlyArray<BatchOrder> =>
  Array.from({ length: n }, (_, i) => ({
    amount: 10 + (i % 90),
    orderReference: `${prefix}-${String(i + 1).padStart(4, '0')}`,
    ...extra,
  }))

/** A Paykit node with the sandbox credential, at height `y` of the canvas. */
export const paykitNode = (
  name: string,
  y: number,
  parameters: Readonly<Record<string, unknown>>,
): Record<string, unknown> => ({
  id: `${name.replace(/\W/g, '-').toLowerCase()}-${String(y)}`,
  name,
  type: 'n8n-nodes-paykit.paykit',
  typeVersion: 1,
  position: [480, y],
  parameters: { ...parameters, options: {} },
  credentials: CREDENTIALS,
})

/** Payment Link → Create, the order from the item (or its field `requestField`). */
export const createLinkNode = (
  y = 0,
  name = 'Create Payment Link',
  more: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> =>
  paykitNode(name, y, {
    resource: 'paymentLink',
    operation: 'create',
    orderSource: 'item',
    ...more,
  })

/**
 * Webhook (`POST /webhook/<path>`, answering with every item of the last node, or at once)
 * → Split Out `body.orders` → each node of `after`, top one first (n8n's v1 order).
 */
export const batchWorkflow = (
  path: string,
  responseMode: 'lastNode' | 'onReceived',
  after: ReadonlyArray<Record<string, unknown>>,
): Workflow => ({
  name: `Batch of orders: ${path}`,
  nodes: [
    {
      id: `${path}-hook`,
      name: 'Orders',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2.1,
      position: [0, 0],
      webhookId: crypto.randomUUID(),
      parameters: {
        httpMethod: 'POST',
        path,
        responseMode,
        ...(responseMode === 'lastNode' ? { responseData: 'allEntries' } : {}),
        options: {},
      },
    },
    {
      id: `${path}-split`,
      name: 'One Item per Order',
      type: 'n8n-nodes-base.splitOut',
      typeVersion: 1,
      position: [240, 0],
      parameters: { fieldToSplitOut: 'body.orders', options: {} },
    },
    ...after,
  ],
  connections: {
    Orders: { main: [to('One Item per Order')] },
    'One Item per Order': { main: [after.flatMap((n) => to(String(n.name)))] },
  },
  settings: { executionOrder: 'v1' },
})

/**
 * Creates and publishes the workflow, then waits until each of `webhookUrls` serves its
 * path (n8n's main process registers a webhook a moment after it answers: it said 404 to
 * the first POSTs). Resolves with the workflow's id.
 */
export const publishWorkflow = async (
  stack: Pick<Stack, 'rest'>,
  workflow: Readonly<Record<string, unknown>>,
  webhookUrls: ReadonlyArray<string> = [],
): Promise<string> => {
  const created = (await stack.rest('/workflows', {
    method: 'POST',
    body: JSON.stringify(workflow),
  })) as { data: { id: string; versionId: string } }
  await stack.rest(`/workflows/${created.data.id}/activate`, {
    method: 'POST',
    body: JSON.stringify({ versionId: created.data.versionId }),
  })
  const nodes = (workflow.nodes ?? []) as ReadonlyArray<{ parameters?: { path?: string } }>
  const path = nodes[0]?.parameters?.path ?? ''
  for (const base of webhookUrls) {
    const deadline = Date.now() + 30_000
    // A GET is told to use POST once the path is registered.
    for (;;) {
      const text = await (await fetch(`${base}webhook/${path}`)).text()
      if (text.includes('POST')) break
      if (Date.now() > deadline) throw new Error(`${base}webhook/${path}: not registered: ${text}`)
      await new Promise((r) => setTimeout(r, 250))
    }
  }
  return created.data.id
}

/** POSTs JSON; resolves with the status and the JSON answer. */
export const postJson = async (
  url: string,
  body: unknown,
): Promise<{ status: number; json: unknown }> => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) }
}
