// @paykit-test own-worker: nock's interceptors, MSW's patched fetch
import * as E from 'fp-ts/lib/Either.js'
import { once } from 'node:events'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient } from '@paykit/core'
import { Money } from '@paykit/core/money'
import { verifyWebhookEvent } from '@paykit/core/webhook'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { payOnCheckoutPage } from '../../src/buyer/payOnCheckoutPage.js'
import { memoryPaymentService } from '../../src/memory/memoryPaymentService.js'
import { paykitHandlers } from '../../src/msw/paykitHandlers.js'
import { mockPaymentService } from '../../src/nock/mockPaymentService.js'
import { startSandbox } from '../../src/sandbox/startSandbox.js'
import { signedWebhook, type WebhookOutboxOptions } from '../../src/service/WebhookDelivery.js'
import { defaultCredentials } from '../../src/simulator/TestCards.js'

const SECRET = 'whsec-delivery-test'

describe('signedWebhook', () => {
  it('is byte for byte what the sandbox sends, and the core verifies it', async () => {
    const received: Array<{ body: string; headers: IncomingHttpHeaders }> = []
    const receiver = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
      req.on('end', () => {
        received.push({ body, headers: req.headers })
        res.end()
      })
    })
    await once(receiver.listen(0, '127.0.0.1'), 'listening')
    const fixed = new Date('2026-11-26T10:00:00.000Z')
    const sandbox = await startSandbox({
      webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
      webhookSecret: SECRET,
      now: () => fixed,
    })
    try {
      const client = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
      const link = await client.createPaymentLink({ amount: 19.99, orderReference: 'o1' })()
      if (E.isLeft(link)) throw new Error(link.left.message)
      sandbox.payOrder(link.right.orderCode)
      await sandbox.webhooksIdle()
      const [event] = sandbox.events()
      if (event === undefined) throw new Error('no event')
      const ours = signedWebhook(event, SECRET, { timestamp: fixed })
      expect(received[0]?.body).toBe(ours.body)
      expect(received[0]?.headers['paykit-signature']).toBe(ours.headers['paykit-signature'])
      const verified = verifyWebhookEvent({
        secret: SECRET,
        body: ours.body,
        header: ours.headers['paykit-signature'],
        now: fixed,
      })
      expect(E.isRight(verified) && Money.toString(verified.right.data.total)).toBe('19.99')
    } finally {
      await sandbox.close()
      receiver.close()
    }
  })

  it('sends no signature without a secret', async () => {
    const service = memoryPaymentService({ baseUrl: 'https://paykit.memory' })
    const client = createClient({
      baseUrl: service.baseUrl,
      credentials: defaultCredentials,
      transport: service.transport,
    })
    const link = await client.createPaymentLink({ amount: 7 })()
    if (E.isLeft(link)) throw new Error(link.left.message)
    service.cancelOrder(link.right.orderCode)
    const [event] = service.events()
    if (event === undefined) throw new Error('no event')
    const { headers } = signedWebhook(event, '', { timestamp: new Date() })
    expect(Object.keys(headers).sort()).toEqual(['content-type', 'user-agent'])
  })
})

// One MSW server for the file; other origins (the nock mock's, the sandbox's) pass through.
const paykit = paykitHandlers({ baseUrl: 'https://paykit-msw.test' })
const server = setupServer(...paykit.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }))
afterAll(() => {
  server.close()
  paykit.release()
})

describe('delivery controls (in memory, nock and MSW)', () => {
  const mock = mockPaymentService({ baseUrl: 'https://paykit-webhooks.test' })
  afterAll(() => mock.restore())

  const services = [
    ['in memory', () => memoryPaymentService({ baseUrl: 'https://paykit.memory' })],
    [
      'nock',
      () => {
        mock.reset()
        return { ...mock, transport: undefined }
      },
    ],
    [
      'MSW',
      () => {
        paykit.reset()
        return {
          ...paykit,
          transport: undefined,
          webhooks: (options: WebhookOutboxOptions) =>
            paykit.webhooks({ ...options, sign: signedWebhook }),
        }
      },
    ],
  ] as const

  for (const [name, make] of services) {
    it(`${name}: now, out of order, duplicated, delayed, dropped then redelivered, all pending`, async () => {
      const service = make()
      const seen: Array<string> = []
      let refuse = 0
      const outbox = service.webhooks({
        secret: SECRET,
        handler: async (body, headers) => {
          const event = verifyWebhookEvent({
            secret: SECRET,
            body,
            header: headers['paykit-signature'],
            now: new Date(),
          })
          if (E.isLeft(event)) return { status: 401 }
          if (refuse > 0) {
            refuse--
            return { status: 503 }
          }
          seen.push(`${event.right.type} ${event.right.data.orderReference ?? ''}`)
          return { status: 200 }
        },
      })
      const client = createClient({
        baseUrl: service.baseUrl,
        credentials: defaultCredentials,
        ...(service.transport === undefined ? {} : { transport: service.transport }),
      })
      const codes: Array<string> = []
      for (const ref of ['a', 'b', 'c']) {
        const link = await client.createPaymentLink({ amount: 2, orderReference: ref })()
        if (E.isLeft(link)) throw new Error(link.left.message)
        codes.push(link.right.orderCode)
        service.payOrder(link.right.orderCode)
      }
      service.finalizeOrder(codes[0] ?? '')
      expect(outbox.pending().map((e) => `${e.type} ${e.data.orderReference ?? ''}`)).toEqual([
        'order.paid a',
        'order.paid b',
        'order.paid c',
        'order.finalized a',
      ])
      await outbox.deliverLatest() // finalized a, before its paid
      await outbox.duplicate() // finalized a again
      expect(outbox.delay()?.data.orderReference).toBe('a') // paid a goes last
      expect(outbox.drop()?.data.orderReference).toBe('b') // paid b lost
      refuse = 1
      await outbox.deliverNext() // paid c refused once: it stays pending
      expect(outbox.pending().map((e) => e.data.orderReference)).toEqual(['a', 'c'])
      await outbox.redeliverDropped()
      await outbox.deliverAll()
      expect(seen).toEqual([
        'order.finalized a',
        'order.finalized a',
        'order.paid b',
        'order.paid a',
        'order.paid c',
      ])
      expect(outbox.pending()).toEqual([])
      expect(outbox.deliveries().filter((d) => d.duplicate)).toHaveLength(1)
    })
  }
})

describe('MSW webhook delivery', () => {
  beforeEach(() => paykit.reset())

  it('delivers a signed order.paid for a link paid on the checkout page through MSW', async () => {
    const received: Array<{ body: string; header: string | undefined }> = []
    const outbox = paykit.webhooks({
      secret: SECRET,
      sign: signedWebhook,
      handler: async (body, headers) => {
        received.push({ body, header: headers['paykit-signature'] })
        return { status: 200 }
      },
    })
    const client = createClient({ baseUrl: paykit.baseUrl, credentials: defaultCredentials })
    const link = await client.createPaymentLink({
      amount: 19.99,
      orderReference: 'msw-1',
      successUrl: 'https://shop.example/thanks',
    })()
    if (E.isLeft(link)) throw new Error(link.left.message)
    const page = await payOnCheckoutPage(link.right.paymentLinkUrl)
    expect(page.headers.get('location')).toBe('https://shop.example/thanks')
    expect(await outbox.deliverAll()).toEqual([
      expect.objectContaining({ type: 'order.paid', status: 200, duplicate: false }),
    ])
    const [sent] = received
    if (sent === undefined) throw new Error('nothing delivered')
    const verified = verifyWebhookEvent({
      secret: SECRET,
      body: sent.body,
      header: sent.header,
      now: new Date(),
    })
    expect(E.isRight(verified) && verified.right.data.orderReference).toBe('msw-1')
    expect(E.isRight(verified) && Money.toString(verified.right.data.total)).toBe('19.99')
    // Another secret does not verify it: the signature is over this body with SECRET.
    const forged = verifyWebhookEvent({
      secret: 'whsec-other',
      body: sent.body,
      header: sent.header,
      now: new Date(),
    })
    expect(E.isLeft(forged)).toBe(true)
  })

  it('sends no signature without a secret, and refuses a secret without a signer', async () => {
    const headers: Array<Readonly<Record<string, string>>> = []
    const outbox = paykit.webhooks({
      handler: async (_, h) => {
        headers.push(h)
        return { status: 204 }
      },
    })
    const client = createClient({ baseUrl: paykit.baseUrl, credentials: defaultCredentials })
    const link = await client.createPaymentLink({ amount: 4 })()
    if (E.isLeft(link)) throw new Error(link.left.message)
    paykit.cancelOrder(link.right.orderCode)
    expect((await outbox.deliverNext())?.type).toBe('order.cancelled')
    expect(Object.keys(headers[0] ?? {}).sort()).toEqual(['content-type', 'user-agent'])
    expect(() =>
      paykit.webhooks({ secret: SECRET, handler: async () => ({ status: 200 }) }),
    ).toThrow(/a secret needs sign/)
  })
})
