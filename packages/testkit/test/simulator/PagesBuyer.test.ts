// What the hosted pages send a buyer's browser, at the HTTP level: the checkout form
// typed back after an error (never the card number or the CVV), sentences instead of
// codec paths while the API keeps its paths, and the favicon.
import { buyerMessage, fieldErrorMessage, fromErrorMap, type FieldIssue } from '@paykit/core/codecs'
import { describe, expect, it } from 'vitest'
import { defaultCredentials, testCards } from '../../src/simulator/TestCards.js'
import { cvvCopy, distinctiveCvv } from '../leaks.js'
import { bearer, request, session } from './support.js'

const form = (path: string, fields: Record<string, string>) => ({
  method: 'POST',
  path,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
})

const checkout = (options: Parameters<typeof session>[0] = {}) => {
  const s = session(options)
  const created = s
    .send(
      request('POST', '/paymentlink/checkout', { amount: 10 }, bearer(defaultCredentials.apiKey)),
    )
    .json()
  return { s, path: new URL(created.paymentLinkUrl as string).pathname }
}

/** The `value` attribute of the input named `name` ('' when it has none). */
const inputValue = (html: string, name: string): string | undefined => {
  const input = new RegExp(`<input name="${name}"[^>]*>`).exec(html)?.[0]
  if (input === undefined) return undefined
  return /value="([^"]*)"/.exec(input)?.[1] ?? ''
}

const typed = {
  action: 'pay',
  number: '4242424242424241',
  expirationMonth: '07',
  expirationYear: '2031',
  cvv: distinctiveCvv,
  cardHolder: `Ada "O'Neil" <b>`,
  email: 'ada@example.com',
  phone: '+506 8888 0000',
}

describe('checkout form after an error', () => {
  it('answers the fields as typed, escaped, except the card number and the CVV', () => {
    const { s, path } = checkout()
    const r = s.send(form(path, typed))
    expect(r.status).toBe(400)
    expect(inputValue(r.body, 'expirationMonth')).toBe('07')
    expect(inputValue(r.body, 'expirationYear')).toBe('2031')
    expect(inputValue(r.body, 'cardHolder')).toBe('Ada &quot;O&#39;Neil&quot; &lt;b&gt;')
    expect(inputValue(r.body, 'email')).toBe('ada@example.com')
    expect(inputValue(r.body, 'phone')).toBe('+506 8888 0000')
    expect(inputValue(r.body, 'number')).toBe('')
    expect(inputValue(r.body, 'cvv')).toBe('')
    expect(r.body).not.toContain(typed.number)
    expect(r.body).not.toMatch(cvvCopy(typed.cvv))
    expect(r.body).toContain('enter the card number and the CVV again')
  })

  it('a declined card (402) keeps the same fields and drops the number and the CVV', () => {
    const { s, path } = checkout()
    const r = s.send(form(path, { ...typed, number: testCards.declined.number }))
    expect(r.status).toBe(402)
    expect(inputValue(r.body, 'cardHolder')).toBe('Ada &quot;O&#39;Neil&quot; &lt;b&gt;')
    expect(inputValue(r.body, 'number')).toBe('')
    expect(r.body).not.toContain(testCards.declined.number)
    expect(r.body).not.toMatch(cvvCopy(typed.cvv))
  })

  it('a first visit has empty fields', () => {
    const { s, path } = checkout()
    const r = s.send(request('GET', path))
    for (const name of ['number', 'expirationMonth', 'cardHolder', 'cvv'])
      expect(inputValue(r.body, name)).toBe('')
  })
})

describe('messages', () => {
  it('the page says a sentence; the API still names the field with the codec message', () => {
    const { s, path } = checkout()
    const page = s.send(form(path, typed)).body
    expect(page).toContain('The card number is not valid.')
    expect(page).not.toContain('fails the Luhn check')
    const api = s.send(
      request(
        'POST',
        '/paymentmethods',
        { card: { ...typed, action: undefined, cardHolder: 'Ada' } },
        bearer(s.token()),
      ),
    )
    expect(api.status).toBe(400)
    expect(api.json().errors).toEqual({ 'card.number': ['fails the Luhn check'] })
  })

  it('an unknown action reads as a sentence', () => {
    const { s, path } = checkout()
    const r = s.send(form(path, { action: 'refund' }))
    expect(r.status).toBe(400)
    expect(r.body).toContain('Choose Pay or Cancel.')
    expect(r.body).not.toContain('action:')
  })
})

// The sandbox words its own rules (not a codec's) with the core's codes: its 400 `errors`
// carry the core's messages, which read back as those codes, and its pages the core's
// sentences for them.
describe("the core's codes and words", () => {
  /** The errors of a 400 answer, read back with their codes. */
  const errorsOf = (r: { readonly status: number; readonly json: () => unknown }) => {
    expect(r.status).toBe(400)
    return fromErrorMap((r.json() as { errors: Record<string, ReadonlyArray<string>> }).errors)
  }
  const error = (path: string, issue: FieldIssue) => ({
    path,
    message: fieldErrorMessage(issue),
    ...issue,
  })

  it('a body that is not JSON: json at the root', () => {
    const { s } = checkout()
    const r = s.send(
      request('POST', '/paymentlink/checkout', '{"amount":', bearer(defaultCredentials.apiKey)),
    )
    expect(errorsOf(r)).toEqual([error('', { code: 'json' })])
  })

  it('an unknown cardId: notFound, a payment method', () => {
    const { s } = checkout()
    const r = s.send(
      request(
        'POST',
        '/charges',
        { order: { id: 'o', amount: 5 }, cardId: 'pm_nope' },
        bearer(s.token()),
      ),
    )
    expect(errorsOf(r)).toEqual([error('cardId', { code: 'notFound', resource: 'payment method' })])
  })

  it("a codec's rule through the API: its code read back from the message", () => {
    const { s } = checkout()
    const r = s.send(
      request(
        'POST',
        '/paymentmethods',
        { card: { ...typed, action: undefined, number: '', cvv: '12' } },
        bearer(s.token()),
      ),
    )
    expect(errorsOf(r)).toEqual([
      error('card.number', { code: 'required' }),
      error('card.cvv', { code: 'cvv' }),
    ])
  })

  it('the page says the core sentence of each error it shows', () => {
    const { s, path } = checkout()
    const shown = (fields: Record<string, string>) =>
      [...s.send(form(path, fields)).body.matchAll(/<li data-field="[^"]*">([^<]*)<\/li>/g)].map(
        (m) => m[1],
      )
    expect(shown({ ...typed, number: '', cvv: '12' })).toEqual([
      buyerMessage(error('card.number', { code: 'required' })),
      buyerMessage(error('card.cvv', { code: 'cvv' })),
    ])
    expect(shown({ ...typed, number: testCards.declined.number })).toEqual([
      buyerMessage(error('card', { code: 'declined', reason: 'CARD_DECLINED' })),
    ])
    expect(shown({ action: 'refund' })).toEqual([
      buyerMessage(error('action', { code: 'oneOf', values: ['pay', 'cancel'] })),
    ])
  })
})

describe('favicon', () => {
  it('GET /favicon.ico is an SVG icon, cacheable; HEAD too; behind a base path as well', () => {
    for (const baseUrl of ['http://sandbox.test', 'http://proxy.test/sandbox']) {
      const { s } = checkout({ baseUrl })
      const prefix = new URL(baseUrl).pathname.replace(/\/$/, '')
      for (const path of ['/favicon.ico', `${prefix}/favicon.ico`]) {
        const r = s.send(request('GET', path))
        expect(r.status).toBe(200)
        expect(r.headers['content-type']).toBe('image/svg+xml')
        expect(r.headers['cache-control']).toMatch(/max-age=\d+/)
        expect(r.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
        const head = s.send(request('HEAD', path))
        expect(head.status).toBe(200)
        expect(head.headers['content-type']).toBe('image/svg+xml')
      }
    }
  })

  it('only GET and HEAD: a POST is 405', () => {
    const { s } = checkout()
    const r = s.send(request('POST', '/favicon.ico', {}))
    expect(r.status).toBe(405)
    expect(r.headers['allow']).toBe('GET, HEAD')
  })
})
