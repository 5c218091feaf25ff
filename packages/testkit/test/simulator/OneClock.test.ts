// @paykit-test own-worker: fake timers, nock's interceptors
// One clock for client, service and webhooks: vitest's fake Date drives the core client's
// token cache (Date.now), the simulator's clock (new Date() plus its offset) and webhook
// timestamps (signing and the receiver's check). Only Date is faked: fetch, nock and the
// HTTP server keep their real timers.
import * as E from 'fp-ts/lib/Either.js'
import { createClient, type Client } from '@paykit/core'
import { verifyWebhookEvent } from '@paykit/core/webhook'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { authenticateHeadless } from '../../src/buyer/Authenticate.js'
import { memoryPaymentService } from '../../src/memory/memoryPaymentService.js'
import { mockPaymentService, type PaymentServiceMock } from '../../src/nock/mockPaymentService.js'
import { startSandbox } from '../../src/sandbox/startSandbox.js'
import { countRequests, verifyRequests } from '../../src/service/RequestAssertions.js'
import { signedWebhook } from '../../src/service/WebhookDelivery.js'
import { own } from '../../src/simulator/State.js'
import { defaultCredentials, testCards } from '../../src/simulator/TestCards.js'

const MINUTE = 60_000
const START = new Date('2030-01-01T09:00:00.000Z')
const secret = 'whsec-one-clock'

let mock: PaymentServiceMock
let client: Client
let seq = 0
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(START)
  const baseUrl = `https://clock-${++seq}.paykit.test`
  mock = mockPaymentService({ baseUrl })
  client = createClient({ baseUrl, credentials: defaultCredentials })
})
afterEach(() => {
  mock.restore()
  vi.useRealTimers()
})

const card = (number: string) => ({
  card: { number, expirationMonth: '12', expirationYear: '2031', cvv: '123' },
})
const rightOf = <A>(result: E.Either<{ readonly message: string }, A>): A => {
  if (E.isLeft(result)) throw new Error(result.left.message)
  return result.right
}

describe('one clock: vi.useFakeTimers drives client, service and webhooks', () => {
  it('a token: an hour on, the client asks for a new one before the service would refuse it', async () => {
    rightOf(await client.createPaymentMethod(card(testCards.success.number))())
    vi.advanceTimersByTime(60 * MINUTE)
    rightOf(await client.createPaymentMethod(card(testCards.success.number))())
    verifyRequests(mock, { method: 'POST', path: '/token' }, 2)
    verifyRequests(mock, { status: 401 }, 0) // no request went out with the expired token
  })

  it("the service's own advanceClock leaves the client behind: it learns of the expiry from a 401", async () => {
    rightOf(await client.createPaymentMethod(card(testCards.success.number))())
    mock.advanceClock(60 * MINUTE) // the service's clock only
    rightOf(await client.createPaymentMethod(card(testCards.success.number))())
    verifyRequests(mock, { status: 401 }, 1)
    verifyRequests(mock, { method: 'POST', path: '/token' }, 2)
  })

  it('a link: past expirationMinutes it reads CANCELLED, and its event is signed and checked on the same clock', async () => {
    const link = rightOf(await client.createPaymentLink({ amount: 5, expirationMinutes: 5 })())
    vi.advanceTimersByTime(5 * MINUTE + 1)
    const order = rightOf(await client.getOrder(link.orderCode)())
    expect(order.orderStatus).toBe('CANCELLED')
    const [event] = mock.events()
    expect(event?.type).toBe('order.cancelled')
    expect(event?.createdAt).toBe(new Date(START.getTime() + 5 * MINUTE + 1).toISOString())

    if (event === undefined) throw new Error('no event')
    const { body, headers } = signedWebhook(event, secret, { timestamp: new Date() })
    const header = headers['paykit-signature'] ?? ''
    expect(header).toMatch(new RegExp(`^t=${Math.floor(Date.now() / 1000)},`))
    expect(E.isRight(verifyWebhookEvent({ secret, body, header, now: new Date() }))).toBe(true)
    vi.advanceTimersByTime(6 * MINUTE) // past the receiver's 300 s tolerance
    expect(verifyWebhookEvent({ secret, body, header, now: new Date() })).toEqual(
      E.left('signature timestamp is more than 300 s from now'),
    )
  })

  it('a 3DS authentication: 10 minutes on it has EXPIRED, and the client charges anew for a fresh one', async () => {
    const cardId = rightOf(
      await client.createPaymentMethod(card(testCards.authentication.number))(),
    ).id
    const order = { id: 'o-clock', amount: 20 }
    let firstId = ''
    // The buyer leaves the frame open past the authentication's 10 minutes, then completes it.
    const slowBuyer = authenticateHeadless('success')
    const late = await client.chargeWith3ds({ order, cardId }, (url, id) => {
      firstId = id
      vi.advanceTimersByTime(10 * MINUTE + 1)
      return slowBuyer(url, id)
    })()
    expect(own(mock.state().authentications, firstId)?.status).toBe('EXPIRED')
    // The frame shows the authentication EXPIRED and posts that: the charge is not repeated.
    const ended = rightOf(late)
    expect(ended._tag === 'AuthenticationFailed' && ended.status).toBe('EXPIRED')

    const again = rightOf(
      await client.chargeWith3ds({ order, cardId }, authenticateHeadless('success'))(),
    )
    expect(again._tag).toBe('Succeeded')
    expect(
      countRequests(mock, { method: 'POST', path: '/charges', body: { order: { id: 'o-clock' } } }),
    ).toBe(3)
  })
})

describe('one clock on the sandbox over real HTTP', () => {
  it('a token expires for client and sandbox together', async () => {
    const sandbox = await startSandbox()
    try {
      const http = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
      rightOf(await http.createPaymentMethod(card(testCards.success.number))())
      vi.advanceTimersByTime(60 * MINUTE)
      rightOf(await http.createPaymentMethod(card(testCards.success.number))())
      verifyRequests(sandbox, { method: 'POST', path: '/token' }, 2)
      verifyRequests(sandbox, { status: 401 }, 0)
      expect(sandbox.requests().at(-1)?.at).toBe(
        new Date(START.getTime() + 60 * MINUTE).toISOString(),
      )
    } finally {
      await sandbox.close()
    }
  })
})

describe('every timer faked, on the in-memory service (no I/O to wait for)', () => {
  it('a token and a link expire on vi.advanceTimersByTime alone', async () => {
    mock.restore()
    vi.useFakeTimers() // Date, setTimeout, setInterval, ...
    vi.setSystemTime(START)
    const memory = memoryPaymentService({ baseUrl: 'https://memory-clock.paykit.test' })
    const inMemory = createClient({
      baseUrl: memory.baseUrl,
      credentials: defaultCredentials,
      transport: memory.transport,
    })
    rightOf(await inMemory.createPaymentMethod(card(testCards.success.number))())
    const link = rightOf(await inMemory.createPaymentLink({ amount: 5, expirationMinutes: 60 })())
    await vi.advanceTimersByTimeAsync(60 * MINUTE)
    rightOf(await inMemory.createPaymentMethod(card(testCards.success.number))())
    expect(rightOf(await inMemory.getOrder(link.orderCode)()).orderStatus).toBe('CANCELLED')
    verifyRequests(memory, { method: 'POST', path: '/token' }, 2)
    verifyRequests(memory, { status: 401 }, 0)
  })
})
