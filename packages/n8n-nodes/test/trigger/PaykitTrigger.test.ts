// @paykit-test own-worker: the Trigger's replay memory
/**
 * Paykit Trigger as n8n runs it: the BUILT node's `webhook()` called through n8n-core's real
 * `WebhookContext` (`@paykit/testkit/n8n`'s `runWebhook`), its credential resolved by the
 * harness' credentials helper. The replay memory lives in the process, per workflow and
 * node: each test is another workflow, so tests do not see each other's events.
 */
import { createHmac } from 'node:crypto'
import { baseNodeTypes, runWebhook, runWorkflow, type WebhookRunResult } from '@paykit/testkit/n8n'
import type { IDataObject, INodeParameters } from 'n8n-workflow'
import { beforeEach, describe, expect, it } from 'vitest'
import { PaykitTrigger, PaykitWebhookApi, SECRET, orderEvent, signed } from './fixtures.js'

const TYPE = 'n8n-nodes-paykit.paykitTrigger'
const trigger = new PaykitTrigger()
const credentialTypes = [new PaykitWebhookApi()]

let workflowId = 'wf-0'
let workflows = 0
beforeEach(() => {
  workflowId = `wf-${++workflows}`
})

interface Call {
  readonly rawBody?: Buffer
  readonly body?: unknown
  readonly signature?: string
  readonly headers?: Readonly<Record<string, string>>
  readonly secret?: string | null
  readonly parameters?: INodeParameters
}

/** One POST to the trigger; `secret: null` leaves the node without a credential. */
const post = (call: Call): Promise<WebhookRunResult> => {
  const secret = call.secret === undefined ? SECRET : call.secret
  return runWebhook({
    nodeType: trigger,
    type: TYPE,
    parameters: call.parameters ?? {},
    credentialTypes,
    ...(secret === null
      ? {}
      : {
          nodeCredentials: { paykitWebhookApi: { id: 'cred-1', name: 'Paykit Webhook' } },
          credentials: {
            'cred-1': {
              type: 'paykitWebhookApi',
              name: 'Paykit Webhook',
              data: { signingSecret: secret },
            },
          },
        }),
    request: {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(call.signature === undefined ? {} : { 'paykit-signature': call.signature }),
        ...call.headers,
      },
      body: call.body,
      ...(call.rawBody === undefined ? {} : { rawBody: call.rawBody }),
    },
    workflowId,
  })
}

/** Unsigned deliveries accepted without asking the service (`Confirm With Paykit: Never`). */
const UNCONFIRMED = { options: { confirmation: 'never' } }

const emitted = (result: WebhookRunResult): ReadonlyArray<IDataObject> =>
  (result.workflowData?.[0] ?? []).map((item) => item.json)

/** The JSON the node answered with itself (every answer: 200, 401, 400, 503). */
const answered = (result: WebhookRunResult): IDataObject => {
  expect(result.noWebhookResponse).toBe(true)
  expect(result.response.ended).toBe(true)
  return JSON.parse(String(result.response.body)) as IDataObject
}

/** A 200 JSON acknowledgement, answered by the node itself (not n8n's `firstEntryJson`). */
const acknowledged = (result: WebhookRunResult): IDataObject => {
  expect(result.error).toBeUndefined()
  expect(result.response.statusCode).toBe(200)
  expect(String(result.response.headers['content-type'])).toMatch(/^application\/json/)
  return answered(result)
}

const expectRefused = (result: WebhookRunResult, status: number): IDataObject => {
  expect(result.error).toBeUndefined()
  expect(result.workflowData).toBeUndefined()
  expect(result.response.statusCode).toBe(status)
  expect(String(result.response.headers['content-type'])).toMatch(/^application\/problem\+json/)
  const body = answered(result)
  expect(body).toMatchObject({ status, title: expect.any(String), detail: expect.any(String) })
  return body
}

describe('Paykit Trigger: description', () => {
  it('is a POST webhook trigger with an optional, node-tested Paykit Webhook credential', () => {
    const d = trigger.description
    expect(d.name).toBe('paykitTrigger')
    expect(d.group).toEqual(['trigger'])
    expect(d.inputs).toEqual([])
    expect(d.webhooks).toEqual([
      { name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
    ])
    expect(d.credentials).toEqual([
      { name: 'paykitWebhookApi', required: false, testedBy: 'paykitWebhookSecretTest' },
      { name: 'paykitApi', required: false },
    ])
    const events = d.properties.find((p) => p.name === 'events')
    expect(events?.default).toEqual(['order.cancelled', 'order.finalized', 'order.paid'])
    const options = d.properties.find((p) => p.name === 'options')
    expect(options?.options).toEqual([
      expect.objectContaining({ name: 'confirmation', default: 'unsigned' }),
      expect.objectContaining({ name: 'toleranceSeconds', default: 300 }),
    ])
    const notice = d.properties.find((p) => p.type === 'notice')
    expect(notice?.displayName).toMatch(/--webhook-url/)
    expect(notice?.displayName).toMatch(/--webhook-secret/)
    expect(notice?.displayName).toMatch(/read back from Paykit/)
  })

  it('the credential has one password field, signingSecret', () => {
    const credential = new PaykitWebhookApi()
    expect(credential.name).toBe('paykitWebhookApi')
    expect(credential.properties).toEqual([
      expect.objectContaining({ name: 'signingSecret', typeOptions: { password: true } }),
    ])
  })

  it('registers nothing on the service (it has no webhook API)', async () => {
    const methods = trigger.webhookMethods?.['default']
    const hook = {} as never
    await expect(methods?.checkExists.call(hook)).resolves.toBe(true)
    await expect(methods?.create.call(hook)).resolves.toBe(true)
    await expect(methods?.delete.call(hook)).resolves.toBe(true)
  })

  it('tests the credential locally: a usable secret passes, an empty or padded one does not', async () => {
    const test = trigger.methods?.credentialTest?.['paykitWebhookSecretTest']
    if (test === undefined) throw new Error('no credential test paykitWebhookSecretTest')
    const run = (signingSecret: string) =>
      test.call({} as never, {
        id: 'c',
        name: 'Paykit Webhook',
        type: 'paykitWebhookApi',
        data: { signingSecret },
      })
    await expect(run(SECRET)).resolves.toMatchObject({ status: 'OK' })
    await expect(run('')).resolves.toMatchObject({ status: 'Error' })
    const padded = await run(`${SECRET}\n`)
    expect(padded.status).toBe('Error')
    expect(padded.message).not.toContain(SECRET)
  })
})

describe('Paykit Trigger: signed events', () => {
  it('emits a correctly signed event once, as plain JSON with amounts as numbers', async () => {
    const event = orderEvent()
    const result = await post(signed(event))
    expect(acknowledged(result)).toEqual({ received: true })
    expect(emitted(result)).toEqual([event])
    const data = emitted(result)[0]?.['data'] as IDataObject
    expect(typeof data['total']).toBe('number')
    expect(data['total']).toBe(59.97)
  })

  it('verifies the documented header, t=<unix>,v1=<hex HMAC-SHA256 of "t.body">', async () => {
    const body = JSON.stringify(orderEvent())
    const t = Math.floor(Date.now() / 1000)
    const v1 = createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex')
    const result = await post({
      rawBody: Buffer.from(body),
      body: JSON.parse(body),
      signature: `t=${t},v1=${v1}`,
    })
    expect(emitted(result)).toHaveLength(1)
  })

  it('verifies the raw bytes, not a re-serialisation of the parsed body', async () => {
    const event = orderEvent()
    const body = JSON.stringify(event, null, 2) // same JSON, other bytes
    const ok = await post(signed(event, { body }))
    expect(emitted(ok)).toEqual([event])
    const reserialised = signed(event, { body })
    const forged = await post({ ...reserialised, rawBody: Buffer.from(JSON.stringify(event)) })
    expectRefused(forged, 401)
  })

  const refusals: ReadonlyArray<readonly [string, () => Call, RegExp]> = [
    [
      'signed with another secret',
      () => signed(orderEvent(), { secret: 'not-the-secret' }),
      /does not match/,
    ],
    [
      'tampered after signing',
      () => {
        const s = signed(orderEvent())
        const tampered = JSON.stringify(
          orderEvent({ data: { ...(orderEvent().data as IDataObject), total: 0.01 } }),
        )
        return { ...s, rawBody: Buffer.from(tampered), body: JSON.parse(tampered) }
      },
      /does not match/,
    ],
    [
      'stale (signed 10 minutes ago)',
      () => signed(orderEvent(), { at: new Date(Date.now() - 600_000) }),
      /300 s/,
    ],
    [
      'from the future (10 minutes ahead)',
      () => signed(orderEvent(), { at: new Date(Date.now() + 600_000) }),
      /300 s/,
    ],
    [
      'unsigned',
      () => ({ rawBody: Buffer.from(JSON.stringify(orderEvent())), body: orderEvent() }),
      /missing Paykit-Signature/,
    ],
    [
      'signed with a malformed header',
      () => ({ ...signed(orderEvent()), signature: 'sha256=abc' }),
      /t=<unix/,
    ],
  ]

  it.each(refusals)('answers 401 and emits nothing to an event %s', async (_, call, reason) => {
    const request = call()
    const result = await post(request)
    const body = expectRefused(result, 401)
    expect(body['detail']).toMatch(reason)
    const text = JSON.stringify(body)
    expect(text).not.toContain(SECRET)
    if (request.signature !== undefined) {
      expect(text).not.toContain(request.signature)
      const v1 = /v1=([0-9a-f]+)/.exec(request.signature)?.[1]
      if (v1 !== undefined) expect(text).not.toContain(v1)
    }
    expect(result.staticData).toEqual({})
  })

  it('applies the Tolerance option', async () => {
    const minuteOld = signed(orderEvent(), { at: new Date(Date.now() - 60_000) })
    expect(emitted(await post(minuteOld))).toHaveLength(1)
    const strict = await post({ ...minuteOld, parameters: { options: { toleranceSeconds: 30 } } })
    expect(expectRefused(strict, 401)['detail']).toMatch(/30 s/)
  })

  it('answers 400 naming the field to a signed body that is no order event', async () => {
    const event = orderEvent({
      data: { ...(orderEvent().data as IDataObject), orderCode: undefined },
    })
    const body = expectRefused(await post(signed(event)), 400)
    expect(body['detail']).toMatch(/data\.orderCode/)
    expect(body['errors']).toHaveProperty(['data.orderCode'])
  })
})

describe('Paykit Trigger: without a secret', () => {
  it('by default refuses (503) an unsigned event it cannot confirm: no Paykit API credential', async () => {
    const event = orderEvent()
    const result = await post({
      rawBody: Buffer.from(JSON.stringify(event)),
      body: event,
      secret: null,
    })
    expect(expectRefused(result, 503)['detail']).toMatch(/Paykit API credential/)
  })

  it('with Confirm With Paykit: Never, accepts unsigned events when the node has no credential', async () => {
    const event = orderEvent()
    const result = await post({
      rawBody: Buffer.from(JSON.stringify(event)),
      body: event,
      secret: null,
      parameters: UNCONFIRMED,
    })
    expect(emitted(result)).toEqual([event])
  })

  it('with Confirm With Paykit: Never, accepts unsigned events when the credential has an empty secret', async () => {
    const event = orderEvent()
    const result = await post({
      rawBody: Buffer.from(JSON.stringify(event)),
      body: event,
      secret: '',
      parameters: UNCONFIRMED,
    })
    expect(emitted(result)).toEqual([event])
  })

  it('answers 400 to a body that is not JSON', async () => {
    const result = await post({ rawBody: Buffer.from('order paid!'), body: {}, secret: null })
    const body = expectRefused(result, 400)
    expect(body['detail']).toMatch(/not JSON/)
    expect(body['errors']).toEqual({ $: ['must be JSON'] })
  })

  it.each([
    ['type', orderEvent({ type: 'order.refunded' }), /type/],
    ['createdAt', orderEvent({ createdAt: 'yesterday' }), /createdAt/],
    [
      'data.total',
      orderEvent({ data: { ...(orderEvent().data as IDataObject), total: '59.97' } }),
      /data\.total/,
    ],
    ['id', orderEvent({ id: '' }), /id/],
  ])(
    'answers 400 naming %s to a JSON body that is no order event',
    async (field, event, reason) => {
      const result = await post({
        rawBody: Buffer.from(JSON.stringify(event)),
        body: event,
        secret: null,
      })
      const body = expectRefused(result, 400)
      expect(body['detail']).toMatch(reason)
      expect(Object.keys(body['errors'] as IDataObject)).toContain(field)
    },
  )
})

describe('Paykit Trigger: event filter', () => {
  it('acknowledges an unselected event type with 200 and emits nothing', async () => {
    const event = orderEvent({ type: 'order.cancelled' })
    const result = await post({ ...signed(event), parameters: { events: ['order.paid'] } })
    expect(result.workflowData).toBeUndefined()
    expect(acknowledged(result)).toMatchObject({ received: true, ignored: true })
  })

  it('emits a selected one', async () => {
    const event = orderEvent({ type: 'order.finalized' })
    const result = await post({
      ...signed(event),
      parameters: { events: ['order.finalized', 'order.paid'] },
    })
    expect(emitted(result)).toEqual([event])
  })
})

describe('Paykit Trigger: replays', () => {
  it('drops a replayed event id with 200 { received, duplicate } and emits nothing', async () => {
    const event = orderEvent()
    const delivery = signed(event)
    const first = await post(delivery)
    expect(emitted(first)).toHaveLength(1)
    const replay = await post(delivery)
    expect(replay.workflowData).toBeUndefined()
    expect(acknowledged(replay)).toEqual({ received: true, duplicate: true })
    // a redelivery signed afresh (the sandbox's retry) is the same event too
    const retry = await post(signed(event))
    expect(acknowledged(retry)).toEqual({ received: true, duplicate: true })
    // another event goes through
    const next = await post(signed(orderEvent()))
    expect(emitted(next)).toHaveLength(1)
  })

  it('20 copies of one event delivered at once start one execution', async () => {
    const delivery = signed(orderEvent())
    const results = await Promise.all(Array.from({ length: 20 }, () => post(delivery)))
    expect(results.filter((r) => r.workflowData !== undefined)).toHaveLength(1)
    expect(results.every((r) => r.response.statusCode === 200)).toBe(true)
  })

  it('drops replays of unsigned events too', async () => {
    const event = orderEvent()
    const call = {
      rawBody: Buffer.from(JSON.stringify(event)),
      body: event,
      secret: null,
      parameters: UNCONFIRMED,
    }
    expect(emitted(await post(call))).toHaveLength(1)
    expect(acknowledged(await post(call))).toEqual({ received: true, duplicate: true })
  })

  it('forgets an id once the tolerance window has passed', async () => {
    const event = orderEvent()
    // 3 s, not 1: each copy must arrive within the window of its signature, and a post took
    // over a second once beside the full suite on 2 cores.
    const parameters = { options: { toleranceSeconds: 3 } }
    expect(emitted(await post({ ...signed(event), parameters }))).toHaveLength(1)
    expect(emitted(await post({ ...signed(event), parameters }))).toHaveLength(0)
    await new Promise((r) => setTimeout(r, 4100))
    expect(emitted(await post({ ...signed(event), parameters }))).toHaveLength(1)
  })

  it('records nothing for refused or ignored events: the genuine one still starts the workflow', async () => {
    const event = orderEvent()
    const refused = await post(signed(event, { secret: 'other' }))
    expect(refused.response.statusCode).toBe(401)
    const ignored = await post({ ...signed(event), parameters: { events: ['order.cancelled'] } })
    expect(acknowledged(ignored)).toMatchObject({ ignored: true })
    expect(emitted(await post(signed(event)))).toHaveLength(1)
  })

  it('keeps nothing in the workflow static data (n8n would not save it: docs/decisions/0010-trigger-replay-protection.md)', async () => {
    const result = await post(signed(orderEvent()))
    expect(emitted(result)).toHaveLength(1)
    expect(result.staticData).toEqual({})
  })
})

describe('Paykit Trigger: in a workflow', () => {
  it('a following node reads {{$json.data.orderCode}} and the total as a number', async () => {
    const event = orderEvent()
    const hook = await post(signed(event))
    const items = hook.workflowData?.[0] ?? []
    const run = await runWorkflow({
      workflow: {
        nodes: [
          { name: 'Paykit Trigger', type: TYPE, parameters: {} },
          {
            name: 'Set',
            type: 'n8n-nodes-base.set',
            typeVersion: 3.4,
            parameters: {
              mode: 'manual',
              assignments: {
                assignments: [
                  { id: '1', name: 'code', type: 'string', value: '={{ $json.data.orderCode }}' },
                  { id: '2', name: 'total', type: 'number', value: '={{ $json.data.total * 2 }}' },
                ],
              },
              options: {},
            },
          },
        ],
        connections: {
          'Paykit Trigger': { main: [[{ node: 'Set', type: 'main', index: 0 }]] },
        },
      },
      nodeTypes: { [TYPE]: trigger, ...baseNodeTypes(['Set'], { from: import.meta.dirname }) },
      input: items,
      startNode: 'Paykit Trigger',
    })
    expect(run.error).toBeUndefined()
    expect(run.nodes['Set']?.[0]?.map((i) => i.json)).toEqual([
      { code: 'OC00001001', total: 119.94 },
    ])
  })
})
