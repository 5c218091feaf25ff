// @paykit-test own-worker: nock's interceptors
import * as E from 'fp-ts/lib/Either.js'
import { createClient, type Client } from '@paykit/core'
import { fetchTransport, type Transport } from '@paykit/core/client'
import { afterEach, describe, expect, it } from 'vitest'
import { mockPaymentService } from '../../src/nock/mockPaymentService.js'
import { startSandbox } from '../../src/sandbox/startSandbox.js'
import {
  countRequests,
  requestLine,
  matchingRequests,
  verifyRequests,
} from '../../src/service/RequestAssertions.js'
import * as Faults from '../../src/service/Faults.js'
import type { makeLiveService } from '../../src/service/LiveService.js'
import { memoryPaymentService } from '../../src/memory/memoryPaymentService.js'
import { makeRequestLog, type LoggedRequest } from '../../src/service/RequestLog.js'
import { defaultCredentials, testCards } from '../../src/simulator/TestCards.js'
import { adaCard, adaCustomer } from '../samples.js'

// ------------------------------------------------------------------ the fakes

interface Fake {
  readonly requests: () => ReadonlyArray<LoggedRequest>
  readonly client: Client
  readonly injectFault: ReturnType<typeof makeLiveService>['injectFault']
  readonly close: () => Promise<void>
}

const clientOn = (baseUrl: string, transport: Transport = fetchTransport()): Client =>
  createClient({ baseUrl, credentials: defaultCredentials, transport, retry: { maxAttempts: 1 } })

let seq = 0
const fakes: ReadonlyArray<readonly [string, () => Promise<Fake>]> = [
  [
    'the sandbox (real HTTP)',
    async () => {
      const sandbox = await startSandbox()
      return { ...sandbox, client: clientOn(sandbox.url) }
    },
  ],
  [
    'the nock mock',
    async () => {
      const baseUrl = `https://assert-${++seq}.paykit.test`
      const mock = mockPaymentService({ baseUrl })
      return { ...mock, client: clientOn(baseUrl), close: async () => mock.restore() }
    },
  ],
  [
    'the in-memory service (no HTTP)',
    async () => {
      const memory = memoryPaymentService({ baseUrl: 'https://memory.paykit.test' })
      return {
        ...memory,
        client: clientOn(memory.baseUrl, memory.transport),
        close: async () => undefined,
      }
    },
  ],
]

/** A careless integration: it pays order `o1` twice (a second click on "Pay"). */
const payTwice = async (client: Client): Promise<void> => {
  const card = await client.createPaymentMethod({
    customer: adaCustomer,
    card: adaCard(testCards.success.number),
  })()
  if (E.isLeft(card)) throw new Error(card.left.message)
  for (const _click of [1, 2])
    await client.charge({ order: { id: 'o1', amount: 12.5, name: 'Tea' }, cardId: card.right.id })()
  await client.charge({ order: { id: 'o2', amount: 3, name: 'Cake' }, cardId: card.right.id })()
}

const forO1 = {
  method: 'POST',
  path: '/charges',
  body: { order: { id: 'o1' } },
  description: 'for order o1',
} as const

describe.each(fakes)('verifyRequests on %s', (_, start) => {
  const open: Array<Fake> = []
  afterEach(async () => {
    for (const fake of open.splice(0)) await fake.close()
  })
  const started = async (): Promise<Fake> => {
    const fake = await start()
    open.push(fake)
    return fake
  }

  it('counts the requests matching a method, path and body', async () => {
    const fake = await started()
    await payTwice(fake.client)
    expect(countRequests(fake, { method: 'POST', path: '/charges' })).toBe(3)
    expect(countRequests(fake, forO1)).toBe(2)
    expect(countRequests(fake, { path: '/charges', body: { order: { id: 'o2' } } })).toBe(1)
    expect(countRequests(fake, { method: 'POST', path: '/token' })).toBe(1)
    expect(countRequests(fake, { method: 'GET' })).toBe(0)
    verifyRequests(fake, { path: '/charges', body: { order: { id: 'o2' } } })
    verifyRequests(fake, forO1, 2)
  })

  it('fails naming the pattern, the count and each matching request, redacted', async () => {
    const fake = await started()
    await payTwice(fake.client)
    let message = ''
    try {
      verifyRequests(fake, forO1)
    } catch (error) {
      message = (error as Error).message
    }
    const lines = message.split('\n')
    expect(lines[0]).toBe('expected 1 POST /charges for order o1, saw 2:')
    expect(lines.slice(1)).toHaveLength(2)
    for (const [i, line] of lines.slice(1).entries())
      expect(line).toMatch(
        new RegExp(`^  ${i + 1}\\. POST /charges -> 200 \\{"order":\\{"id":"o1"`),
      )
  })

  it('lists every request seen, secrets and card data redacted, when none matches', async () => {
    const fake = await started()
    await payTwice(fake.client)
    const check = () => verifyRequests(fake, { method: 'POST', path: '/paymentlink/checkout' })
    expect(check).toThrow(
      /^expected 1 POST \/paymentlink\/checkout, saw none among 5 requests:\n {2}1\. POST \/token -> 200 /,
    )
    const message = (() => {
      try {
        check()
        return ''
      } catch (error) {
        return (error as Error).message
      }
    })()
    expect(message).toContain('POST /paymentmethods -> 200')
    for (const secret of [
      testCards.success.number,
      defaultCredentials.clientSecret,
      adaCard('').cvv,
    ])
      expect(message).not.toContain(secret)
    expect(message).not.toMatch(/Bearer (?!\[redacted\])/)
  })

  it('matches a request whose answer a fault lost (status undefined)', async () => {
    const fake = await started()
    fake.injectFault(Faults.connectionReset, { method: 'POST', path: '/charges', times: 1 })
    await payTwice(fake.client)
    verifyRequests(fake, { path: '/charges', status: undefined, description: 'lost' })
    const [lost] = matchingRequests(fake, { status: undefined })
    expect(lost && requestLine(lost)).toMatch(
      /^POST \/charges -> connectionReset \{"order":\{"id":"o1"/,
    )
  })
})

// ------------------------------------------------------------------ the patterns

const entry = (over: Partial<LoggedRequest>): LoggedRequest => ({
  at: '2026-01-01T00:00:00.000Z',
  method: 'GET',
  path: '/',
  headers: {},
  body: '',
  status: 200,
  fault: undefined,
  ...over,
})

describe('request patterns', () => {
  const log = [
    entry({ path: '/paymentlink/order/OC1' }),
    entry({ path: '/paymentlink/order/OC2?expand=1' }),
    entry({ path: '/paymentlink/order/' }),
    entry({
      method: 'POST',
      path: '/paymentlink/checkout',
      body: '{"amount":5,"lineItems":[1,2]}',
    }),
    entry({ method: 'POST', path: '/token', body: 'clientId=a', status: 400 }),
  ]

  it('a path matches without its query; a :name segment matches one non-empty segment', () => {
    expect(countRequests(log, { path: '/paymentlink/order/:orderCode' })).toBe(2)
    expect(countRequests(log, { path: '/paymentlink/order/OC2' })).toBe(1)
    expect(countRequests(log, { path: '/paymentlink/order' })).toBe(0)
    expect(countRequests(log, { path: /\?expand=/ })).toBe(1)
    expect(countRequests(log, { path: /order/g })).toBe(3) // a global RegExp keeps no state
  })

  it('a body pattern holds a part of objects, whole arrays and scalars', () => {
    expect(countRequests(log, { body: { amount: 5 } })).toBe(1)
    expect(countRequests(log, { body: { lineItems: [1, 2] } })).toBe(1)
    expect(countRequests(log, { body: { lineItems: [1] } })).toBe(0)
    expect(countRequests(log, { body: { amount: '5' } })).toBe(0)
    expect(countRequests(log, { body: 'clientId=a' })).toBe(1) // not JSON: the text
    expect(countRequests(log, { body: (b) => typeof b === 'string' })).toBe(4) // '' included
    expect(countRequests(log, { method: 'post', status: 400 })).toBe(1)
  })

  it('reads a RequestLog, a fake handle or an array alike', () => {
    const ring = makeRequestLog(3)
    for (const e of log) ring.add(e)
    expect(countRequests(ring, { method: 'POST' })).toBe(2)
    expect(countRequests({ requests: () => log }, { method: 'POST' })).toBe(2)
  })

  it('checks a range, and says so when it fails', () => {
    verifyRequests(log, { method: 'GET' }, { atLeast: 1, atMost: 3 })
    verifyRequests(log, { method: 'PUT' }, 0)
    expect(() => verifyRequests(log, { method: 'GET' }, { atMost: 2 })).toThrow(
      /^expected at most 2 GET, saw 3:\n {2}1\. GET \/paymentlink\/order\/OC1 -> 200\n/,
    )
    expect(() => verifyRequests(log, { method: 'GET' }, { atLeast: 4 })).toThrow(
      /^expected at least 4 GET, saw 3:/,
    )
    expect(() => verifyRequests(log, { body: () => true }, { atLeast: 6, atMost: 7 })).toThrow(
      /^expected 6 to 7 request with a body as given, saw 5:/,
    )
  })

  it('lists at most 20 requests and cuts long bodies', () => {
    const many = Array.from({ length: 25 }, (_, i) =>
      entry({ method: 'POST', path: `/x${i}`, body: JSON.stringify({ note: 'n'.repeat(300) }) }),
    )
    const error = (() => {
      try {
        verifyRequests(many, { method: 'GET' })
      } catch (e) {
        return (e as Error).message
      }
      return ''
    })()
    const lines = error.split('\n')
    expect(lines[0]).toBe('expected 1 GET, saw none among 25 requests:')
    expect(lines).toHaveLength(22)
    expect(lines[21]).toBe('  ... and 5 more')
    expect(lines[1]).toHaveLength('  1. POST /x0 -> 200 '.length + 200 + 3)
  })
})
