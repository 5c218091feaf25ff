import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { FrameMessage } from '../../src/machines/Authentication.js'
import { FrameMessage as FrameMessageCodec } from '../../src/machines/Authentication.js'
import type { ClientConfig, ClientConfigWithRuntime, Exchange } from '../../src/client/Client.js'
import { createClient } from '../../src/edge/DefaultClient.js'
import { createClientWith } from '../../src/client/ClientWith.js'
import { traverseWithConcurrency } from '../../src/client/Concurrency.js'
import { validate } from '../../src/model/FieldError.js'
import { ChargeRequest } from '../../src/model/Charge.js'
import { PaymentLinkRequest } from '../../src/model/PaymentLink.js'
import type { PaykitError } from '../../src/client/PaykitError.js'
import type {
  Transport,
  TransportError,
  TransportRequest,
  TransportResponse,
} from '../../src/client/Transport.js'
import { transportError } from '../../src/client/Transport.js'
import { amountOnlyOrder } from '../fixtures.js'

// -------------------------------------------------------------------------------------
// an in-memory service: scripted replies per "METHOD /path", every request recorded
// -------------------------------------------------------------------------------------

type Result = E.Either<TransportError, TransportResponse>
type Reply = Result | ((request: TransportRequest) => Result | Promise<Result>)

const json = (status: number, body: unknown): Result =>
  E.right({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const raw = (status: number, body: string): Result => E.right({ status, headers: {}, body })
const fails = (failure: TransportError['failure']): Result => E.left(transportError(failure))

// Requests a fake service is answering: the fake clock lets no time pass while one runs.
let answering = 0

/** Replies are taken in order; the last one repeats. */
const fakeService = (routes: Readonly<Record<string, ReadonlyArray<Reply>>>) => {
  const requests: Array<TransportRequest> = []
  const used: Record<string, number> = {}
  const transport: Transport = (request) => async () => {
    requests.push(request)
    const key = `${request.method} ${new URL(request.url).pathname}`
    const replies = routes[key] ?? [json(404, { title: 'Not Found', status: 404 })]
    const n = used[key] ?? 0
    used[key] = n + 1
    const reply = replies[Math.min(n, replies.length - 1)] as Reply
    answering++
    try {
      await new Promise((r) => setTimeout(r, 1))
      return await (typeof reply === 'function' ? reply(request) : reply)
    } finally {
      answering--
    }
  }
  const count = (key: string) =>
    requests.filter((r) => `${r.method} ${new URL(r.url).pathname}` === key).length
  const bodies = (key: string) =>
    requests
      .filter((r) => `${r.method} ${new URL(r.url).pathname}` === key)
      .map((r) => JSON.parse(r.body ?? 'null') as unknown)
  return { transport, requests, count, bodies }
}

const BASE = 'https://pay.example.test/api'
const credentials = { clientId: 'client-1', clientSecret: 'secret-1' }
const tokenReply = (accessToken = 'tok-1') =>
  json(200, { accessToken, tokenType: 'Bearer', expiresIn: 3600 })

const card = {
  number: '4242424242424242',
  expirationMonth: '12',
  expirationYear: '2099',
  cvv: '123',
  cardHolder: 'Ana',
}
const paymentMethod = {
  id: 'pm_1',
  type: 'card',
  bin: { brand: 'VISA', issuerName: 'Banco Sandbox', countryCode: 'CRI' },
  success: true,
  message: 'ok',
}
const chargeRequest = { order: { id: 'o-1', amount: 10.5, name: 'Tea' }, cardId: 'pm_1' }
const createdAt = '2026-01-01T00:00:00.000Z'
const succeeded = {
  status: 'SUCCEEDED',
  message: 'paid',
  error: null,
  authentication: null,
  order: { id: 'svc-1', reference: 'o-1', amount: 10.5, currency: 'USD', authorizationCode: 'A1' },
  createdAt,
}
const authRequired = (id = 'auth_1') => ({
  status: 'AUTHENTICATION_REQUIRED',
  message: '3DS',
  error: null,
  authentication: { url: `https://pay.example.test/3ds/${id}`, id },
  order: null,
  createdAt,
})
const failedCharge = {
  status: 'FAILED',
  message: 'no',
  error: { code: 'FRAUD_PREVENT', message: 'under review' },
  authentication: null,
  order: null,
  createdAt,
}
const link = { orderCode: 'ORD1', orderId: 7, paymentLinkUrl: 'https://pay.example.test/l/ORD1' }
const order = (orderStatus: string) =>
  amountOnlyOrder({
    orderId: 7,
    orderCode: 'ORD1',
    orderStatus,
    subtotal: 25,
    total: 25,
    paymentLinkUrl: 'https://pay.example.test/l/ORD1',
    created: createdAt,
  })
const frame = (over: Partial<Record<string, unknown>> = {}): FrameMessage => {
  const decoded = validate(FrameMessageCodec)({
    MessageType: 'authentication.complete',
    Status: 'SUCCESS',
    AuthenticationId: 'auth_1',
    OrderId: 'o-1',
    OrderAmount: 10.5,
    ...over,
  })
  if (E.isLeft(decoded)) throw new Error('bad fixture')
  return decoded.right
}

const client = (service: ReturnType<typeof fakeService>, over: Partial<ClientConfig> = {}) =>
  createClient({
    baseUrl: BASE,
    credentials,
    transport: service.transport,
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    ...over,
  })

const left = (r: E.Either<PaykitError, unknown>): PaykitError => {
  if (E.isRight(r)) throw new Error(`expected a Left, got ${JSON.stringify(r.right)}`)
  return r.left
}

// Any unhandled rejection during a test fails it.
const unhandled: Array<unknown> = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)
beforeEach(() => {
  unhandled.length = 0
  process.on('unhandledRejection', onUnhandled)
})
afterEach(() => {
  process.off('unhandledRejection', onUnhandled)
  expect(unhandled).toEqual([])
})

// -------------------------------------------------------------------------------------
// tests
// -------------------------------------------------------------------------------------

describe('Client: validation before sending', () => {
  it('refuses a bad card with its field, and sends nothing (not even a token request)', async () => {
    const service = fakeService({})
    const e = left(
      await client(service).createPaymentMethod({
        card: { ...card, number: '4242424242424241' },
      })(),
    )
    expect(e._tag).toBe('ValidationError')
    expect(e._tag === 'ValidationError' && e.fieldErrors.map((f) => f.path)).toEqual([
      'card.number',
    ])
    expect(service.requests).toHaveLength(0)
  })

  it('requires billingInfo for a USA card when the payment method is given', async () => {
    const service = fakeService({})
    const usa = { ...paymentMethod, bin: { ...paymentMethod.bin, countryCode: 'USA' } }
    const e = left(await client(service).charge(chargeRequest, { paymentMethod: usa })())
    expect(e._tag === 'ValidationError' && e.fieldErrors).toEqual([
      {
        path: 'billingInfo',
        message: 'is required when the card issuer is in USA or CAN',
        code: 'requiredForCountry',
        countries: ['USA', 'CAN'],
      },
    ])
    expect(service.requests).toHaveLength(0)
  })

  it('names the fields of a bad charge, payment link and order code', async () => {
    const service = fakeService({})
    const c = client(service)
    const paths = async (r: Promise<E.Either<PaykitError, unknown>>) => {
      const e = left(await r)
      return e._tag === 'ValidationError' ? e.fieldErrors.map((f) => f.path) : e._tag
    }
    expect(await paths(c.charge({ order: { id: 'o', amount: -1 }, cardId: '' })())).toEqual([
      'order.amount',
      'cardId',
    ])
    expect(await paths(c.createPaymentLink({})())).toEqual(['amount', 'lineItems'])
    expect(await paths(c.getOrder('  ')())).toEqual(['orderCode'])
    expect(
      await paths(c.waitForOrderStatus('ORD1', [], { timeoutMs: 0, intervalMs: 0 })()),
    ).toEqual(['statuses', 'timeoutMs', 'intervalMs'])
    expect(service.requests).toHaveLength(0)
  })

  it('refuses a token call without client credentials, and a bad baseUrl, without sending', async () => {
    const service = fakeService({})
    const noSecret = createClient({
      baseUrl: BASE,
      credentials: { apiKey: 'key-1' },
      transport: service.transport,
    })
    const e = left(await noSecret.charge(chargeRequest)())
    expect(e._tag === 'ValidationError' && e.fieldErrors.map((f) => f.path)).toEqual([
      'credentials.clientId',
      'credentials.clientSecret',
    ])
    const badBase = createClient({ baseUrl: 'ftp://x', credentials, transport: service.transport })
    const b = left(await badBase.getOrder('ORD1')())
    expect(b._tag === 'ValidationError' && b.fieldErrors.map((f) => f.path)).toEqual(['baseUrl'])
    expect(service.requests).toHaveLength(0)
  })
})

describe('Client: endpoints', () => {
  it('creates a payment method with a bearer token, and decodes it', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'POST /api/paymentmethods': [json(201, paymentMethod)],
    })
    const r = await client(service).createPaymentMethod({
      card: { ...card, number: '4242 4242 4242 4242' },
    })()
    expect(r).toEqual(E.right(paymentMethod))
    const [tokenRequest, pmRequest] = service.requests
    expect(tokenRequest?.url).toBe(`${BASE}/token`)
    expect(JSON.parse(tokenRequest?.body ?? '')).toEqual(credentials)
    expect(pmRequest?.headers['authorization']).toBe('Bearer tok-1')
    expect(pmRequest?.headers['content-type']).toBe('application/json')
    expect(service.bodies('POST /api/paymentmethods')).toEqual([
      { card: { ...card, number: '4242424242424242' } },
    ])
  })

  it('charges (authenticationId null on the first attempt); FAILED is an answer, not an error', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'POST /api/charges': [json(200, succeeded), json(200, failedCharge)],
    })
    const c = client(service)
    const ok = await c.charge(chargeRequest)()
    expect(E.isRight(ok) && ok.right.status).toBe('SUCCEEDED')
    const no = await c.charge(chargeRequest)()
    expect(E.isRight(no) && no.right.status === 'FAILED' && no.right.error.code).toBe(
      'FRAUD_PREVENT',
    )
    expect(service.bodies('POST /api/charges')[0]).toEqual({
      ...chargeRequest,
      authenticationId: null,
    })
    expect(service.count('POST /api/token')).toBe(1)
  })

  it('creates a payment link with the API key when one is configured (no token request)', async () => {
    const service = fakeService({ 'POST /api/paymentlink/checkout': [json(200, link)] })
    const c = client(service, { credentials: { ...credentials, apiKey: 'key-1' } })
    expect(await c.createPaymentLink({ amount: 25 })()).toEqual(E.right(link))
    expect(service.requests[0]?.headers['authorization']).toBe('Bearer key-1')
    expect(service.bodies('POST /api/paymentlink/checkout')).toEqual([
      { amount: 25, orderName: 'PaymentLink Order', expirationMinutes: 1440 },
    ])
    expect(service.count('POST /api/token')).toBe(0)
  })

  it('sends an already-validated payment link request as createPaymentLink does, without validating it again', async () => {
    const service = fakeService({ 'POST /api/paymentlink/checkout': [json(200, link)] })
    const c = client(service, { credentials: { ...credentials, apiKey: 'key-1' } })
    const request = validate(PaymentLinkRequest)({ amount: 25 })
    if (E.isLeft(request)) throw new Error('the request is valid')
    expect(await c.createValidatedPaymentLink(request.right, { retry: true })()).toEqual(
      E.right(link),
    )
    expect(service.bodies('POST /api/paymentlink/checkout')).toEqual([
      { amount: 25, orderName: 'PaymentLink Order', expirationMinutes: 1440 },
    ])
    // What it is given is trusted: a request the codec would refuse is sent as it is.
    const unchecked = { ...request.right, expirationMinutes: 0 }
    expect(await c.createValidatedPaymentLink(unchecked)()).toEqual(E.right(link))
    expect(service.bodies('POST /api/paymentlink/checkout')[1]).toMatchObject({
      expirationMinutes: 0,
    })
    const refused = await c.createPaymentLink({ amount: 25, expirationMinutes: 0 })()
    expect(E.isLeft(refused) && refused.left._tag).toBe('ValidationError')
    expect(service.bodies('POST /api/paymentlink/checkout')).toHaveLength(2)
  })

  it('uses the access token for payment links when no API key is configured', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'POST /api/paymentlink/checkout': [json(200, link)],
    })
    expect(await client(service).createPaymentLink({ amount: 25 })()).toEqual(E.right(link))
    expect(service.requests[1]?.headers['authorization']).toBe('Bearer tok-1')
  })

  it('reads an order by its code (path-encoded), decoding amounts', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'GET /api/paymentlink/order/ORD%201': [json(200, order('PAID'))],
    })
    const r = await client(service).getOrder('ORD 1')()
    expect(E.isRight(r) && r.right.orderStatus).toBe('PAID')
    expect(E.isRight(r) && r.right.total.toString()).toBe('25')
    expect(service.requests[1]?.method).toBe('GET')
    expect(service.requests[1]?.body).toBeUndefined()
  })

  it('returns the token, and passes the configured timeout to each request', async () => {
    const service = fakeService({ 'POST /api/token': [tokenReply('tok-9')] })
    expect(await client(service, { timeoutMs: 1234 }).getToken()()).toEqual(E.right('tok-9'))
    expect(service.requests[0]?.timeoutMs).toBe(1234)
  })
})

describe('Client: tokens and 401', () => {
  it('refreshes the token once on a 401 and repeats the call once (a charge too)', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply('tok-1'), tokenReply('tok-2')],
      'POST /api/charges': [
        json(401, { title: 'Unauthorized', status: 401 }),
        json(200, succeeded),
      ],
    })
    const r = await client(service).charge(chargeRequest)()
    expect(E.isRight(r)).toBe(true)
    expect(service.count('POST /api/token')).toBe(2)
    expect(
      service.requests
        .filter((q) => q.url.endsWith('/charges'))
        .map((q) => q.headers['authorization']),
    ).toEqual(['Bearer tok-1', 'Bearer tok-2'])
  })

  it('gives Unauthorized when a fresh token is refused too, after exactly two attempts', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply('tok-1'), tokenReply('tok-2')],
      'POST /api/charges': [json(401, { title: 'Unauthorized', status: 401 })],
    })
    const e = left(await client(service).charge(chargeRequest)())
    expect(e).toMatchObject({ _tag: 'Unauthorized', credential: 'accessToken' })
    expect(service.count('POST /api/charges')).toBe(2)
    expect(service.count('POST /api/token')).toBe(2)
  })

  it('gives Unauthorized at once for a refused API key or client credentials', async () => {
    const service = fakeService({
      'POST /api/paymentlink/checkout': [json(401, { title: 'Unauthorized', status: 401 })],
      'POST /api/token': [json(401, { title: 'Unauthorized', status: 401 })],
    })
    const c = client(service, { credentials: { ...credentials, apiKey: 'key-1' } })
    expect(left(await c.createPaymentLink({ amount: 1 })())).toMatchObject({
      _tag: 'Unauthorized',
      credential: 'apiKey',
    })
    expect(left(await c.charge(chargeRequest)())).toMatchObject({
      _tag: 'Unauthorized',
      credential: 'clientCredentials',
    })
    expect(service.count('POST /api/paymentlink/checkout')).toBe(1)
    expect(service.count('POST /api/token')).toBe(1)
    expect(service.count('POST /api/charges')).toBe(0)
  })

  it('shares one token request among concurrent calls (counted)', async () => {
    const service = fakeService({
      'POST /api/token': [
        async () => {
          await new Promise((r) => setTimeout(r, 20))
          return tokenReply()
        },
      ],
      'POST /api/charges': [json(200, succeeded)],
      'GET /api/paymentlink/order/ORD1': [json(200, order('PENDING'))],
    })
    const c = client(service)
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => c.charge(chargeRequest)()),
      ...Array.from({ length: 10 }, () => c.getOrder('ORD1')()),
    ])
    expect(results.every((r) => r._tag === 'Right')).toBe(true)
    expect(service.count('POST /api/token')).toBe(1)
  })

  it('a token fetch that fails is not cached: the next call fetches again', async () => {
    const service = fakeService({
      'POST /api/token': [json(400, { title: 'Bad', status: 400 }), tokenReply()],
      'GET /api/paymentlink/order/ORD1': [json(200, order('PENDING'))],
    })
    const c = client(service)
    expect(left(await c.getOrder('ORD1')())).toMatchObject({ _tag: 'HttpError', status: 400 })
    expect(E.isRight(await c.getOrder('ORD1')())).toBe(true)
  })
})

describe('Client: safe retries', () => {
  it('sends an already-validated charge as charge does, without validating it again, and never repeats it', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'POST /api/charges': [json(200, succeeded), json(200, succeeded), fails('reset')],
    })
    const c = client(service)
    const request = validate(ChargeRequest)(chargeRequest)
    if (E.isLeft(request)) throw new Error('the request is valid')
    const ok = await c.chargeValidated(request.right)()
    expect(E.isRight(ok) && ok.right.status).toBe('SUCCEEDED')
    // The same body as `charge` writes: the amount a JSON number, authenticationId null.
    expect(service.bodies('POST /api/charges')[0]).toEqual({
      ...chargeRequest,
      authenticationId: null,
    })
    // What it is given is trusted: a request the codec would refuse is sent as it is.
    const unchecked = { ...request.right, cardId: '' }
    expect(E.isRight(await c.chargeValidated(unchecked)())).toBe(true)
    expect(service.bodies('POST /api/charges')[1]).toMatchObject({ cardId: '' })
    const refused = await c.charge({ ...chargeRequest, cardId: '' })()
    expect(E.isLeft(refused) && refused.left._tag).toBe('ValidationError')
    // A charge that may have been processed is not repeated.
    const dropped = left(await c.chargeValidated(request.right)())
    expect(dropped).toMatchObject({ _tag: 'NetworkError', sent: 'maybe', outcomeUnknown: true })
    expect(service.count('POST /api/charges')).toBe(3)
  })

  it('never repeats a charge whose connection dropped after sending; says the outcome is unknown', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'POST /api/charges': [fails('reset'), json(200, succeeded)],
    })
    const e = left(await client(service).charge(chargeRequest)())
    expect(e).toMatchObject({ _tag: 'NetworkError', sent: 'maybe', outcomeUnknown: true })
    expect(e.message).toMatch(
      /outcome is unknown.*Send the same charge again with the same order id/,
    )
    expect(service.count('POST /api/charges')).toBe(1)
  })

  it('never repeats a charge that timed out or got a 5xx', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'POST /api/charges': [fails('timeout'), json(500, { title: 'Oops', status: 500, type: 't' })],
    })
    const c = client(service, { timeoutMs: 50 })
    const t = left(await c.charge(chargeRequest)())
    expect(t).toMatchObject({ _tag: 'Timeout', timeoutMs: 50, outcomeUnknown: true })
    const h = left(await c.charge(chargeRequest)())
    expect(h).toMatchObject({ _tag: 'HttpError', status: 500, problem: { title: 'Oops' } })
    expect(h.message).toMatch(/outcome is unknown/)
    expect(service.count('POST /api/charges')).toBe(2)
  })

  it('repeats a charge that was never sent (connection refused)', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'POST /api/charges': [fails('refused'), json(200, succeeded)],
    })
    expect(E.isRight(await client(service).charge(chargeRequest)())).toBe(true)
    expect(service.count('POST /api/charges')).toBe(2)
  })

  it('retries a GET on 5xx and network errors, up to the bound', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'GET /api/paymentlink/order/A': [json(503, {}), fails('reset'), json(200, order('PAID'))],
      'GET /api/paymentlink/order/B': [json(500, { title: 'Oops', status: 500 })],
    })
    const c = client(service, { retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 2 } })
    expect(E.isRight(await c.getOrder('A')())).toBe(true)
    expect(service.count('GET /api/paymentlink/order/A')).toBe(3)
    expect(left(await c.getOrder('B')())).toMatchObject({ _tag: 'HttpError', status: 500 })
    expect(service.count('GET /api/paymentlink/order/B')).toBe(4)
  })

  it('retries the token request on network errors', async () => {
    const service = fakeService({
      'POST /api/token': [fails('reset'), json(502, {}), tokenReply()],
    })
    expect(await client(service).getToken()()).toEqual(E.right('tok-1'))
    expect(service.count('POST /api/token')).toBe(3)
  })

  it('does not repeat a payment link that may have been sent, unless the caller opts in', async () => {
    const service = fakeService({
      'POST /api/paymentlink/checkout': [fails('reset'), json(200, link)],
    })
    const c = client(service, { credentials: { apiKey: 'key-1' } })
    const e = left(await c.createPaymentLink({ amount: 5 })())
    expect(e).toMatchObject({ _tag: 'NetworkError', sent: 'maybe', outcomeUnknown: true })
    expect(e.message).toMatch(/the link may have been created\. Creating it again is safe/)
    expect(service.count('POST /api/paymentlink/checkout')).toBe(1)
    const service2 = fakeService({
      'POST /api/paymentlink/checkout': [json(500, {}), json(200, link)],
    })
    const c2 = client(service2, { credentials: { apiKey: 'key-1' } })
    expect(await c2.createPaymentLink({ amount: 5 }, { retry: true })()).toEqual(E.right(link))
    expect(service2.count('POST /api/paymentlink/checkout')).toBe(2)
  })

  it("does not retry after the caller's cancel", async () => {
    const controller = new AbortController()
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'GET /api/paymentlink/order/A': [
        () => {
          controller.abort()
          return fails('aborted')
        },
      ],
    })
    const e = left(await client(service).getOrder('A', { signal: controller.signal })())
    expect(e).toMatchObject({ _tag: 'NetworkError', failure: 'aborted' })
    expect(service.count('GET /api/paymentlink/order/A')).toBe(1)
  })
})

describe('Client: typed errors', () => {
  it('malformed JSON and a body off the spec are DecodeErrors naming the field', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'GET /api/paymentlink/order/A': [raw(200, '{"orderId": 7,')],
      'GET /api/paymentlink/order/B': [json(200, { ...order('PAID'), orderStatus: 'LOST' })],
    })
    const c = client(service)
    expect(left(await c.getOrder('A')())).toMatchObject({
      _tag: 'DecodeError',
      fieldErrors: [{ path: '', message: 'is not valid JSON' }],
    })
    const b = left(await c.getOrder('B')())
    expect(b._tag === 'DecodeError' && b.fieldErrors.map((f) => f.path)).toEqual(['orderStatus'])
  })

  it('a 400 keeps the service errors map as given', async () => {
    const errors = { Amount: ['must be greater than 0'], 'LineItems[0].Sku': ['unknown'] }
    const service = fakeService({
      'POST /api/paymentlink/checkout': [
        json(400, {
          type: 'https://tools.ietf.org/html/rfc7231#section-6.5.1',
          title: 'Bad',
          status: 400,
          errors,
        }),
      ],
    })
    const e = left(
      await client(service, { credentials: { apiKey: 'key-1' } }).createPaymentLink({
        amount: 5,
      })(),
    )
    expect(e).toMatchObject({ _tag: 'HttpError', status: 400, problem: { errors } })
    expect(e.message).toContain('Amount: must be greater than 0')
  })

  it('an error status without problem details is an HttpError without problem', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'GET /api/paymentlink/order/X': [raw(404, 'nope')],
    })
    const e = left(await client(service).getOrder('X')())
    expect(e).toMatchObject({ _tag: 'HttpError', status: 404 })
    expect(e._tag === 'HttpError' && e.problem).toBeUndefined()
  })

  it('a transport that rejects or a hook that throws never rejects the task', async () => {
    const service = fakeService({})
    const rejecting: Transport = () => () => Promise.reject(new Error('boom'))
    const c = createClient({
      baseUrl: BASE,
      credentials: { apiKey: 'key-1' },
      transport: rejecting,
      onExchange: () => {
        throw new Error('logger broke')
      },
      retry: { maxAttempts: 1 },
    })
    expect(left(await c.createPaymentLink({ amount: 1 })())).toMatchObject({ _tag: 'NetworkError' })
    expect(service.requests).toHaveLength(0)
  })
})

describe('Client: many calls', () => {
  it('creates many links with bounded concurrency; a failed one loses none of the others', async () => {
    let inFlight = 0
    let peak = 0
    const service = fakeService({
      'POST /api/paymentlink/checkout': [
        async (request) => {
          inFlight++
          peak = Math.max(peak, inFlight)
          await new Promise((r) => setTimeout(r, 5))
          inFlight--
          const { amount } = JSON.parse(request.body ?? '{}') as { amount: number }
          return amount === 3
            ? json(500, { title: 'Oops', status: 500 })
            : json(200, { ...link, orderCode: `ORD${amount}` })
        },
      ],
    })
    const c = client(service, { credentials: { apiKey: 'key-1' } })
    const amounts = [1, 2, 3, -4, 5, 6, 7]
    const results = await traverseWithConcurrency(2)(amounts, (amount) =>
      c.createPaymentLink({ amount }),
    )()
    expect(results.map((r) => (E.isRight(r) ? r.right.orderCode : r.left._tag))).toEqual([
      'ORD1',
      'ORD2',
      'HttpError',
      'ValidationError',
      'ORD5',
      'ORD6',
      'ORD7',
    ])
    expect(peak).toBeLessThanOrEqual(2)
    expect(service.count('POST /api/paymentlink/checkout')).toBe(6)
  })
})

describe('Client: chargeWith3ds', () => {
  it('repeats the charge with the authenticationId only after complete + SUCCESS', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'POST /api/charges': [json(200, authRequired()), json(200, succeeded)],
    })
    const seen: Array<[string, string]> = []
    const r = await client(service).chargeWith3ds(chargeRequest, (url, id) => async () => {
      seen.push([url, id])
      expect(service.count('POST /api/charges')).toBe(1)
      return E.right(frame())
    })()
    expect(E.isRight(r) && r.right._tag).toBe('Succeeded')
    expect(seen).toEqual([['https://pay.example.test/3ds/auth_1', 'auth_1']])
    expect(service.bodies('POST /api/charges')).toEqual([
      { ...chargeRequest, authenticationId: null },
      { ...chargeRequest, authenticationId: 'auth_1' },
    ])
  })

  it('does not repeat the charge after a failed authentication', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'POST /api/charges': [json(200, authRequired())],
    })
    const r = await client(service).chargeWith3ds(
      chargeRequest,
      () => async () => E.right(frame({ MessageType: 'authentication.failed', Status: 'FAILED' })),
    )()
    expect(E.isRight(r) && r.right._tag).toBe('AuthenticationFailed')
    expect(service.count('POST /api/charges')).toBe(1)
  })

  it('refuses a frame message for another authentication, and does not repeat the charge', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'POST /api/charges': [json(200, authRequired()), json(200, succeeded)],
    })
    const e = left(
      await client(service).chargeWith3ds(
        chargeRequest,
        () => async () => E.right(frame({ AuthenticationId: 'auth_other' })),
      )(),
    )
    expect(e._tag === 'ValidationError' && e.fieldErrors.map((f) => f.path)).toEqual([
      'AuthenticationId',
    ])
    expect(service.count('POST /api/charges')).toBe(1)
  })

  it('keeps waiting through PENDING, and passes on the error of authenticate', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'POST /api/charges': [json(200, authRequired()), json(200, succeeded)],
    })
    let calls = 0
    const r = await client(service).chargeWith3ds(
      chargeRequest,
      () => async () => E.right(frame(calls++ === 0 ? { Status: 'PENDING' } : {})),
    )()
    expect(E.isRight(r) && r.right._tag).toBe('Succeeded')
    expect(calls).toBe(2)

    const service2 = fakeService({
      'POST /api/token': [tokenReply()],
      'POST /api/charges': [json(200, authRequired())],
    })
    const failure = left(
      await client(service2).chargeWith3ds(
        chargeRequest,
        () => async () =>
          E.left({
            _tag: 'Timeout',
            operation: '3DS',
            timeoutMs: 5,
            outcomeUnknown: false,
            message: 'x',
          }),
      )(),
    )
    expect(failure._tag).toBe('Timeout')
    expect(service2.count('POST /api/charges')).toBe(1)
  })

  it('ends FAILED and SUCCEEDED charges without authenticating', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'POST /api/charges': [json(200, failedCharge)],
    })
    const r = await client(service).chargeWith3ds(chargeRequest, () => {
      throw new Error('must not authenticate')
    })()
    expect(E.isRight(r) && r.right._tag).toBe('Failed')
  })

  it('stops after maxAuthentications when the service keeps asking', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'POST /api/charges': [json(200, authRequired())],
    })
    const r = await client(service).chargeWith3ds(
      chargeRequest,
      () => async () => E.right(frame()),
      { maxAuthentications: 2 },
    )()
    expect(E.isRight(r) && r.right._tag).toBe('AwaitingAuthentication')
    expect(service.count('POST /api/charges')).toBe(3)
  })
})

/**
 * A virtual clock. `sleep` resolves when the clock reaches its end, or at once when its
 * signal aborts; sleeps overlap, as real ones do. Once nothing else can happen (no fake
 * service request running, a macrotask gone by) the clock jumps to the earliest end.
 * `sleeps` lists the sleeps that ran their whole time, not those released by a signal.
 */
const fakeClock = () => {
  let now = 0
  const sleeps: Array<number> = []
  const pending = new Set<{ readonly at: number; readonly ms: number; readonly wake: () => void }>()
  let scheduled = false
  const step = (): void => {
    if (answering > 0) return void setTimeout(step, 1)
    scheduled = false
    const next = [...pending].sort((a, b) => a.at - b.at)[0]
    if (next === undefined) return
    pending.delete(next)
    now = next.at
    sleeps.push(next.ms)
    next.wake()
    schedule()
  }
  const schedule = () => {
    if (scheduled) return
    scheduled = true
    setTimeout(step, 0)
  }
  const sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted === true) return resolve()
      const release = () => {
        pending.delete(timer)
        resolve()
      }
      const timer = {
        at: now + ms,
        ms,
        wake: () => {
          signal?.removeEventListener('abort', release)
          resolve()
        },
      }
      pending.add(timer)
      signal?.addEventListener('abort', release, { once: true })
      schedule()
    })
  return { now: () => now, sleep, sleeps }
}

describe('Client: waitForOrderStatus', () => {
  it('polls with growing intervals until a wanted status', async () => {
    const clock = fakeClock()
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'GET /api/paymentlink/order/ORD1': [
        json(200, order('PENDING')),
        json(200, order('PENDING')),
        json(200, order('PENDING')),
        json(200, order('PAID')),
      ],
    })
    const r = await client(service, clock).waitForOrderStatus('ORD1', ['PAID', 'CANCELLED'], {
      timeoutMs: 60_000,
      intervalMs: 1000,
    })()
    expect(E.isRight(r) && r.right.orderStatus).toBe('PAID')
    expect(clock.sleeps).toEqual([1000, 1500, 2250])
  })

  it('gives a Timeout naming the last status seen', async () => {
    const clock = fakeClock()
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'GET /api/paymentlink/order/ORD1': [json(200, order('PENDING'))],
    })
    const e = left(
      await client(service, clock).waitForOrderStatus('ORD1', ['PAID'], {
        timeoutMs: 5000,
        intervalMs: 1000,
        maxIntervalMs: 2000,
      })(),
    )
    expect(e).toMatchObject({ _tag: 'Timeout', timeoutMs: 5000 })
    expect(e.message).toContain('last status PENDING')
    expect(clock.sleeps).toEqual([1000, 1500, 2000, 500])
  })

  it('passes on an error of getOrder at once', async () => {
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'GET /api/paymentlink/order/ORD1': [json(404, { title: 'Not Found', status: 404 })],
    })
    const e = left(
      await client(service, fakeClock()).waitForOrderStatus('ORD1', ['PAID'], {
        timeoutMs: 5000,
        intervalMs: 1000,
      })(),
    )
    expect(e).toMatchObject({ _tag: 'HttpError', status: 404 })
  })
})

describe('Client: waitForOrderStatus on the injected clock only', () => {
  const orderCode = 'ORD1'
  const hour = 3_600_000

  it('ends with a Timeout at its deadline while a poll hangs, in no real time', async () => {
    const clock = fakeClock()
    const requests: Array<TransportRequest> = []
    // Never answers and ignores its signal: only the injected sleep can end the wait.
    const hanging: Transport = (request) => () => {
      requests.push(request)
      return new Promise<never>(() => undefined)
    }
    const started = Date.now()
    const c = createClientWith({
      baseUrl: BASE,
      credentials: { apiKey: 'key-1' },
      transport: hanging,
      now: clock.now,
      sleep: clock.sleep,
    })
    const e = left(
      await c.waitForOrderStatus(orderCode, ['PAID'], { timeoutMs: hour, intervalMs: 1000 })(),
    )
    expect(e).toMatchObject({ _tag: 'Timeout', timeoutMs: hour })
    expect(e.message).toContain('no answer yet')
    expect(clock.now()).toBe(hour)
    expect(clock.sleeps).toEqual([hour])
    expect(requests).toHaveLength(1)
    expect(requests[0]?.signal?.aborted).toBe(true)
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('gives each poll only the time left, and cancels a poll that honours its signal', async () => {
    const clock = fakeClock()
    let polls = 0
    let cancelled = false
    const transport: Transport = (request) => async () => {
      polls++
      if (polls === 1) return json(200, order('PENDING'))
      return new Promise<Result>((resolve) =>
        request.signal?.addEventListener('abort', () => {
          cancelled = true
          resolve(fails('aborted'))
        }),
      )
    }
    const c = createClientWith({
      baseUrl: BASE,
      credentials: { apiKey: 'key-1' },
      transport,
      now: clock.now,
      sleep: clock.sleep,
    })
    const e = left(
      await c.waitForOrderStatus(orderCode, ['PAID'], { timeoutMs: 5000, intervalMs: 1000 })(),
    )
    expect(e).toMatchObject({ _tag: 'Timeout' })
    expect(e.message).toContain('last status PENDING')
    expect(clock.now()).toBe(5000)
    // One interval, then the hanging poll's watch over the 4 s left.
    expect(clock.sleeps).toEqual([1000, 4000])
    expect(cancelled).toBe(true)
  })
})

describe('Client: credentials held by the transport', () => {
  const routes = {
    'POST /api/paymentmethods': [json(200, paymentMethod)],
    'POST /api/charges': [json(200, succeeded)],
    'POST /api/paymentlink/checkout': [json(200, link)],
    'GET /api/paymentlink/order/ORD1': [json(200, order('PAID'))],
  }
  const byTransport = (
    service: ReturnType<typeof fakeService>,
    over: Partial<ClientConfigWithRuntime> = {},
  ) =>
    createClientWith({
      baseUrl: BASE,
      credentials: 'transport',
      transport: service.transport,
      now: () => 0,
      sleep: () => Promise.resolve(),
      ...over,
    })
  const credentialsSeen = (service: ReturnType<typeof fakeService>) =>
    service.requests.map((r) => [`${r.method} ${new URL(r.url).pathname}`, r.credential])

  it('asks for no token, sets no Authorization, and names the credential of each endpoint', async () => {
    const service = fakeService(routes)
    const records: Array<Exchange> = []
    const c = byTransport(service, { onExchange: (x) => records.push(x) })
    expect(await c.createPaymentMethod({ card })()).toEqual(E.right(paymentMethod))
    expect(E.isRight(await c.charge(chargeRequest)())).toBe(true)
    expect(await c.createPaymentLink({ amount: 25 })()).toEqual(E.right(link))
    expect(E.isRight(await c.getOrder('ORD1')())).toBe(true)
    expect(service.count('POST /api/token')).toBe(0)
    expect(service.requests.map((r) => r.headers['authorization'])).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ])
    expect(credentialsSeen(service)).toEqual([
      ['POST /api/paymentmethods', 'accessToken'],
      ['POST /api/charges', 'accessToken'],
      ['POST /api/paymentlink/checkout', 'paymentLink'],
      ['GET /api/paymentlink/order/ORD1', 'paymentLink'],
    ])
    expect(records.map((r) => r.request.headers['authorization'])).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ])
  })

  it("names the credential in the client's own mode too: none for POST /token", async () => {
    const service = fakeService({ ...routes, 'POST /api/token': [tokenReply()] })
    const c = client(service)
    expect(E.isRight(await c.charge(chargeRequest)())).toBe(true)
    expect(E.isRight(await c.createPaymentLink({ amount: 25 })())).toBe(true)
    expect(E.isRight(await c.getOrder('ORD1')())).toBe(true)
    expect(credentialsSeen(service)).toEqual([
      ['POST /api/token', 'none'],
      ['POST /api/charges', 'accessToken'],
      ['POST /api/paymentlink/checkout', 'paymentLink'],
      ['GET /api/paymentlink/order/ORD1', 'paymentLink'],
    ])
    const withKey = fakeService(routes)
    const k = client(withKey, { credentials: { apiKey: 'key-1' } })
    expect(E.isRight(await k.getOrder('ORD1')())).toBe(true)
    expect(withKey.requests[0]).toMatchObject({
      credential: 'paymentLink',
      headers: { authorization: 'Bearer key-1' },
    })
  })

  it('a 401 is Unauthorized at once: the transport renewed and retried already', async () => {
    const refused = json(401, { title: 'Unauthorized', status: 401 })
    const service = fakeService({
      'POST /api/charges': [refused, json(200, succeeded)],
      'POST /api/paymentlink/checkout': [refused, json(200, link)],
    })
    const c = byTransport(service)
    const charge = left(await c.charge(chargeRequest)())
    expect(charge).toMatchObject({ _tag: 'Unauthorized', credential: 'accessToken' })
    expect(charge.message).toContain('the transport')
    expect(left(await c.createPaymentLink({ amount: 5 })())).toMatchObject({
      _tag: 'Unauthorized',
      credential: 'apiKey',
    })
    expect(service.count('POST /api/charges')).toBe(1)
    expect(service.count('POST /api/paymentlink/checkout')).toBe(1)
    expect(service.count('POST /api/token')).toBe(0)
  })

  it('never repeats a charge answered 500; still retries a GET', async () => {
    const service = fakeService({
      'POST /api/charges': [json(500, { title: 'Oops', status: 500 }), json(200, succeeded)],
      'GET /api/paymentlink/order/ORD1': [json(503, {}), json(200, order('PAID'))],
    })
    const c = byTransport(service)
    const e = left(await c.charge(chargeRequest)())
    expect(e).toMatchObject({ _tag: 'HttpError', status: 500 })
    expect(e.message).toMatch(/outcome is unknown/)
    expect(service.count('POST /api/charges')).toBe(1)
    expect(E.isRight(await c.getOrder('ORD1')())).toBe(true)
    expect(service.count('GET /api/paymentlink/order/ORD1')).toBe(2)
  })

  it('getToken is a ValidationError at credentials, and sends nothing', async () => {
    const service = fakeService({ 'POST /api/token': [tokenReply()] })
    const e = left(await byTransport(service).getToken()())
    expect(e).toMatchObject({ _tag: 'ValidationError', fieldErrors: [{ path: 'credentials' }] })
    expect(e.message).toContain('the transport holds the access token')
    expect(service.requests).toHaveLength(0)
  })

  it('still validates before sending', async () => {
    const service = fakeService(routes)
    const e = left(
      await byTransport(service).createPaymentMethod({ card: { ...card, cvv: '1' } })(),
    )
    expect(e._tag === 'ValidationError' && e.fieldErrors.map((f) => f.path)).toEqual(['card.cvv'])
    expect(service.requests).toHaveLength(0)
  })
})

// -------------------------------------------------------------------------------------
// property: no secret in any error or log record
// -------------------------------------------------------------------------------------

const luhnComplete = (body: string): string => {
  let sum = 0
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i])
    if (i % 2 === 0) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return `${body}${(10 - (sum % 10)) % 10}`
}

const secretText = fc.stringMatching(/^[A-Za-z0-9_\-.~+/]{12,40}$/)
const cardNumber = fc.stringMatching(/^4\d{14}$/).map(luhnComplete)
// The scripted exchanges themselves carry these numbers (statuses, expiresIn, expiry), so a
// CVV equal to one would be "found" in the status code, not leaked.
const cvv = fc
  .stringMatching(/^\d{3,4}$/)
  .filter((s) => !['200', '400', '401', '500', '3600', '2099', '1440'].includes(s))

type Echo = 'problem' | 'decode' | 'reset' | 'server' | 'token'

/** A service that echoes everything it received (headers and body) wherever it can. */
const echoingService = (accessToken: string, mode: Echo) =>
  fakeService({
    'POST /api/token': [
      (request) =>
        mode === 'token'
          ? json(400, { title: request.body ?? '', status: 400, errors: { x: [request.body] } })
          : tokenReply(accessToken),
    ],
    'POST /api/paymentmethods': [
      (request) => {
        const echo = `${JSON.stringify(request.headers)} ${request.body ?? ''}`
        if (mode === 'reset') return E.left(transportError('reset', echo))
        if (mode === 'server') return raw(500, echo)
        if (mode === 'decode') return json(200, { id: echo, [echo]: echo, bin: echo })
        return json(400, {
          title: echo,
          status: 400,
          errors: { [echo]: [echo], 'card.number': [`${echo} is bad`] },
          detail: echo,
        })
      },
    ],
    'POST /api/paymentlink/checkout': [
      (request) => json(400, { title: JSON.stringify(request), status: 400, errors: {} }),
    ],
  })

describe('Client: no secrets in errors or logs', () => {
  test.prop(
    [
      secretText,
      secretText,
      secretText,
      cardNumber,
      cvv,
      fc.constantFrom<Echo>('problem', 'decode', 'reset', 'server', 'token'),
    ],
    { numRuns: 60 },
  )(
    'no error message, serialized error or onExchange record holds a secret, token or card datum',
    async (clientSecret, apiKey, accessToken, number, code, mode) => {
      const records: Array<Exchange> = []
      const service = echoingService(accessToken, mode)
      const c = createClient({
        baseUrl: BASE,
        credentials: { clientId: 'client-1', clientSecret, apiKey },
        transport: service.transport,
        onExchange: (x) => records.push(x),
        retry: { maxAttempts: 1 },
        now: () => 0,
      })
      const pm = await c.createPaymentMethod({ card: { ...card, number, cvv: code } })()
      const linkResult = await c.createPaymentLink({ amount: 5, orderReference: apiKey })()
      const invalid = await c.createPaymentMethod({
        card: { ...card, number: `${number}1`, cvv: `${code}x` },
      })()
      // A CVV is found only where it stands alone (its digits inside 30000 are no leak).
      const leaks = (text: string) =>
        [clientSecret, apiKey, accessToken, number].filter((s) => text.includes(s)).length +
        (new RegExp(`(?<!\\d)${code}(?!\\d)`).test(text) ? 1 : 0)
      for (const r of [pm, linkResult, invalid]) {
        const e = left(r)
        expect(leaks(e.message)).toBe(0)
        expect(leaks(JSON.stringify(e))).toBe(0)
      }
      expect(leaks(JSON.stringify(records))).toBe(0)
      expect(records.length).toBeGreaterThan(0)
    },
  )
})

describe('Client: card numbers echoed by the service', () => {
  it('a card number in an error body reaches neither the PaykitError nor the onExchange record', async () => {
    // Another card than the one sent: only its shape (13-19 digits) can give it away.
    const echoed = { title: 'card 5555 5555 5555 4444 refused', status: 400 }
    const service = fakeService({
      'POST /api/token': [tokenReply()],
      'POST /api/paymentmethods': [
        json(400, {
          ...echoed,
          detail: 'ref5555555555554444, sent 4242-4242-4242-4242 cvv 123',
          errors: { cardNumber: ['5555555555554444 is not valid'], 'card.expiry': ['expired'] },
          securityCode: '987',
        }),
      ],
    })
    const records: Array<Exchange> = []
    const e = left(
      await client(service, { onExchange: (x) => records.push(x) }).createPaymentMethod({
        card,
      })(),
    )
    expect(e).toMatchObject({ _tag: 'HttpError', status: 400 })
    expect(e._tag === 'HttpError' && e.problem?.errors).toEqual({
      cardNumber: ['[redacted]'],
      'card.expiry': ['expired'],
    })
    const record = records.find((r) => r.operation === 'POST /paymentmethods')
    expect(record?.response?.status).toBe(400)
    const shown = [e.message, JSON.stringify(e), JSON.stringify(records)]
    for (const text of shown) {
      expect(text).not.toMatch(/5555[ -]?5555[ -]?5555[ -]?4444|4242[ -]?4242[ -]?4242[ -]?4242/)
      expect(text).not.toMatch(/(?<!\d)(123|987)(?!\d)/)
    }
  })
})
