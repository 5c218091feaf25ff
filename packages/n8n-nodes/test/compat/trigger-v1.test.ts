// @paykit-test own-worker: the Trigger's replay memory
/**
 * Workflows saved with the Paykit Trigger at type version 1 (its only version) followed by
 * Accept Once: the trigger's `webhook()` called through n8n-core's real `WebhookContext`,
 * what it emits run through the saved workflow by the real engine. A signed event is
 * emitted as it was sent and answered `{ received: true }`, a replay answered as a
 * duplicate. An unsigned event is no longer started unchecked (that let anyone who knew the
 * URL start the workflow): without a credential to check it, it is answered 503, and the
 * answer and n8n's log name what to set.
 */
import type { IDataObject } from 'n8n-workflow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { runWebhook, type WebhookRunResult, type WorkflowJson } from '@paykit/testkit/n8n'
import { PAYKIT_TRIGGER, dist, useSandbox } from '../support.js'
import { orderEvent, signed } from '../trigger/fixtures.js'
import { WEBHOOK_SECRET, itemsOf, runSaved, saved, savedCredentials } from './support.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

/** One POST to the saved workflow's Paykit Trigger, as n8n's webhook server makes it. */
const deliver = (
  workflow: WorkflowJson,
  delivery: { readonly rawBody: Buffer; readonly body: unknown; readonly signature?: string },
): Promise<WebhookRunResult> => {
  const trigger = workflow.nodes.find((n) => n.type === PAYKIT_TRIGGER)
  if (trigger === undefined) throw new Error(`${String(workflow.name)}: no Paykit Trigger`)
  return runWebhook({
    nodeType: new dist.trigger.PaykitTrigger(),
    type: PAYKIT_TRIGGER,
    typeVersion: trigger.typeVersion ?? 1,
    parameters: trigger.parameters,
    nodeCredentials: trigger.credentials ?? {},
    credentialTypes: [
      new dist.credential.PaykitApi(),
      new dist.webhookCredential.PaykitWebhookApi(),
    ],
    credentials: savedCredentials(sandbox),
    workflowId: String(workflow.id),
    request: {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(delivery.signature === undefined ? {} : { 'paykit-signature': delivery.signature }),
      },
      body: delivery.body,
      rawBody: delivery.rawBody,
    },
  })
}

const answer = (result: WebhookRunResult): { status: number; body: IDataObject } => ({
  status: result.response.statusCode,
  body: JSON.parse(String(result.response.body)) as IDataObject,
})

describe('Paykit Trigger, version 1', () => {
  it('with a Paykit Webhook credential: a signed event is emitted as sent, accepted once; its replay is answered as a duplicate', async () => {
    const workflow = saved(1, 'trigger-signed')
    const event = orderEvent({ id: 'evt_compat_signed' })
    const delivery = signed(event, { secret: WEBHOOK_SECRET })
    const received = await deliver(workflow, delivery)
    expect(answer(received)).toEqual({ status: 200, body: { received: true } })
    const emitted = (received.workflowData?.[0] ?? []).map((i) => i.json)
    expect(emitted).toEqual([event])

    const result = await runSaved(sandbox, workflow, emitted)
    expect(result.status).toBe('success')
    expect(itemsOf(result, 'Next Step')).toEqual([event])

    const replay = await deliver(workflow, delivery)
    expect(answer(replay)).toEqual({ status: 200, body: { received: true, duplicate: true } })
    expect(replay.workflowData).toBeUndefined()
  })

  it('without any credential: an unsigned event starts nothing, and the 503 names the credentials and Confirm With Paykit', async () => {
    const workflow = saved(1, 'trigger-unsigned')
    const event = orderEvent({ id: 'evt_compat_unsigned' })
    const text = JSON.stringify(event)
    const received = await deliver(workflow, { rawBody: Buffer.from(text), body: event })
    const { status, body } = answer(received)
    expect(status).toBe(503)
    expect(received.workflowData).toBeUndefined()
    expect(String(body.detail)).toContain('Paykit Webhook credential')
    expect(String(body.detail)).toContain('Paykit API credential')
    expect(String(body.detail)).toContain('Confirm With Paykit')
  })
})
