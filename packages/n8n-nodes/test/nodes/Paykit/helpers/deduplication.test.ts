// @paykit-test own-worker: n8n's de-duplication store (its own store set)
/**
 * The node's uses of n8n's de-duplication helpers (`helpers/deduplication.ts`): the queue of
 * store calls of one node, the calls made again when the store fails, and the memory of
 * order references (claim, release, the records another process's write dropped), run in
 * n8n's real engine (a probe node) over a store that reads and writes back its row as n8n's
 * database helper does (`../rowStore.ts`).
 */
import { randomUUID } from 'node:crypto'
import type { IDataDeduplicator, IExecuteFunctions } from 'n8n-workflow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '@paykit/testkit/sandbox'
import {
  inTurn,
  recordProcessed,
  referenceMemory,
} from '../../../../nodes/Paykit/v1/helpers/deduplication.js'
import { runProbe } from '../../../shared/probe.js'
import { useSandbox } from '../../../support.js'
import { otherProcess, rowSize, rowStore, useStore } from '../rowStore.js'

const store = rowStore()
let sandbox: Sandbox
beforeAll(async () => {
  useStore(store)
  sandbox = await useSandbox()
})
afterAll(async () => {
  useStore(store)
  await sandbox.close()
})

const NODE_ID = 'probe-node'

/** Runs `body` as a node (id `NODE_ID`) of the workflow `workflowId` in n8n. */
const inNode = <A>(workflowId: string, body: (ctx: IExecuteFunctions) => Promise<A>) => {
  let value: A | undefined
  return runProbe(
    sandbox,
    async (ctx) => {
      value = await body(ctx)
      return {}
    },
    { workflowId, settings: { id: NODE_ID } },
  ).then((result) => ({ error: result.error, value }))
}

describe('inTurn', () => {
  it('runs the tasks of one key one at a time, in order, a failed one not stopping the next', async () => {
    const log: Array<string> = []
    const task =
      (name: string, fails = false) =>
      async () => {
        log.push(`${name} start`)
        await new Promise((resolve) => setTimeout(resolve, 5))
        log.push(`${name} end`)
        if (fails) throw new Error(name)
        return name
      }
    const results = await Promise.allSettled([
      inTurn('k', task('a')),
      inTurn('k', task('b', true)),
      inTurn('k', task('c')),
    ])
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end'])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
  })

  it('tasks of other keys run side by side', async () => {
    let inFlight = 0
    let most = 0
    const task = async () => {
      most = Math.max(most, ++inFlight)
      await new Promise((resolve) => setTimeout(resolve, 5))
      inFlight--
    }
    await Promise.all([inTurn('x', task), inTurn('y', task), inTurn('z', task)])
    expect(most).toBe(3)
  })
})

describe('recordProcessed', () => {
  /** The row store, failing its next `failures` calls as a database error would. */
  const failing = (failures: number): IDataDeduplicator => {
    let left = failures
    return {
      ...store,
      checkProcessedAndRecord: async (...args) => {
        if (left-- > 0) throw new Error('connection terminated unexpectedly')
        return store.checkProcessedAndRecord(...args)
      },
    }
  }

  it('a call that failed (4 times) is made again, and records the values', async () => {
    const workflowId = randomUUID()
    useStore(failing(4))
    try {
      const { value } = await inNode(workflowId, (ctx) =>
        recordProcessed(ctx, ['ref-1', 'ref-2'], { mode: 'entries', maxEntries: 10 }),
      )
      expect(value?.new).toEqual(['ref-1', 'ref-2'])
      expect(await rowSize(store, workflowId, NODE_ID)).toBe(2)
    } finally {
      useStore(store)
    }
  })

  it("failing 5 times, it fails naming n8n's de-duplication store and the reason", async () => {
    useStore(failing(5))
    try {
      const { error } = await inNode(randomUUID(), (ctx) =>
        recordProcessed(ctx, ['ref-1'], { mode: 'entries', maxEntries: 10 }),
      )
      expect(error?.message).toBe(
        "n8n's de-duplication store failed 5 times: connection terminated unexpectedly",
      )
    } finally {
      useStore(store)
    }
  })
})

describe('referenceMemory', () => {
  it('a reference is new once: known afterwards, in this execution and the next; Create Again claims it anyway', async () => {
    const workflowId = randomUUID()
    const first = await inNode(workflowId, async (ctx) => {
      const memory = referenceMemory(ctx, 100)
      const claims = [await memory.claim('A', false), await memory.claim('A', false)]
      await memory.settle()
      return claims
    })
    expect(first.value).toEqual([true, false])
    const next = await inNode(workflowId, async (ctx) => {
      const memory = referenceMemory(ctx, 100)
      return [await memory.claim('A', false), await memory.claim('A', true)]
    })
    expect(next.value).toEqual([false, true])
  })

  it('claims made at once go to the store together: 40 references, each new once, in a few calls', async () => {
    const workflowId = randomUUID()
    const calls = store.calls()
    const { value } = await inNode(workflowId, async (ctx) => {
      const memory = referenceMemory(ctx, 1000)
      const references = Array.from({ length: 40 }, (_, i) => `ref-${String(i % 20)}`)
      return Promise.all(references.map((r) => memory.claim(r, false)))
    })
    expect(value?.filter(Boolean)).toHaveLength(20)
    expect(store.calls() - calls).toBeLessThanOrEqual(2)
    expect(await rowSize(store, workflowId, NODE_ID)).toBe(20)
  })

  it('a released reference (a creation the service refused) is new again', async () => {
    const { value } = await inNode(randomUUID(), async (ctx) => {
      const memory = referenceMemory(ctx, 100)
      const first = await memory.claim('refused', false)
      await memory.release('refused')
      return [first, await memory.claim('refused', false)]
    })
    expect(value).toEqual([true, true])
  })

  it("another process's write drops the records of this run: settle records them again", async () => {
    const workflowId = randomUUID()
    const { value } = await inNode(workflowId, async (ctx) => {
      const memory = referenceMemory(ctx, 100)
      // The claims' write is overwritten by the other process's, made from the row before.
      otherProcess.set(workflowId, { insertsFirst: false, dropsWrites: 1 })
      const claimed = await Promise.all(['x', 'y', 'z'].map((r) => memory.claim(r, false)))
      for (const reference of ['x', 'y', 'z']) memory.confirm(reference)
      await memory.settle()
      return claimed
    })
    expect(value).toEqual([true, true, true])
    // The three references and the other process's value.
    expect(await rowSize(store, workflowId, NODE_ID)).toBe(4)
    const again = await inNode(workflowId, async (ctx) => {
      const memory = referenceMemory(ctx, 100)
      return Promise.all(['x', 'y', 'z'].map((r) => memory.claim(r, false)))
    })
    expect(again.value).toEqual([false, false, false])
  })
})
