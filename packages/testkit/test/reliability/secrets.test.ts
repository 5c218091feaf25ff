// @paykit-test own-worker: vi.spyOn on console
// Issue 10, secrets: distinctive credentials (client secret, `sk_live_` API key, the access
// token the sandbox issues) and card data (a Luhn-valid distinctive number and its CVV)
// go through every path, success and failure, and never come out: not in the client's
// outputs or errors (message, String, JSON), not in `onExchange` records, not in the
// sandbox's request log (`requests()` and `GET /__sandbox/requests`) nor in anything it
// prints. The last four digits of the card may show.
import type * as E from 'fp-ts/lib/Either.js'
import type { Client } from '@paykit/core'
import type { Exchange } from '@paykit/core/client'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import { Faults, type Fault } from '../../src/service/index.js'
import type { Sandbox } from '../../src/sandbox/index.js'
import { authenticateHeadless } from '../../src/buyer/index.js'
import {
  TIMEOUT_MS,
  cardOf,
  clientFor,
  countOf,
  distinctive,
  exchangeLog,
  expectNoSecret,
  jsonCall,
  leftOf,
  luhn,
  needlesOf,
  rawCall,
  rightOf,
  sandboxWith,
} from './support.js'

const credentials = {
  clientId: distinctive.clientId,
  clientSecret: distinctive.clientSecret,
  apiKey: distinctive.apiKey,
} as const

/** The distinctive number with a wrong check digit (another possible card number). */
const nonLuhn = `${distinctive.cardNumber.slice(0, -1)}${(Number(distinctive.cardNumber.slice(-1)) + 1) % 10}`

const card = (yearsAhead = 3) => cardOf(distinctive.cardNumber, distinctive.cvv, yearsAhead)

let sandbox: Sandbox
let exchanges: { readonly records: Array<Exchange>; readonly onExchange: (x: Exchange) => void }
let outputs: Array<readonly [string, unknown]>
let consoleSpies: ReadonlyArray<MockInstance>

/** Keeps a client output (a result, an error, an answer body) for the audit. */
const keep = (label: string, value: unknown): void => void outputs.push([label, value])

const clientWith = (over: Parameters<typeof clientFor>[1] = {}): Client =>
  clientFor(sandbox, {
    credentials,
    timeoutMs: 10_000,
    onExchange: exchanges.onExchange,
    ...over,
  })

beforeEach(async () => {
  sandbox = await sandboxWith({ ...credentials, control: true })
  exchanges = exchangeLog()
  outputs = []
  consoleSpies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
    vi.spyOn(console, m),
  )
})

afterEach(async () => {
  try {
    // Every access token the sandbox issued during the test.
    const tokens = Object.entries(sandbox.state().tokens).flatMap(([key, t]) => [
      key,
      t.accessToken,
    ])
    const needles = needlesOf(tokens, [nonLuhn])
    for (const [label, value] of outputs) expectNoSecret(label, value, needles)
    for (const record of exchanges.records)
      expectNoSecret(`onExchange ${record.operation} #${record.attempt}`, record, needles)
    for (const logged of sandbox.requests())
      expectNoSecret(`sandbox.requests() ${logged.method} ${logged.path}`, logged, needles)
    const log = await rawCall(sandbox.url, 'GET', '/__sandbox/requests')
    expect(log.status).toBe(200)
    expectNoSecret('GET /__sandbox/requests', log.text, needles)
    for (const spy of consoleSpies)
      for (const args of spy.mock.calls) expectNoSecret('console output', args, needles)
  } finally {
    for (const spy of consoleSpies) spy.mockRestore()
    await sandbox.close()
  }
})

describe('secrets on the success paths', () => {
  it('token, card, charge, 3DS flow, payment link, order and wait: no secret in any output', async () => {
    const client = clientWith()
    const token = rightOf(await client.getToken()())
    expect(token.length).toBeGreaterThan(0)
    const pm = rightOf(await client.createPaymentMethod({ card: card() })())
    keep('createPaymentMethod', pm)
    keep(
      'charge',
      rightOf(
        await client.charge(
          { order: { id: 'sec-1', amount: 25.5 }, cardId: pm.id },
          { paymentMethod: pm },
        )(),
      ),
    )
    keep(
      'chargeWith3ds',
      rightOf(
        await client.chargeWith3ds(
          { order: { id: 'sec-2', amount: 12 }, cardId: pm.id },
          authenticateHeadless('success'),
          { paymentMethod: pm },
        )(),
      ),
    )
    const link = rightOf(
      await client.createPaymentLink({ amount: 40, orderReference: 'sec-link' })(),
    )
    keep('createPaymentLink', link)
    keep('getOrder', rightOf(await client.getOrder(link.orderCode)()))
    keep(
      'waitForOrderStatus',
      rightOf(
        await client.waitForOrderStatus(link.orderCode, ['PENDING'], {
          timeoutMs: 2_000,
          intervalMs: 50,
        })(),
      ),
    )
    // The audit is not vacuous: the secrets went through the exchanges and the log.
    expect(exchanges.records.length).toBeGreaterThanOrEqual(7)
    expect(countOf(sandbox, 'POST', '/token')).toBe(1)
    expect(countOf(sandbox, 'POST', '/paymentmethods')).toBe(1)
  })
})

describe('secrets on the failure paths', () => {
  it('a wrong client secret: Unauthorized, neither secret shown', async () => {
    const client = clientWith({
      credentials: { ...credentials, clientSecret: distinctive.wrongSecret },
    })
    const e = leftOf(await client.createPaymentMethod({ card: card() })())
    expect(e._tag).toBe('Unauthorized')
    keep('wrong client secret', e)
    keep('wrong client secret (getToken)', leftOf(await client.getToken()()))
  })

  it('a wrong API key: Unauthorized, neither key shown', async () => {
    const client = clientWith({ credentials: { ...credentials, apiKey: distinctive.wrongApiKey } })
    const e = leftOf(await client.createPaymentLink({ amount: 10 })())
    expect(e._tag).toBe('Unauthorized')
    keep('wrong API key', e)
    const order = leftOf(await client.getOrder('OC00001001')())
    keep('wrong API key (getOrder)', order)
  })

  it('a card the client refuses (expired, Luhn failure): ValidationError without the number or CVV, nothing sent', async () => {
    const client = clientWith()
    const expired = leftOf(await client.createPaymentMethod({ card: card(-3) })())
    expect(expired._tag).toBe('ValidationError')
    keep('expired card', expired)
    const luhnFailure = leftOf(
      await client.createPaymentMethod({ card: { ...card(), number: nonLuhn } })(),
    )
    expect(luhnFailure._tag).toBe('ValidationError')
    keep('Luhn failure', luhnFailure)
    const grouped = leftOf(
      await client.createPaymentMethod({
        card: { ...card(-3), number: distinctive.cardNumber.replace(/(\d{4})(?=\d)/g, '$1 ') },
      })(),
    )
    keep('grouped number, expired', grouped)
    expect(countOf(sandbox, 'POST', '/paymentmethods')).toBe(0)
  })

  it('the sandbox refuses a bad card sent raw (bypassing the client): its 400 and its log hold no card data', async () => {
    const token = rightOf(await clientWith().getToken()())
    const expired = await jsonCall(
      sandbox.url,
      'POST',
      '/paymentmethods',
      { card: card(-3) },
      token,
    )
    expect(expired.status).toBe(400)
    keep('400 body (expired card)', expired.text)
    const luhnFailure = await jsonCall(
      sandbox.url,
      'POST',
      '/paymentmethods',
      { card: { ...card(), number: nonLuhn } },
      token,
    )
    expect(luhnFailure.status).toBe(400)
    keep('400 body (Luhn failure)', luhnFailure.text)
    // The card in a body that is not JSON, in a form body, and in a body of the wrong type.
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const malformed = await rawCall(sandbox.url, 'POST', '/paymentmethods', {
      headers,
      body: `{"card": {"number": "${distinctive.cardNumber}", "cvv": "${distinctive.cvv}", `,
    })
    expect(malformed.status).toBe(400)
    keep('400 body (malformed JSON)', malformed.text)
    const form = await rawCall(sandbox.url, 'POST', '/paymentmethods', {
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: `number=${distinctive.cardNumber}&cvv=${distinctive.cvv}&expirationMonth=12`,
    })
    expect(form.status).toBeGreaterThanOrEqual(400)
    keep('4xx body (form)', form.text)
    const plain = await rawCall(sandbox.url, 'POST', '/paymentmethods', {
      headers: { ...headers, 'content-type': 'text/plain' },
      body: JSON.stringify({ card: card() }),
    })
    expect(plain.status).toBe(415)
    keep('415 body (text/plain)', plain.text)
    expect(countOf(sandbox, 'POST', '/paymentmethods')).toBe(5)
  })

  it('credentials sent raw where they do not belong: answers and log hold none of them', async () => {
    const token = rightOf(await clientWith().getToken()())
    const answers = await Promise.all([
      // The client secret in a token body that is not JSON, or not declared JSON.
      rawCall(sandbox.url, 'POST', '/token', {
        headers: { 'content-type': 'application/json' },
        body: `{"clientId": "${credentials.clientId}", "clientSecret": "${credentials.clientSecret}"`,
      }),
      rawCall(sandbox.url, 'POST', '/token', {
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({
          clientId: credentials.clientId,
          clientSecret: credentials.clientSecret,
        }),
      }),
      // The API key and the token on routes that do not exist, and as the wrong credential.
      jsonCall(sandbox.url, 'GET', '/nothing/here', undefined, credentials.apiKey),
      jsonCall(sandbox.url, 'POST', '/paymentmethods', { card: card() }, credentials.apiKey),
      rawCall(sandbox.url, 'GET', '/paymentlink/order/OC00001001', {
        headers: { 'x-api-key': credentials.apiKey, authorization: `Token ${token}` },
      }),
    ])
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400)
      keep(`answer ${answer.status}`, answer.text)
    }
  })

  const faults: ReadonlyArray<readonly [string, Fault]> = [
    ['status500', Faults.status500],
    ['malformedBody', Faults.malformedBody],
    ['truncatedBody', Faults.truncatedBody],
    ['connectionReset', Faults.connectionReset],
    ['hang', Faults.hang],
  ]

  it.each(faults)(
    'under %s on every endpoint: the errors and exchanges hold no secret',
    async (_name, fault) => {
      const client = clientWith({ timeoutMs: TIMEOUT_MS })
      const under = async (path: string, f: () => Promise<E.Either<unknown, unknown>>) => {
        sandbox.clearFaults()
        sandbox.injectFault(fault, { path })
        const e = leftOf(await f())
        keep(`${path} under the fault`, e)
        sandbox.clearFaults()
      }
      await under('/token', () => client.getToken()())
      await under('/paymentmethods', () => client.createPaymentMethod({ card: card() })())
      const pm = rightOf(await clientWith().createPaymentMethod({ card: card() })())
      await under('/charges', () =>
        client.charge({ order: { id: 'sec-fault', amount: 5 }, cardId: pm.id })(),
      )
      await under('/paymentlink/checkout', () => client.createPaymentLink({ amount: 5 })())
      await under('/paymentlink/order/*', () => client.getOrder('OC00001001')())
      expect(exchanges.records.length).toBeGreaterThanOrEqual(5)
    },
    15_000,
  )
})

describe('the audit itself', () => {
  it('finds a leak: a copy of the card number or the CVV in a value is reported', () => {
    const needles = needlesOf([], [])
    expect(() =>
      expectNoSecret('planted', { note: `card ${distinctive.cardNumber}` }, needles),
    ).toThrow()
    expect(() => expectNoSecret('planted', `cvv: ${distinctive.cvv}.`, needles)).toThrow()
    expect(() => expectNoSecret('planted', { k: distinctive.apiKey.toString() }, needles)).toThrow()
    expect(() =>
      expectNoSecret('masked', `**** ${distinctive.cardNumber.slice(-4)}`, needles),
    ).not.toThrow()
    expect(luhn(distinctive.cardNumber.slice(0, -1))).toBe(distinctive.cardNumber)
  })
})
