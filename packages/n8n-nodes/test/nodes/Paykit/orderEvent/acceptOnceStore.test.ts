// @paykit-test own-worker: n8n's de-duplication store (its own store set)
/**
 * Order Event → Accept Once over a store that reads and writes back as n8n's does, with
 * no lock (../rowStore.ts), while another process (a queue-mode worker) inserts the node's
 * row first or overwrites what this one wrote: no run fails, and a replayed event is
 * still refused afterwards.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { paykitNode, run, singleNodeWorkflow, useSandbox } from '../../../support.js'
import { otherProcess, rowSize, rowStore, useStore } from '../rowStore.js'

const store = rowStore()
let sandbox: Sandbox
beforeAll(async () => {
  useStore(store)
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

const workflow = (id: string) => ({
  ...singleNodeWorkflow(
    paykitNode(
      'Accept Once',
      { resource: 'orderEvent', operation: 'acceptOnce', eventId: '={{ $json.id }}', options: {} },
      { id: 'accept-once' },
    ),
  ),
  id,
})

const accepted = (result: Awaited<ReturnType<typeof run>>) =>
  (result.nodes['Accept Once']?.[0] ?? []).map((item) => String(item.json.id))

const eventsOf = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `evt_${tag}_${String(i)}`, type: 'order.paid' }))

describe("Accept Once over a store that reads and writes back as n8n's does", () => {
  it("another process inserts the node's row first: the record is made again, and the events pass once", async () => {
    const tag = randomUUID().slice(0, 8)
    const events = eventsOf(tag, 5)
    otherProcess.set(`wf-accept-clash-${tag}`, { insertsFirst: true, dropsWrites: 0 })
    const first = await run(sandbox, workflow(`wf-accept-clash-${tag}`), events)
    expect(first.error).toBeUndefined()
    expect(otherProcess.get(`wf-accept-clash-${tag}`)?.insertsFirst).toBe(false)
    expect(accepted(first)).toEqual(events.map((e) => e.id))
    const replay = await run(sandbox, workflow(`wf-accept-clash-${tag}`), events)
    expect(accepted(replay)).toEqual([])
  })

  it("another process's write drops the ids this run recorded: they are recorded again, and a replay is refused", async () => {
    const tag = randomUUID().slice(0, 8)
    const events = eventsOf(tag, 5)
    // The row exists before (the drop is of an UPDATE, as in a running n8n).
    await run(sandbox, workflow(`wf-accept-dropped-${tag}`), [{ id: `evt_${tag}_earlier` }])
    otherProcess.set(`wf-accept-dropped-${tag}`, { insertsFirst: false, dropsWrites: 1 })
    const first = await run(sandbox, workflow(`wf-accept-dropped-${tag}`), events)
    expect(accepted(first)).toEqual(events.map((e) => e.id))
    expect(otherProcess.get(`wf-accept-dropped-${tag}`)?.dropsWrites).toBe(0)
    const replay = await run(sandbox, workflow(`wf-accept-dropped-${tag}`), events)
    expect(accepted(replay)).toEqual([])
    // The earlier id, the other process's value and the five ids.
    expect(await rowSize(store, `wf-accept-dropped-${tag}`, 'accept-once')).toBe(7)
  })
})
