// @paykit-test own-worker: n8n's de-duplication store
/**
 * Payment Link → Create, One Link per Order Reference: a re-run of the same orders (n8n's
 * retry of a crashed execution, the user's) creates no second link, counted at the
 * sandbox over real HTTP, through the real n8n engine and n8n's de-duplication helpers
 * (in-process over the testkit's memoryDeduplicator, as n8n's database holds them).
 */
import { randomUUID } from 'node:crypto'
import type { ICheckProcessedContextData, IDataObject } from 'n8n-workflow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { Faults } from '@paykit/testkit/service'
import { loadN8n } from '@paykit/testkit/n8n'
import { paykitNode, run, singleNodeWorkflow, useSandbox } from '../../../support.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

interface Placement {
  /** The workflow's id (n8n keeps the memory per workflow). */
  readonly workflowId?: string
  /** The node's id (and per node in the workflow). */
  readonly nodeId?: string
  readonly typeVersion?: number
  readonly extra?: Record<string, unknown>
}

const create = (parameters: Record<string, unknown>, placement: Placement = {}) => {
  const workflow = singleNodeWorkflow(
    paykitNode(
      'Create Link',
      { resource: 'paymentLink', operation: 'create', orderSource: 'item', ...parameters },
      {
        id: placement.nodeId ?? 'create-link',
        ...(placement.typeVersion === undefined ? {} : { typeVersion: placement.typeVersion }),
        ...placement.extra,
      },
    ),
  )
  return { ...workflow, id: placement.workflowId ?? 'links-once' }
}

/** Orders with references no other test uses. */
const ordersOf = (count: number, amount = 5): Array<IDataObject> => {
  const run = randomUUID().slice(0, 8)
  return Array.from({ length: count }, (_, i) => ({ orderReference: `ord-${run}-${i}`, amount }))
}

/** The links the sandbox holds for each reference. */
const linksByReference = (): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const order of Object.values(sandbox.state().orders)) {
    const reference = order.orderReference ?? ''
    counts.set(reference, (counts.get(reference) ?? 0) + 1)
  }
  return counts
}

const checkouts = () =>
  sandbox.requests().filter((r) => r.method === 'POST' && r.path === '/paymentlink/checkout').length

const created = (result: Awaited<ReturnType<typeof run>>) => result.nodes['Create Link']?.[0] ?? []
const alreadyRequested = (result: Awaited<ReturnType<typeof run>>) =>
  result.nodes['Create Link']?.[1] ?? []

/** How many references n8n's store holds for a node (what its database row holds). */
const remembered = (workflowId: string, nodeId: string): Promise<number> =>
  loadN8n()
    .core.DataDeduplicationService.getInstance()
    .getProcessedDataCount(
      'node',
      { workflow: { id: workflowId }, node: { id: nodeId } } as ICheckProcessedContextData,
      { mode: 'entries' },
    )

describe('Payment Link -> Create: One Link per Order Reference', () => {
  it('is on for a new node (version 1.1): a re-run of the same orders creates no link', async () => {
    const orders = ordersOf(20)
    const first = await run(sandbox, create({}), orders)
    expect(first.error).toBeUndefined()
    expect(created(first)).toHaveLength(20)
    expect(alreadyRequested(first)).toEqual([])

    const before = checkouts()
    const again = await run(sandbox, create({}), orders)
    expect(again.error).toBeUndefined()
    expect(checkouts() - before).toBe(0)
    expect(created(again)).toEqual([])
    expect(alreadyRequested(again).map((item) => item.json)).toEqual(
      orders.map((o) => ({ orderReference: o.orderReference, alreadyRequested: true })),
    )
    expect(alreadyRequested(again).map((item) => item.pairedItem)).toEqual(
      orders.map((_, i) => ({ item: i })),
    )
    const links = linksByReference()
    for (const o of orders) expect(links.get(String(o.orderReference))).toBe(1)
  })

  it('a re-run after a crash creates only the links the first run had not', async () => {
    const orders = ordersOf(30)
    await run(sandbox, create({}), orders.slice(0, 12)) // the run that "crashed" after 12
    const before = checkouts()
    const rerun = await run(sandbox, create({}), orders)
    expect(checkouts() - before).toBe(18)
    expect(created(rerun).map((item) => item.pairedItem)).toEqual(
      orders.slice(12).map((_, i) => ({ item: 12 + i })),
    )
    expect(alreadyRequested(rerun)).toHaveLength(12)
    const links = linksByReference()
    for (const o of orders) expect(links.get(String(o.orderReference))).toBe(1)
  })

  it('the same reference twice in one run: one link, the second item on Already Requested', async () => {
    const [order] = ordersOf(1)
    const result = await run(sandbox, create({}), [order ?? {}, { ...order, amount: 9 }])
    expect(created(result)).toHaveLength(1)
    expect(alreadyRequested(result)).toEqual([
      {
        json: { orderReference: order?.orderReference, alreadyRequested: true },
        pairedItem: { item: 1 },
      },
    ])
  })

  it('a creation the service refused (400: nothing created) is forgotten: the corrected order is created', async () => {
    const [order] = ordersOf(1)
    const reference = String(order?.orderReference)
    const refused = await run(sandbox, create({}, { extra: { continueOnFail: true } }), [
      { orderReference: reference, lineItems: [{ sku: 'NO-SUCH-SKU', quantity: 1 }] },
    ])
    expect(created(refused)[0]?.json).toMatchObject({ details: { httpCode: '400' } })
    expect(created(refused)[0]?.json.details).not.toHaveProperty('outcomeUnknown')

    const corrected = await run(sandbox, create({}), [{ orderReference: reference, amount: 5 }])
    expect(corrected.error).toBeUndefined()
    expect(created(corrected)[0]?.json.orderCode).toMatch(/^OC/)
    expect(linksByReference().get(reference)).toBe(1)
  })

  it('without Continue On Fail, a refused item fails the node and is forgotten too', async () => {
    const [order] = ordersOf(1)
    const reference = String(order?.orderReference)
    const refused = await run(sandbox, create({}), [
      { orderReference: reference, lineItems: [{ sku: 'NO-SUCH-SKU', quantity: 1 }] },
    ])
    expect(refused.error?.message).toContain('HTTP 400')
    const corrected = await run(sandbox, create({}), [{ orderReference: reference, amount: 5 }])
    expect(created(corrected)).toHaveLength(1)
  })

  it('an unknown outcome (a 500) stays recorded: reported, and a re-run puts it on Already Requested', async () => {
    const orders = ordersOf(3)
    const reference = String(orders[1]?.orderReference)
    sandbox.injectFault(Faults.status500, {
      method: 'POST',
      path: '/paymentlink/checkout',
      times: 1,
    })
    let first: Awaited<ReturnType<typeof run>>
    try {
      first = await run(
        sandbox,
        create({ options: { concurrency: 1 } }, { extra: { continueOnFail: true } }),
        [orders[1] ?? {}],
      )
    } finally {
      sandbox.clearFaults()
    }
    expect(created(first)[0]?.json).toMatchObject({
      details: { httpCode: '500', outcomeUnknown: true },
    })
    const before = checkouts()
    const rerun = await run(sandbox, create({}), orders)
    expect(checkouts() - before).toBe(2)
    expect(alreadyRequested(rerun).map((item) => item.json)).toEqual([
      { orderReference: reference, alreadyRequested: true },
    ])
  })

  it('is kept per workflow and per node (by id): another workflow or another node creates its own link', async () => {
    const orders = ordersOf(2)
    await run(sandbox, create({}, { workflowId: 'wf-a', nodeId: 'node-a' }), orders)
    const sameNode = await run(
      sandbox,
      create({}, { workflowId: 'wf-a', nodeId: 'node-a' }),
      orders,
    )
    expect(created(sameNode)).toEqual([])
    const otherNode = await run(
      sandbox,
      create({}, { workflowId: 'wf-a', nodeId: 'node-b' }),
      orders,
    )
    expect(created(otherNode)).toHaveLength(2)
    const otherWorkflow = await run(
      sandbox,
      create({}, { workflowId: 'wf-b', nodeId: 'node-a' }),
      orders,
    )
    expect(created(otherWorkflow)).toHaveLength(2)
    for (const o of orders) expect(linksByReference().get(String(o.orderReference))).toBe(3)
    expect(await remembered('wf-a', 'node-b')).toBe(2)
  })

  it('many items side by side, each reference twice, and two executions at once: each recorded and created exactly once', async () => {
    const orders = ordersOf(150)
    const input = [...orders, ...orders]
    const before = checkouts()
    const workflow = create({ options: { concurrency: 16 } }, { workflowId: 'wf-many' })
    const [a, b] = await Promise.all([
      run(sandbox, workflow, input),
      run(sandbox, workflow, [...input].reverse()),
    ])
    expect(a.error).toBeUndefined()
    expect(b.error).toBeUndefined()
    expect(checkouts() - before).toBe(150)
    expect(created(a).length + created(b).length).toBe(150)
    expect(alreadyRequested(a).length + alreadyRequested(b).length).toBe(450)
    const links = linksByReference()
    for (const o of orders) expect(links.get(String(o.orderReference))).toBe(1)
    expect(await remembered('wf-many', 'create-link')).toBe(150)
  })

  it('Create Again for a Known Reference (per item by expression) creates another link for that item only', async () => {
    const orders = ordersOf(3)
    await run(sandbox, create({}), orders)
    const renewed = String(orders[2]?.orderReference)
    const again = await run(
      sandbox,
      create({ options: { createAgain: `={{ $json.orderReference === '${renewed}' }}` } }),
      orders,
    )
    expect(created(again)).toHaveLength(1)
    expect(alreadyRequested(again)).toHaveLength(2)
    expect(linksByReference().get(renewed)).toBe(2)
  })

  it('items without an order reference are always created', async () => {
    const before = checkouts()
    await run(sandbox, create({}), [{ amount: 4 }])
    const again = await run(sandbox, create({}), [{ amount: 4 }])
    expect(checkouts() - before).toBe(2)
    expect(created(again)).toHaveLength(1)
  })

  it('Reference History Size bounds the memory: the oldest references are forgotten', async () => {
    const orders = ordersOf(5)
    const workflow = create(
      { options: { referenceHistorySize: 3 } },
      { workflowId: 'wf-history', nodeId: 'history' },
    )
    await run(sandbox, workflow, orders)
    expect(await remembered('wf-history', 'history')).toBe(3)
    const rerun = await run(sandbox, workflow, orders)
    expect(created(rerun).map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }])
  })

  it('version 1 keeps its behaviour (off): each run creates; turned on, it works as in 1.1', async () => {
    const orders = ordersOf(2)
    const v1 = create({}, { typeVersion: 1, workflowId: 'wf-v1' })
    await run(sandbox, v1, orders)
    const v1Again = await run(sandbox, v1, orders)
    expect(v1Again.nodes['Create Link']).toHaveLength(1) // one output, as before
    expect(created(v1Again)).toHaveLength(2)

    const v1On = create({ oneLinkPerReference: true }, { typeVersion: 1, workflowId: 'wf-v1-on' })
    await run(sandbox, v1On, orders)
    const v1OnAgain = await run(sandbox, v1On, orders)
    expect(alreadyRequested(v1OnAgain)).toHaveLength(2)

    const off = create({ oneLinkPerReference: false }, { workflowId: 'wf-off' })
    await run(sandbox, off, orders)
    expect(created(await run(sandbox, off, orders))).toHaveLength(2)
    for (const o of orders) expect(linksByReference().get(String(o.orderReference))).toBe(5)
  })
})
