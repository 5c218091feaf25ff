import { describe, expect, it } from 'vitest'
import { fc, test } from '@fast-check/vitest'
import { logEntry, REDACTED, redactBody, redactHeaders } from '../src/RequestLog.js'

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

describe('logEntry', () => {
  it('redacts the request and keeps method, path, status and fault', () => {
    const entry = logEntry(
      {
        method: 'POST',
        path: '/paymentmethods',
        headers: { authorization: 'Bearer t' },
        body: '{"card":{"number":"4242424242424242"}}',
      },
      new Date('2026-01-01T00:00:00.000Z'),
      undefined,
      'connectionReset',
    )
    expect(entry).toEqual({
      at: '2026-01-01T00:00:00.000Z',
      method: 'POST',
      path: '/paymentmethods',
      headers: { authorization: `Bearer ${REDACTED}` },
      body: `{"card":{"number":"${REDACTED}"}}`,
      status: undefined,
      fault: 'connectionReset',
    })
  })
})
