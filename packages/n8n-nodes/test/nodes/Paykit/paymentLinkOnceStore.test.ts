/**
 * One Link per Order Reference over a store that behaves as n8n's database helper does
 * (n8n/dist/deduplication/deduplication-helper.js): it reads the node's row, yields (the
 * database round trip), changes its copy and writes it back, with no lock; a value given
 * twice in one call is "new" twice (the set of known hashes is built before the loop).
 * The node's queue per workflow and node and its batching must make up for both.
 */
import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { IDataDeduplicator, IDeduplicationOutput } from 'n8n-workflow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '@paykit/testkit'
import { loadN8n } from '@paykit/testkit/n8n'
import { paykitNode, run, singleNodeWorkflow, useSandbox } from '../../support.js'

/**
 * What another process (a queue-mode worker) does to a workflow's row, by workflow id:
 * `insertsFirst` makes the next INSERT of the row fail on its primary key after the other
 * process inserted its own row; `dropsWrites` makes that many of this process's writes be
 * overwritten at once by the other's write made from the row as it was before.
 */
const otherProcess = new Map<string, { insertsFirst: boolean; dropsWrites: number }>()

/** n8n's `handleHashedItems` over an in-memory row, with its read-then-write gap. */
const rowStore = (): IDataDeduplicator & { readonly calls: () => number } => {
  const rows = new Map<string, ReadonlyArray<string>>()
  let calls = 0
  const keyOf = (context: { workflow: { id?: string }; node?: { id: string } }) =>
    `${String(context.workflow.id)}|n:${context.node?.id ?? ''}`
  return {
    calls: () => calls,
    async checkProcessedAndRecord(items, _scope, context, options) {
      calls += 1
      const key = keyOf(context)
      const other = otherProcess.get(String(context.workflow.id))
      const read = rows.get(key)
      const row = [...(read ?? [])]
      await sleep(2)
      if (read === undefined && other?.insertsFirst === true) {
        other.insertsFirst = false
        rows.set(key, ['other-process-value'])
        throw new Error('duplicate key value violates unique constraint "PK_processed_data"')
      }
      if (read === undefined && rows.has(key))
        throw new Error('duplicate key value violates unique constraint "PK_processed_data"')
      const known = new Set(row)
      const output: IDeduplicationOutput = { new: [], processed: [] }
      for (const item of items) {
        if (known.has(String(item))) output.processed.push(item)
        else {
          output.new.push(item)
          row.push(String(item))
        }
      }
      if (options.maxEntries) row.splice(0, row.length - options.maxEntries)
      await sleep(2)
      if (other !== undefined && other.dropsWrites > 0) {
        other.dropsWrites -= 1
        rows.set(key, [...new Set([...(read ?? []), 'other-process-value'])])
      } else rows.set(key, row)
      return output
    },
    async removeProcessed(items, _scope, context) {
      const key = keyOf(context)
      const row = [...(rows.get(key) ?? [])]
      await sleep(2)
      const gone = new Set(items.map(String))
      rows.set(
        key,
        row.filter((value) => !gone.has(value)),
      )
    },
    async clearAllProcessedItems(_scope, context) {
      rows.delete(keyOf(context))
    },
    async getProcessedDataCount(_scope, context) {
      return (rows.get(keyOf(context)) ?? []).length
    },
  }
}

const store = rowStore()
let sandbox: Sandbox
beforeAll(async () => {
  // The engine's service holds one store for the process: this file's is the row store.
  const service = loadN8n().core.DataDeduplicationService.getInstance() as unknown as {
    deduplicator: IDataDeduplicator
  }
  service.deduplicator = store
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
    expect(
      await store.getProcessedDataCount(
        'node',
        { workflow: { id: `wf-row-${tag}` }, node: { id: 'create-link' } } as never,
        { mode: 'entries' },
      ),
    ).toBe(60)
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

  it("another process inserts the node's row first: the record is made again, and the run goes on", async () => {
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
    expect(
      await store.getProcessedDataCount(
        'node',
        { workflow: { id: `wf-dropped-${tag}` }, node: { id: 'create-link' } } as never,
        { mode: 'entries' },
      ),
    ).toBe(31) // the 30 references and the other process's value
  })
})
