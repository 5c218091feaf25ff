import { describe, expect, it } from 'vitest'
import type { PaykitError } from '../../src/client/PaykitError.js'
import {
  decodeError,
  httpError,
  isPaykitError,
  matchError,
  networkError,
  timeout,
  toError,
  unauthorized,
  validationError,
} from '../../src/client/PaykitError.js'

describe('PaykitError', () => {
  it('a validation error names every field and says nothing was sent', () => {
    const e = validationError(
      [
        { path: 'card.number', message: 'fails the Luhn check' },
        { path: 'billingInfo', message: 'is required' },
      ],
      'payment method',
    )
    expect(e._tag).toBe('ValidationError')
    expect(e.message).toBe(
      'Invalid payment method, nothing was sent. Fix: card.number: fails the Luhn check; billingInfo: is required',
    )
  })

  it('an HTTP 400 keeps the errors map as given and lists it in the message', () => {
    const problem = {
      type: 't',
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: { Amount: ['must be greater than 0'], 'lineItems[0].sku': ['unknown', 'bad'] },
    }
    const e = httpError('POST /paymentlink/checkout', 400, problem)
    expect(e.problem?.errors).toBe(problem.errors)
    expect(e.message).toContain('HTTP 400')
    expect(e.message).toContain('Amount: must be greater than 0; lineItems[0].sku: unknown')
  })

  it('a 5xx on a charge says the outcome is unknown; on a link it says try later', () => {
    expect(httpError('POST /charges', 502).message).toMatch(/outcome is unknown.*Check the order/)
    expect(httpError('POST /paymentlink/checkout', 500).message).toMatch(/try again later/)
    expect(httpError('GET /paymentlink/order/{orderCode}', 404).message).toMatch(/orderCode/)
  })

  it('a charge answered with 5xx has outcomeUnknown: true; any other error status false', () => {
    for (const status of [500, 502, 503, 504])
      expect(httpError('POST /charges', status).outcomeUnknown).toBe(true)
    for (const status of [400, 402, 404, 409, 429])
      expect(httpError('POST /charges', status).outcomeUnknown).toBe(false)
    expect(httpError('POST /paymentlink/checkout', 500).outcomeUnknown).toBe(false)
    expect(httpError('GET /paymentlink/order/{orderCode}', 503).outcomeUnknown).toBe(false)
  })

  it('an unreadable 2xx to a charge has outcomeUnknown: true; to anything else false', () => {
    const charge = decodeError('POST /charges', 200, [{ path: '', message: 'is not valid JSON' }])
    expect(charge.outcomeUnknown).toBe(true)
    expect(charge.message).toMatch(/outcome is unknown/)
    expect(decodeError('POST /token', 200, []).outcomeUnknown).toBe(false)
    expect(decodeError('POST /paymentlink/checkout', 201, []).outcomeUnknown).toBe(false)
  })

  it('a network error says whether it was sent; a maybe-sent charge has an unknown outcome', () => {
    const notSent = networkError('POST /charges', 'no', 'refused', 'ECONNREFUSED')
    expect(notSent.outcomeUnknown).toBe(false)
    expect(notSent.message).toMatch(/not sent/)
    const maybe = networkError('POST /charges', 'maybe', 'reset')
    expect(maybe.outcomeUnknown).toBe(true)
    expect(maybe.message).toMatch(/outcome is unknown.*Check the order before charging it again/)
    expect(networkError('GET /x', 'maybe', 'reset').outcomeUnknown).toBe(false)
  })

  it('a timeout names the limit; on a charge the outcome is unknown', () => {
    const t = timeout('POST /charges', 5000)
    expect(t).toMatchObject({ _tag: 'Timeout', timeoutMs: 5000, outcomeUnknown: true })
    expect(t.message).toMatch(/5000 ms.*Check the order/)
  })

  it('a decode error names the fields of the response', () => {
    const d = decodeError('POST /token', 200, [{ path: 'expiresIn', message: 'is required' }])
    expect(d.message).toContain('expiresIn: is required')
  })

  it('unauthorized says which credential to check', () => {
    expect(unauthorized('POST /token', 'clientCredentials').message).toMatch(/client secret/)
    expect(unauthorized('POST /paymentlink/checkout', 'apiKey').message).toMatch(/API key/)
    expect(unauthorized('POST /charges', 'accessToken').message).toMatch(/not processed/)
  })

  it('unauthorized with a credential the transport added says so, not what the client does', () => {
    const token = unauthorized('POST /charges', 'accessToken', 'transport')
    expect(token).toMatchObject({ _tag: 'Unauthorized', credential: 'accessToken' })
    expect(token.message).toMatch(/the transport added \(the access token\).*not processed/)
    expect(token.message).not.toMatch(/fresh access token/)
    const link = unauthorized('POST /paymentlink/checkout', 'apiKey', 'transport').message
    expect(link).toMatch(/the API key, or the access token when no API key is set/)
  })

  it('matches on the tag, recognises errors and converts to a throwable Error', () => {
    const all: ReadonlyArray<PaykitError> = [
      validationError([]),
      httpError('GET /x', 500),
      decodeError('GET /x', 200, []),
      networkError('GET /x', 'no', 'dns'),
      timeout('GET /x', 1),
      unauthorized('GET /x', 'accessToken'),
    ]
    const tags = all.map(
      matchError({
        ValidationError: () => 'v',
        HttpError: (e) => `h${e.status}`,
        DecodeError: () => 'd',
        NetworkError: (e) => `n${e.sent}`,
        Timeout: () => 't',
        Unauthorized: () => 'u',
      }),
    )
    expect(tags).toEqual(['v', 'h500', 'd', 'nno', 't', 'u'])
    expect(all.every(isPaykitError)).toBe(true)
    expect(isPaykitError(new Error('x'))).toBe(false)
    const thrown = toError(all[1] as PaykitError)
    expect(thrown.name).toBe('HttpError')
    expect(thrown.message).toBe(all[1]?.message)
  })
})
