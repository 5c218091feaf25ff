// @paykit-test own-worker: nock's interceptors
// Every headless 3DS ending against the sandbox over real HTTP: through the core client's
// chargeWith3ds (one message per call), and posted to a window where the core's own 3DS
// listener (listenForFrameMessage, the browser edge, on a Node EventTarget) picks from.
import * as E from 'fp-ts/lib/Either.js'
import { createClient, type Client, type PaykitError } from '@paykit/core'
import type { Authenticate } from '@paykit/core/client'
import type { FrameMessage } from '@paykit/core/machines'
import { listenForFrameMessage, type MessageTarget } from '@paykit/core/browser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  authenticateHeadless,
  headlessEndings,
  headlessFrame,
  type HeadlessEnding,
} from '../../src/buyer/Authenticate.js'
import { mockPaymentService } from '../../src/nock/mockPaymentService.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/startSandbox.js'
import { countRequests } from '../../src/service/RequestAssertions.js'
import { own } from '../../src/simulator/State.js'
import { defaultCredentials, testCards } from '../../src/simulator/TestCards.js'

let sandbox: Sandbox
let client: Client
let cardId: string
/** The 3DS test card saved through `on`: its payment method id. */
const saved3dsCard = async (on: Client): Promise<string> => {
  const expirationYear = String(new Date().getUTCFullYear() + 2)
  const card = await on.createPaymentMethod({
    card: {
      number: testCards.authentication.number,
      expirationMonth: '12',
      expirationYear,
      cvv: '123',
    },
  })()
  if (E.isLeft(card)) throw new Error(card.left.message)
  return card.right.id
}

beforeAll(async () => {
  sandbox = await startSandbox({ expirySweepMs: 0 })
  client = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
  cardId = await saved3dsCard(client)
})
afterAll(() => sandbox.close())

let seq = 0
const nextOrder = () => ({ id: `o3ds-${++seq}`, amount: 12.5 })
const chargesOf = (orderId: string): number =>
  countRequests(sandbox, { method: 'POST', path: '/charges', body: { order: { id: orderId } } })
const statusOf = (authenticationId: string) =>
  own(sandbox.state().authentications, authenticationId)?.status

/** A charge left waiting for 3DS: its frame's URL and authentication id. */
const awaiting = async (order = nextOrder()) => {
  const charged = await client.charge({ order, cardId })()
  if (E.isLeft(charged) || charged.right.status !== 'AUTHENTICATION_REQUIRED')
    throw new Error('expected AUTHENTICATION_REQUIRED')
  return { order, ...charged.right.authentication }
}

const endOf = (ending: HeadlessEnding): string =>
  typeof ending === 'string' ? ending : (Object.values(ending)[0] ?? '')

describe('authenticateHeadless through chargeWith3ds, on the sandbox over HTTP', () => {
  it.each(headlessEndings.map((e) => [JSON.stringify(e), e] as const))(
    'ends %s as the buyer did',
    async (_, ending) => {
      const order = nextOrder()
      const flow = await client.chargeWith3ds({ order, cardId }, authenticateHeadless(ending))()
      const result = endOf(ending)
      if (result === 'abandon') {
        expect(E.isLeft(flow) && flow.left._tag).toBe('Timeout')
        expect(chargesOf(order.id)).toBe(1)
      } else if (typeof ending === 'object' && 'otherAuthenticationFirst' in ending) {
        // The core's flow refuses a message for another authentication: no second charge.
        expect(E.isLeft(flow) && flow.left._tag).toBe('ValidationError')
        expect(E.isLeft(flow) && flow.left.message).toMatch(/the charge was not repeated/)
        expect(chargesOf(order.id)).toBe(1)
      } else if (result === 'success') {
        expect(E.isRight(flow) && flow.right._tag).toBe('Succeeded')
        expect(chargesOf(order.id)).toBe(2)
      } else {
        expect(
          E.isRight(flow) && flow.right._tag === 'AuthenticationFailed' && flow.right.status,
        ).toBe(result.toUpperCase())
        expect(chargesOf(order.id)).toBe(1)
      }
    },
  )

  it('pendingFirst: a PENDING message first, with nothing recorded yet; the result when asked again', async () => {
    const { url, id, order } = await awaiting()
    const authenticate = authenticateHeadless({ pendingFirst: 'success' })
    const first = await authenticate(url, id)()
    expect(first).toEqual(
      E.right({
        MessageType: 'authentication.complete',
        Status: 'PENDING',
        AuthenticationId: id,
        OrderId: order.id,
        OrderAmount: expect.anything(),
      }),
    )
    expect(statusOf(id)).toBe('PENDING')
    const second = await authenticate(url, id)()
    expect(E.isRight(second) && second.right.Status).toBe('SUCCESS')
    expect(statusOf(id)).toBe('SUCCESS')
  })

  it('pendingFirst catches an integration that charges on MessageType alone', async () => {
    const { url, id, order } = await awaiting()
    const message = await authenticateHeadless({ pendingFirst: 'success' })(url, id)()
    if (E.isLeft(message)) throw new Error(message.left.message)
    // The naive integration: "authentication.complete" means go.
    expect(message.right.MessageType).toBe('authentication.complete')
    const retried = await client.charge({
      order,
      cardId,
      authenticationId: message.right.AuthenticationId,
    })()
    expect(
      E.isRight(retried) && retried.right.status === 'FAILED' && retried.right.error.code,
    ).toBe('AUTHENTICATION_FAILED')
  })

  it('abandon: nothing recorded, the authentication expires after 10 minutes of the sandbox clock', async () => {
    const { url, id } = await awaiting()
    const abandoned = await authenticateHeadless('abandon', { timeoutMs: 1234 })(url, id)()
    expect(abandoned).toEqual(E.left(expect.objectContaining({ _tag: 'Timeout' })))
    expect(statusOf(id)).toBe('PENDING')
    sandbox.advanceClock(10 * 60 * 1000 + 1)
    expect(statusOf(id)).toBe('EXPIRED')
  })
})

// ------------------------------------------------------------------ the core's listener

/** The core's listener on a window the headless frame posts to: what the page would hear. */
const heardBy = async (
  ending: HeadlessEnding,
  timeoutMs = 2_000,
): Promise<{
  readonly heard: E.Either<{ readonly _tag: string }, FrameMessage>
  readonly posted: E.Either<PaykitError, ReadonlyArray<unknown>>
  readonly id: string
  readonly order: { readonly id: string; readonly amount: number }
}> => {
  const { url, id, order } = await awaiting()
  const window = new EventTarget()
  const listening = listenForFrameMessage({
    url,
    authenticationId: id,
    timeoutMs,
    window: window as MessageTarget,
  })()
  const posted = await headlessFrame(ending, { window })(url, id)()
  return { heard: await listening, posted, id, order }
}

describe("headlessFrame and the core's 3DS listener (listenForFrameMessage)", () => {
  it('otherAuthenticationFirst: the listener ignores the other authentication and takes the result', async () => {
    const { heard, posted, id, order } = await heardBy({ otherAuthenticationFirst: 'success' })
    expect(E.isRight(posted) && posted.right).toEqual([
      expect.objectContaining({ AuthenticationId: `other-${id}`, Status: 'SUCCESS' }),
      expect.objectContaining({ AuthenticationId: id, Status: 'SUCCESS' }),
    ])
    expect(E.isRight(heard) && heard.right.AuthenticationId).toBe(id)
    // The charge repeated with what the listener heard succeeds.
    const again = await client.charge({ order, cardId, authenticationId: id })()
    expect(E.isRight(again) && again.right.status).toBe('SUCCEEDED')
  })

  it('pendingFirst: the listener waits past PENDING for the final message', async () => {
    const { heard, posted } = await heardBy({ pendingFirst: 'expired' })
    expect(E.isRight(posted) && posted.right.map((m) => (m as FrameMessage).Status)).toEqual([
      'PENDING',
      'EXPIRED',
    ])
    expect(E.isRight(heard) && [heard.right.MessageType, heard.right.Status]).toEqual([
      'authentication.failed',
      'EXPIRED',
    ])
  })

  it('abandon: no message is posted, the listener times out', async () => {
    const { heard, posted, id } = await heardBy('abandon', 200)
    expect(posted).toEqual(E.right([]))
    expect(E.isLeft(heard) && heard.left._tag).toBe('FrameTimeout')
    expect(statusOf(id)).toBe('PENDING')
  })

  it('each plain result: one message, the one the listener resolves with', async () => {
    for (const result of ['success', 'failed', 'error', 'expired'] as const) {
      const { heard, posted } = await heardBy(result)
      expect(E.isRight(posted) && posted.right.length).toBe(1)
      expect(E.isRight(heard) && heard.right.Status).toBe(result.toUpperCase())
    }
  })
})

describe('the frame JSON the headless buyer reads', () => {
  it('GET <authentication.url> with Accept: application/json says where it stands, records nothing', async () => {
    const { url, id, order } = await awaiting()
    const res = await fetch(url, { headers: { accept: 'application/json' } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      authenticationId: id,
      status: 'PENDING',
      orderId: order.id,
      orderAmount: 12.5,
    })
    expect(statusOf(id)).toBe('PENDING')
    const unknown = await fetch(`${sandbox.url}/3ds/auth_nope`, {
      headers: { accept: 'application/json' },
    })
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get('content-type')).toMatch(/problem\+json|application\/json/)
  })

  it('keeps the old call: authenticateHeadless() is success', async () => {
    const flow = await client.chargeWith3ds(
      { order: nextOrder(), cardId },
      authenticateHeadless(),
    )()
    expect(E.isRight(flow) && flow.right._tag).toBe('Succeeded')
  })
})

// The type of an Authenticate is the core's.
export const typed: Authenticate = authenticateHeadless({ pendingFirst: 'failed' })

describe('through the nock mock', () => {
  it('pendingFirst and abandon end the same way in process', async () => {
    const baseUrl = 'https://threeds.paykit.test'
    const mock = mockPaymentService({ baseUrl })
    try {
      const nockClient = createClient({ baseUrl, credentials: defaultCredentials })
      const nockCardId = await saved3dsCard(nockClient)
      const order = { id: 'nock-1', amount: 3 }
      const flow = await nockClient.chargeWith3ds(
        { order, cardId: nockCardId },
        authenticateHeadless({ pendingFirst: 'success' }),
      )()
      expect(E.isRight(flow) && flow.right._tag).toBe('Succeeded')
      const abandoned = await nockClient.chargeWith3ds(
        { order: { id: 'nock-2', amount: 3 }, cardId: nockCardId },
        authenticateHeadless('abandon'),
      )()
      expect(E.isLeft(abandoned) && abandoned.left._tag).toBe('Timeout')
      expect(countRequests(mock, { method: 'GET', path: '/3ds/:id' })).toBe(1)
    } finally {
      mock.restore()
    }
  })
})

describe('an authentication that ended before the buyer answered', () => {
  it('yields the message the frame shows (EXPIRED), not an HTTP error', async () => {
    const { url, id } = await awaiting()
    sandbox.advanceClock(10 * 60 * 1000 + 1)
    const message = await authenticateHeadless('success')(url, id)()
    expect(E.isRight(message) && [message.right.MessageType, message.right.Status]).toEqual([
      'authentication.failed',
      'EXPIRED',
    ])
  })
})
