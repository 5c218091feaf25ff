// @paykit-test own-worker: the Trigger's replay memory
/**
 * Paykit Trigger against the real sandbox: the sandbox POSTs its signed order events over
 * HTTP to a small receiver that hands the exact request (bytes and headers) to the BUILT
 * node through n8n-core's `WebhookContext`, and answers the sandbox with what the node
 * answered. Each receiver is its own workflow (its own replay memory). Without a signing
 * secret the trigger confirms each event with the sandbox through the `Paykit API`
 * credential, as it does by default.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { defaultCredentials } from '@paykit/testkit'
import { startSandbox, type Sandbox } from '@paykit/testkit/sandbox'
import { runWebhook } from '@paykit/testkit/n8n'
import type { IDataObject } from 'n8n-workflow'
import { afterEach, describe, expect, it } from 'vitest'
import { dist } from '../support.js'
import { PaykitTrigger, PaykitWebhookApi, SECRET, orderEvent, paidOrder } from './fixtures.js'

const trigger = new PaykitTrigger()
let receivers = 0

interface Receiver {
  readonly url: string
  /** Where the trigger's `Paykit API` credential points (set once the sandbox runs). */
  service: string | undefined
  readonly emitted: Array<IDataObject>
  readonly statuses: Array<number>
  close(): Promise<void>
}

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/**
 * An HTTP receiver in front of the trigger. `loseFirstAnswer`: the node runs, but the
 * sandbox gets a 502 the first time (an answer lost on the way), so it redelivers.
 */
const startReceiver = async (
  options: { readonly secret: string | null; readonly loseFirstAnswer?: boolean } = {
    secret: SECRET,
  },
): Promise<Receiver> => {
  const emitted: Array<IDataObject> = []
  const statuses: Array<number> = []
  const workflowId = `sandbox-receiver-${++receivers}`
  let answers = 0
  // eslint-disable-next-line prefer-const -- set after the sandbox starts
  let receiver: Receiver
  const server: Server = createServer((req, res) => {
    void (async () => {
      const rawBody = await readBody(req)
      const headers = Object.fromEntries(
        Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
      )
      const service = receiver.service
      const result = await runWebhook({
        nodeType: trigger,
        type: 'n8n-nodes-paykit.paykitTrigger',
        credentialTypes: [new PaykitWebhookApi(), new dist.credential.PaykitApi()],
        nodeCredentials: {
          ...(options.secret === null
            ? {}
            : { paykitWebhookApi: { id: 'c1', name: 'Paykit Webhook' } }),
          ...(service === undefined ? {} : { paykitApi: { id: 'c2', name: 'Paykit sandbox' } }),
        },
        credentials: {
          ...(options.secret === null
            ? {}
            : {
                c1: {
                  type: 'paykitWebhookApi',
                  name: 'Paykit Webhook',
                  data: { signingSecret: options.secret },
                },
              }),
          ...(service === undefined
            ? {}
            : {
                c2: {
                  type: 'paykitApi',
                  name: 'Paykit sandbox',
                  data: {
                    baseUrl: service,
                    clientId: defaultCredentials.clientId,
                    clientSecret: defaultCredentials.clientSecret,
                    apiKey: '',
                    accessToken: '',
                  },
                },
              }),
        },
        request: { method: 'POST', headers, rawBody, body: JSON.parse(rawBody.toString('utf8')) },
        workflowId,
      })
      for (const item of result.workflowData?.[0] ?? []) emitted.push(item.json)
      const status = result.noWebhookResponse ? result.response.statusCode : 200
      answers += 1
      const lost = options.loseFirstAnswer === true && answers === 1
      statuses.push(lost ? 502 : status)
      res.statusCode = lost ? 502 : status
      res.setHeader('content-type', 'application/json')
      // What the node wrote itself goes out as it wrote it.
      res.end(
        result.noWebhookResponse
          ? String(result.response.body)
          : JSON.stringify(result.webhookResponse),
      )
    })().catch((error: unknown) => {
      res.statusCode = 500
      res.end(String(error))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  receiver = {
    url: `http://127.0.0.1:${port}/webhook/harness-webhook/webhook`,
    service: undefined,
    emitted,
    statuses,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  return receiver
}

const createLink = async (sandbox: Sandbox): Promise<string> => {
  const res = await fetch(`${sandbox.url}/paymentlink/checkout`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${defaultCredentials.apiKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ amount: 42.5, orderReference: 'INV-7' }),
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as { orderCode: string }).orderCode
}

const open: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close()
})

const setup = async (
  receiverOptions: Parameters<typeof startReceiver>[0],
  webhookSecret: string | undefined,
): Promise<{ receiver: Receiver; sandbox: Sandbox }> => {
  const receiver = await startReceiver(receiverOptions)
  open.push(receiver)
  const sandbox = await startSandbox({
    webhookUrl: receiver.url,
    ...(webhookSecret === undefined ? {} : { webhookSecret }),
    webhookAttempts: 3,
    webhookRetryDelayMs: 20,
  })
  open.push(sandbox)
  receiver.service = sandbox.url
  return { receiver, sandbox }
}

describe('Paykit Trigger receives the sandbox webhooks', () => {
  it('emits each signed order event once, as the sandbox sent it', async () => {
    const { receiver, sandbox } = await setup({ secret: SECRET }, SECRET)
    const code = await createLink(sandbox)
    sandbox.payOrder(code)
    sandbox.finalizeOrder(code)
    await sandbox.webhooksIdle()
    expect(receiver.statuses).toEqual([200, 200])
    const byType = Object.fromEntries(receiver.emitted.map((e) => [e['type'], e]))
    expect(Object.keys(byType).sort()).toEqual(['order.finalized', 'order.paid'])
    const paid = byType['order.paid'] as IDataObject
    expect(paid['data']).toMatchObject({ orderCode: code, orderStatus: 'PAID', total: 42.5 })
    expect(receiver.emitted.map((e) => e['id']).sort()).toEqual(
      sandbox
        .events()
        .map((e) => e.id)
        .sort(),
    )
  })

  it('refuses (401) every delivery signed with another secret and emits nothing', async () => {
    const { receiver, sandbox } = await setup({ secret: SECRET }, 'another-secret')
    sandbox.cancelOrder(await createLink(sandbox))
    await sandbox.webhooksIdle()
    expect(receiver.statuses).toEqual([401, 401, 401])
    expect(receiver.emitted).toEqual([])
    expect(sandbox.deliveries().every((d) => !d.delivered)).toBe(true)
  })

  it('drops the redelivery of an event whose answer was lost', async () => {
    const { receiver, sandbox } = await setup({ secret: SECRET, loseFirstAnswer: true }, SECRET)
    sandbox.payOrder(await createLink(sandbox))
    await sandbox.webhooksIdle()
    expect(receiver.statuses).toEqual([502, 200])
    expect(receiver.emitted).toHaveLength(1)
    expect(sandbox.deliveries().at(-1)?.delivered).toBe(true)
  })

  it('without a secret, confirms each unsigned event with the service and emits its copy of the order', async () => {
    const { receiver, sandbox } = await setup({ secret: null }, undefined)
    const code = await createLink(sandbox)
    sandbox.payOrder(code)
    await sandbox.webhooksIdle()
    expect(receiver.statuses).toEqual([200])
    expect(receiver.emitted).toHaveLength(1)
    expect(receiver.emitted[0]).toMatchObject({
      type: 'order.paid',
      data: { orderCode: code, orderStatus: 'PAID', total: 42.5 },
    })
  })

  it('without a secret, a forged event starts nothing: unknown order, wrong status, wrong total', async () => {
    const { receiver, sandbox } = await setup({ secret: null }, undefined)
    const code = await createLink(sandbox) // PENDING, total 42.5
    const post = (data: IDataObject) =>
      fetch(receiver.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(orderEvent({ data: paidOrder(data) })),
      })
    const unknown = await post({ orderCode: 'OC99999999' })
    const notPaid = await post({ orderCode: code, orderReference: 'INV-7', total: 42.5 })
    sandbox.payOrder(code)
    const otherTotal = await post({
      orderCode: code,
      orderReference: 'INV-7',
      subtotal: 42.5,
      total: 0.5,
    })
    expect([unknown.status, notPaid.status, otherTotal.status]).toEqual([422, 422, 422])
    expect(await notPaid.json()).toMatchObject({ detail: expect.stringMatching(/PENDING/) })
    expect(await otherTotal.json()).toMatchObject({ detail: expect.stringMatching(/total/) })
    await sandbox.webhooksIdle() // the genuine order.paid of the payment, confirmed
    expect(receiver.emitted.map((e) => (e['data'] as IDataObject)['total'])).toEqual([42.5])
  })
})
