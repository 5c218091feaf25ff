import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import type { SimRequest } from '../../src/simulator/Http.js'
import { handle, initialState } from '../../src/simulator/Simulator.js'
import { defaultCredentials, testCardTable } from '../../src/simulator/TestCards.js'
import { bearer, cardRequest, request, session, t0 } from './support.js'

describe('routing and request gates', () => {
  it('404 problem details for an unknown route', () => {
    const r = session().send(request('GET', '/nope'))
    expect(r.status).toBe(404)
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(r.json()).toMatchObject({ status: 404, title: 'Not Found', type: expect.any(String) })
  })

  it('405 problem details with Allow for a wrong method', () => {
    const r = session().send(request('GET', '/charges'))
    expect(r.status).toBe(405)
    expect(r.headers['allow']).toBe('POST')
    expect(r.json()).toMatchObject({ status: 405, detail: expect.any(String) })
  })

  it('415 for a POST without a JSON content type', () => {
    const r = session().send(request('POST', '/token', '{}', { 'content-type': 'text/plain' }))
    expect(r.status).toBe(415)
    expect(r.json().status).toBe(415)
  })

  it('accepts application/json with parameters', () => {
    const r = session().send(
      request(
        'POST',
        '/token',
        { clientId: defaultCredentials.clientId, clientSecret: defaultCredentials.clientSecret },
        { 'content-type': 'Application/JSON; charset=utf-8' },
      ),
    )
    expect(r.status).toBe(200)
  })

  it.each(['{"clientId":', '', 'nope', '{"a":1}}'])(
    '400 naming the root for malformed JSON %j',
    (body) => {
      const r = session().send(request('POST', '/token', body))
      expect(r.status).toBe(400)
      expect(r.json()).toMatchObject({ status: 400, errors: { $: expect.any(Array) } })
    },
  )

  it('413 for a body over maxBodyBytes (default 1 MiB), counted in UTF-8 bytes', () => {
    const s = session({ maxBodyBytes: 10 })
    expect(s.send(request('POST', '/token', '"ééééé"')).status).toBe(413)
    expect(s.send(request('POST', '/token', '"abcdefgh"')).status).toBe(400)
    const big = session().send(request('POST', '/token', `"${'x'.repeat(1024 * 1024)}"`))
    expect(big.status).toBe(413)
    expect(big.json().detail).toContain('1048576')
  })

  it('serves paths below the base URL path and ignores query strings on the API', () => {
    const s = session({ baseUrl: 'http://sandbox.test/api/v1/' })
    const body = {
      clientId: defaultCredentials.clientId,
      clientSecret: defaultCredentials.clientSecret,
    }
    expect(s.send(request('POST', '/api/v1/token?x=1', body)).status).toBe(200)
    expect(s.send(request('POST', '/token', body)).status).toBe(200)
    const link = s
      .send(
        request(
          'POST',
          '/api/v1/paymentlink/checkout',
          { amount: 1 },
          bearer(defaultCredentials.apiKey),
        ),
      )
      .json()
    expect(link.paymentLinkUrl).toBe(`http://sandbox.test/api/v1/pay/${link.orderCode}`)
  })

  it('a request does not change the state it was given (pure)', () => {
    const state = initialState({ baseUrl: 'http://sandbox.test' })
    const snapshot = JSON.stringify(state)
    handle(
      state,
      request('POST', '/token', {
        clientId: defaultCredentials.clientId,
        clientSecret: defaultCredentials.clientSecret,
      }),
      t0,
    )
    expect(JSON.stringify(state)).toBe(snapshot)
  })
})

const paths = fc.oneof(
  fc.constantFrom(
    '/token',
    '/paymentmethods',
    '/charges',
    '/paymentlink/checkout',
    '/paymentlink/order/OC00001001',
    '/paymentlink/order/%E0%A4%A',
    '/3ds/auth_000001',
    '/3ds/auth_000001?result=success',
    '/pay/OC00001001',
    '/pay/__proto__',
    '/pay/OC00001001/voucher',
    '/',
    '',
  ),
  fc.string(),
  fc.webPath(),
)

const bodies = fc.oneof(
  fc.string(),
  fc.json(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.constantFrom(
    JSON.stringify(cardRequest()),
    JSON.stringify({ order: { id: 'o', amount: 1 }, cardId: 'pm_000001' }),
    JSON.stringify({ lineItems: [{ sku: 'MUG-LOGO', quantity: 1 }] }),
    JSON.stringify({ __proto__: { x: 1 }, constructor: 1 }),
    'action=pay&number=4242424242424242&expirationMonth=12&expirationYear=2030&cvv=123',
    'result=success',
  ),
)

const requests: fc.Arbitrary<SimRequest> = fc.record({
  method: fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'get'), fc.string()),
  path: paths,
  headers: fc.record(
    {
      'content-type': fc.constantFrom(
        'application/json',
        'application/x-www-form-urlencoded',
        'text/plain',
        '',
      ),
      authorization: fc.oneof(
        fc.constantFrom(
          `Bearer ${defaultCredentials.apiKey}`,
          'Bearer sim_at_1_x',
          'Bearer',
          'Basic x',
        ),
        fc.string(),
      ),
    },
    { requiredKeys: [] },
  ),
  body: bodies,
})

/** A state with a token, a 3DS card, an authentication and an order, so routes reach deep. */
const richState = () => {
  const s = session()
  const tok = s.token()
  const cardId = s.paymentMethod(tok, testCardTable[3]?.number)
  s.send(request('POST', '/charges', { order: { id: 'o', amount: 5 }, cardId }, bearer(tok)))
  s.send(request('POST', '/paymentlink/checkout', { amount: 3 }, bearer(defaultCredentials.apiKey)))
  return s.state
}

describe('handle', () => {
  test.prop([fc.array(requests, { maxLength: 8 }), fc.integer({ min: -1e12, max: 1e12 })])(
    'never throws and always answers a status and a string body',
    (rs, offset) => {
      let state = richState()
      for (const r of rs) {
        const [next, response] = handle(state, r, new Date(t0.getTime() + offset))
        expect(response.status).toBeGreaterThanOrEqual(200)
        expect(response.status).toBeLessThan(600)
        expect(response.status).not.toBe(500)
        expect(typeof response.body).toBe('string')
        state = next
      }
    },
  )

  test.prop([
    fc.constantFrom(...testCardTable.map((c) => c.number)),
    fc.stringMatching(/^\d{3,4}$/),
    fc.array(requests, { maxLength: 4 }),
  ])('no answer ever contains a card number or CVV that was sent', (number, cvv, noise) => {
    const s = session()
    const tok = s.token()
    const body = cardRequest(number)
    const sent = { ...body, card: { ...body.card, cvv: `${cvv}9`.slice(0, 4) } }
    const secretCvv = sent.card.cvv
    const answers = [
      s.send(request('POST', '/paymentmethods', sent, bearer(tok))),
      s.send(
        request(
          'POST',
          '/paymentmethods',
          { ...sent, card: { ...sent.card, cvv: '1' } },
          bearer(tok),
        ),
      ),
      ...noise.map((r) => s.send({ ...r, body: r.body.replace('4242424242424242', number) })),
    ]
    const pmId = answers[0]?.json().id
    answers.push(
      s.send(
        request(
          'POST',
          '/charges',
          { order: { id: 'x', amount: 1 }, cardId: pmId, number },
          bearer(tok),
        ),
      ),
    )
    for (const a of answers) {
      expect(a.body).not.toContain(number)
      expect(a.body).not.toContain(`"${secretCvv}"`)
    }
  })
})
