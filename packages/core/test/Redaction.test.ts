import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { httpError } from '../src/PaykitError.js'
import {
  REDACTED,
  redact,
  redactBody,
  redactError,
  redactHeaders,
  redactJsonText,
  redactValue,
} from '../src/Redaction.js'

describe('redactValue, redact, redactJsonText, redactError', () => {
  it('redacts secret keys and card.number anywhere in a value', () => {
    expect(
      redactValue({
        headers: { Authorization: 'Bearer abc' },
        clientSecret: 's3cret',
        body: { card: { number: '4242424242424242', cvv: '123', cardHolder: 'A' }, number: 7 },
        accessToken: 'tok',
      }),
    ).toEqual({
      headers: { Authorization: REDACTED },
      clientSecret: REDACTED,
      body: { card: { number: REDACTED, cvv: REDACTED, cardHolder: 'A' }, number: 7 },
      accessToken: REDACTED,
    })
  })

  it('redacts a short numeric secret only where it stands alone', () => {
    expect(redact(['123'])('cvv 123 in 41234 and 123')).toBe(
      `cvv ${REDACTED} in 41234 and ${REDACTED}`,
    )
    expect(redact(['ab'])('abc')).toBe('abc')
  })

  it('redacts a non-JSON text by value, a JSON text by key and value', () => {
    expect(redactJsonText('not json sk_live_xyz', ['sk_live_xyz'])).toBe(`not json ${REDACTED}`)
    expect(JSON.parse(redactJsonText('{"accessToken":"t","m":"t0k3n!"}', ['t0k3n!']))).toEqual({
      accessToken: REDACTED,
      m: REDACTED,
    })
  })

  test.prop([
    fc.string({ minLength: 8, maxLength: 40 }).filter((s) => s.trim() === s && s.length >= 8),
  ])('redactError removes a secret echoed anywhere in an error', (secret) => {
    const echoed = httpError('POST /paymentlink/checkout', 400, {
      title: `bad ${secret}`,
      status: 400,
      errors: { [secret]: [`value ${secret} refused`] },
    })
    const clean = redactError([secret])(echoed)
    expect(JSON.stringify(clean)).not.toContain(secret)
    expect(clean.message).not.toContain(secret)
  })
})

describe('redactHeaders', () => {
  it('keeps the scheme of Authorization and hides the credential', () => {
    expect(
      redactHeaders({ authorization: 'Bearer tok_secret', 'content-type': 'application/json' }),
    ).toEqual({ authorization: `Bearer ${REDACTED}`, 'content-type': 'application/json' })
  })

  it('hides cookies and API-key headers whatever their case', () => {
    expect(redactHeaders({ Cookie: 'sid=1', 'X-Api-Key': 'k' })).toEqual({
      Cookie: REDACTED,
      'X-Api-Key': REDACTED,
    })
  })
})

describe('redactBody', () => {
  it('hides card number, CVV and client secret in JSON, keeping the rest', () => {
    const body = JSON.stringify({
      clientId: 'id',
      clientSecret: 'shh',
      card: { number: '4242424242424242', cvv: '123', expirationMonth: '12' },
    })
    expect(JSON.parse(redactBody(body))).toEqual({
      clientId: 'id',
      clientSecret: REDACTED,
      card: { number: REDACTED, cvv: REDACTED, expirationMonth: '12' },
    })
  })

  it('hides card fields of a form body', () => {
    const redacted = redactBody('action=pay&number=4242424242424242&cvv=123&cardHolder=Ada')
    expect(redacted).toBe(`action=pay&number=${REDACTED}&cvv=${REDACTED}&cardHolder=Ada`)
  })

  test.prop([fc.stringMatching(/^\d{13,19}$/), fc.string({ maxLength: 20 })])(
    'a card number never survives, wherever it is written',
    (pan, text) => {
      for (const body of [
        `${text} ${pan} ${text}`,
        JSON.stringify({ note: `card ${pan}` }),
        JSON.stringify([{ deep: { pan } }]),
        `ref${pan}`,
        `note=${text}&ref=x${pan}`,
      ])
        expect(redactBody(body)).not.toContain(pan)
    },
  )

  it('leaves an empty body empty', () => {
    expect(redactBody('')).toBe('')
  })
})
