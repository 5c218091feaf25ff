// @paykit-test own-worker: the Trigger's replay memory
/**
 * Every workflow of examples/ run as a user would import it, through the real n8n engine,
 * against the sandbox over HTTP.
 */
import { readFileSync } from 'node:fs'
import type { IDataObject } from 'n8n-workflow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { FrameMessage } from '@paykit/core/machines'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { testCards } from '@paykit/testkit'
import { startWebhookReceiver, type WebhookReceiver } from '@paykit/testkit/sandbox'
import { authenticateHeadless } from '@paykit/testkit/buyer'
import type { CredentialStore, WorkflowJson } from '@paykit/testkit/n8n'
import { runWebhook, runWorkflow } from '@paykit/testkit/n8n'
import { sandboxCredentials } from '@paykit/tools/n8n/credentials'
import {
  PAYKIT_TRIGGER,
  dist,
  nodeTypes,
  paykitNode,
  run,
  singleNodeWorkflow,
  useSandbox,
} from './support.js'

const example = (name: string): WorkflowJson =>
  JSON.parse(readFileSync(new URL(`../examples/${name}`, import.meta.url), 'utf8')) as WorkflowJson

const SECRET = 'whsec-example-3f9a'

let sandbox: Sandbox
let receiver: WebhookReceiver

beforeAll(async () => {
  receiver = await startWebhookReceiver({ path: '/webhook', answer: () => 200 })
  sandbox = await useSandbox({
    webhookUrl: receiver.url,
    webhookSecret: SECRET,
    webhookRetryDelayMs: 10,
  })
})
afterAll(async () => {
  await sandbox.close()
  await receiver.close()
})

/** The credentials the examples name, pointing at the sandbox. */
const exampleCredentials = (): CredentialStore =>
  sandboxCredentials({ baseUrl: sandbox.url, signingSecret: SECRET })

const runExample = (workflow: WorkflowJson, input?: ReadonlyArray<IDataObject>) =>
  runWorkflow({
    workflow,
    nodeTypes: nodeTypes(),
    credentialTypes: [
      new dist.credential.PaykitApi(),
      new dist.webhookCredential.PaykitWebhookApi(),
    ],
    credentials: exampleCredentials(),
    ...(input === undefined ? {} : { input: input.map((json) => ({ json })) }),
  })

describe('examples/', () => {
  it('payment-link-from-form: a posted order becomes a link, answered with its URL', async () => {
    const result = await runExample(example('payment-link-from-form.json'), [
      { headers: {}, params: {}, query: {}, body: { amount: 30, orderReference: 'form-1' } },
    ])
    expect(result.error).toBeUndefined()
    const link = result.nodes['Create Payment Link']?.[0]?.[0]?.json
    expect(link?.paymentLinkUrl).toContain('/pay/')
    expect(result.webhookResponses.map((r) => r.body)).toEqual([
      { orderCode: link?.orderCode, paymentLinkUrl: link?.paymentLinkUrl },
    ])
    expect(sandbox.state().orders[String(link?.orderCode)]?.orderReference).toBe('form-1')
  })

  it('payment-link-from-form: the same order posted again is answered 409 Already Requested, no second link', async () => {
    const form = example('payment-link-from-form.json')
    const post = {
      headers: {},
      params: {},
      query: {},
      body: { amount: 30, orderReference: 'form-2' },
    }
    const first = await runExample(form, [post])
    expect(first.webhookResponses.map((r) => r.statusCode)).toEqual([200])
    const orders = Object.keys(sandbox.state().orders).length
    const again = await runExample(form, [post])
    expect(again.error).toBeUndefined()
    expect(again.webhookResponses).toEqual([
      expect.objectContaining({
        statusCode: 409,
        body: {
          orderReference: 'form-2',
          alreadyRequested: true,
          message: 'A payment link was already requested for this order reference.',
        },
      }),
    ])
    expect(Object.keys(sandbox.state().orders)).toHaveLength(orders)
  })

  it('orders-to-payment-links: three orders become three links, written back in order; a re-run creates none', async () => {
    const result = await runExample(example('orders-to-payment-links.json'))
    expect(result.error).toBeUndefined()
    const out = (result.nodes['Write Back']?.[0] ?? []).map((i) => i.json)
    expect(out.map((o) => o.orderReference)).toEqual(['INV-1001', 'INV-1002', 'INV-1003'])
    for (const o of out) {
      expect(o.paymentLinkUrl).toContain(`/pay/${String(o.orderCode)}`)
      expect(sandbox.state().orders[String(o.orderCode)]?.orderReference).toBe(o.orderReference)
    }
    // Run again (the node's One Link per Order Reference): nothing created, each order on
    // Already Requested.
    const orders = Object.keys(sandbox.state().orders).length
    const again = await runExample(example('orders-to-payment-links.json'))
    expect(again.error).toBeUndefined()
    expect(again.nodes['Write Back']).toBeUndefined()
    expect((again.nodes['Already Requested']?.[0] ?? []).map((i) => i.json)).toEqual(
      ['INV-1001', 'INV-1002', 'INV-1003'].map((orderReference) => ({
        orderReference,
        alreadyRequested: true,
        note: "An earlier run requested this order's payment link: no second link was created.",
      })),
    )
    expect(Object.keys(sandbox.state().orders)).toHaveLength(orders)
  })

  it('order-paid-read-back: the signed order.paid webhook reaches the trigger and the order is read back', async () => {
    const link = await run(
      sandbox,
      singleNodeWorkflow(
        paykitNode('Link', { resource: 'paymentLink', operation: 'create', orderSource: 'item' }),
      ),
      [{ amount: 42, orderReference: 'paid-example' }],
    )
    const orderCode = String(link.nodes['Link']?.[0]?.[0]?.json.orderCode)
    sandbox.payOrder(orderCode)
    await sandbox.webhooksIdle()
    const event = receiver.received.find((e) => e.body.includes(orderCode))
    if (event === undefined) throw new Error(`no webhook event for ${orderCode}`)
    const headers = Object.fromEntries(
      Object.entries(event.headers).map(([k, v]) => [
        k,
        Array.isArray(v) ? v.join(', ') : String(v),
      ]),
    )
    expect(headers['paykit-signature']).toMatch(/^t=\d+,v1=[0-9a-f]+$/)

    const workflow = example('order-paid-read-back.json')
    const trigger = workflow.nodes.find((n) => n.type === PAYKIT_TRIGGER)
    if (trigger === undefined) throw new Error('the example has no Paykit Trigger')
    const received = await runWebhook({
      nodeType: new dist.trigger.PaykitTrigger(),
      type: PAYKIT_TRIGGER,
      parameters: trigger.parameters,
      nodeCredentials: trigger.credentials ?? {},
      credentialTypes: [new dist.webhookCredential.PaykitWebhookApi()],
      credentials: exampleCredentials(),
      request: {
        method: 'POST',
        headers,
        body: JSON.parse(event.rawBody.toString()) as unknown,
        rawBody: event.rawBody,
      },
    })
    const emitted = received.workflowData?.[0] ?? []
    expect(emitted).toHaveLength(1)
    const result = await runExample(
      workflow,
      emitted.map((i) => i.json),
    )
    expect(result.error).toBeUndefined()
    expect(result.nodes['Read Order']?.[0]?.[0]?.json).toMatchObject({
      orderCode,
      orderStatus: 'PAID',
      total: 42,
      payment: { authorizationCode: expect.any(String) },
    })
  })

  it('charge-3ds-completion: the frame message completes a charge that needed 3DS', async () => {
    const card = await run(
      sandbox,
      singleNodeWorkflow(paykitNode('Card', { resource: 'paymentMethod', operation: 'create' })),
      [
        {
          card: {
            number: testCards.authentication.number,
            expirationMonth: '11',
            expirationYear: String(new Date().getUTCFullYear() + 2),
            cvv: '321',
          },
        },
      ],
    )
    const cardId = String(card.nodes['Card']?.[0]?.[0]?.json.id)
    const first = await run(
      sandbox,
      singleNodeWorkflow(
        paykitNode('Charge', {
          resource: 'charge',
          operation: 'create',
          orderId: 'ex-3ds',
          amount: 19.99,
          cardId,
        }),
      ),
    )
    const authentication = first.nodes['Charge']?.[1]?.[0]?.json.authentication as {
      url: string
      id: string
    }
    const message = await authenticateHeadless('success')(authentication.url, authentication.id)()
    if (E.isLeft(message)) throw new Error(message.left.message)
    const result = await runExample(example('charge-3ds-completion.json'), [
      {
        headers: {},
        params: {},
        query: {},
        body: {
          orderId: 'ex-3ds',
          amount: 19.99,
          cardId,
          frameMessage: FrameMessage.encode(message.right),
        },
      },
    ])
    expect(result.error).toBeUndefined()
    expect(result.nodes['Answer With Status']?.[0]?.[0]?.json).toMatchObject({
      status: 'SUCCEEDED',
    })
    expect(result.nodes['Complete Charge']?.[0]?.[0]?.json).toMatchObject({
      status: 'SUCCEEDED',
      order: { reference: 'ex-3ds', amount: 19.99 },
    })
  })
})
