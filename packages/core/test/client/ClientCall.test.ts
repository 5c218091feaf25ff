import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Exchange } from '../../src/client/Client.js'
import { createClient } from '../../src/edge/DefaultClient.js'
import type { PaykitError } from '../../src/client/PaykitError.js'
import { unknownOutcomeAdvice } from '../../src/client/PaykitError.js'
import { REDACTED } from '../../src/client/Redaction.js'
import type { Transport, TransportError, TransportResponse } from '../../src/client/Transport.js'
import { isTransportError, transportError } from '../../src/client/Transport.js'

// -------------------------------------------------------------------------------------
// a scripted service: one reply list per "METHOD path", the last reply repeating
// -------------------------------------------------------------------------------------

const BASE = 'https://pay.example.test/api'
const reply = (status: number, body: unknown): TransportResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
})
const token = reply(200, { accessToken: 'tok-1', tokenType: 'Bearer', expiresIn: 3600 })

const service = (routes: Readonly<Record<string, ReadonlyArray<TransportResponse>>>) => {
  const seen: Array<string> = []
  const transport: Transport = (request) => async () => {
    const key = `${request.method} ${new URL(request.url).pathname.replace('/api', '')}`
    seen.push(key)
    const replies = routes[key] ?? [reply(404, { title: 'Not Found', status: 404 })]
    const n = seen.filter((k) => k === key).length - 1
    return E.right(replies[Math.min(n, replies.length - 1)] as TransportResponse)
  }
  return { transport, count: (key: string) => seen.filter((k) => k === key).length }
}

const clientOf = (s: ReturnType<typeof service>, onExchange?: (x: Exchange) => void) =>
  createClient({
    baseUrl: BASE,
    credentials: { clientId: 'client-1', clientSecret: 'secret-1' },
    transport: s.transport,
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    ...(onExchange === undefined ? {} : { onExchange }),
  })

const chargeRequest = { order: { id: 'o-1', amount: 10.5, name: 'Tea' }, cardId: 'pm_1' }

const left = (r: E.Either<PaykitError, unknown>): PaykitError => {
  if (E.isRight(r)) throw new Error('expected a Left')
  return r.left
}

// -------------------------------------------------------------------------------------
// tests
// -------------------------------------------------------------------------------------

describe('outcomeUnknown on a charge the service answered', () => {
  it.each([
    ['a 5xx', reply(503, { title: 'Down', status: 503 }), 'HttpError'],
    ['a 2xx that is not JSON', reply(200, '<html>ok</html>'), 'DecodeError'],
    ['a 2xx off the contract', reply(200, { status: 'MAYBE' }), 'DecodeError'],
  ])('is true for %s, and the charge is not sent again', async (_, answer, tag) => {
    const s = service({ 'POST /token': [token], 'POST /charges': [answer] })
    const e = left(await clientOf(s).charge(chargeRequest)())
    expect(e).toMatchObject({ _tag: tag, outcomeUnknown: true })
    expect(s.count('POST /charges')).toBe(1)
  })

  it('is false for a charge refused with a 4xx and for a 5xx to another endpoint', async () => {
    const s = service({
      'POST /token': [token],
      'POST /charges': [reply(400, { title: 'Bad', status: 400 })],
      'GET /paymentlink/order/A1': [reply(500, { title: 'Oops', status: 500 })],
    })
    const c = clientOf(s)
    expect(left(await c.charge(chargeRequest)())).toMatchObject({
      _tag: 'HttpError',
      outcomeUnknown: false,
    })
    expect(left(await c.getOrder('A1')())).toMatchObject({
      _tag: 'HttpError',
      outcomeUnknown: false,
    })
  })
})

// -------------------------------------------------------------------------------------
// outcomeUnknown per operation and failure point, over a scripted transport
// -------------------------------------------------------------------------------------

type Step = TransportResponse | TransportError

/** A transport answering each "METHOD path" with its steps in turn, the last repeating. */
const scripted = (routes: Readonly<Record<string, ReadonlyArray<Step>>>) => {
  const seen: Array<string> = []
  const transport: Transport = (request) => async () => {
    const key = `${request.method} ${new URL(request.url).pathname.replace('/api', '')}`
    seen.push(key)
    const steps = routes[key] ?? [reply(404, { title: 'Not Found', status: 404 })]
    const n = seen.filter((k) => k === key).length - 1
    const step = steps[Math.min(n, steps.length - 1)] as Step
    return isTransportError(step) ? E.left(step) : E.right(step)
  }
  return { transport, count: (key: string) => seen.filter((k) => k === key).length }
}

const clientWith = (s: ReturnType<typeof scripted>) =>
  createClient({
    baseUrl: BASE,
    credentials: { clientId: 'client-1', clientSecret: 'secret-1', apiKey: 'key-1' },
    transport: s.transport,
    timeoutMs: 50,
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
  })

const card = {
  card: {
    number: '4242424242424242',
    expirationMonth: '12',
    expirationYear: String(new Date().getUTCFullYear() + 2),
    cvv: '123',
  },
}

/** The three requests that change state: how to send one, and its operation. */
const stateful = [
  ['POST /paymentmethods', (c: ReturnType<typeof clientWith>) => c.createPaymentMethod(card)()],
  ['POST /charges', (c: ReturnType<typeof clientWith>) => c.charge(chargeRequest)()],
  [
    'POST /paymentlink/checkout',
    (c: ReturnType<typeof clientWith>) => c.createPaymentLink({ amount: 5 })(),
  ],
] as const

/** Failure points after which the request may have been processed. */
const mayHaveBeenProcessed: ReadonlyArray<readonly [string, Step, PaykitError['_tag']]> = [
  ['a reset after sending', transportError('reset', 'ECONNRESET'), 'NetworkError'],
  ['a timeout', transportError('timeout'), 'Timeout'],
  ['a body cut short', transportError('body', 'UND_ERR_SOCKET'), 'NetworkError'],
  ['a 500', reply(500, { title: 'Internal Server Error', status: 500 }), 'HttpError'],
  ['a 502 without problem details', reply(502, '<html>bad gateway</html>'), 'HttpError'],
  ['a 303 (not followed)', reply(303, ''), 'HttpError'],
  ['a 200 that is not JSON', reply(200, '{"orderCode": "OC'), 'DecodeError'],
  ['a 200 off the contract', reply(200, { ok: true }), 'DecodeError'],
]

/** Failure points where it provably never left, or the service refused it. */
const notProcessed: ReadonlyArray<readonly [string, Step, PaykitError['_tag']]> = [
  ['a refused connection', transportError('refused', 'ECONNREFUSED'), 'NetworkError'],
  ['a DNS failure', transportError('dns', 'ENOTFOUND'), 'NetworkError'],
  ['a port fetch blocks', transportError('other', 'bad port', 'no'), 'NetworkError'],
  ['a 400', reply(400, { title: 'Bad Request', status: 400, errors: { x: ['y'] } }), 'HttpError'],
  ['a 409', reply(409, { title: 'Conflict', status: 409 }), 'HttpError'],
]

describe('outcomeUnknown: a request that changes state may have been processed', () => {
  const cases = stateful.flatMap(([op, send]) =>
    mayHaveBeenProcessed.map(([point, step, tag]) => [op, point, send, step, tag] as const),
  )
  it.each(cases)(
    '%s after %s: true, sent once, the advice in the message',
    async (op, _, send, step, tag) => {
      const s = scripted({ 'POST /token': [token], [op]: [step, reply(500, {})] })
      const e = left(await send(clientWith(s)))
      expect(e).toMatchObject({ _tag: tag, outcomeUnknown: true })
      expect(e.message.endsWith(unknownOutcomeAdvice(op) ?? '-')).toBe(true)
      expect(s.count(op)).toBe(1)
    },
  )

  const refused = stateful.flatMap(([op, send]) =>
    notProcessed.map(([point, step, tag]) => [op, point, send, step, tag] as const),
  )
  it.each(refused)('%s after %s: false', async (op, _, send, step, tag) => {
    // Not sent is repeated (up to the bound): every attempt here meets the same step.
    const s = scripted({ 'POST /token': [token], [op]: [step] })
    const e = left(await send(clientWith(s)))
    expect(e).toMatchObject({ _tag: tag, outcomeUnknown: false })
  })

  it('a request refused before sending (validation) is false and sends nothing', async () => {
    const s = scripted({})
    const c = clientWith(s)
    const bad = [
      await c.createPaymentMethod({ card: { ...card.card, number: '4242424242424241' } })(),
      await c.charge({ ...chargeRequest, order: { ...chargeRequest.order, amount: -1 } })(),
      await c.createPaymentLink({ amount: 0 })(),
    ].map(left)
    expect(bad.map((e) => [e._tag, e.outcomeUnknown])).toEqual([
      ['ValidationError', false],
      ['ValidationError', false],
      ['ValidationError', false],
    ])
    expect(s.count('POST /token')).toBe(0)
  })

  it('a charge whose token request failed was never sent: false, whatever the token met', async () => {
    const s = scripted({ 'POST /token': [transportError('reset')] })
    const e = left(await clientWith(s).charge(chargeRequest)())
    expect(e).toMatchObject({
      _tag: 'NetworkError',
      operation: 'POST /token',
      outcomeUnknown: false,
    })
    expect(s.count('POST /charges')).toBe(0)
  })

  it('POST /token and a GET are false after any failure point (they change no state)', async () => {
    for (const [, step] of mayHaveBeenProcessed) {
      const s = scripted({ 'POST /token': [step], 'GET /paymentlink/order/OC1': [step] })
      const c = clientWith(s)
      expect(left(await c.getToken()()).outcomeUnknown).toBe(false)
      expect(left(await c.getOrder('OC1')()).outcomeUnknown).toBe(false)
    }
  })
})

describe("a link's opt-in retry", () => {
  const link = { orderCode: 'OC1', orderId: 1, paymentLinkUrl: 'https://pay.example/OC1' }
  const LINK = 'POST /paymentlink/checkout'

  it.each([
    // A refused attempt is repeated too: three attempts in all.
    ['a refused repeat', transportError('refused', 'ECONNREFUSED'), 'NetworkError', 3],
    ['a 400 on the repeat', reply(400, { title: 'Bad Request', status: 400 }), 'HttpError', 2],
    ['a 401 on the repeat', reply(401, { title: 'Unauthorized', status: 401 }), 'Unauthorized', 2],
  ])(
    'after an attempt that may have been processed, an error is outcomeUnknown even on %s',
    async (_, last, tag, attempts) => {
      const s = scripted({ [LINK]: [transportError('reset'), last] })
      const e = left(await clientWith(s).createPaymentLink({ amount: 5 }, { retry: true })())
      expect(e).toMatchObject({ _tag: tag, outcomeUnknown: true })
      expect(e.message).toMatch(
        /An earlier attempt may have been processed\. The outcome is unknown: the link may have been created/,
      )
      expect(s.count(LINK)).toBe(attempts)
    },
  )

  it('repeats a 5xx and returns the link it got (an earlier link, if any, stays unused)', async () => {
    const s = scripted({ [LINK]: [reply(503, {}), reply(200, link)] })
    expect(await clientWith(s).createPaymentLink({ amount: 5 }, { retry: true })()).toEqual(
      E.right(link),
    )
    expect(s.count(LINK)).toBe(2)
  })

  it('after attempts that were never sent, the outcome is known: false', async () => {
    const s = scripted({ [LINK]: [transportError('refused'), transportError('dns')] })
    const e = left(await clientWith(s).createPaymentLink({ amount: 5 }, { retry: true })())
    expect(e).toMatchObject({ _tag: 'NetworkError', sent: 'no', outcomeUnknown: false })
    expect(s.count(LINK)).toBe(3)
  })

  it('without the opt-in, a link that may have been sent is never repeated', async () => {
    for (const [, step] of mayHaveBeenProcessed) {
      const s = scripted({ [LINK]: [step, reply(200, link)] })
      expect(left(await clientWith(s).createPaymentLink({ amount: 5 })()).outcomeUnknown).toBe(true)
      expect(s.count(LINK)).toBe(1)
    }
  })
})

describe('onExchange records', () => {
  it('redact the request URL: an order code made of card digits does not show', async () => {
    const records: Array<Exchange> = []
    const s = service({ 'POST /token': [token] })
    await clientOf(s, (x) => records.push(x)).getOrder('4242424242424242')()
    const urls = records.map((x) => x.request.url)
    expect(urls).toContain(`${BASE}/paymentlink/order/${REDACTED}`)
    expect(urls.join(' ')).not.toContain('4242424242424242')
  })
})
