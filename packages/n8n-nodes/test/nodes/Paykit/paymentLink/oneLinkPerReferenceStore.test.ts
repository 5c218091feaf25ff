/**
 * One Link per Order Reference over a store that reads and writes back as n8n's does, with
 * no lock (../rowStore.ts). The node's queue per workflow and node and its batching must
 * make up for it within a process; its retries and checks for what other processes do.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { paykitNode, run, singleNodeWorkflow, useSandbox } from '../../../support.js'
import { otherProcess, rowSize, rowStore, useStore } from '../rowStore.js'

const store = rowStore()
let sandbox: Sandbox
beforeAll(async () => {
  // The engine's service holds one store for the process: this file's is the row store.
  useStore(store)
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

const workflow = (id: string, concurrency: number) => ({
  ...singleNodeWorkflow(
    paykitNode(
      'Create Link',
      {
        resource: 'paymentLink',
        operation: 'create',
        orderSource: 'item',
        options: { concurrency },
      },
      { id: 'create-link' },
    ),
  ),
  id,
})

const linksOf = (references: ReadonlyArray<string>): ReadonlyArray<number> => {
  const counts = new Map<string, number>()
  for (const order of Object.values(sandbox.state().orders))
    counts.set(String(order.orderReference), (counts.get(String(order.orderReference)) ?? 0) + 1)
  return references.map((r) => counts.get(r) ?? 0)
}

describe("One Link per Order Reference over a store that reads and writes back as n8n's does", () => {
  it('three executions at once, 60 references each given twice, concurrency 16: one link each, every record kept', async () => {
    const tag = randomUUID().slice(0, 8)
    const references = Array.from({ length: 60 }, (_, i) => `row-${tag}-${i}`)
    const input = [...references, ...references].map((orderReference) => ({
      orderReference,
      amount: 3,
    }))
    const results = await Promise.all(
      [input, [...input].reverse(), input.slice(30)].map((items) =>
        run(sandbox, workflow(`wf-row-${tag}`, 16), items),
      ),
    )
    for (const result of results) expect(result.error).toBeUndefined()
    expect(linksOf(references)).toEqual(references.map(() => 1))
    expect(await rowSize(store, `wf-row-${tag}`, 'create-link')).toBe(60)
    // Claims made while a call is under way go together: far fewer calls than items.
    expect(store.calls()).toBeLessThan(60)
  })

  it('a refused creation is forgotten without dropping the records of the items beside it', async () => {
    const tag = randomUUID().slice(0, 8)
    const good = Array.from({ length: 20 }, (_, i) => ({
      orderReference: `ok-${tag}-${i}`,
      amount: 4,
    }))
    const bad = { orderReference: `bad-${tag}`, lineItems: [{ sku: 'NO-SUCH-SKU', quantity: 1 }] }
    const first = await run(
      sandbox,
      { ...workflow(`wf-refused-${tag}`, 8) },
      [...good.slice(0, 10), bad, ...good.slice(10)],
      {},
    )
    expect(first.error?.message ?? '').toContain('HTTP 400')
    const again = await run(sandbox, workflow(`wf-refused-${tag}`, 8), [
      ...good,
      { orderReference: bad.orderReference, amount: 4 },
    ])
    expect(again.error).toBeUndefined()
    expect(linksOf([...good.map((g) => g.orderReference), bad.orderReference])).toEqual(
      [...good, bad].map(() => 1),
    )
  })

  it("another process inserts the node's row first: the store call is made again, the run goes on and each order gets one link", async () => {
    const tag = randomUUID().slice(0, 8)
    const references = Array.from({ length: 10 }, (_, i) => `clash-${tag}-${i}`)
    otherProcess.set(`wf-clash-${tag}`, { insertsFirst: true, dropsWrites: 0 })
    const first = await run(
      sandbox,
      workflow(`wf-clash-${tag}`, 4),
      references.map((orderReference) => ({ orderReference, amount: 2 })),
    )
    expect(first.error).toBeUndefined()
    expect(otherProcess.get(`wf-clash-${tag}`)?.insertsFirst).toBe(false)
    expect(linksOf(references)).toEqual(references.map(() => 1))
  })

  it("another process's writes drop this run's records twice: they are recorded again after each request, and a re-run creates no second link", async () => {
    const tag = randomUUID().slice(0, 8)
    const references = Array.from({ length: 30 }, (_, i) => `dropped-${tag}-${i}`)
    const items = references.map((orderReference) => ({ orderReference, amount: 2 }))
    otherProcess.set(`wf-dropped-${tag}`, { insertsFirst: false, dropsWrites: 2 })
    expect((await run(sandbox, workflow(`wf-dropped-${tag}`, 8), items)).error).toBeUndefined()
    expect(otherProcess.get(`wf-dropped-${tag}`)?.dropsWrites).toBe(0)
    const again = await run(sandbox, workflow(`wf-dropped-${tag}`, 8), items)
    expect(again.error).toBeUndefined()
    expect(linksOf(references)).toEqual(references.map(() => 1))
    expect(await rowSize(store, `wf-dropped-${tag}`, 'create-link')).toBe(31) // the 30 references and the other process's value
  })
})
