// @paykit-test own-worker: n8n's de-duplication store
/**
 * Order Event → Accept Once through the real n8n engine and n8n's de-duplication helpers
 * (in-process over the testkit's memoryDeduplicator, as n8n's database holds them): what
 * a workflow behind the Paykit Trigger depends on. Its store under another process's
 * writes: acceptOnceStore.test.ts.
 */
import { randomUUID } from 'node:crypto'
import type { IDataObject } from 'n8n-workflow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { paykitNode, run, singleNodeWorkflow, useSandbox } from '../../../support.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

/** An Accept Once node (id `nodeId`) in workflow `workflowId`; n8n keeps its memory per both. */
const acceptOnce = (
  workflowId: string,
  parameters: Record<string, unknown> = {},
  nodeId = 'accept-once',
) => ({
  ...singleNodeWorkflow(
    paykitNode(
      'Accept Once',
      {
        resource: 'orderEvent',
        operation: 'acceptOnce',
        eventId: '={{ $json.id }}',
        ...parameters,
      },
      { id: nodeId },
    ),
  ),
  id: workflowId,
})

/** The items the node passed on. */
const passed = (result: Awaited<ReturnType<typeof run>>) => result.nodes['Accept Once']?.[0] ?? []

const ids = (result: Awaited<ReturnType<typeof run>>) =>
  passed(result).map((item) => String(item.json.id))

/** A workflow id of its own for each test: the memories do not meet. */
const newWorkflow = () => `wf-accept-${randomUUID().slice(0, 8)}`

const paid = (id: string, orderCode = 'OC00001001'): IDataObject => ({
  id,
  type: 'order.paid',
  created: '2026-11-28T09:00:00.000Z',
  data: { orderCode, orderStatus: 'PAID', total: 25.5 },
})

describe('Order Event -> Accept Once', () => {
  it('an event passes the first time; delivered again in a later execution, it passes no more; a new one passes', async () => {
    const workflow = acceptOnce(newWorkflow())
    const first = await run(sandbox, workflow, [paid('evt_1')])
    expect(first.error).toBeUndefined()
    expect(ids(first)).toEqual(['evt_1'])

    const again = await run(sandbox, workflow, [paid('evt_1')])
    expect(again.error).toBeUndefined()
    expect(passed(again)).toEqual([])

    const next = await run(sandbox, workflow, [paid('evt_1'), paid('evt_2')])
    expect(ids(next)).toEqual(['evt_2'])
    expect(passed(next)[0]?.pairedItem).toEqual({ item: 1 })
  })

  it('the item passes on as it came: every field of the event, unchanged, paired with its input item', async () => {
    const event = {
      ...paid('evt_carry', 'OC00002002'),
      data: {
        orderCode: 'OC00002002',
        orderStatus: 'PAID',
        total: 1234.56,
        lineItems: [{ sku: 'MUG-LOGO', quantity: 2 }],
        orderReference: null,
      },
      extra: 'kept',
    }
    const result = await run(sandbox, acceptOnce(newWorkflow()), [event])
    expect(passed(result)).toEqual([{ json: event, pairedItem: { item: 0 } }])
  })

  it('an event twice in one batch passes once, the first of them, in input order', async () => {
    const result = await run(sandbox, acceptOnce(newWorkflow()), [
      paid('evt_a'),
      paid('evt_b'),
      { ...paid('evt_a'), copy: 2 },
      paid('evt_c'),
    ])
    expect(ids(result)).toEqual(['evt_a', 'evt_b', 'evt_c'])
    expect(passed(result).map((item) => item.pairedItem)).toEqual([
      { item: 0 },
      { item: 1 },
      { item: 3 },
    ])
    expect(passed(result)[0]?.json.copy).toBeUndefined()
  })

  it('the Event ID is read as text: 42 and " 42 " are the event "42"', async () => {
    const workflow = acceptOnce(newWorkflow())
    const first = await run(sandbox, workflow, [{ id: 42 }])
    expect(passed(first).map((item) => item.json.id)).toEqual([42])
    const again = await run(sandbox, workflow, [{ id: ' 42 ' }, { id: '42' }])
    expect(passed(again)).toEqual([])
  })

  it('each node and each workflow keeps its own memory', async () => {
    const workflowId = newWorkflow()
    expect(ids(await run(sandbox, acceptOnce(workflowId), [paid('evt_own')]))).toEqual(['evt_own'])
    const otherNode = await run(sandbox, acceptOnce(workflowId, {}, 'accept-once-2'), [
      paid('evt_own'),
    ])
    expect(ids(otherNode)).toEqual(['evt_own'])
    const otherWorkflow = await run(sandbox, acceptOnce(newWorkflow()), [paid('evt_own')])
    expect(ids(otherWorkflow)).toEqual(['evt_own'])
  })

  it('an item without an event id fails the run naming eventId, and records none of the batch', async () => {
    const workflow = acceptOnce(newWorkflow())
    const failed = await run(sandbox, workflow, [paid('evt_before_error'), { type: 'order.paid' }])
    expect(failed.error?.message).toBe(
      'eventId: is required (the Event ID parameter gave nothing for this item)',
    )
    expect(failed.error?.description).toContain('{{ $json.id }}')
    const retried = await run(sandbox, workflow, [paid('evt_before_error')])
    expect(ids(retried)).toEqual(['evt_before_error'])
  })

  it('History Size: past it the oldest ids are forgotten and pass again, the newer are still refused', async () => {
    const workflow = acceptOnce(newWorkflow(), { options: { historySize: 2 } })
    expect(ids(await run(sandbox, workflow, [paid('evt_1'), paid('evt_2')]))).toEqual([
      'evt_1',
      'evt_2',
    ])
    expect(ids(await run(sandbox, workflow, [paid('evt_3')]))).toEqual(['evt_3'])
    const replay = await run(sandbox, workflow, [paid('evt_3'), paid('evt_2'), paid('evt_1')])
    expect(ids(replay)).toEqual(['evt_1'])
  })

  it('needs no credential: Accept Once runs with none stored', async () => {
    const result = await run(sandbox, acceptOnce(newWorkflow()), [paid('evt_nocred')], {
      credentials: {},
    })
    expect(result.error).toBeUndefined()
    expect(ids(result)).toEqual(['evt_nocred'])
  })
})
