import * as E from 'fp-ts/lib/Either.js'
import { createClient } from '@paykit/core'
import { describe, expect, it } from 'vitest'
import { authenticateHeadless } from '../../src/buyer/Authenticate.js'
import { memoryPaymentService } from '../../src/memory/memoryPaymentService.js'
import * as Faults from '../../src/service/Faults.js'
import { defaultCredentials, testCards } from '../../src/simulator/TestCards.js'

const card = (number: string) => ({
  card: {
    number,
    expirationMonth: '12',
    expirationYear: String(new Date().getUTCFullYear() + 2),
    cvv: '123',
  },
})

const setUp = () => {
  const service = memoryPaymentService({ baseUrl: 'https://paykit.memory/v1' })
  const { baseUrl, transport } = service
  const client = createClient({
    baseUrl,
    credentials: defaultCredentials,
    transport,
    sleep: async () => undefined,
  })
  return { service, client }
}

describe('memoryPaymentService', () => {
  it('serves the client: a card, a 3DS charge through the frame, a link read back', async () => {
    const { service, client } = setUp()
    const method = await client.createPaymentMethod(card(testCards.authentication.number))()
    if (E.isLeft(method)) throw new Error(method.left.message)
    const authenticate = authenticateHeadless('success', { transport: service.transport })
    const flow = await client.chargeWith3ds(
      { order: { id: 'o1', amount: 12 }, cardId: method.right.id },
      authenticate,
    )()
    expect(E.isRight(flow) && flow.right._tag).toBe('Succeeded')
    const link = await client.createPaymentLink({ amount: 3, orderReference: 'o2' })()
    if (E.isLeft(link)) throw new Error(link.left.message)
    const order = await client.getOrder(link.right.orderCode)()
    expect(E.isRight(order) && order.right.orderReference).toBe('o2')
    expect(service.requests().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /v1/token 200',
      'POST /v1/paymentmethods 200',
      'POST /v1/charges 200',
      `POST /v1/3ds/${service.state().charges[0]?.authenticationId ?? 'auth'} 200`,
      'POST /v1/charges 200',
      'POST /v1/paymentlink/checkout 200',
      `GET /v1/paymentlink/order/${link.right.orderCode} 200`,
    ])
  })

  it('carries out every failure as the client meets it, the request processed unless status500', async () => {
    for (const failure of Faults.failures) {
      const { service, client } = setUp()
      service.injectFault(failure, { operation: 'createPaymentLink', times: 1 })
      const link = await client.createPaymentLink({ amount: 3, orderReference: 'o1' })()
      expect(E.isLeft(link), failure.kind).toBe(true)
      expect(service.state().counters.order, failure.kind).toBe(
        Faults.processesRequest(failure) ? 1 : 0,
      )
      expect(service.requests().at(-1)?.fault).toBe(failure.kind)
    }
  })

  it('a latency past the request timeout is a timeout; a shorter one is not waited for', async () => {
    const { service } = setUp()
    const client = createClient({
      baseUrl: service.baseUrl,
      credentials: defaultCredentials,
      transport: service.transport,
      timeoutMs: 1000,
    })
    service.setLatency(60_000, { operation: 'createPaymentLink', times: 1 })
    const slow = await client.createPaymentLink({ amount: 4 })()
    expect(slow).toMatchObject({ left: { _tag: 'Timeout', outcomeUnknown: true } })
    expect(service.state().counters.order).toBe(1) // processed, the answer too late
    service.setLatency(500, { operation: 'getToken', times: 1 })
    const started = Date.now()
    expect(E.isRight(await client.getToken()())).toBe(true)
    expect(Date.now() - started).toBeLessThan(400)
  })

  it('refuses a request to another origin or outside the base path, never reaching the service', async () => {
    const { service } = setUp()
    for (const url of ['https://elsewhere.test/v1/token', 'https://paykit.memory/v2/token']) {
      const result = await service.transport({ method: 'POST', url, headers: {}, body: '{}' })()
      expect(E.isLeft(result) && result.left.sent).toBe('no')
    }
    expect(service.requests()).toEqual([])
  })
})
