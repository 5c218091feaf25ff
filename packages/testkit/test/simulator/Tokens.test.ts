import { describe, expect, it } from 'vitest'
import { advanceClock } from '../../src/simulator/Simulator.js'
import { defaultCredentials } from '../../src/simulator/TestCards.js'
import { at, bearer, cardRequest, request, session, t0 } from './support.js'

const credentials = {
  clientId: defaultCredentials.clientId,
  clientSecret: defaultCredentials.clientSecret,
}

describe('POST /token', () => {
  it('issues a Bearer token living expiresIn seconds', () => {
    const s = session()
    const r = s.send(request('POST', '/token', credentials))
    expect(r.status).toBe(200)
    expect(r.json()).toEqual({
      accessToken: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: 3600,
    })
  })

  it('uses the configured credentials and lifetime', () => {
    const s = session({ clientId: 'me', clientSecret: 'pw', tokenLifetimeSeconds: 60 })
    expect(s.send(request('POST', '/token', credentials)).status).toBe(401)
    const r = s.send(request('POST', '/token', { clientId: 'me', clientSecret: 'pw' }))
    expect(r.json().expiresIn).toBe(60)
  })

  it.each([
    ['a wrong secret', { ...credentials, clientSecret: 'nope' }],
    ['a wrong client id', { ...credentials, clientId: 'nope' }],
  ])('answers 401 problem details for %s, never echoing the secret', (_, body) => {
    const r = session().send(request('POST', '/token', body))
    expect(r.status).toBe(401)
    expect(r.json()).toMatchObject({ status: 401, title: 'Unauthorized', type: expect.any(String) })
    expect(r.body).not.toContain('nope')
    expect(r.body).not.toContain(defaultCredentials.clientSecret)
  })

  it('answers 400 naming a missing field', () => {
    const r = session().send(request('POST', '/token', { clientId: 'sandbox-client' }))
    expect(r.status).toBe(400)
    expect(Object.keys(r.json().errors)).toEqual(['clientSecret'])
  })

  it('issues distinct tokens', () => {
    const s = session()
    expect(s.token()).not.toBe(s.token())
  })
})

describe('bearer credentials', () => {
  const card = cardRequest()

  it.each([
    ['missing', {}],
    ['not Bearer', { authorization: 'Basic abc' }],
    ['empty Bearer', { authorization: 'Bearer ' }],
    ['unknown', bearer('sim_at_999_x')],
    ['the API key (payment-method endpoint)', bearer(defaultCredentials.apiKey)],
  ])('refuses a %s credential with 401 problem details', (_, headers) => {
    const r = session().send(request('POST', '/paymentmethods', card, headers))
    expect(r.status).toBe(401)
    expect(r.json()).toMatchObject({ status: 401, detail: expect.any(String) })
    expect(r.headers['www-authenticate']).toMatch(/^Bearer/)
  })

  it('accepts a token until expiresIn seconds of the simulator clock have passed', () => {
    const s = session()
    const tok = s.token()
    const send = (when: Date) =>
      s.send(request('POST', '/paymentmethods', card, bearer(tok)), when).status
    expect(send(at(3_599_999))).toBe(200)
    expect(send(at(3_600_000))).toBe(401)
  })

  it('expires a token when the clock is advanced', () => {
    const s = session()
    const tok = s.token()
    s.state = advanceClock(s.state, 3_600_000, t0)
    const r = s.send(request('POST', '/paymentmethods', card, bearer(tok)))
    expect(r.status).toBe(401)
    expect(r.json().detail).toMatch(/expired/)
  })
})
