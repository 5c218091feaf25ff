// Conformance (black box, the built CLI over HTTP): the sandbox's webhooks
// (docs/service.md#order-events-webhooks), verified with node:crypto directly (no project
// code), against a receiver that fails on purpose.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  advanceClock,
  call,
  createLink as createLinkAt,
  credentials,
  payByForm,
  startCli,
  startReceiver,
  type Cli,
  type Receiver,
} from './support.js'

interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly answered: number
}

const secret = 'whsec_conformance'
const received: Received[] = []
/** While set, the receiver fails the first delivery of every new event id with a 500. */
let failNew = false
const seen = new Set<string>()
let receiver: Receiver
let cli: Cli

beforeAll(async () => {
  receiver = await startReceiver((headers, body) => {
    let id = ''
    try {
      id = String((JSON.parse(body) as { id?: unknown }).id)
    } catch {
      id = ''
    }
    const answered = failNew && !seen.has(id) ? 500 : 200
    seen.add(id)
    received.push({ headers, body, answered })
    return answered
  })
  cli = await startCli([
    '--control',
    '--webhook-url',
    `http://127.0.0.1:${receiver.port}/hook`,
    '--webhook-secret',
    secret,
  ])
})
afterAll(async () => {
  await cli.stop()
  await receiver.close()
})

const createLink = (body: unknown): Promise<string> => createLinkAt(cli.url, body)

/** Waits until `predicate` holds over the deliveries received (bounded). */
const waitFor = async (predicate: () => boolean, ms = 10_000): Promise<void> => {
  const until = Date.now() + ms
  while (!predicate()) {
    if (Date.now() > until) throw new Error('timed out waiting for webhooks')
    await new Promise((r) => setTimeout(r, 25))
  }
}

const eventsOf = (code: string, type: string) =>
  received.filter((r) => {
    const e = JSON.parse(r.body) as { type: string; data: { orderCode: string } }
    return e.type === type && e.data.orderCode === code
  })

/** Checks `Paykit-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">` by hand. */
const expectSigned = (r: Received): void => {
  const header = r.headers['paykit-signature']
  expect(typeof header).toBe('string')
  const parts = Object.fromEntries(
    String(header)
      .split(',')
      .map((p) => p.split('=') as [string, string]),
  )
  expect(parts['t']).toMatch(/^\d+$/)
  expect(Math.abs(Number(parts['t']) - Date.now() / 1000)).toBeLessThan(300)
  const expected = createHmac('sha256', secret).update(`${parts['t']}.${r.body}`).digest('hex')
  expect(parts['v1']).toMatch(/^[0-9a-f]{64}$/)
  expect(timingSafeEqual(Buffer.from(parts['v1'] ?? '', 'hex'), Buffer.from(expected, 'hex'))).toBe(
    true,
  )
  // A wrong secret does not verify.
  const wrong = createHmac('sha256', 'other').update(`${parts['t']}.${r.body}`).digest('hex')
  expect(parts['v1']).not.toBe(wrong)
}

const expectEvent = async (r: Received, type: string, code: string): Promise<void> => {
  expect(r.headers['content-type']).toMatch(/application\/json/)
  const event = JSON.parse(r.body) as Record<string, unknown>
  expect(Object.keys(event).sort()).toEqual(['createdAt', 'data', 'id', 'type'])
  expect(typeof event['id']).toBe('string')
  expect(event['type']).toBe(type)
  expect(event['createdAt']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
  // data: the order details, as GET /paymentlink/order/{code} reads them now.
  const now = await call(cli.url, 'GET', `/paymentlink/order/${code}`, {
    bearer: credentials.apiKey,
  })
  expect(event['data']).toEqual(now.json)
  expectSigned(r)
}

describe('webhooks', () => {
  it('order.paid: signed POST of {id, type, createdAt, data}', async () => {
    const code = await createLink({ amount: 9.99, orderReference: 'wh-paid' })
    const res = await payByForm(`${cli.url}/pay/${code}`, 2)
    expect(res.status).toBeLessThan(400)
    await waitFor(() => eventsOf(code, 'order.paid').length >= 1)
    const [delivery] = eventsOf(code, 'order.paid')
    if (delivery === undefined) throw new Error('no delivery')
    await expectEvent(delivery, 'order.paid', code)
    expect((JSON.parse(delivery.body) as { data: { orderStatus: string } }).data.orderStatus).toBe(
      'PAID',
    )
    expect(delivery.body).not.toContain('4242424242424242')
  })

  it('order.cancelled on cancel, order.finalized on finalize', async () => {
    const cancelCode = await createLink({ amount: 1 })
    expect((await call(cli.url, 'POST', `/__sandbox/orders/${cancelCode}/cancel`)).status).toBe(200)
    await waitFor(() => eventsOf(cancelCode, 'order.cancelled').length >= 1)
    await expectEvent(
      eventsOf(cancelCode, 'order.cancelled')[0] as Received,
      'order.cancelled',
      cancelCode,
    )

    const finalCode = await createLink({ amount: 1 })
    expect(
      (await call(cli.url, 'POST', `/__sandbox/orders/${finalCode}/pay`, { body: {} })).status,
    ).toBe(200)
    expect((await call(cli.url, 'POST', `/__sandbox/orders/${finalCode}/finalize`)).status).toBe(
      200,
    )
    await waitFor(() => eventsOf(finalCode, 'order.finalized').length >= 1)
    await expectEvent(
      eventsOf(finalCode, 'order.finalized')[0] as Received,
      'order.finalized',
      finalCode,
    )
  })

  it('order.cancelled when a link expires on a clock advance', async () => {
    const code = await createLink({ amount: 1, expirationMinutes: 1 })
    await advanceClock(cli.url, 61)
    await waitFor(() => eventsOf(code, 'order.cancelled').length >= 1)
    const [delivery] = eventsOf(code, 'order.cancelled')
    expectSigned(delivery as Received)
    await new Promise((r) => setTimeout(r, 300))
    expect(eventsOf(code, 'order.cancelled')).toHaveLength(1)
  })

  it('after a clock advance the signature timestamp is still wall time (receivers check it)', async () => {
    const code = await createLink({ amount: 1, expirationMinutes: 1440 * 3 })
    await advanceClock(cli.url, 7200)
    expect(
      (await call(cli.url, 'POST', `/__sandbox/orders/${code}/pay`, { body: {} })).status,
    ).toBe(200)
    await waitFor(() => eventsOf(code, 'order.paid').length >= 1)
    const [delivery] = eventsOf(code, 'order.paid')
    expectSigned(delivery as Received)
    // createdAt is the sandbox clock's.
    const event = JSON.parse(delivery?.body ?? '{}') as { createdAt: string }
    expect(Date.parse(event.createdAt) - Date.now()).toBeGreaterThan(7000 * 1000)
  })

  it('a delivery the receiver fails is retried with the same event, signed again', async () => {
    const code = await createLink({ amount: 2 })
    failNew = true
    try {
      const paid = await call(cli.url, 'POST', `/__sandbox/orders/${code}/pay`, { body: {} })
      expect(paid.status).toBe(200)
      await waitFor(() => eventsOf(code, 'order.paid').length >= 2, 15_000)
    } finally {
      failNew = false
    }
    const deliveries = eventsOf(code, 'order.paid')
    expect(deliveries[0]?.answered).toBe(500)
    expect(deliveries[1]?.answered).toBe(200)
    const ids = deliveries.map((d) => (JSON.parse(d.body) as { id: string }).id)
    expect(ids[0]).toBe(ids[1])
    for (const d of deliveries) expectSigned(d)
    // The sandbox logs both attempts.
    const log = await call(cli.url, 'GET', '/__sandbox/deliveries')
    expect(log.status).toBe(200)
    const attempts = (log.json as Array<Record<string, unknown>>).filter(
      (d) => d['eventId'] === ids[0],
    )
    expect(attempts.map((a) => [a['attempt'], a['status'], a['delivered']])).toEqual([
      [1, 500, false],
      [2, 200, true],
    ])
  })
})

describe('webhooks without a secret, to a receiver that is down at first', () => {
  it('are sent unsigned, and retried until the receiver comes up', async () => {
    // Reserve a free port, then free it: the first deliveries find nobody listening.
    const probe = createServer()
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
    const port = (probe.address() as AddressInfo).port
    await new Promise<void>((r) => probe.close(() => r()))

    const got: Received[] = []
    let late: Receiver | undefined
    const unsigned = await startCli(['--control', '--webhook-url', `http://127.0.0.1:${port}/`])
    try {
      const link = await call(unsigned.url, 'POST', '/paymentlink/checkout', {
        bearer: credentials.apiKey,
        body: { amount: 3 },
      })
      const code = link.json.orderCode as string
      expect((await call(unsigned.url, 'POST', `/__sandbox/orders/${code}/cancel`)).status).toBe(
        200,
      )
      await new Promise((r) => setTimeout(r, 200))
      late = await startReceiver((headers, body) => {
        got.push({ headers, body, answered: 200 })
        return 204
      }, port)
      await waitFor(() => got.length >= 1, 15_000)
      const [delivery] = got
      expect(delivery?.headers['paykit-signature']).toBeUndefined()
      const event = JSON.parse(delivery?.body ?? '{}') as {
        type: string
        data: { orderCode: string }
      }
      expect(event.type).toBe('order.cancelled')
      expect(event.data.orderCode).toBe(code)
    } finally {
      await unsigned.stop()
      await late?.close()
    }
  })
})

describe('webhooks to several URLs (--webhook-url repeated), and a resend', () => {
  it('each URL gets each event with its own retries and log lines; a resend replays it to each', async () => {
    const a: Received[] = []
    const b: Received[] = []
    // A answers the first delivery of each event with 503; B takes everything at once.
    const seenByA = new Set<string>()
    const receiverA = await startReceiver((headers, body) => {
      const id = (JSON.parse(body) as { id: string }).id
      const answered = seenByA.has(id) ? 200 : 503
      seenByA.add(id)
      a.push({ headers, body, answered })
      return answered
    })
    const receiverB = await startReceiver((headers, body) => {
      b.push({ headers, body, answered: 200 })
      return 200
    })
    const urlA = `http://127.0.0.1:${receiverA.port}/a`
    const urlB = `http://127.0.0.1:${receiverB.port}/b`
    const fan = await startCli([
      '--control',
      '--webhook-url',
      urlA,
      '--webhook-url',
      urlB,
      '--webhook-secret',
      secret,
    ])
    try {
      const code = await createLinkAt(fan.url, { amount: 4.2 })
      expect((await call(fan.url, 'POST', `/__sandbox/orders/${code}/pay`)).status).toBe(200)
      await waitFor(() => a.length >= 2 && b.length >= 1)
      const [first] = b
      if (first === undefined) throw new Error('no delivery to B')
      const event = JSON.parse(first.body) as { id: string; type: string }
      expect(event.type).toBe('order.paid')
      expect(a.map((r) => [r.body, r.answered])).toEqual([
        [first.body, 503],
        [first.body, 200],
      ])
      for (const r of [...a, ...b]) expectSigned(r)
      const log = async (): Promise<Array<Record<string, unknown>>> =>
        (await call(fan.url, 'GET', '/__sandbox/deliveries')).json as Array<Record<string, unknown>>
      const lines = (await log()).map((d) => [d['url'], d['attempt'], d['status'], d['eventId']])
      expect(lines.filter((l) => l[0] === urlA)).toEqual([
        [urlA, 1, 503, event.id],
        [urlA, 2, 200, event.id],
      ])
      expect(lines.filter((l) => l[0] === urlB)).toEqual([[urlB, 1, 200, event.id]])

      // A resend: the same event (same body), signed anew, to both URLs, logged as such.
      await new Promise((r) => setTimeout(r, 1100)) // a new signature second
      const resent = await call(fan.url, 'POST', `/__sandbox/events/${event.id}/resend`)
      expect(resent.status).toBe(202)
      expect(resent.json).toEqual({ eventId: event.id, type: 'order.paid', urls: [urlA, urlB] })
      await waitFor(() => a.length >= 3 && b.length >= 2)
      for (const r of [a[2], b[1]]) {
        expect(r?.body).toBe(first.body)
        expectSigned(r as Received)
        expect(r?.headers['paykit-signature']).not.toBe(first.headers['paykit-signature'])
      }
      await expect
        .poll(async () => {
          const resends = (await log()).filter((d) => d['duplicate'] === true)
          return [urlA, urlB].map((url) =>
            resends.filter((d) => d['url'] === url).map((d) => [d['eventId'], d['status']]),
          )
        })
        .toEqual([[[event.id, 200]], [[event.id, 200]]])

      const unknown = await call(fan.url, 'POST', '/__sandbox/events/evt_nope/resend')
      expect(unknown.status).toBe(404)
      expect(JSON.stringify(unknown.json)).toContain('evt_nope')
    } finally {
      await fan.stop()
      await receiverA.close()
      await receiverB.close()
    }
  })

  it('a resend without any webhook URL is refused with 409', async () => {
    const plain = await startCli(['--control'])
    try {
      const code = await createLinkAt(plain.url, { amount: 1 })
      expect((await call(plain.url, 'POST', `/__sandbox/orders/${code}/cancel`)).status).toBe(200)
      const [event] = (await call(plain.url, 'GET', '/__sandbox/events')).json as Array<{
        id: string
      }>
      const refused = await call(plain.url, 'POST', `/__sandbox/events/${event?.id}/resend`)
      expect(refused.status).toBe(409)
      expect(JSON.stringify(refused.json)).toContain('No webhook URL')
    } finally {
      await plain.stop()
    }
  })
})
