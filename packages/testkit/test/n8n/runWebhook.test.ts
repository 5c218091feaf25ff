// @paykit-test own-worker: n8n's engine in this process, the webhook replay
import { describe, expect, it } from 'vitest'
import { runWebhook, WEBHOOK_BASE_URL } from '../../src/n8n/index.js'
import { webhookTriggerNode } from './fixtures.js'

const TYPE = 'n8n-nodes-paykit.paykitTestTrigger'
const event = { id: 'evt-1', type: 'order.paid', data: { orderCode: 'OC1' } }

describe('runWebhook', () => {
  it('answers 401 through the response object when the header is missing', async () => {
    const result = await runWebhook({
      nodeType: webhookTriggerNode,
      type: TYPE,
      request: { method: 'POST', headers: { 'content-type': 'application/json' }, body: event },
    })
    expect(result.error).toBeUndefined()
    expect(result.noWebhookResponse).toBe(true)
    expect(result.workflowData).toBeUndefined()
    expect(result.response).toEqual({
      statusCode: 401,
      headers: { 'content-type': 'application/json' },
      body: { error: 'missing x-paykit-key' },
      ended: true,
    })
  })

  it('emits the body, with the raw body, webhook name and URL the real context gives', async () => {
    const rawBody = Buffer.from(JSON.stringify(event))
    const result = await runWebhook({
      nodeType: webhookTriggerNode,
      type: TYPE,
      parameters: { header: 'x-signature' },
      webhookId: 'hook-1',
      request: { headers: { 'X-Signature': 'sig' }, body: event, rawBody },
    })
    expect(result.error).toBeUndefined()
    expect(result.response.ended).toBe(false)
    expect(result.staticData).toEqual({ 'node:Paykit Test Trigger': { lastEvent: 'evt-1' } })
    expect(result.workflowData).toEqual([
      [
        {
          json: {
            ...event,
            rawLength: rawBody.length,
            webhook: 'default',
            url: `${WEBHOOK_BASE_URL}/hook-1/paykit`,
          },
        },
      ],
    ])
  })

  it('reports what webhook() throws as a plain object', async () => {
    const result = await runWebhook({
      nodeType: {
        ...webhookTriggerNode,
        webhook: async () => Promise.reject(new Error('boom')),
      },
      request: { body: {} },
    })
    expect(result.error).toMatchObject({ name: 'Error', message: 'boom' })
  })
})
