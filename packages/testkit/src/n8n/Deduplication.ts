/**
 * An in-memory store for n8n's de-duplication helpers (`checkProcessedAndRecord`, what
 * n8n's Remove Duplicates node and Paykit's Order Event → Accept Once use), for the engine
 * run in-process: n8n's server keeps the same data in its database (`processed_data`, one
 * value per workflow and scope), which this mirrors for the `entries` mode (MD5 of each
 * value, the newest `maxEntries` kept) and the two `latest*` modes.
 */
import { createHash } from 'node:crypto'
import type {
  DeduplicationItemTypes,
  DeduplicationScope,
  ICheckProcessedContextData,
  ICheckProcessedOptions,
  IDataDeduplicator,
  IDeduplicationOutput,
} from 'n8n-workflow'

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const contextOf = (scope: DeduplicationScope, data: ICheckProcessedContextData): string =>
  `${data.workflow.id}|${scope === 'node' ? `n:${data.node?.id ?? ''}` : ''}`

const hashOf = (value: DeduplicationItemTypes): string =>
  createHash('md5').update(value.toString()).digest('base64')

const later = (mode: ICheckProcessedOptions['mode'], a: DeduplicationItemTypes, b: unknown) =>
  mode === 'latestDate'
    ? new Date(String(a)).getTime() > new Date(String(b)).getTime()
    : Number(a) > Number(b)

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A new in-memory `IDataDeduplicator` (empty). `loadN8n` installs one for the process
 * unless n8n's service already has a store.
 *
 * @example
 * ```ts
 * import { memoryDeduplicator } from '@paykit/testkit/n8n'
 * import assert from 'node:assert/strict'
 *
 * const store = memoryDeduplicator()
 * const context = { workflow: { id: 'wf-1', active: true } }
 * const first = await store.checkProcessedAndRecord(['evt_1'], 'workflow', context, { mode: 'entries' })
 * const again = await store.checkProcessedAndRecord(['evt_1', 'evt_2'], 'workflow', context, { mode: 'entries' })
 * assert.deepEqual(first, { new: ['evt_1'], processed: [] })
 * assert.deepEqual(again, { new: ['evt_2'], processed: ['evt_1'] })
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const memoryDeduplicator = (): IDataDeduplicator => {
  const entries = new Map<string, Array<string>>()
  const latest = new Map<string, DeduplicationItemTypes>()
  return {
    async checkProcessedAndRecord(items, scope, contextData, options) {
      const key = contextOf(scope, contextData)
      const output: IDeduplicationOutput = { new: [], processed: [] }
      if (options.mode !== 'entries') {
        const current = latest.get(key)
        for (const item of items) {
          if (current === undefined || later(options.mode, item, current)) output.new.push(item)
          else output.processed.push(item)
          const top = latest.get(key)
          if (top === undefined || later(options.mode, item, top)) latest.set(key, item)
        }
        return output
      }
      const seen = entries.get(key) ?? []
      const known = new Set(seen)
      for (const item of items) {
        const hash = hashOf(item)
        if (known.has(hash)) output.processed.push(item)
        else {
          output.new.push(item)
          known.add(hash)
          seen.push(hash)
        }
      }
      if (options.maxEntries !== undefined) seen.splice(0, seen.length - options.maxEntries)
      entries.set(key, seen)
      return output
    },
    async removeProcessed(items, scope, contextData) {
      const key = contextOf(scope, contextData)
      const hashes = new Set(items.map(hashOf))
      entries.set(
        key,
        (entries.get(key) ?? []).filter((h) => !hashes.has(h)),
      )
    },
    async clearAllProcessedItems(scope, contextData) {
      const key = contextOf(scope, contextData)
      entries.delete(key)
      latest.delete(key)
    },
    async getProcessedDataCount(scope, contextData) {
      return (entries.get(contextOf(scope, contextData)) ?? []).length
    },
  }
}
