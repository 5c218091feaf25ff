import { once } from 'node:events'
import { createServer } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import * as E from 'fp-ts/lib/Either.js'
import { verifyWebhook, verifyWebhookEvent, WEBHOOK_SIGNATURE_HEADER } from '@paykit/core/webhook'
import { afterEach, describe, expect, it } from 'vitest'
import { fc, test } from '@fast-check/vitest'
import { payOnCheckoutPage } from '../../src/buyer/payOnCheckoutPage.js'
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/startSandbox.js'
import { startWebhookReceiver } from '../../src/sandbox/startWebhookReceiver.js'
import { defaultCredentials } from '../../src/simulator/TestCards.js'
import { cvvCopy, distinctiveCvv } from '../leaks.js'
import { clientOf, describeOverHttp } from './httpSuite.js'

describeOverHttp('startSandbox over real HTTP', async () => {
  const sandbox = await startSandbox()
  return { ...sandbox, baseUrl: sandbox.url }
})

/** A webhook receiver on 127.0.0.1 answering with `statusFor(n)` for the n-th call. */
const startReceiver = (statusFor: (n: number) => number) =>
  startWebhookReceiver({ path: '/hooks', answer: (_, n) => statusFor(n) })

describe('startSandbox', () => {
  const cleanups: Array<() => Promise<void>> = []
  const start = async (options: SandboxOptions = {}): Promise<Sandbox> => {
    const sandbox = await startSandbox(options)
    cleanups.push(sandbox.close)
    return sandbox
  }
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  it('listens on 127.0.0.1 on a free port by default', async () => {
    const sandbox = await start()
    expect(sandbox.host).toBe('127.0.0.1')
    expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`)
    expect(sandbox.port).toBeGreaterThan(0)
  })

  it('answers an oversized body with 413 without reading it, and keeps serving', async () => {
    const sandbox = await start({ maxBodyBytes: 1024 })
    const api = clientOf(sandbox.url)
    const res = await api.post('/token', { clientId: 'x'.repeat(5000), clientSecret: 's' })
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({ status: 413, title: 'Payload Too Large' })
    expect(await api.token()).toEqual(expect.any(String))
  })

  it('answers an oversized chunked body (no content-length) with 413 too', async () => {
    const sandbox = await start({ maxBodyBytes: 1024 })
    const chunk = new TextEncoder().encode('x'.repeat(600))
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 4) controller.enqueue(chunk)
        else controller.close()
      },
    })
    const res = await fetch(`${sandbox.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(413)
    expect(await clientOf(sandbox.url).token()).toEqual(expect.any(String))
  })

  it('answers bytes that are not HTTP with 400 and keeps serving', async () => {
    const sandbox = await start()
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(sandbox.port, '127.0.0.1', () =>
        socket.write('NOT HTTP AT ALL\r\n\r\n'),
      )
      let text = ''
      socket.on('data', (chunk) => (text += chunk.toString()))
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
    })
    expect(reply).toMatch(/^HTTP\/1\.1 400/)
    expect(await clientOf(sandbox.url).token()).toEqual(expect.any(String))
  })

  it('keeps the control endpoints off unless enabled', async () => {
    const sandbox = await start()
    const res = await clientOf(sandbox.url).post('/__sandbox/reset', {})
    expect(res.status).toBe(404)
  })

  describe('control endpoints', () => {
    it('advance the clock, pay, cancel and finalize orders, list events and reset', async () => {
      const sandbox = await start({ control: true })
      const api = clientOf(sandbox.url)
      const token = await api.token()
      const a = await api.link()
      const b = await api.link()
      expect((await api.post(`/__sandbox/orders/${a.orderCode}/pay`, {})).status).toBe(200)
      expect((await api.post(`/__sandbox/orders/${a.orderCode}/finalize`, {})).status).toBe(200)
      expect((await api.post(`/__sandbox/orders/${b.orderCode}/cancel`, {})).status).toBe(200)
      const refused = await api.post(`/__sandbox/orders/${b.orderCode}/pay`, {})
      expect(refused.status).toBe(409)
      expect((await api.post('/__sandbox/orders/NOPE/pay', {})).status).toBe(404)
      const events = (await (await api.get('/__sandbox/events')).json()) as Array<{
        type: string
        data: { total: unknown }
      }>
      expect(events.map((e) => e.type)).toEqual([
        'order.paid',
        'order.finalized',
        'order.cancelled',
      ])
      expect(events[0]?.data.total).toBe(42.5)

      const clock = await api.post('/__sandbox/clock', { advanceSeconds: 3601 })
      expect(await clock.json()).toEqual({ clockOffsetMs: 3601 * 1000 })
      expect((await api.post('/paymentmethods', {}, token)).status).toBe(401)
      const badClock = await api.post('/__sandbox/clock', { advanceSeconds: -1 })
      expect(Object.keys(((await badClock.json()) as { errors: object }).errors)).toEqual([
        'advanceSeconds',
      ])

      expect((await api.post('/__sandbox/reset', {})).status).toBe(200)
      expect(sandbox.state().orders).toEqual({})
      expect(await (await api.get('/__sandbox/events')).json()).toEqual([])
    })

    it('record a 3DS result', async () => {
      const sandbox = await start({ control: true })
      const api = clientOf(sandbox.url)
      const token = await api.token()
      const cardId = await api.card(token, '4000000000003220')
      const charge = (await (
        await api.post(
          '/charges',
          {
            order: { id: 'o-1', amount: 10, description: 'd', name: 'n' },
            cardId,
            authenticationId: null,
          },
          token,
        )
      ).json()) as { authentication: { id: string } }
      const id = charge.authentication.id
      const bad = await api.post(`/__sandbox/authentications/${id}`, { result: 'maybe' })
      expect(Object.keys(((await bad.json()) as { errors: object }).errors)).toEqual(['result'])
      expect(
        (await api.post(`/__sandbox/authentications/${id}`, { result: 'success' })).status,
      ).toBe(200)
      expect(sandbox.state().authentications[id]?.status).toBe('SUCCESS')
      expect(
        (await api.post(`/__sandbox/authentications/${id}`, { result: 'failed' })).status,
      ).toBe(409)
      expect((await api.post('/__sandbox/authentications/none', { result: 'failed' })).status).toBe(
        404,
      )
    })

    it('inject, list and clear faults', async () => {
      const sandbox = await start({ control: true })
      const api = clientOf(sandbox.url)
      const injected = await api.post('/__sandbox/faults', {
        fault: 'status500',
        path: '/token',
        times: 1,
      })
      expect(await injected.json()).toEqual({
        rules: [{ fault: { kind: 'status500' }, path: '/token', remaining: 1 }],
      })
      expect((await api.post('/token', {})).status).toBe(500)
      await api.post('/__sandbox/faults', { fault: 'latency', ms: 5 })
      expect((await api.get('/__sandbox/faults')).ok).toBe(true)
      expect((await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'DELETE' })).status).toBe(
        200,
      )
      expect(await (await api.get('/__sandbox/faults')).json()).toEqual({ rules: [] })
      const bad = await api.post('/__sandbox/faults', { fault: 'explode' })
      expect(bad.status).toBe(400)
      expect(Object.keys(((await bad.json()) as { errors: object }).errors)).toEqual(['fault'])
      expect((await api.post('/__sandbox/faults', '{oops')).status).toBe(400)
    })

    it('list the request log, redacted', async () => {
      const sandbox = await start({ control: true })
      const api = clientOf(sandbox.url)
      await api.token()
      const log = (await (await api.get('/__sandbox/requests')).json()) as Array<{ body: string }>
      expect(log).toHaveLength(1)
      expect(JSON.stringify(log)).not.toContain(defaultCredentials.clientSecret)
    })
  })

  describe('webhooks', () => {
    it('POSTs each order event signed so that the core verifies it', async () => {
      const receiver = await startReceiver(() => 200)
      cleanups.push(receiver.close)
      const secret = 'whsec-test'
      const sandbox = await start({ webhookUrl: receiver.url, webhookSecret: secret })
      const api = clientOf(sandbox.url)
      const link = await api.link({ amount: 12 })
      sandbox.payOrder(link.orderCode)
      await sandbox.webhooksIdle()
      expect(receiver.received).toHaveLength(1)
      const [hit] = receiver.received
      const header = hit?.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()]
      expect(typeof header).toBe('string')
      const body = hit?.body ?? ''
      expect(
        E.isRight(verifyWebhook({ secret, body, header: String(header), now: new Date() })),
      ).toBe(true)
      expect(
        E.isRight(
          verifyWebhook({ secret: 'other', body, header: String(header), now: new Date() }),
        ),
      ).toBe(false)
      const event = verifyWebhookEvent({ secret, body, header: String(header), now: new Date() })
      expect(event).toMatchObject({
        _tag: 'Right',
        right: { type: 'order.paid', data: { orderCode: link.orderCode, orderStatus: 'PAID' } },
      })
      expect(sandbox.deliveries()).toMatchObject([
        { attempt: 1, status: 200, delivered: true, willRetry: false },
      ])
    })

    it('sends no signature without a secret', async () => {
      const receiver = await startReceiver(() => 204)
      cleanups.push(receiver.close)
      const sandbox = await start({ webhookUrl: receiver.url })
      sandbox.cancelOrder((await clientOf(sandbox.url).link()).orderCode)
      await sandbox.webhooksIdle()
      expect(receiver.received[0]?.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()]).toBeUndefined()
      expect(JSON.parse(receiver.received[0]?.body ?? '{}')).toMatchObject({
        type: 'order.cancelled',
      })
    })

    it('retries a failing receiver with backoff until it accepts', async () => {
      const receiver = await startReceiver((n) => (n < 3 ? 500 : 200))
      cleanups.push(receiver.close)
      const sandbox = await start({ webhookUrl: receiver.url, webhookRetryDelayMs: 20 })
      sandbox.payOrder((await clientOf(sandbox.url).link()).orderCode)
      await sandbox.webhooksIdle()
      expect(
        sandbox.deliveries().map((d) => [d.attempt, d.status, d.delivered, d.willRetry]),
      ).toEqual([
        [1, 500, false, true],
        [2, 500, false, true],
        [3, 200, true, false],
      ])
      const times = sandbox.deliveries().map((d) => Date.parse(d.at))
      expect((times[2] ?? 0) - (times[1] ?? 0)).toBeGreaterThanOrEqual(35)
    })

    it('gives up after the configured attempts, and logs an unreachable receiver', async () => {
      const receiver = await startReceiver(() => 200)
      const url = receiver.url
      await receiver.close()
      const sandbox = await start({ webhookUrl: url, webhookAttempts: 3, webhookRetryDelayMs: 5 })
      sandbox.payOrder((await clientOf(sandbox.url).link()).orderCode)
      await sandbox.webhooksIdle()
      const deliveries = sandbox.deliveries()
      expect(deliveries).toHaveLength(3)
      expect(deliveries.every((d) => d.status === null && d.error !== null && !d.delivered)).toBe(
        true,
      )
      expect(deliveries[2]?.willRetry).toBe(false)
    })

    it('sends each event to each of several URLs, each with its own retries and log lines', async () => {
      const flaky = await startReceiver((n) => (n === 1 ? 500 : 200))
      const steady = await startReceiver(() => 200)
      cleanups.push(flaky.close, steady.close)
      const sandbox = await start({
        webhookUrl: [flaky.url, steady.url],
        webhookSecret: 's',
        webhookRetryDelayMs: 5,
      })
      const link = await clientOf(sandbox.url).link()
      sandbox.payOrder(link.orderCode)
      await sandbox.webhooksIdle()
      const [paid] = sandbox.events()
      expect(flaky.received.map((r) => r.body)).toEqual([
        steady.received[0]?.body,
        steady.received[0]?.body,
      ])
      expect(JSON.parse(steady.received[0]?.body ?? '{}')).toMatchObject({
        id: paid?.id,
        type: 'order.paid',
      })
      const byUrl = (url: string) =>
        sandbox
          .deliveries()
          .filter((d) => d.url === url)
          .map((d) => [d.eventId, d.attempt, d.status, d.duplicate])
      expect(byUrl(flaky.url)).toEqual([
        [paid?.id, 1, 500, false],
        [paid?.id, 2, 200, false],
      ])
      expect(byUrl(steady.url)).toEqual([[paid?.id, 1, 200, false]])
    })

    it('holds back to webhookConcurrency requests at once per URL, and delivers every event', async () => {
      let inFlight = 0
      let most = 0
      const slow = createServer((req, res) => {
        inFlight++
        most = Math.max(most, inFlight)
        req.resume()
        setTimeout(() => {
          inFlight--
          res.end()
        }, 40)
      })
      await once(slow.listen(0, '127.0.0.1'), 'listening')
      cleanups.push(() => new Promise((resolve) => slow.close(() => resolve())))
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hooks`
      const sandbox = await start({ webhookUrl: url, webhookConcurrency: 2 })
      const api = clientOf(sandbox.url)
      const codes: Array<string> = []
      for (let i = 0; i < 8; i++) codes.push((await api.link()).orderCode)
      // Eight events at once: without the limit, eight requests in flight.
      for (const code of codes) sandbox.cancelOrder(code)
      await sandbox.webhooksIdle()
      expect(most).toBe(2)
      expect(sandbox.deliveries().map((d) => [d.attempt, d.status])).toEqual(
        Array.from({ length: 8 }, () => [1, 200]),
      )
    })

    it('resends a recorded event, signed anew, to every URL; refuses an unknown id', async () => {
      const one = await startReceiver(() => 200)
      const two = await startReceiver(() => 200)
      cleanups.push(one.close, two.close)
      const secret = 'whsec-resend'
      const sandbox = await start({ webhookUrl: [one.url, two.url], webhookSecret: secret })
      sandbox.cancelOrder((await clientOf(sandbox.url).link()).orderCode)
      await sandbox.webhooksIdle()
      const [cancelled] = sandbox.events()
      sandbox.resendEvent(cancelled?.id ?? '')
      await sandbox.webhooksIdle()
      for (const receiver of [one, two]) {
        expect(receiver.received).toHaveLength(2)
        const [first, again] = receiver.received
        expect(again?.body).toBe(first?.body)
        const header = String(again?.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()])
        const event = verifyWebhookEvent({
          secret,
          body: again?.body ?? '',
          header,
          now: new Date(),
        })
        expect(event).toMatchObject({ _tag: 'Right', right: { id: cancelled?.id } })
      }
      expect(
        sandbox
          .deliveries()
          .filter((d) => d.duplicate)
          .map((d) => [d.url, d.attempt]),
      ).toEqual([
        [one.url, 2],
        [two.url, 2],
      ])
      expect(() => sandbox.resendEvent('evt_unknown')).toThrow('no event has id evt_unknown')
      const silent = await start()
      expect(() => silent.resendEvent('evt_000001')).toThrow('no webhook URL')
    })

    it('emits order.cancelled when a clock advance expires a link', async () => {
      const receiver = await startReceiver(() => 200)
      cleanups.push(receiver.close)
      const sandbox = await start({ webhookUrl: receiver.url })
      const link = await clientOf(sandbox.url).link({ amount: 3, expirationMinutes: 5 })
      sandbox.advanceClock(5 * 60 * 1000 + 1)
      await sandbox.webhooksIdle()
      expect(
        receiver.received.map(
          (r) => JSON.parse(r.body) as { type: string; data: { orderCode: string } },
        ),
      ).toMatchObject([{ type: 'order.cancelled', data: { orderCode: link.orderCode } }])
    })
  })

  it('takes a payment through the hosted checkout form: redirect, webhook, redacted log', async () => {
    const receiver = await startReceiver(() => 200)
    cleanups.push(receiver.close)
    const sandbox = await start({ webhookUrl: receiver.url, webhookSecret: 's' })
    const link = await clientOf(sandbox.url).link({
      amount: 30,
      successUrl: 'https://shop.example/thanks',
    })
    const res = await payOnCheckoutPage(link.paymentLinkUrl, {
      number: '4242424242424242',
      expirationYear: String(new Date().getUTCFullYear() + 1),
      cvv: distinctiveCvv,
      cardHolder: 'Grace Hopper',
      email: 'grace@example.com',
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('https://shop.example/thanks')
    await sandbox.webhooksIdle()
    expect(JSON.parse(receiver.received[0]?.body ?? '{}')).toMatchObject({
      type: 'order.paid',
      data: { orderCode: link.orderCode, payment: { buyer: { name: 'Grace Hopper' } } },
    })
    const log = JSON.stringify(sandbox.requests())
    expect(log).not.toContain('4242424242424242')
    expect(log).not.toMatch(cvvCopy(distinctiveCvv))
    expect(log).toContain('Grace')
  })

  it('pays an order through the control endpoint with the given buyer', async () => {
    const sandbox = await start({ control: true })
    const api = clientOf(sandbox.url)
    const link = await api.link()
    const res = await api.post(`/__sandbox/orders/${link.orderCode}/pay`, {
      buyer: { name: 'Control Buyer' },
    })
    expect(res.status).toBe(200)
    expect(sandbox.state().orders[link.orderCode]?.payment?.buyer.name).toBe('Control Buyer')
    const bad = await api.post(`/__sandbox/orders/${link.orderCode}/pay`, { buyer: { name: 5 } })
    expect(Object.keys(((await bad.json()) as { errors: object }).errors)).toEqual(['buyer.name'])
  })

  it('expires links in wall time without any request and emits order.cancelled', async () => {
    const receiver = await startReceiver(() => 200)
    cleanups.push(receiver.close)
    let shiftMs = 0
    const sandbox = await start({
      webhookUrl: receiver.url,
      expirySweepMs: 20,
      now: () => new Date(Date.now() + shiftMs),
    })
    const link = await clientOf(sandbox.url).link({ amount: 3, expirationMinutes: 1 })
    shiftMs = 61 * 1000
    await expect.poll(() => receiver.received.length, { timeout: 2000 }).toBe(1)
    expect(JSON.parse(receiver.received[0]?.body ?? '{}')).toMatchObject({
      type: 'order.cancelled',
      data: { orderCode: link.orderCode, orderStatus: 'CANCELLED' },
    })
    expect(sandbox.state().clockOffsetMs).toBe(0)
  })

  it('close() ends held requests and retries promptly', async () => {
    const receiver = await startReceiver(() => 500)
    cleanups.push(receiver.close)
    const sandbox = await startSandbox({ webhookUrl: receiver.url, webhookRetryDelayMs: 60_000 })
    sandbox.payOrder((await clientOf(sandbox.url).link()).orderCode)
    sandbox.injectFault({ kind: 'hang' })
    const held = clientOf(sandbox.url).post('/token', {})
    await new Promise((resolve) => setTimeout(resolve, 50))
    const started = Date.now()
    await sandbox.close()
    await expect(held).rejects.toThrow()
    await sandbox.webhooksIdle()
    expect(Date.now() - started).toBeLessThan(1000)
  })
})

describe('startSandbox under arbitrary input', () => {
  let sandbox: Sandbox | undefined
  afterEach(async () => {
    await sandbox?.close()
    sandbox = undefined
  })

  const paths = fc.oneof(
    fc.constantFrom(
      '/token',
      '/paymentmethods',
      '/charges',
      '/paymentlink/checkout',
      '/paymentlink/order/OC00001001',
      '/3ds/auth_000001?result=success',
      '/pay/OC00001001',
      '/__sandbox/reset',
    ),
    fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)),
  )
  const bodies = fc.oneof(
    fc.json(),
    fc.string(),
    fc.constant(''),
    fc.jsonValue().map((v) => JSON.stringify({ card: v, order: v, amount: v, lineItems: [v] })),
  )

  test.prop(
    [
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
      paths,
      bodies,
      fc.constantFrom(
        'application/json',
        'application/x-www-form-urlencoded',
        'text/plain',
        'application/json; charset=latin1',
        '',
      ),
      fc.boolean(),
    ],
    { numRuns: 120 },
  )(
    'answers every request with a non-5xx status and keeps serving',
    async (method, path, body, contentType, authorized) => {
      sandbox ??= await startSandbox({ maxBodyBytes: 4096 })
      const api = clientOf(sandbox.url)
      const token = authorized ? await api.token() : undefined
      const res = await fetch(`${sandbox.url}${path}`, {
        method,
        headers: {
          ...(contentType === '' ? {} : { 'content-type': contentType }),
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        },
        ...(method === 'GET' ? {} : { body }),
        redirect: 'manual',
      })
      expect(res.status).toBeLessThan(500)
      await res.arrayBuffer()
      expect((await api.post('/token', {})).status).toBeLessThan(500)
    },
  )
})
