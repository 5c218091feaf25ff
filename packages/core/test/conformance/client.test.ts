// Conformance: the client of issue 4 over an in-memory Transport written here (no code
// of the package's own tests): validation before sending, tokens, 401, safe retries,
// the API key, secrets in errors, waitForOrderStatus, chargeWith3ds.
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { describe, expect, it } from 'vitest'
import { createClient, type ClientConfig, type Credentials, type PaykitError } from '@paykit/core'
import {
  transportError,
  traverseWithConcurrency,
  type Authenticate,
  type Exchange,
  type Transport,
  type TransportError,
  type TransportRequest,
  type TransportResponse,
} from '@paykit/core/client'
import { FrameMessage } from '@paykit/core/machines'
import * as S from './samples.js'

const baseUrl = 'https://api.paykit.test'
const SECRET = 'cs_live_Zq81secretValue'
const API_KEY = 'ak_live_9fXkeyValue'
const CARD = '4111111111111111'
const CVV = '9876'
const creds: Credentials = { clientId: 'client-1', clientSecret: SECRET }

type Reply = TransportResponse | TransportError
type Handler = (req: TransportRequest, n: number) => Reply | Promise<Reply>

const json = (status: number, body: unknown): TransportResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
})

/** An in-memory service: handlers keyed "METHOD /path", every request logged. */
const fakeService = (handlers: Record<string, Handler>) => {
  const log: Array<TransportRequest & { readonly key: string }> = []
  const counts = new Map<string, number>()
  let tokens = 0
  const defaults: Record<string, Handler> = {
    'POST /token': () =>
      json(200, { accessToken: `tok-${++tokens}`, tokenType: 'Bearer', expiresIn: 3600 }),
    'POST /paymentmethods': () => json(200, S.paymentMethod()),
    'POST /charges': () => json(200, S.chargeSucceeded),
    'POST /paymentlink/checkout': () => json(200, S.paymentLinkResponse),
    'GET /paymentlink/order': () => json(200, S.orderDetails),
  }
  const transport: Transport = (req) => () => {
    const path = new URL(req.url).pathname
    const key = `${req.method} ${path.startsWith('/paymentlink/order/') ? '/paymentlink/order' : path}`
    log.push({ ...req, key })
    const n = (counts.get(key) ?? 0) + 1
    counts.set(key, n)
    const h = handlers[key] ?? defaults[key]
    return Promise.resolve(h ? h(req, n) : json(404, { title: 'Not Found', status: 404 })).then(
      (reply): E.Either<TransportError, TransportResponse> =>
        '_tag' in reply ? E.left(reply) : E.right(reply),
    )
  }
  return {
    transport,
    log,
    count: (key: string) => log.filter((r) => r.key === key).length,
    nextToken: () => `tok-${++tokens}`,
  }
}

const clientOf = (service: ReturnType<typeof fakeService>, extra: Partial<ClientConfig> = {}) =>
  createClient({
    baseUrl,
    credentials: creds,
    transport: service.transport,
    sleep: () => Promise.resolve(),
    ...extra,
  })

const left = (r: E.Either<PaykitError, unknown>): PaykitError => {
  if (E.isRight(r)) return expect.fail('expected a Left')
  return r.left
}
const right = <A>(r: E.Either<PaykitError, A>): A => {
  if (E.isLeft(r)) return expect.fail(`expected a Right, got ${r.left._tag}: ${r.left.message}`)
  return r.right
}

const card = {
  number: CARD,
  expirationMonth: '12',
  expirationYear: S.futureYear,
  cvv: CVV,
  cardHolder: 'Ada Lovelace',
}
const chargeInput = { order: { id: 'order-1001', amount: 25.5, name: 'Mugs' }, cardId: 'pm_123' }

describe('invalid input: a ValidationError naming the field, and no request at all', () => {
  it.each([
    [
      'a card failing Luhn',
      (c: ReturnType<typeof clientOf>) =>
        c.createPaymentMethod({ card: { ...card, number: '4111111111111112' } }),
      ['card.number'],
    ],
    [
      'a CVV of 2 digits',
      (c: ReturnType<typeof clientOf>) => c.createPaymentMethod({ card: { ...card, cvv: '12' } }),
      ['card.cvv'],
    ],
    [
      'a USA card without billingInfo',
      (c: ReturnType<typeof clientOf>) =>
        c.charge(chargeInput, { paymentMethod: S.paymentMethod('USA') }),
      ['billingInfo'],
    ],
    [
      'a payment link with neither amount nor lineItems',
      (c: ReturnType<typeof clientOf>) => c.createPaymentLink({}),
      ['amount', 'lineItems'],
    ],
    [
      'a line-item price below 0',
      (c: ReturnType<typeof clientOf>) =>
        c.createPaymentLink({
          lineItems: [
            { sku: 'A', quantity: 1 },
            { sku: 'B', quantity: 1 },
            { product: { name: 'X', price: -1 }, quantity: 1 },
          ],
        }),
      ['lineItems[2].product.price'],
    ],
    [
      'a 3DS charge of a USA card without billingInfo',
      (c: ReturnType<typeof clientOf>) =>
        c.chargeWith3ds(chargeInput, () => TE.left(expect.fail('no frame')), {
          paymentMethod: S.paymentMethod('CAN'),
        }),
      ['billingInfo'],
    ],
  ] as const)('%s', async (_name, call, paths) => {
    const service = fakeService({})
    const e = left(await call(clientOf(service))())
    expect(e._tag).toBe('ValidationError')
    if (e._tag === 'ValidationError')
      expect([...new Set(e.fieldErrors.map((f) => f.path))].sort()).toEqual(paths)
    expect(e.message.length).toBeGreaterThan(0)
    expect(service.log).toEqual([])
  })
  it('the same charge passes for a CRI card, and with billingInfo for a USA card', async () => {
    const service = fakeService({})
    const client = clientOf(service)
    right(await client.charge(chargeInput, { paymentMethod: S.paymentMethod('CRI') })())
    right(
      await client.charge(
        { ...chargeInput, billingInfo: S.billingInfo },
        { paymentMethod: S.paymentMethod('USA') },
      )(),
    )
    expect(service.count('POST /charges')).toBe(2)
  })
})

describe('requests on the wire (spec 4, 5)', () => {
  it('token with client credentials in a JSON body, then Bearer <token>, authenticationId null', async () => {
    const service = fakeService({})
    right(await clientOf(service).charge(chargeInput)())
    const [token, charge] = service.log
    expect(token?.key).toBe('POST /token')
    expect(JSON.parse(token?.body ?? '')).toEqual({ clientId: 'client-1', clientSecret: SECRET })
    expect(Object.keys(token?.headers ?? {}).map((h) => h.toLowerCase())).not.toContain(
      'authorization',
    )
    expect(charge?.key).toBe('POST /charges')
    const h = Object.fromEntries(
      Object.entries(charge?.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
    )
    expect(h['authorization']).toBe('Bearer tok-1')
    expect(h['content-type']).toContain('application/json')
    expect(JSON.parse(charge?.body ?? '')).toMatchObject({ ...chargeInput, authenticationId: null })
  })
  it('the token is cached across calls', async () => {
    const service = fakeService({})
    const client = clientOf(service)
    right(await client.charge(chargeInput)())
    right(await client.getOrder('PL-ABC123')())
    right(await client.createPaymentMethod({ card })())
    expect(service.count('POST /token')).toBe(1)
  })
  it('getOrder reads GET /paymentlink/order/{orderCode}', async () => {
    const service = fakeService({})
    const order = right(await clientOf(service).getOrder('PL-ABC123')())
    expect(order.orderCode).toBe('PL-ABC123')
    expect(service.log.at(-1)?.url).toBe(`${baseUrl}/paymentlink/order/PL-ABC123`)
    expect(service.log.at(-1)?.method).toBe('GET')
  })
})

describe('client details a caller relies on', () => {
  it('the token is refreshed before expiresIn runs out', async () => {
    let now = 1_000_000
    const service = fakeService({})
    const client = clientOf(service, { now: () => now })
    right(await client.getOrder('A')())
    now += 3_000_000 // 50 minutes of a 60-minute token
    right(await client.getOrder('A')())
    expect(service.count('POST /token')).toBe(1)
    now += 600_000 // at expiresIn
    right(await client.getOrder('A')())
    expect(service.count('POST /token')).toBe(2)
  })
  it('the order code is a single, encoded path segment', async () => {
    const service = fakeService({})
    right(await clientOf(service).getOrder('a/b?c#d')())
    expect(new URL(service.log.at(-1)?.url ?? '').pathname).toBe('/paymentlink/order/a%2Fb%3Fc%23d')
  })
  it('unknown fields are stripped before sending; amounts travel as the same JSON numbers', async () => {
    const service = fakeService({})
    const input = {
      amount: 19.99,
      extra: 'x',
      lineItems: [{ sku: 'A', quantity: 3, color: 'red' }],
    }
    right(
      await clientOf(service).createPaymentLink(
        input as Parameters<ReturnType<typeof clientOf>['createPaymentLink']>[0],
      )(),
    )
    const body = JSON.parse(service.log.at(-1)?.body ?? '') as Record<string, unknown>
    expect(body).not.toHaveProperty('extra')
    expect(body['amount']).toBe(19.99)
    expect(body['lineItems']).toEqual([{ sku: 'A', quantity: 3 }])
  })
  it('an already aborted call sends nothing', async () => {
    const service = fakeService({})
    const ac = new AbortController()
    ac.abort()
    left(await clientOf(service).charge(chargeInput, { signal: ac.signal })())
    expect(service.count('POST /charges')).toBe(0)
  })
})

describe('tokens: one shared request, refresh once on 401', () => {
  it('concurrent calls share one token request', async () => {
    const service = fakeService({
      'POST /token': async (_r, n) => {
        await new Promise((r) => setTimeout(r, 20))
        return json(200, { accessToken: `tok-${n}`, tokenType: 'Bearer', expiresIn: 3600 })
      },
    })
    const client = clientOf(service)
    const results = await Promise.all([
      ...Array.from({ length: 8 }, () => client.charge(chargeInput)()),
      client.getOrder('PL-1')(),
      client.createPaymentMethod({ card })(),
    ])
    for (const r of results) right<unknown>(r)
    expect(service.count('POST /token')).toBe(1)
  })
  it('a 401 fetches a fresh token and repeats the call once (a charge too)', async () => {
    const service = fakeService({
      'POST /charges': (_r, n) =>
        n === 1 ? json(401, { title: 'Unauthorized', status: 401 }) : json(200, S.chargeSucceeded),
    })
    right(await clientOf(service).charge(chargeInput)())
    expect(service.count('POST /token')).toBe(2)
    const charges = service.log.filter((r) => r.key === 'POST /charges')
    expect(charges.length).toBe(2)
    expect(charges[1]?.headers['Authorization'] ?? charges[1]?.headers['authorization']).toBe(
      'Bearer tok-2',
    )
  })
  it('a second 401 is Unauthorized, with no third attempt', async () => {
    const service = fakeService({
      'POST /charges': () => json(401, { title: 'Unauthorized', status: 401 }),
    })
    const e = left(await clientOf(service).charge(chargeInput)())
    expect(e._tag).toBe('Unauthorized')
    expect(service.count('POST /charges')).toBe(2)
    expect(service.count('POST /token')).toBe(2)
  })
})

describe('retries: only what is safe', () => {
  it.each([
    ['a reset after sending', transportError('reset', 'socket hang up', 'maybe')],
    ['a timeout after sending', transportError('timeout', 'timed out', 'maybe')],
  ])(
    'a charge is never repeated after %s (sent: maybe), and the error says to check the order',
    async (_n, failure) => {
      const service = fakeService({ 'POST /charges': () => failure })
      const e = left(await clientOf(service).charge(chargeInput)())
      expect(service.count('POST /charges')).toBe(1)
      expect(['NetworkError', 'Timeout']).toContain(e._tag)
      expect('outcomeUnknown' in e && e.outcomeUnknown).toBe(true)
      expect(e.message.toLowerCase()).toContain('order')
    },
  )
  it('a charge answered 5xx is not repeated (it reached the service)', async () => {
    const service = fakeService({
      'POST /charges': () => json(503, { title: 'Unavailable', status: 503 }),
    })
    const e = left(await clientOf(service).charge(chargeInput)())
    expect(service.count('POST /charges')).toBe(1)
    expect(e._tag).toBe('HttpError')
  })
  it('a charge in a 3DS flow is not repeated after sent: maybe either', async () => {
    const service = fakeService({
      'POST /charges': (_r, n) =>
        n === 1 ? json(200, S.chargeAuthRequired) : transportError('reset', 'x', 'maybe'),
    })
    const authenticate: Authenticate = () =>
      TE.right(S.decodeRight(FrameMessage, S.frameMessage('SUCCESS')))
    left(await clientOf(service).chargeWith3ds(chargeInput, authenticate)())
    expect(service.count('POST /charges')).toBe(2)
  })
  it('a GET is retried on 5xx', async () => {
    const service = fakeService({
      'GET /paymentlink/order': (_r, n) =>
        n < 3 ? json(n === 1 ? 502 : 503, { title: 'x', status: 503 }) : json(200, S.orderDetails),
    })
    right(await clientOf(service).getOrder('PL-1')())
    expect(service.count('GET /paymentlink/order')).toBe(3)
  })
  it('a GET is retried on a network error, with a bound', async () => {
    const service = fakeService({
      'GET /paymentlink/order': () => transportError('reset', 'x', 'maybe'),
    })
    const e = left(await clientOf(service).getOrder('PL-1')())
    expect(e._tag).toBe('NetworkError')
    const n = service.count('GET /paymentlink/order')
    expect(n).toBeGreaterThan(1)
    expect(n).toBeLessThan(10)
  })
  it('the token call is retried on 5xx', async () => {
    const service = fakeService({
      'POST /token': (_r, n) =>
        n === 1 ? json(500, S.serverProblemBody) : json(200, S.accessToken),
    })
    right(await clientOf(service).getOrder('PL-1')())
    expect(service.count('POST /token')).toBe(2)
  })
  it('a payment link is not repeated after sent: maybe unless the caller opts in', async () => {
    const flaky: Handler = (_r, n) =>
      n === 1 ? transportError('reset', 'x', 'maybe') : json(200, S.paymentLinkResponse)
    const once = fakeService({ 'POST /paymentlink/checkout': flaky })
    left(await clientOf(once).createPaymentLink({ amount: 10 })())
    expect(once.count('POST /paymentlink/checkout')).toBe(1)
    const optIn = fakeService({ 'POST /paymentlink/checkout': flaky })
    right(await clientOf(optIn).createPaymentLink({ amount: 10 }, { retry: true })())
    expect(optIn.count('POST /paymentlink/checkout')).toBe(2)
  })
})

describe('payment-link endpoints use the API key when configured', () => {
  const auth = (r: TransportRequest | undefined) =>
    r?.headers['Authorization'] ?? r?.headers['authorization']
  it('with client credentials and an API key: Bearer <API_KEY>, no token request', async () => {
    const service = fakeService({})
    const client = clientOf(service, { credentials: { ...creds, apiKey: API_KEY } })
    right(await client.createPaymentLink({ amount: 10 })())
    right(await client.getOrder('PL-1')())
    expect(service.count('POST /token')).toBe(0)
    for (const r of service.log) expect(auth(r)).toBe(`Bearer ${API_KEY}`)
    right(await client.charge(chargeInput)())
    expect(auth(service.log.at(-1))).toBe('Bearer tok-1')
  })
  it('an API key alone serves the payment-link endpoints', async () => {
    const service = fakeService({})
    const client = clientOf(service, { credentials: { apiKey: API_KEY } })
    right(await client.createPaymentLink({ amount: 10 })())
    expect(service.log.map((r) => r.key)).toEqual(['POST /paymentlink/checkout'])
  })
  it('without an API key the access token is used', async () => {
    const service = fakeService({})
    right(await clientOf(service).createPaymentLink({ amount: 10 })())
    expect(service.log.map((r) => r.key)).toEqual(['POST /token', 'POST /paymentlink/checkout'])
    expect(auth(service.log[1])).toBe('Bearer tok-1')
  })
  it('the body carries the defaults and the Accept header is JSON', async () => {
    const service = fakeService({})
    right(
      await clientOf(service, { credentials: { apiKey: API_KEY } }).createPaymentLink({
        amount: 10,
      })(),
    )
    const req = service.log[0]
    expect(JSON.parse(req?.body ?? '')).toMatchObject({
      amount: 10,
      orderName: 'PaymentLink Order',
      expirationMinutes: 1440,
    })
    expect(req?.headers['Accept'] ?? req?.headers['accept']).toContain('application/json')
  })
})

describe('typed errors', () => {
  it('a 400 keeps the errors map as given', async () => {
    const errors = { Amount: ['must be greater than 0'], 'LineItems[0].Sku': ['unknown sku'] }
    const service = fakeService({
      'POST /paymentlink/checkout': () => json(400, { ...S.validationProblemBody, errors }),
    })
    const e = left(await clientOf(service).createPaymentLink({ amount: 10 })())
    expect(e._tag === 'HttpError' && e.status).toBe(400)
    expect(e._tag === 'HttpError' && e.problem?.errors).toEqual(errors)
  })
  it('a 400 whose errors take another structure keeps every field name', async () => {
    const errors = {
      amount: 'must be greater than 0',
      'lineItems[0].sku': ['unknown sku'],
      product: { price: ['required'] },
    }
    const service = fakeService({
      'POST /paymentlink/checkout': () => json(400, { ...S.validationProblemBody, errors }),
    })
    const e = left(await clientOf(service).createPaymentLink({ amount: 10 })())
    expect(e._tag === 'HttpError' && e.status).toBe(400)
    const map = e._tag === 'HttpError' ? (e.problem?.errors ?? {}) : {}
    expect(map['lineItems[0].sku']).toEqual(['unknown sku'])
    expect(map['amount']).toEqual(['must be greater than 0'])
    expect(Object.keys(map).some((k) => k.startsWith('product'))).toBe(true)
    expect(e.message).toContain('amount')
  })
  it('a 500 is an HttpError with status 500', async () => {
    const service = fakeService({
      'POST /paymentlink/checkout': () => json(500, S.serverProblemBody),
    })
    const e = left(await clientOf(service).createPaymentLink({ amount: 10 })())
    expect(e._tag === 'HttpError' && e.status).toBe(500)
  })
  it('an answer off the spec is a DecodeError naming the field; malformed JSON too', async () => {
    const off = fakeService({
      'POST /charges': () => json(200, { ...S.chargeSucceeded, error: S.chargeFailed.error }),
    })
    const e = left(await clientOf(off).charge(chargeInput)())
    expect(e._tag).toBe('DecodeError')
    expect(e._tag === 'DecodeError' && e.fieldErrors.map((f) => f.path)).toEqual(['error'])
    const bad = fakeService({ 'GET /paymentlink/order': () => json(200, '{"orderId": 1,') })
    expect(left(await clientOf(bad).getOrder('PL-1')())._tag).toBe('DecodeError')
  })
  it('a FAILED charge is a Right (the service answered)', async () => {
    const service = fakeService({ 'POST /charges': () => json(200, S.chargeFailed) })
    expect(right(await clientOf(service).charge(chargeInput)()).status).toBe('FAILED')
  })
})

describe('no error or log contains a secret, a token, a card number or a CVV', () => {
  const TOKEN = 'tok_secret_ABCDEF123456'
  const echo: Handler = (req) =>
    json(400, {
      ...S.validationProblemBody,
      title: `bad request ${req.body ?? ''} ${JSON.stringify(req.headers)}`,
      errors: { body: [req.body ?? ''], auth: [JSON.stringify(req.headers)] },
    })
  const scenarios: ReadonlyArray<
    readonly [
      string,
      Record<string, Handler>,
      (c: ReturnType<typeof clientOf>) => TE.TaskEither<PaykitError, unknown>,
    ]
  > = [
    ['the token endpoint echoes the request', { 'POST /token': echo }, (c) => c.getToken()],
    [
      'the token endpoint fails in transport',
      { 'POST /token': (r) => transportError('reset', `lost ${r.body ?? ''}`, 'maybe') },
      (c) => c.getToken(),
    ],
    [
      'the card endpoint echoes card data',
      { 'POST /paymentmethods': echo },
      (c) => c.createPaymentMethod({ card }),
    ],
    [
      'the card endpoint answers off the spec with card data',
      {
        'POST /paymentmethods': (r) =>
          json(200, { id: 5, echo: r.body, card: JSON.parse(r.body ?? '{}').card }),
      },
      (c) => c.createPaymentMethod({ card }),
    ],
    [
      'the card endpoint times out with card data in the detail',
      {
        'POST /paymentmethods': (r) =>
          transportError('timeout', `${r.body ?? ''} ${JSON.stringify(r.headers)}`, 'maybe'),
      },
      (c) => c.createPaymentMethod({ card }),
    ],
    [
      'the charge endpoint echoes the bearer token',
      { 'POST /charges': echo },
      (c) => c.charge(chargeInput),
    ],
    [
      'a 400 echoes card data in errors of another structure',
      {
        'POST /paymentmethods': (r) =>
          json(400, {
            ...S.validationProblemBody,
            errors: { card: r.body ?? '', nested: { number: [CARD], cvv: CVV } },
          }),
      },
      (c) => c.createPaymentMethod({ card }),
    ],
    [
      'the payment-link endpoint echoes the API key',
      { 'POST /paymentlink/checkout': echo },
      (c) => c.createPaymentLink({ amount: 1 }),
    ],
    [
      'a 401 on the API key',
      {
        'POST /paymentlink/checkout': (r) =>
          json(401, { title: `bad key ${JSON.stringify(r.headers)}`, status: 401 }),
      },
      (c) => c.createPaymentLink({ amount: 1 }),
    ],
    [
      'a 500 on getOrder echoing headers',
      {
        'GET /paymentlink/order': (r) =>
          json(500, { ...S.serverProblemBody, title: JSON.stringify(r.headers) }),
      },
      (c) => c.getOrder('PL-1'),
    ],
    [
      'a card refused before sending',
      {},
      (c) => c.createPaymentMethod({ card: { ...card, expirationMonth: '13', cvv: `${CVV}1` } }),
    ],
  ]
  it.each(scenarios)('%s', async (_n, handlers, call) => {
    const service = fakeService({
      'POST /token': () => json(200, { accessToken: TOKEN, tokenType: 'Bearer', expiresIn: 3600 }),
      ...handlers,
    })
    const exchanges: Exchange[] = []
    const client = clientOf(service, {
      credentials: { ...creds, apiKey: API_KEY },
      onExchange: (x) => exchanges.push(x),
    })
    const e = left(await call(client)())
    const seen = [JSON.stringify(e), e.message, String(e), JSON.stringify(exchanges)].join('\n')
    for (const s of [SECRET, API_KEY, TOKEN, CARD, CVV]) expect(seen).not.toContain(s)
  })
})

describe('waitForOrderStatus', () => {
  it('polls until one of the statuses', async () => {
    const service = fakeService({
      'GET /paymentlink/order': (_r, n) =>
        json(200, { ...S.orderDetails, orderStatus: n < 3 ? 'PENDING' : 'PAID' }),
    })
    const client = createClient({
      baseUrl,
      credentials: { apiKey: API_KEY },
      transport: service.transport,
    })
    const order = right(
      await client.waitForOrderStatus('PL-1', ['PAID', 'CANCELLED'], {
        timeoutMs: 2_000,
        intervalMs: 5,
      })(),
    )
    expect(order.orderStatus).toBe('PAID')
    expect(service.count('GET /paymentlink/order')).toBe(3)
  })
  it('gives a Timeout when the status never comes', async () => {
    const service = fakeService({})
    const client = createClient({
      baseUrl,
      credentials: { apiKey: API_KEY },
      transport: service.transport,
    })
    const started = Date.now()
    const e = left(
      await client.waitForOrderStatus('PL-1', ['PAID'], { timeoutMs: 150, intervalMs: 10 })(),
    )
    expect(e._tag).toBe('Timeout')
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(service.count('GET /paymentlink/order')).toBeGreaterThan(1)
  })
})

describe('waitForOrderStatus keeps its deadline when a poll hangs', () => {
  it.each([
    ['a transport that ignores the signal', false],
    ['a transport that honours the signal', true],
  ])('%s: a Timeout at the deadline, not whenever the poll ends', async (_n, honours) => {
    let cancelled = false
    const hanging: Transport = (req) => () =>
      new Promise((resolve) => {
        if (honours)
          req.signal?.addEventListener('abort', () => {
            cancelled = true
            resolve(E.left(transportError('aborted', 'cancelled', 'maybe')))
          })
      })
    const client = createClient({ baseUrl, credentials: { apiKey: API_KEY }, transport: hanging })
    const started = Date.now()
    const e = left(
      await client.waitForOrderStatus('PL-1', ['PAID'], { timeoutMs: 150, intervalMs: 10 })(),
    )
    expect(e._tag).toBe('Timeout')
    expect(Date.now() - started).toBeLessThan(1_500)
    expect(cancelled).toBe(honours)
  })
})

describe('chargeWith3ds', () => {
  const frame = (status: string, id = 'auth-1', type?: string) =>
    S.decodeRight(FrameMessage, S.frameMessage(status, id, type))
  const threeDs = (after: unknown = S.chargeSucceeded) =>
    fakeService({ 'POST /charges': (_r, n) => json(200, n === 1 ? S.chargeAuthRequired : after) })
  const bodies = (s: ReturnType<typeof fakeService>) =>
    s.log.filter((r) => r.key === 'POST /charges').map((r) => JSON.parse(r.body ?? '') as unknown)

  it('retries after authentication.complete + SUCCESS for the same id, with the same order and cardId', async () => {
    const service = threeDs()
    const calls: Array<[string, string]> = []
    const authenticate: Authenticate = (url, id) => {
      calls.push([url, id])
      return TE.right(frame('SUCCESS'))
    }
    const state = right(await clientOf(service).chargeWith3ds(chargeInput, authenticate)())
    expect(state._tag).toBe('Succeeded')
    expect(calls).toEqual([['https://3ds.example.com/auth/auth-1', 'auth-1']])
    const [first, retry] = bodies(service)
    expect(first).toMatchObject({ ...chargeInput, authenticationId: null })
    expect(retry).toMatchObject({ ...chargeInput, authenticationId: 'auth-1' })
  })
  it.each(['FAILED', 'ERROR', 'EXPIRED'])(
    'Status %s: no retry, AuthenticationFailed',
    async (status) => {
      const service = threeDs()
      const state = right(
        await clientOf(service).chargeWith3ds(chargeInput, () => TE.right(frame(status)))(),
      )
      expect(state._tag).toBe('AuthenticationFailed')
      expect(service.count('POST /charges')).toBe(1)
    },
  )
  it('a SUCCESS message for another authentication id: no retry', async () => {
    const service = threeDs()
    const r = await clientOf(service).chargeWith3ds(chargeInput, () =>
      TE.right(frame('SUCCESS', 'auth-other')),
    )()
    if (E.isRight(r)) expect(r.right._tag).not.toBe('Succeeded')
    expect(service.count('POST /charges')).toBe(1)
  })
  it('authentication.failed with Status SUCCESS: no retry', async () => {
    const service = threeDs()
    const r = await clientOf(service).chargeWith3ds(chargeInput, () =>
      TE.right(frame('SUCCESS', 'auth-1', 'authentication.failed')),
    )()
    if (E.isRight(r)) expect(r.right._tag).not.toBe('Succeeded')
    expect(service.count('POST /charges')).toBe(1)
  })
  it('PENDING keeps waiting for the result; the retry follows the SUCCESS', async () => {
    const service = threeDs()
    let n = 0
    const state = right(
      await clientOf(service).chargeWith3ds(chargeInput, () =>
        TE.right(frame(++n === 1 ? 'PENDING' : 'SUCCESS', 'auth-1', 'authentication.complete')),
      )(),
    )
    expect(state._tag).toBe('Succeeded')
    expect(service.count('POST /charges')).toBe(2)
  })
  it('a first answer without 3DS needs no authentication; a success is never charged again', async () => {
    const service = fakeService({})
    let called = 0
    const state = right(
      await clientOf(service).chargeWith3ds(chargeInput, () => {
        called++
        return TE.right(frame('SUCCESS'))
      })(),
    )
    expect(state._tag).toBe('Succeeded')
    expect(called).toBe(0)
    expect(service.count('POST /charges')).toBe(1)
  })
  it('an authenticate that fails ends the flow with its error and no retry', async () => {
    const service = threeDs()
    const failure: PaykitError = {
      _tag: 'Timeout',
      operation: '3ds',
      timeoutMs: 1,
      outcomeUnknown: false,
      message: 'frame timed out',
    }
    const e = left(await clientOf(service).chargeWith3ds(chargeInput, () => TE.left(failure))())
    expect(e._tag).toBe('Timeout')
    expect(service.count('POST /charges')).toBe(1)
  })
})

describe('bounded concurrency for many calls', () => {
  it('one Either per input, in input order, at most `limit` at once, a failure loses nothing', async () => {
    let running = 0
    let peak = 0
    const f =
      (n: number): TE.TaskEither<string, number> =>
      async () => {
        running++
        peak = Math.max(peak, running)
        await new Promise((r) => setTimeout(r, (7 - n) * 3))
        running--
        return n === 3 ? E.left(`failed ${n}`) : E.right(n * 10)
      }
    const results = await traverseWithConcurrency(2)([1, 2, 3, 4, 5, 6], f)()
    expect(results).toEqual([
      E.right(10),
      E.right(20),
      E.left('failed 3'),
      E.right(40),
      E.right(50),
      E.right(60),
    ])
    expect(peak).toBe(2)
  })
})
