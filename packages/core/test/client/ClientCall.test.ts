import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Exchange } from '../../src/client/Client.js'
import { createClient } from '../../src/edge/DefaultClient.js'
import type { PaykitError } from '../../src/client/PaykitError.js'
import { REDACTED } from '../../src/client/Redaction.js'
import type { Transport, TransportResponse } from '../../src/client/Transport.js'

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
