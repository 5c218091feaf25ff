// Issue 10, auth: each endpoint without a credential, with a garbage one, an expired token,
// or a credential of another scope answers 401 or 403 with no data, and changes nothing.
// Scopes as documented (docs/service.md#credentials-and-tokens, testkit README): POST
// /paymentmethods and POST /charges take only an access token; the payment-link endpoints take the
// API key or an access token; POST /token takes the client credentials in its body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultCredentials } from '../../src/index.js'
import { type Sandbox } from '../../src/sandbox/index.js'
import { cardOf, jsonCall, rawCall, sandboxWith, type Answer } from './support.js'

let sandbox: Sandbox
let orderCode: string
let cardId: string

const tokenOf = async (): Promise<string> => {
  const answer = await jsonCall(sandbox.url, 'POST', '/token', {
    clientId: defaultCredentials.clientId,
    clientSecret: defaultCredentials.clientSecret,
  })
  expect(answer.status).toBe(200)
  return (answer.json as { accessToken: string }).accessToken
}

beforeAll(async () => {
  sandbox = await sandboxWith()
  const token = await tokenOf()
  const card = await jsonCall(
    sandbox.url,
    'POST',
    '/paymentmethods',
    { card: cardOf('4242424242424242') },
    token,
  )
  expect(card.status).toBe(200)
  cardId = (card.json as { id: string }).id
  const link = await jsonCall(sandbox.url, 'POST', '/paymentlink/checkout', { amount: 7 }, token)
  expect(link.status).toBe(200)
  orderCode = (link.json as { orderCode: string }).orderCode
})
afterAll(async () => {
  await sandbox.close()
})

interface Endpoint {
  readonly name: string
  readonly method: string
  readonly path: () => string
  readonly body: () => unknown
}

let chargeSeq = 0
const endpoints: ReadonlyArray<Endpoint> = [
  {
    name: 'POST /paymentmethods',
    method: 'POST',
    path: () => '/paymentmethods',
    body: () => ({ card: cardOf('4242424242424242') }),
  },
  {
    name: 'POST /charges',
    method: 'POST',
    path: () => '/charges',
    body: () => ({
      order: { id: `auth-${++chargeSeq}`, amount: 9.99 },
      cardId,
      authenticationId: null,
    }),
  },
  {
    name: 'POST /paymentlink/checkout',
    method: 'POST',
    path: () => '/paymentlink/checkout',
    body: () => ({ amount: 12, orderReference: 'auth-link' }),
  },
  {
    name: 'GET /paymentlink/order/{orderCode}',
    method: 'GET',
    path: () => `/paymentlink/order/${orderCode}`,
    body: () => undefined,
  },
]

/** Fields of an order, a payment link, a payment method, a charge or a token. */
const DATA_FIELDS = [
  'orderCode',
  'orderId',
  'orderReference',
  'paymentLinkUrl',
  'lineItems',
  'total',
  'subtotal',
  'store',
  'payment',
  'id',
  'bin',
  'success',
  'order',
  'authentication',
  'createdAt',
  'accessToken',
]

/** How much the sandbox holds: refused requests must not add to it. */
const sizes = () => {
  const s = sandbox.state()
  return {
    paymentMethods: Object.keys(s.paymentMethods).length,
    charges: s.charges.length,
    orders: Object.keys(s.orders).length,
  }
}

const send = (endpoint: Endpoint, authorization: string | undefined): Promise<Answer> => {
  const body = endpoint.body()
  return rawCall(sandbox.url, endpoint.method, endpoint.path(), {
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(authorization === undefined ? {} : { authorization }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
}

const expectRefusedWithoutData = (answer: Answer): void => {
  const context = `${answer.status} ${answer.text.slice(0, 300)}`
  expect([401, 403], context).toContain(answer.status)
  if (answer.status === 401)
    expect(String(answer.headers['www-authenticate']), context).toMatch(/^Bearer\b/i)
  const json = answer.json
  expect(typeof json === 'object' && json !== null, context).toBe(true)
  for (const field of DATA_FIELDS) expect(Object.keys(json as object), context).not.toContain(field)
  expect(answer.text, context).not.toContain(orderCode)
  expect(answer.text, context).not.toContain(cardId)
}

const refusedBy = async (endpoint: Endpoint, authorization: string | undefined) => {
  const before = sizes()
  expectRefusedWithoutData(await send(endpoint, authorization))
  expect(sizes()).toEqual(before)
}

describe('every endpoint refuses a missing or garbage credential, with no data', () => {
  const garbage: ReadonlyArray<readonly [string, string | undefined]> = [
    ['no Authorization header', undefined],
    ['an empty Authorization header', ''],
    ['Bearer with nothing', 'Bearer '],
    ['an unknown bearer', 'Bearer garbage-ZZ-not-a-token'],
    [
      'a Basic credential',
      `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`,
    ],
    ['two bearer values', `Bearer ${defaultCredentials.apiKey} ${defaultCredentials.apiKey}`],
    ['a 10 kB bearer', `Bearer ${'z'.repeat(10_000)}`],
  ]
  for (const endpoint of endpoints)
    it.each(garbage)(`${endpoint.name} with %s: 401/403, no data`, async (_name, authorization) => {
      await refusedBy(endpoint, authorization)
    })

  it.each(endpoints)(
    '$name with the access token without its scheme: 401/403, no data',
    async (endpoint) => {
      await refusedBy(endpoint, await tokenOf())
    },
  )
})

describe('credentials of another scope', () => {
  const tokenOnly = endpoints.filter(
    (e) => e.name === 'POST /paymentmethods' || e.name === 'POST /charges',
  )
  const paymentLink = endpoints.filter((e) => e.name.includes('/paymentlink/'))

  it.each(tokenOnly)(
    '$name with the API key (it takes only an access token): 401/403, no data',
    async (endpoint) => {
      await refusedBy(endpoint, `Bearer ${defaultCredentials.apiKey}`)
    },
  )

  it.each(endpoints)(
    '$name with the client secret as a bearer: 401/403, no data',
    async (endpoint) => {
      await refusedBy(endpoint, `Bearer ${defaultCredentials.clientSecret}`)
    },
  )

  it.each(paymentLink)(
    '$name with an access token: served (documented: API key or token)',
    async (endpoint) => {
      const answer = await send(endpoint, `Bearer ${await tokenOf()}`)
      expect(answer.status).toBe(200)
    },
  )

  it('POST /token with the API key or an access token as the client secret: 401/403, no token', async () => {
    for (const secret of [defaultCredentials.apiKey, await tokenOf()]) {
      const answer = await jsonCall(sandbox.url, 'POST', '/token', {
        clientId: defaultCredentials.clientId,
        clientSecret: secret,
      })
      expect([401, 403]).toContain(answer.status)
      expect(Object.keys(answer.json as object)).not.toContain('accessToken')
    }
  })
})

describe('an expired access token', () => {
  it.each(endpoints)(
    '$name with a token past expiresIn (clock advanced): 401/403, no data',
    async (endpoint) => {
      const token = await tokenOf()
      expect((await send(endpoints[3] as Endpoint, `Bearer ${token}`)).status).toBe(200)
      sandbox.advanceClock(3_601_000)
      await refusedBy(endpoint, `Bearer ${token}`)
    },
  )
})
