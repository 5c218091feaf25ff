/**
 * Paykit Trigger as n8n runs it: the BUILT node's `webhook()` called through n8n-core's real
 * `WebhookContext` (`@paykit/testkit/n8n`'s `runWebhook`), its credential resolved by the
 * harness' credentials helper, its static data carried from one call to the next.
 */
import { createHmac } from 'node:crypto'
import { baseNodeTypes, runWebhook, runWorkflow, type WebhookRunResult } from '@paykit/testkit/n8n'
import type { IDataObject, INodeParameters } from 'n8n-workflow'
import { describe, expect, it } from 'vitest'
import { PaykitTrigger, PaykitWebhookApi, SECRET, orderEvent, signed } from './fixtures.js'

const TYPE = 'n8n-nodes-paykit.paykitTrigger'
const trigger = new PaykitTrigger()
const credentialTypes = [new PaykitWebhookApi()]

interface Call {
  readonly rawBody?: Buffer
  readonly body?: unknown
  readonly signature?: string
  readonly headers?: Readonly<Record<string, string>>
  readonly secret?: string | null
  readonly parameters?: INodeParameters
  readonly staticData?: IDataObject
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
    ...(call.staticData === undefined ? {} : { staticData: call.staticData }),
  })
}

/** The static data as n8n saves it (JSON), to carry into the next call. */
const saved = (result: WebhookRunResult): IDataObject =>
  JSON.parse(JSON.stringify(result.staticData)) as IDataObject

const emitted = (result: WebhookRunResult): ReadonlyArray<IDataObject> =>
  (result.workflowData?.[0] ?? []).map((item) => item.json)

/** The JSON the node answered with itself (401, 400). */
const answered = (result: WebhookRunResult): IDataObject => {
  expect(result.noWebhookResponse).toBe(true)
  expect(result.response.ended).toBe(true)
  return JSON.parse(String(result.response.body)) as IDataObject
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
    ])
    const events = d.properties.find((p) => p.name === 'events')
    expect(events?.default).toEqual(['order.cancelled', 'order.finalized', 'order.paid'])
    const options = d.properties.find((p) => p.name === 'options')
    expect(options?.options).toEqual([
      expect.objectContaining({ name: 'toleranceSeconds', default: 300 }),
    ])
    const notice = d.properties.find((p) => p.type === 'notice')
    expect(notice?.displayName).toMatch(/--webhook-url/)
    expect(notice?.displayName).toMatch(/--webhook-secret/)
    expect(notice?.displayName).toMatch(/anyone/)
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
    expect(result.error).toBeUndefined()
    expect(result.webhookResponse).toEqual({ received: true })
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
  it('accepts unsigned events when the node has no credential', async () => {
    const event = orderEvent()
    const result = await post({
      rawBody: Buffer.from(JSON.stringify(event)),
      body: event,
      secret: null,
    })
    expect(emitted(result)).toEqual([event])
  })

  it('accepts unsigned events when the credential has an empty secret', async () => {
    const event = orderEvent()
    const result = await post({
      rawBody: Buffer.from(JSON.stringify(event)),
      body: event,
      secret: '',
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
    expect(result.noWebhookResponse).toBe(false)
    expect(result.webhookResponse).toMatchObject({ received: true, ignored: true })
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
    const delivery = signed(orderEvent())
    const first = await post(delivery)
    expect(emitted(first)).toHaveLength(1)
    const replay = await post({ ...delivery, staticData: saved(first) })
    expect(replay.workflowData).toBeUndefined()
    expect(replay.webhookResponse).toEqual({ received: true, duplicate: true })
    // a redelivery signed afresh (the sandbox's retry) is the same event too
    const retry = await post({ ...signed(orderEvent()), staticData: saved(replay) })
    expect(retry.webhookResponse).toEqual({ received: true, duplicate: true })
    // another event goes through
    const next = await post({ ...signed(orderEvent({ id: 'evt_0002' })), staticData: saved(retry) })
    expect(emitted(next)).toHaveLength(1)
  })

  it('drops replays of unsigned events too', async () => {
    const event = orderEvent()
    const call = { rawBody: Buffer.from(JSON.stringify(event)), body: event, secret: null }
    const first = await post(call)
    const again = await post({ ...call, staticData: saved(first) })
    expect(again.webhookResponse).toEqual({ received: true, duplicate: true })
  })

  it('forgets ids older than the tolerance window and keeps at most 1000', async () => {
    const now = Math.floor(Date.now() / 1000)
    const old: Array<[string, number]> = [
      ['evt_0001', now - 301],
      ['evt_old', now - 1000],
    ]
    const fresh: Array<[string, number]> = Array.from({ length: 1000 }, (_, i) => [
      `evt_f${i}`,
      now - 200 + (i % 100),
    ])
    const node = { seenEventIds: [...old, ...fresh] }
    const result = await post({
      ...signed(orderEvent()),
      staticData: { 'node:Paykit Trigger': node },
    })
    expect(emitted(result)).toHaveLength(1) // evt_0001 was seen 301 s ago: outside the window
    const stored = (result.staticData['node:Paykit Trigger'] as IDataObject)[
      'seenEventIds'
    ] as Array<[string, number]>
    expect(stored).toHaveLength(1000)
    expect(stored.map(([id]) => id)).toContain('evt_0001')
    expect(stored.map(([id]) => id)).not.toContain('evt_old')
    expect(stored.every(([, t]) => now - t <= 300 || t > now)).toBe(true)
  })

  it('stores a digest, not the id itself, for a very long id', async () => {
    const id = `evt_${'x'.repeat(10_000)}`
    const event = orderEvent({ id })
    const first = await post({
      rawBody: Buffer.from(JSON.stringify(event)),
      body: event,
      secret: null,
    })
    expect(emitted(first)).toHaveLength(1)
    expect(JSON.stringify(first.staticData).length).toBeLessThan(200)
    const again = await post({
      rawBody: Buffer.from(JSON.stringify(event)),
      body: event,
      secret: null,
      staticData: saved(first),
    })
    expect(again.webhookResponse).toEqual({ received: true, duplicate: true })
  })

  it('records nothing for refused or ignored events', async () => {
    const refused = await post(signed(orderEvent(), { secret: 'other' }))
    expect(refused.staticData).toEqual({})
    const ignored = await post({
      ...signed(orderEvent()),
      parameters: { events: ['order.cancelled'] },
    })
    expect(ignored.staticData).toEqual({})
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
