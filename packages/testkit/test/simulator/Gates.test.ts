import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sameSecret } from '../../src/simulator/Gates.js'
import { defaultCredentials } from '../../src/simulator/TestCards.js'
import { bearer, request, session } from './support.js'

describe('credential comparison', () => {
  it('sameSecret accepts only the same string, whatever the lengths', () => {
    expect(sameSecret('sandbox-secret', 'sandbox-secret')).toBe(true)
    expect(sameSecret('sandbox-secres', 'sandbox-secret')).toBe(false)
    expect(sameSecret('sandbox', 'sandbox-secret')).toBe(false)
    expect(sameSecret('', 'sandbox-secret')).toBe(false)
    expect(sameSecret('é', 'é')).toBe(true)
    expect(sameSecret('sandbox-secret-and-more', 'sandbox-secret')).toBe(false)
  })

  it('sameSecret is string equality, for any two strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(sameSecret(a, b)).toBe(a === b)
        expect(sameSecret(a, a)).toBe(true)
      }),
    )
  })

  it('the API key and the client credentials are accepted, a near miss refused', () => {
    const s = session()
    const read = (key: string) =>
      s.send(request('GET', '/paymentlink/order/OC1', undefined, bearer(key))).status
    expect(read(defaultCredentials.apiKey)).toBe(404)
    expect(read(`${defaultCredentials.apiKey.slice(0, -1)}x`)).toBe(401)
    expect(read(`${defaultCredentials.apiKey}x`)).toBe(401)
    const token = (clientId: string, clientSecret: string) =>
      s.send(request('POST', '/token', { clientId, clientSecret })).status
    expect(token(defaultCredentials.clientId, defaultCredentials.clientSecret)).toBe(200)
    expect(token(defaultCredentials.clientId, `${defaultCredentials.clientSecret}!`)).toBe(401)
    expect(token(`${defaultCredentials.clientId}!`, defaultCredentials.clientSecret)).toBe(401)
  })
})
