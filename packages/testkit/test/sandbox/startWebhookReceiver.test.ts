import { afterEach, describe, expect, it } from 'vitest'
import { startSandbox } from '../../src/sandbox/startSandbox.js'
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../src/sandbox/startWebhookReceiver.js'
import { defaultCredentials } from '../../src/simulator/TestCards.js'

describe('startWebhookReceiver', () => {
  const receivers: Array<WebhookReceiver> = []
  const start = async (options: Parameters<typeof startWebhookReceiver>[0] = {}) => {
    const receiver = await startWebhookReceiver(options)
    receivers.push(receiver)
    return receiver
  }
  afterEach(async () => {
    for (const receiver of receivers.splice(0)) await receiver.close()
  })

  it('keeps each request, its path, headers and exact bytes, and answers 204 by default', async () => {
    const receiver = await start({ path: '/hooks/paykit' })
    expect(receiver.url).toBe(`http://127.0.0.1:${receiver.port}/hooks/paykit`)
    const res = await fetch(receiver.url, {
      method: 'POST',
      headers: { 'x-test': 'a' },
      body: 'café',
    })
    expect(res.status).toBe(204)
    expect(receiver.received).toHaveLength(1)
    expect(receiver.received[0]?.path).toBe('/hooks/paykit')
    expect(receiver.received[0]?.headers['x-test']).toBe('a')
    expect(receiver.received[0]?.body).toBe('café')
    expect([...(receiver.received[0]?.rawBody ?? [])]).toEqual([...Buffer.from('café')])
  })

  it('answers the n-th request with the status `answer` gives', async () => {
    const receiver = await start({ answer: (_, n) => (n < 3 ? 500 : 200) })
    const statuses = []
    for (let i = 0; i < 3; i++)
      statuses.push((await fetch(receiver.url, { method: 'POST' })).status)
    expect(statuses).toEqual([500, 500, 200])
  })

  it('waitFor resolves with a kept or a later request, and rejects after its timeout', async () => {
    const receiver = await start()
    await fetch(receiver.url, { method: 'POST', body: 'first' })
    expect((await receiver.waitFor((w) => w.body === 'first')).body).toBe('first')
    const later = receiver.waitFor((w) => w.body === 'second')
    await fetch(receiver.url, { method: 'POST', body: 'second' })
    expect((await later).body).toBe('second')
    await expect(receiver.waitFor((w) => w.body === 'never', 50)).rejects.toThrow(
      /no matching webhook within 50 ms \(2 kept\)/,
    )
  })

  it("receives the sandbox's signed webhooks", async () => {
    const receiver = await start()
    const sandbox = await startSandbox({ webhookUrl: receiver.url, webhookSecret: 's' })
    try {
      const link = (await fetch(`${sandbox.url}/paymentlink/checkout`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${defaultCredentials.apiKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ amount: 5 }),
      }).then((r) => r.json())) as { orderCode: string }
      sandbox.payOrder(link.orderCode)
      const paid = await receiver.waitFor((w) => w.body.includes(link.orderCode))
      expect(JSON.parse(paid.body)).toMatchObject({ type: 'order.paid' })
      expect(typeof paid.headers['paykit-signature']).toBe('string')
    } finally {
      await sandbox.close()
    }
  })
})
