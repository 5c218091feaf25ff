/**
 * What the node's uses of n8n's de-duplication helpers share (Order Event → Accept Once,
 * Payment Link → Create's One Link per Order Reference).
 *
 * n8n keeps the values of one node in one database row (`processed_data`, per workflow id
 * and `n:<node id>` in the 'node' scope) and its helper reads that row, changes it in
 * memory and writes it back, with no lock: two calls at the same moment both see the old
 * row, both may pass the same value, and the second write drops the first's values. So
 * every call for one workflow and node goes through one queue in the process (`inTurn`).
 * Across processes (queue mode's workers) a failed call is made again (`recordProcessed`)
 * and what a call recorded is checked and recorded again when another process's write
 * dropped it (`confirmRecorded`, the checks of `referenceMemory`): that narrows the
 * window, it cannot close it (see the README).
 */
import { NodeOperationError, sleep } from 'n8n-workflow'
import type { ICheckProcessedOptions, IDeduplicationOutput, IExecuteFunctions } from 'n8n-workflow'
import { redactedNode } from './errors'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** How many values a node remembers by default (n8n's Remove Duplicates' default). */
export const DEFAULT_HISTORY_SIZE = 10_000

/** How many times a store call that failed is made, in all. */
const STORE_ATTEMPTS = 5

/** How many times a claimed reference is recorded again when another process dropped it. */
const CONFIRM_ROUNDS = 4

/** How long after another process dropped a record of a node its runs settle. */
const CONTENDED_MS = 60_000

/**
 * While other processes drop a node's records, a run's end checks all its references
 * again after each of these waits (ms): past the writes that other workers had under way
 * (from their read of the row to their write, tens of ms on a loaded 2-core machine, and
 * more now and then).
 */
const SETTLE_WAITS: ReadonlyArray<number> = [300, 1000]

/**
 * One node's memory of order references for one execution: `claim` records a reference
 * and says whether it was new (`again`: record it and answer true whatever was known);
 * `confirm` starts checking, after the request, that a claimed reference is still
 * recorded, recording it again if another process's write dropped it; `settle` waits for
 * every check started; `release` forgets one, for a creation that the service refused.
 */
export interface ReferenceMemory {
  readonly claim: (reference: string, again: boolean) => Promise<boolean>
  readonly confirm: (reference: string) => void
  readonly settle: () => Promise<void>
  readonly release: (reference: string) => Promise<void>
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** When each node (by `nodeKey`) last found a record of its own dropped by another process. */
const dropsSeen = new Map<string, number>()

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

/**
 * n8n's `checkProcessedAndRecord` for `values` in the node's scope, made again when it
 * fails. A node's first record is an INSERT of its row, and two processes inserting it
 * at once make one fail on the row's primary key; a call that failed wrote nothing, so
 * making it again is safe.
 */
export const recordProcessed = async (
  ctx: IExecuteFunctions,
  values: ReadonlyArray<string>,
  options: ICheckProcessedOptions,
): Promise<IDeduplicationOutput> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.helpers.checkProcessedAndRecord([...values], 'node', options)
    } catch (reason) {
      if (attempt >= STORE_ATTEMPTS)
        throw new NodeOperationError(
          redactedNode(ctx.getNode()),
          `n8n's de-duplication store failed ${String(STORE_ATTEMPTS)} times: ${reason instanceof Error ? reason.message : String(reason)}`,
        )
      await sleep(10 * attempt + Math.floor(Math.random() * 20 * attempt))
    }
  }
}

/**
 * Records `values` again while another process's write drops some of them (they come
 * back as new), at most `CONFIRM_ROUNDS` times. A value found still there may yet be
 * dropped by a write under way elsewhere.
 */
export const confirmRecorded = async (
  ctx: IExecuteFunctions,
  values: ReadonlyArray<string>,
  options: ICheckProcessedOptions,
): Promise<void> => {
  let dropped = values
  for (let round = 0; round < CONFIRM_ROUNDS && dropped.length > 0; round++)
    dropped = (await recordProcessed(ctx, dropped, options)).new.map(String)
}

/** A claim of a reference, or a confirmation of one claimed before, waiting for a call. */
interface Pending {
  readonly reference: string
  /** A claim (record it, answer whether it was new), or the nth check (1, 2, ...). */
  readonly kind: { readonly again: boolean } | { readonly round: number }
  readonly resolve: (fresh: boolean) => void
  readonly reject: (reason: unknown) => void
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The memory of the node `ctx` runs, in n8n's store ('node' scope, 'entries' mode, the
 * newest `historySize` kept). Claims made while a store call is under way wait for the
 * next call and go together (one read and one write of the row for all of them), and so
 * do those made in the same turn of the event loop, so items sent side by side cost about
 * one store call each round, and each reference is recorded just before its own request
 * (a millisecond or so before), not the whole batch's first.
 */
export const referenceMemory = (ctx: IExecuteFunctions, historySize: number): ReferenceMemory => {
  const key = nodeKey(ctx)
  const options = { mode: 'entries' as const, maxEntries: historySize }
  let pending: Array<Pending> = []
  let scheduled = false
  /** The checks under way, and every reference this run created a link for. */
  const checks = new Set<Promise<void>>()
  const created: Array<string> = []

  /**
   * Makes the next call come, if none is due for what is pending: on the next timer tick,
   * not at once, so that the claims and checks of the items whose responses came in the
   * same turn of the event loop (they come in bursts) go in one call. At once, a 1,000-link
   * run made 938 calls, each reading and writing the node's whole row.
   */
  const call = (): void => {
    if (scheduled || pending.length === 0) return
    scheduled = true
    void sleep(0).then(async () => inTurn(key, flush))
  }

  /** How many references this memory recorded; when each fresh one was (that count then). */
  let recorded = 0
  const recordedAt = new Map<string, number>()
  /**
   * A reference that half the history has been recorded after may have been forgotten on
   * purpose (the oldest go past Reference History Size): it is not checked (nor recorded
   * again), and so is one recorded before, not by this claim (Create Again).
   */
  const mayBeForgotten = (reference: string): boolean =>
    recorded - (recordedAt.get(reference) ?? -Infinity) >= historySize / 2

  const contended = (): boolean => Date.now() - (dropsSeen.get(key) ?? -Infinity) < CONTENDED_MS

  /** Starts a check of `reference`: in a call of its own (`callNow`) or the next claim's. */
  const check = (reference: string, callNow: boolean): void => {
    const done = new Promise<boolean>((resolve, reject) => {
      pending.push({ reference, kind: { round: 1 }, resolve, reject })
    }).then(
      // The link exists whatever the store says: a failed check is given up, not thrown.
      () => undefined,
      () => undefined,
    )
    checks.add(done)
    void done.then(() => checks.delete(done))
    if (callNow) call()
  }

  const flush = async (): Promise<void> => {
    const batch = pending.filter((entry) => {
      if (!('round' in entry.kind) || !mayBeForgotten(entry.reference)) return true
      entry.resolve(true)
      return false
    })
    pending = []
    scheduled = false
    if (batch.length === 0) return
    let dropped = false
    try {
      // n8n's helper answers "new" for every copy of a value given twice in one call.
      const unique = [...new Set(batch.map((p) => p.reference))]
      const checked = await recordProcessed(ctx, unique, options)
      const fresh = new Set(checked.new.map(String))
      // A check that comes back new was dropped by another process's write and is
      // recorded again now: it is checked once more, and is no claim's to win.
      for (const entry of batch)
        if ('round' in entry.kind) {
          const gone = fresh.delete(entry.reference)
          if (gone) {
            dropped = true
            dropsSeen.set(key, Date.now())
          }
          if (gone && entry.kind.round < CONFIRM_ROUNDS)
            pending.push({ ...entry, kind: { round: entry.kind.round + 1 } })
          else entry.resolve(!gone)
        }
      for (const entry of batch)
        if (!('round' in entry.kind)) {
          const isNew = fresh.delete(entry.reference)
          if (isNew) recordedAt.set(entry.reference, recorded++)
          entry.resolve(isNew || entry.kind.again)
        }
    } catch (reason) {
      for (const entry of batch) entry.reject(reason)
    }
    // Checks made again go in a call of their own; first checks wait for a claim's call.
    if (dropped) call()
  }

  /** Waits until no check is pending or under way. */
  const drain = async (): Promise<void> => {
    call()
    while (checks.size > 0) await Promise.all([...checks])
  }

  return {
    claim: (reference, again) =>
      new Promise<boolean>((resolve, reject) => {
        pending.push({ reference, kind: { again }, resolve, reject })
        call()
      }),
    confirm: (reference) => {
      created.push(reference)
      check(reference, false)
    },
    // While other processes drop this node's records, every reference of the run is
    // checked again after each wait, past the writes other workers had under way.
    settle: async () => {
      await drain()
      for (const wait of SETTLE_WAITS) {
        if (!contended()) return
        await sleep(wait)
        for (const reference of created) check(reference, true)
        await drain()
      }
    },
    release: (reference) =>
      inTurn(key, () => ctx.helpers.removeProcessed([reference], 'node', { mode: 'entries' })),
  }
}
