import * as E from 'fp-ts/lib/Either.js'
import { createClient } from '@paykit/core'
import { describe, expect, it } from 'vitest'
import { memoryPaymentService } from '../../src/memory/memoryPaymentService.js'
import { makeWebhookOutbox } from '../../src/service/WebhookDelivery.js'
import { defaultCredentials } from '../../src/simulator/TestCards.js'

const service = memoryPaymentService({ baseUrl: 'https://paykit.memory' })
const client = createClient({
  baseUrl: service.baseUrl,
  credentials: defaultCredentials,
  transport: service.transport,
})

// Cancels `orders` new orders: one order.cancelled event each (an outbox reads the events
// emitted after it was made).
const cancelled = async (orders: number): Promise<ReadonlyArray<string>> => {
  const codes: Array<string> = []
  for (let i = 0; i < orders; i++) {
    const link = await client.createPaymentLink({ amount: 5 + i })()
    if (E.isLeft(link)) throw new Error(link.left.message)
    service.cancelOrder(link.right.orderCode)
    codes.push(link.right.orderCode)
  }
  return codes
}

describe('deliverEach', () => {
  it('delivers each pending event at once, retrying a refusal with doubling waits', async () => {
    const answers: Array<[string, number]> = []
    const outbox = makeWebhookOutbox(service, {
      handler: async (body) => {
        const code = (JSON.parse(body) as { data: { orderCode: string } }).data.orderCode
        const n = answers.filter(([c]) => c === code).length
        // The first event sent is refused twice.
        const status = code === (answers[0]?.[0] ?? code) && n < 2 ? 503 : 200
        answers.push([code, status])
        return { status }
      },
    })
    const codes = await cancelled(2)
    const started = Date.now()
    const deliveries = await outbox.deliverEach({ attempts: 5, initialDelayMs: 20 })
    // 20 ms, then 40 ms before the third attempt: at least 60 ms in all.
    expect(Date.now() - started).toBeGreaterThanOrEqual(55)
    expect(answers.map(([c, s]) => [codes.indexOf(c), s])).toEqual([
      [0, 503],
      [1, 200],
      [0, 503],
      [0, 200],
    ])
    expect(deliveries).toHaveLength(4)
    expect(outbox.deliveries().map((d) => [d.attempt, d.status, d.willRetry])).toEqual([
      [1, 503, true],
      [1, 200, false],
      [2, 503, true],
      [3, 200, false],
    ])
    expect(outbox.pending()).toEqual([])
    expect(outbox.dropped()).toEqual([])
  })

  it('drops an event out of attempts; redeliverDropped tries it again', async () => {
    let up = false
    const outbox = makeWebhookOutbox(service, {
      handler: async () => {
        if (!up) throw new Error('card 4111 1111 1111 1111 refused') // never logged
        return { status: 204 }
      },
    })
    await cancelled(1)
    const tries = await outbox.deliverEach({ attempts: 3, initialDelayMs: 1 })
    expect(tries.map((d) => [d.attempt, d.status, d.error, d.willRetry])).toEqual([
      [1, null, 'the handler threw', true],
      [2, null, 'the handler threw', true],
      [3, null, 'the handler threw', false],
    ])
    expect(outbox.dropped().map((e) => e.type)).toEqual(['order.cancelled'])
    up = true
    const again = await outbox.redeliverDropped()
    expect(again.map((d) => [d.attempt, d.status])).toEqual([[4, 204]])
    expect(JSON.stringify(outbox.deliveries())).not.toContain('4111')
  })

  it('idle waits for retries; reset cancels them, logs nothing late, reads on after the service reset', async () => {
    let signals: Array<AbortSignal> = []
    const outbox = makeWebhookOutbox(service, {
      handler: async (_body, _headers, signal) => {
        signals.push(signal)
        return { status: 500 }
      },
    })
    await cancelled(1)
    const each = outbox.deliverEach({ attempts: 5, initialDelayMs: 60_000 })
    let idle = false
    void outbox.idle().then(() => (idle = true))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(idle).toBe(false) // waiting a minute for the second attempt
    expect(outbox.deliveries()).toHaveLength(1)
    outbox.reset()
    await each
    await outbox.idle()
    expect(outbox.deliveries()).toEqual([])
    expect(outbox.pending()).toEqual([])
    expect(signals[0]?.aborted).toBe(true)
    signals = []
    service.reset()
    outbox.reset()
    await cancelled(1)
    expect(outbox.pending().map((e) => e.type)).toEqual(['order.cancelled'])
  })

  it('delivers nothing after close', async () => {
    let calls = 0
    const outbox = makeWebhookOutbox(service, {
      handler: async () => {
        calls++
        return { status: 200 }
      },
    })
    await cancelled(1)
    outbox.close()
    expect(await outbox.deliverEach()).toEqual([])
    expect(calls).toBe(0)
  })
})
