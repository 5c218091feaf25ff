import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeWebhookDispatcher } from '../../src/sandbox/Webhooks.js'
import { makeLiveService } from '../../src/service/LiveService.js'
import { defaultCredentials } from '../../src/simulator/TestCards.js'

// A receiver answering each POST with the next status of `answers` (then 200).
const answers: Array<number> = []
const received: Array<string> = []
const receiver = createServer((req, res) => {
  let body = ''
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
  req.on('end', () => {
    received.push((JSON.parse(body) as { type: string }).type)
    res.writeHead(answers.shift() ?? 200).end()
  })
})
let url = ''
beforeAll(async () => {
  await once(receiver.listen(0, '127.0.0.1'), 'listening')
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
})
afterAll(() => void receiver.close())

const cancelOne = (live: ReturnType<typeof makeLiveService>): void => {
  const { response } = live.exchange({
    method: 'POST',
    path: '/paymentlink/checkout',
    headers: {
      authorization: `Bearer ${defaultCredentials.apiKey}`,
      'content-type': 'application/json',
    },
    body: '{"amount":5}',
  })
  live.cancelOrder((JSON.parse(response.body) as { orderCode: string }).orderCode)
}

describe('makeWebhookDispatcher: the outbox POSTing to a URL', () => {
  it('POSTs each new event, retries, gives up into dropped; the outbox redelivers it', async () => {
    const live = makeLiveService({ baseUrl: 'http://paykit.test' })
    const webhooks = makeWebhookDispatcher(live, { url, maxAttempts: 2, initialDelayMs: 1 })
    try {
      received.length = 0
      answers.push(503, 500)
      cancelOne(live)
      await webhooks.idle()
      expect(
        webhooks.deliveries().map((d) => [d.attempt, d.status, d.delivered, d.willRetry]),
      ).toEqual([
        [1, 503, false, true],
        [2, 500, false, false],
      ])
      expect(webhooks.deliveries()[0]?.url).toBe(url)
      expect(webhooks.outbox.dropped()).toHaveLength(1)
      const [again] = await webhooks.outbox.redeliverDropped()
      expect([again?.attempt, again?.status]).toEqual([3, 200])
      await webhooks.outbox.duplicate()
      expect(received).toEqual(Array(4).fill('order.cancelled'))
      expect(webhooks.deliveries().at(-1)).toMatchObject({ delivered: true, attempt: 4 })
    } finally {
      webhooks.close()
    }
  })

  it('says how a request failed, and nothing is sent after close', async () => {
    const live = makeLiveService({ baseUrl: 'http://paykit.test' })
    const closed = createServer()
    await once(closed.listen(0, '127.0.0.1'), 'listening')
    const port = (closed.address() as AddressInfo).port
    closed.close()
    const webhooks = makeWebhookDispatcher(live, {
      url: `http://127.0.0.1:${port}/`,
      maxAttempts: 1,
    })
    cancelOne(live)
    await webhooks.idle()
    expect(webhooks.deliveries().map((d) => [d.status, d.error])).toEqual([[null, 'ECONNREFUSED']])
    webhooks.close()
    received.length = 0
    cancelOne(live)
    await webhooks.idle()
    expect(webhooks.deliveries()).toHaveLength(1)
  })
})
