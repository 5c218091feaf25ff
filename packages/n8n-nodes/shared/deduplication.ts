/**
 * What the node's uses of n8n's de-duplication helpers share (Order Event → Accept Once,
 * Payment Link → Create's One Link per Order Reference).
 *
 * n8n keeps the values of one node in one database row (`processed_data`, per workflow id
 * and `n:<node id>` in the 'node' scope) and its helper reads that row, changes it in
 * memory and writes it back, with no lock: two calls at the same moment both see the old
 * row, both may pass the same value, and the second write drops the first's values. So
 * every call for one workflow and node goes through one queue in the process (`inTurn`).
 * Calls from other processes (queue mode's workers) are not covered: see the README.
 */
import type { IExecuteFunctions } from 'n8n-workflow'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** How many values a node remembers by default (n8n's Remove Duplicates' default). */
export const DEFAULT_HISTORY_SIZE = 10_000

/**
 * One node's memory of order references for one execution: `claim` records a reference
 * and says whether it was new (`again`: record it and answer true whatever was known);
 * `release` forgets one, for a creation that the service refused.
 */
export interface ReferenceMemory {
  readonly claim: (reference: string, again: boolean) => Promise<boolean>
  readonly release: (reference: string) => Promise<void>
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** The tail of the queue of store calls of each node in this process. */
const queues = new Map<string, Promise<unknown>>()

/** Runs `task` after every earlier task of `key` in this process has ended. */
export const inTurn = async <A>(key: string, task: () => Promise<A>): Promise<A> => {
  const previous = queues.get(key) ?? Promise.resolve()
  const run = previous.then(task, task)
  const tail = run.catch(() => undefined)
  queues.set(key, tail)
  try {
    return await run
  } finally {
    if (queues.get(key) === tail) queues.delete(key)
  }
}

/** The queue key of the node `ctx` runs: n8n's store keeps one row per workflow and node. */
export const nodeKey = (ctx: IExecuteFunctions): string =>
  `${String(ctx.getWorkflow().id)}/${ctx.getNode().id}`

interface Claim {
  readonly reference: string
  readonly again: boolean
  readonly resolve: (fresh: boolean) => void
  readonly reject: (reason: unknown) => void
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The memory of the node `ctx` runs, in n8n's store ('node' scope, 'entries' mode, the
 * newest `historySize` kept). Claims made while a store call is under way wait for the
 * next call and go together (one read and one write of the row for all of them), so
 * items sent side by side cost about one store call each round, and each reference is
 * recorded just before its own request, not the whole batch's first.
 */
export const referenceMemory = (ctx: IExecuteFunctions, historySize: number): ReferenceMemory => {
  const key = nodeKey(ctx)
  const options = { mode: 'entries' as const, maxEntries: historySize }
  let pending: Array<Claim> = []

  const flush = async (): Promise<void> => {
    const batch = pending
    pending = []
    try {
      // n8n's helper answers "new" for every copy of a value given twice in one call.
      const unique = [...new Set(batch.map((c) => c.reference))]
      const checked = await ctx.helpers.checkProcessedAndRecord(unique, 'node', options)
      const fresh = new Set(checked.new.map(String))
      for (const claim of batch) claim.resolve(fresh.delete(claim.reference) || claim.again)
    } catch (reason) {
      for (const claim of batch) claim.reject(reason)
    }
  }

  return {
    claim: (reference, again) =>
      new Promise<boolean>((resolve, reject) => {
        pending.push({ reference, again, resolve, reject })
        if (pending.length === 1) void inTurn(key, flush)
      }),
    release: (reference) =>
      inTurn(key, () => ctx.helpers.removeProcessed([reference], 'node', { mode: 'entries' })),
  }
}
