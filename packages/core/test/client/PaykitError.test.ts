import { describe, expect, it } from 'vitest'
import type { PaykitError } from '../../src/client/PaykitError.js'
import {
  changesState,
  decodeError,
  httpError,
  isPaykitError,
  matchError,
  networkError,
  timeoutError,
  toError,
  transportFailureText,
  unauthorizedError,
  unknownOutcomeAdvice,
  validationError,
} from '../../src/client/PaykitError.js'

const STATEFUL = ['POST /paymentmethods', 'POST /charges', 'POST /paymentlink/checkout'] as const
const STATELESS = ['POST /token', 'GET /paymentlink/order/OC00001001'] as const

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

  it('a 5xx on a request that changes state says what to do; on a read it says try later', () => {
    expect(httpError('POST /charges', 502).message).toMatch(
      /outcome is unknown: the charge may have been processed\. Send the same charge again with the same order id.*DUPLICATE_ORDER/,
    )
    expect(httpError('POST /paymentlink/checkout', 500).message).toMatch(
      /the link may have been created\. Creating it again is safe: it leaves at most an unused link, which expires\..*keep the order code of every link you send to a buyer/,
    )
    expect(httpError('POST /paymentmethods', 503).message).toMatch(
      /the card may have been registered\..*at most an unused card id/,
    )
    expect(httpError('GET /paymentlink/order/OC1', 503).message).toMatch(/try again later/)
    expect(httpError('POST /token', 503).message).toMatch(/try again later/)
    expect(httpError('GET /paymentlink/order/{orderCode}', 404).message).toMatch(/orderCode/)
  })

  describe('outcomeUnknown: a request that changes state may have been processed', () => {
    it('only POST /paymentmethods, /charges and /paymentlink/checkout change state', () => {
      expect(STATEFUL.every(changesState)).toBe(true)
      for (const op of [...STATELESS, 'POST /refunds', 'post /charges', 'toString', '__proto__'])
        expect(changesState(op), op).toBe(false)
      expect(STATEFUL.every((op) => typeof unknownOutcomeAdvice(op) === 'string')).toBe(true)
      expect(STATELESS.map(unknownOutcomeAdvice)).toEqual(STATELESS.map(() => undefined))
    })

    it.each(STATEFUL)('%s: true for every status but 4xx, false for a 4xx', (op) => {
      for (const status of [300, 302, 303, 500, 502, 503, 504, 599])
        expect(httpError(op, status).outcomeUnknown, String(status)).toBe(true)
      for (const status of [400, 402, 404, 408, 409, 422, 429, 499])
        expect(httpError(op, status).outcomeUnknown, String(status)).toBe(false)
    })

    it.each(STATEFUL)('%s: true for an unreadable 2xx, a maybe-sent failure, a timeout', (op) => {
      const advice = unknownOutcomeAdvice(op) ?? ''
      for (const e of [
        decodeError(op, 200, [{ path: '', message: 'is not valid JSON' }]),
        decodeError(op, 201, [{ path: 'id', message: 'is required' }]),
        ...(['reset', 'timeout', 'aborted', 'body', 'other'] as const).map((f) =>
          networkError(op, 'maybe', f),
        ),
        timeoutError(op, 5000),
      ]) {
        expect(e.outcomeUnknown, e.message).toBe(true)
        expect(e.message.endsWith(advice), e.message).toBe(true)
      }
    })

    it.each(STATEFUL)('%s: false when it provably never left, or was refused', (op) => {
      for (const f of ['refused', 'dns', 'other', 'aborted'] as const) {
        const e = networkError(op, 'no', f)
        expect(e.outcomeUnknown).toBe(false)
        expect(e.message).toMatch(/It was not sent/)
      }
      expect(validationError([]).outcomeUnknown).toBe(false)
      expect(unauthorizedError(op, 'accessToken').outcomeUnknown).toBe(false)
      expect(unauthorizedError(op, 'apiKey', 'transport').outcomeUnknown).toBe(false)
    })

    it.each(STATELESS)('%s: false whatever happened (it changes no state)', (op) => {
      const all: ReadonlyArray<PaykitError> = [
        httpError(op, 500),
        httpError(op, 302),
        decodeError(op, 200, []),
        networkError(op, 'maybe', 'reset'),
        networkError(op, 'maybe', 'body'),
        timeoutError(op, 1000),
      ]
      for (const e of all) expect(e.outcomeUnknown, e.message).toBe(false)
      expect(networkError(op, 'maybe', 'reset').message).toMatch(/repeating it is harmless/)
    })
  })

  it('a wait that ran out of time only read: its outcome is known', () => {
    const t = timeoutError('waiting for order OC1 to be PAID', 5000, 'last status PENDING')
    expect(t).toMatchObject({ _tag: 'Timeout', timeoutMs: 5000, outcomeUnknown: false })
    expect(t.message).toMatch(/5000 ms \(last status PENDING\)\. Try again later/)
  })

  it('a decode error names the fields of the response', () => {
    const d = decodeError('POST /token', 200, [{ path: 'expiresIn', message: 'is required' }])
    expect(d.message).toContain('expiresIn: is required')
  })

  it('unauthorizedError says which credential to check', () => {
    expect(unauthorizedError('POST /token', 'clientCredentials').message).toMatch(/client secret/)
    expect(unauthorizedError('POST /paymentlink/checkout', 'apiKey').message).toMatch(/API key/)
    expect(unauthorizedError('POST /charges', 'accessToken').message).toMatch(/not processed/)
  })

  it('unauthorizedError with a credential the transport added says so, not what the client does', () => {
    const token = unauthorizedError('POST /charges', 'accessToken', 'transport')
    expect(token).toMatchObject({ _tag: 'Unauthorized', credential: 'accessToken' })
    expect(token.message).toMatch(/the transport added \(the access token\).*not processed/)
    expect(token.message).not.toMatch(/fresh access token/)
    const link = unauthorizedError('POST /paymentlink/checkout', 'apiKey', 'transport').message
    expect(link).toMatch(/the API key, or the access token when no API key is set/)
  })

  it('words each transport failure once: a network error says what transportFailureText says', () => {
    const failures = ['refused', 'dns', 'reset', 'timeout', 'aborted', 'body', 'other'] as const
    const texts = failures.map(transportFailureText)
    expect(new Set(texts).size).toBe(failures.length)
    for (const failure of failures)
      expect(networkError('GET /x', 'no', failure, 'E1').message).toContain(
        `GET /x got no response: ${transportFailureText(failure)} (E1).`,
      )
  })

  it('matches on the tag, recognises errors and converts to a throwable Error', () => {
    const all: ReadonlyArray<PaykitError> = [
      validationError([]),
      httpError('GET /x', 500),
      decodeError('GET /x', 200, []),
      networkError('GET /x', 'no', 'dns'),
      timeoutError('GET /x', 1),
      unauthorizedError('GET /x', 'accessToken'),
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
