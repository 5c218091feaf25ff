/**
 * A de-duplication store that behaves as n8n's database helper does
 * (n8n/dist/deduplication/deduplication-helper.js): it reads the node's row, yields (the
 * database round trip), changes its copy and writes it back, with no lock; a value given
 * twice in one call is "new" twice (the set of known hashes is built before the loop); the
 * row's first write is an INSERT that fails when another process inserted it meanwhile.
 * `otherProcess` plays what a second process (a queue-mode worker) does to the row.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { IDataDeduplicator, IDeduplicationOutput } from 'n8n-workflow'
import { loadN8n } from '@paykit/testkit/n8n'

/**
 * What another process (a queue-mode worker) does to a workflow's row, by workflow id:
 * `insertsFirst` makes the next INSERT of the row fail on its primary key after the other
 * process inserted its own row; `dropsWrites` makes that many of this process's writes be
 * overwritten at once by the other's write made from the row as it was before.
 */
export const otherProcess = new Map<string, { insertsFirst: boolean; dropsWrites: number }>()

/** n8n's `handleHashedItems` over an in-memory row, with its read-then-write gap. */
export const rowStore = (): IDataDeduplicator & { readonly calls: () => number } => {
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

/** Makes `store` the one the in-process engine's nodes use (one per process). */
export const useStore = (store: IDataDeduplicator): void => {
  const service = loadN8n().core.DataDeduplicationService.getInstance() as unknown as {
    deduplicator: IDataDeduplicator
  }
  service.deduplicator = store
}

/** How many values `store` holds for a workflow's node (what its database row holds). */
export const rowSize = (store: IDataDeduplicator, workflowId: string, nodeId: string) =>
  store.getProcessedDataCount(
    'node',
    { workflow: { id: workflowId }, node: { id: nodeId } } as never,
    { mode: 'entries' },
  )
