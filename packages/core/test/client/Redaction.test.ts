import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { httpError } from '../../src/client/PaykitError.js'
import {
  REDACTED,
  redact,
  redactBody,
  redactError,
  redactHeaders,
  redactJsonText,
  redactUrl,
  redactValue,
} from '../../src/client/Redaction.js'

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

// -------------------------------------------------------------------------------------
// the rules a user depends on: no secret, card number or CVV in any output
// -------------------------------------------------------------------------------------

/** The Luhn check digit that completes `partial`. */
const luhnDigit = (partial: string): string => {
  let sum = 0
  for (let i = 0; i < partial.length; i++) {
    let d = Number(partial[partial.length - 1 - i])
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return String((10 - (sum % 10)) % 10)
}

const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max })

/** A Luhn-valid card number of 13 to 19 digits. */
const pan = fc
  .tuple(fc.constantFrom(...'123456789'), digits(11, 17))
  .map(([first, rest]) => `${first}${rest}`)
  .map((partial) => `${partial}${luhnDigit(partial)}`)

const cvv = digits(3, 4)

/** A credential: 8 to 40 URL-ish characters (not the replacement itself). */
const secret = fc
  .stringMatching(/^[A-Za-z0-9_.~+/-]{8,40}$/)
  .filter((s) => !REDACTED.includes(s) && !/^[\d -]+$/.test(s))

/** Free text without digits, so that nothing next to a card number lengthens it. */
const words = fc.string({ maxLength: 30 }).map((s) => s.replace(/\d/g, ''))

/** How many of the card number, the CVV (standing alone) and the secret `text` holds. */
const leaks = (text: string, data: { pan: string; cvv: string; secret: string }): number =>
  [data.pan, data.secret, encodeURIComponent(data.secret)].filter((s) => text.includes(s)).length +
  (new RegExp(`(?<!\\d)${data.cvv}(?!\\d)`).test(text) ? 1 : 0)

describe('card numbers in core errors and exchange records', () => {
  it.each([13, 14, 15, 16, 17, 18, 19])('hides a run of %i digits anywhere in a text', (n) => {
    const run = '4'.repeat(n)
    for (const text of [run, `ref${run}x`, `card ${run}.`, `{"note":"id:${run}"}`])
      expect(redactBody(text)).not.toMatch(/\d{13}/)
  })

  it('hides a card number grouped by spaces or dashes', () => {
    expect(redactBody('card 4242 4242 4242 4242 was declined')).toBe(
      `card ${REDACTED} was declined`,
    )
    expect(redactBody('card 4242-4242-4242-4242')).toBe(`card ${REDACTED}`)
  })

  it('leaves shorter digit runs (amounts, ids, dates) as they are', () => {
    expect(redactBody('order 123456789012 paid 2026-01-01')).toBe(
      'order 123456789012 paid 2026-01-01',
    )
  })

  it('hides an echoed card number in every part of an HttpError, with no known secret', () => {
    const e = redactError([])(
      httpError('POST /paymentmethods', 400, {
        title: 'card 4111111111111111 refused',
        status: 400,
        detail: 'ref4111111111111111',
        errors: { '4111111111111111': ['4111 1111 1111 1111 is invalid'] },
      }),
    )
    expect(JSON.stringify(e)).not.toContain('4111')
    expect(e.message).not.toContain('4111')
    expect(e.message).toContain('POST /paymentmethods failed with HTTP 400')
  })

  it('hides the values of cardNumber and securityCode in any case', () => {
    expect(
      redactValue({
        cardNumber: 'x',
        CardNumber: 'x',
        CARDNUMBER: 'x',
        securityCode: '12',
        SecurityCode: '12',
        securitycode: '12',
        nested: [{ cardNumber: 1, securityCode: 2 }],
      }),
    ).toEqual({
      cardNumber: REDACTED,
      CardNumber: REDACTED,
      CARDNUMBER: REDACTED,
      securityCode: REDACTED,
      SecurityCode: REDACTED,
      securitycode: REDACTED,
      nested: [{ cardNumber: REDACTED, securityCode: REDACTED }],
    })
  })

  it('hides cardNumber and securityCode in a JSON body an exchange record shows', () => {
    const body = JSON.stringify({ errors: { cardNumber: ['bad'], securityCode: 'must be 3' } })
    expect(JSON.parse(redactBody(body))).toEqual({
      errors: { cardNumber: [REDACTED], securityCode: REDACTED },
    })
  })
})

describe('headers', () => {
  it('keeps the scheme of Authorization and Proxy-Authorization, hides the credential', () => {
    expect(
      redactHeaders({
        Authorization: 'Bearer eyJhbGciOi.abc.def',
        'Proxy-Authorization': 'Basic dXNlcjpwYXNz',
      }),
    ).toEqual({
      Authorization: `Bearer ${REDACTED}`,
      'Proxy-Authorization': `Basic ${REDACTED}`,
    })
  })

  it('clears the scheme itself of known secrets and card numbers', () => {
    expect(redactHeaders({ authorization: 'sk_live_123 rest' }, ['sk_live_123'])).toEqual({
      authorization: `${REDACTED} ${REDACTED}`,
    })
    expect(redactHeaders({ authorization: '4242424242424242 x' })).toEqual({
      authorization: `${REDACTED} ${REDACTED}`,
    })
  })

  it('hides an Authorization value with no scheme whole', () => {
    expect(redactHeaders({ authorization: 'tok_only' })).toEqual({ authorization: REDACTED })
  })

  it('hides the whole of cookie, set-cookie and x-api-key, even when they hold spaces', () => {
    expect(
      redactHeaders({
        cookie: 'sid=s3ss10n-abc; theme=dark',
        'Set-Cookie': 'sid=s3ss10n-abc; Path=/; HttpOnly',
        'x-api-key': 'pk_live key with spaces',
        'X-API-KEY': 'pk_live_2',
      }),
    ).toEqual({
      cookie: REDACTED,
      'Set-Cookie': REDACTED,
      'x-api-key': REDACTED,
      'X-API-KEY': REDACTED,
    })
  })

  it('clears other headers of known secrets and card numbers, keeping the rest', () => {
    expect(
      redactHeaders(
        { 'x-request-id': 'req-sk_live_123', 'x-note': 'pan 4242424242424242', accept: '*/*' },
        ['sk_live_123'],
      ),
    ).toEqual({
      'x-request-id': `req-${REDACTED}`,
      'x-note': `pan ${REDACTED}`,
      accept: '*/*',
    })
  })
})

describe('form bodies', () => {
  it('redacts the checkout form field by field, keeping the other fields as sent', () => {
    const form = new URLSearchParams({
      action: 'pay',
      number: '4242424242424242',
      expirationMonth: '12',
      expirationYear: '2030',
      cvv: '987',
      cardHolder: 'Grace Hopper',
      email: 'grace@example.com',
    }).toString()
    expect(redactBody(form)).toBe(
      `action=pay&number=${REDACTED}&expirationMonth=12&expirationYear=2030&cvv=${REDACTED}` +
        '&cardHolder=Grace%20Hopper&email=grace%40example.com',
    )
  })

  it('redacts a form number written in groups and a card number in any other field', () => {
    const redacted = redactBody('number=4242+4242+4242+4242&note=paid+with+4000-0000-0000-3220')
    expect(redacted).toBe(`number=${REDACTED}&note=paid%20with%20${REDACTED}`)
  })

  it('redacts card[number], card[cvv] and secret keys of a form', () => {
    expect(
      redactBody('card%5Bnumber%5D=4242424242424242&card[cvv]=123&client_secret=shh&amount=7'),
    ).toBe(
      `card%5Bnumber%5D=${REDACTED}&card%5Bcvv%5D=${REDACTED}&client_secret=${REDACTED}&amount=7`,
    )
  })

  it('redacts a form with a trailing & or an empty pair', () => {
    for (const body of ['number=4242424242424242&cvv=987&', 'a=1&&cvv=987&number=1'])
      expect(redactBody(body)).not.toMatch(/987|4242/)
  })
})

describe('JSON numbers', () => {
  it("redacts 'number' only under card: a number elsewhere stays", () => {
    expect(
      JSON.parse(
        redactBody(
          JSON.stringify({ number: 7, order: { number: 'A-1' }, card: { number: '4000' } }),
        ),
      ),
    ).toEqual({ number: 7, order: { number: 'A-1' }, card: { number: REDACTED } })
  })

  it('redacts card.number in any case and inside an array of cards', () => {
    expect(redactValue({ Card: { Number: 1 }, card: [{ number: 2 }] })).toEqual({
      Card: { Number: REDACTED },
      card: [{ number: REDACTED }],
    })
  })

  it('catches any 13-19 digit value as a card number, also written as a JSON number', () => {
    const body = '{"id":4242424242424242,"neg":-4242424242424242,"f":4242424242424242.5,"n":123}'
    const redacted = redactBody(body)
    expect(redacted).not.toContain('4242424242424242')
    expect(JSON.parse(redacted)).toMatchObject({ id: REDACTED, n: 123 })
  })

  it('hides a known CVV or secret sent back as a JSON number', () => {
    expect(redactValue({ echoed: 987, amount: 10 }, ['987'])).toEqual({
      echoed: REDACTED,
      amount: 10,
    })
  })
})

describe('secret keys', () => {
  it('shows null under a secret key (the field was absent, nothing is hidden)', () => {
    expect(redactValue({ clientSecret: null, card: { number: null, cvv: null } })).toEqual({
      clientSecret: null,
      card: { number: null, cvv: null },
    })
  })

  it('hides an array under a secret key item by item, and an object whole', () => {
    expect(
      redactValue({ cvv: ['123', '456'], accessToken: { value: 'tok', expiresIn: 60 } }),
    ).toEqual({ cvv: [REDACTED, REDACTED], accessToken: REDACTED })
  })

  it.each(['access_token', 'api_key', 'x-api-key', 'refreshtoken', 'client_secret'])(
    'hides the value of %s in any case, in values and JSON bodies',
    (key) => {
      for (const k of [key, key.toUpperCase()]) {
        expect(redactValue({ [k]: 'tok_abcdef', other: 'kept' })).toEqual({
          [k]: REDACTED,
          other: 'kept',
        })
        expect(redactBody(JSON.stringify({ nested: { [k]: 12345 } }))).toBe(
          `{"nested":{"${k}":"${REDACTED}"}}`,
        )
      }
    },
  )
})

describe('no card number, CVV or secret survives, whatever surrounds it', () => {
  const data = fc.record({ pan, cvv, secret })

  test.prop([data, words, words])('in free text', (d, before, after) => {
    const text = `${before} ${d.pan} ${after} cvv ${d.cvv}, key ${d.secret}${after}`
    expect(leaks(redactBody(text, [d.cvv, d.secret]), d)).toBe(0)
    expect(leaks(redactJsonText(text, [d.cvv, d.secret]), d)).toBe(0)
  })

  test.prop([data, fc.jsonValue(), fc.dictionary(words, fc.jsonValue(), { maxKeys: 4 })])(
    'in a JSON body, under any key and in any string',
    (d, around, extra) => {
      const body = JSON.stringify({
        ...extra,
        around,
        card: { number: d.pan, cvv: d.cvv },
        echo: { note: `declined ${d.pan}`, value: Number(d.pan), code: Number(d.cvv) },
        list: [around, `secret=${d.secret}`, d.cvv],
        [`k-${d.secret}`]: d.secret,
      })
      const secrets = [d.cvv, d.secret]
      expect(leaks(redactBody(body, secrets), d)).toBe(0)
      expect(leaks(JSON.stringify(redactValue(JSON.parse(body), secrets)), d)).toBe(0)
    },
  )

  test.prop([data, fc.dictionary(words, words, { maxKeys: 4 })])(
    'in a form body, in the card fields and in any other field',
    (d, extra) => {
      const form = new URLSearchParams({ ...extra })
      form.append('number', d.pan)
      form.append('cvv', d.cvv)
      form.append('note', `paid with ${d.pan} ${d.cvv}`)
      form.append(d.secret, d.secret)
      expect(leaks(redactBody(form.toString(), [d.cvv, d.secret]), d)).toBe(0)
      // Without knowing the CVV, the form's own fields still hide the card.
      expect(redactBody(form.toString())).not.toContain(d.pan)
    },
  )

  test.prop([data, words])('in headers', (d, text) => {
    const headers = {
      authorization: `Bearer ${d.secret}`,
      cookie: `sid=${d.secret}; x=${text}`,
      'x-api-key': d.secret,
      'x-note': `${text} ${d.pan} ${d.cvv}`,
    }
    expect(leaks(JSON.stringify(redactHeaders(headers, [d.cvv])), d)).toBe(0)
  })
})

describe('text that is not JSON: secret keys by a tolerant scan', () => {
  it('redacts the secrets of a /token body missing its closing brace', () => {
    const body = '{"clientId":"client-1","clientSecret":"s3cr3t-value"'
    const redacted = redactBody(body)
    expect(redacted).not.toContain('s3cr3t-value')
    expect(redacted).toBe(`{"clientId":"client-1","clientSecret":"${REDACTED}"`)
    expect(redactJsonText(body)).toBe(redacted)
  })

  it('redacts card number, CVV, tokens and keys in broken JSON, any case and spacing', () => {
    const body =
      '{"card": {"Number" : "4000 0000 0000", "CVV": 987, "cardHolder": "Ana"}, ' +
      '"accessToken":"tok_abc", "apiKey": \'key_1\', "x-api-key": ["a","b"], "secret": "unterminated'
    const redacted = redactBody(body)
    for (const leak of ['4000 0000 0000', '987', 'tok_abc', 'key_1', '"a"', 'unterminated'])
      expect(redacted).not.toContain(leak)
    expect(redacted).toContain('"cardHolder": "Ana"')
    expect(redacted).toContain(`"CVV": ${REDACTED}`)
  })

  it('redacts key=value pairs in plain text and keeps null and other keys', () => {
    expect(redactBody('declined: cvv=987 amount=10 client_secret = shh;')).toBe(
      `declined: cvv=${REDACTED} amount=10 client_secret = ${REDACTED};`,
    )
    expect(redactBody('{"cvv": null, "note": "x"')).toBe('{"cvv": null, "note": "x"')
  })

  it('leaves a valid JSON body to the JSON path (number is secret only under card)', () => {
    expect(JSON.parse(redactBody('{"number":7,"card":{"number":"4000"}}'))).toEqual({
      number: 7,
      card: { number: REDACTED },
    })
  })
})

describe('redactHeaders: cheap, no JSON parse of header values', () => {
  it('keeps values that cannot hold a secret as they are, JSON-looking or not', () => {
    const headers = { accept: 'application/json', 'x-flag': 'true', 'x-s': '"quoted"' }
    expect(redactHeaders(headers)).toEqual(headers)
  })

  it('never calls JSON.parse for a header value', () => {
    const parse = JSON.parse
    let calls = 0
    JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
      calls++
      return parse(text, reviver)
    }) as typeof JSON.parse
    try {
      redactHeaders(
        { 'x-a': '{"cvv":"123"}', 'x-b': '12345', 'content-length': '42', date: 'Mon' },
        ['sk_live_1'],
      )
    } finally {
      JSON.parse = parse
    }
    expect(calls).toBe(0)
  })

  it('still clears a secret key written into a header value', () => {
    expect(redactHeaders({ 'x-debug': '{"cvv":"123"}', 'x-q': 'apiKey=k_1&a=2' })).toEqual({
      'x-debug': `{"cvv":"${REDACTED}"}`,
      'x-q': `apiKey=${REDACTED}&a=2`,
    })
  })

  it('returns an empty body at once', () => {
    expect(redactBody('', ['sk_live_1'])).toBe('')
    expect(redactJsonText('')).toBe('')
  })
})

describe('redactUrl', () => {
  const base = 'https://pay.example.test/api'

  it('hides a card-number-like order code in the path, Luhn-valid or not', () => {
    expect(redactUrl(`${base}/paymentlink/order/4242424242424242`)).toBe(
      `${base}/paymentlink/order/${REDACTED}`,
    )
    expect(redactUrl(`${base}/paymentlink/order/1234567890123`)).toBe(
      `${base}/paymentlink/order/${REDACTED}`,
    )
    expect(redactUrl(`${base}/order/4242%204242%204242%204242`)).toBe(`${base}/order/${REDACTED}`)
  })

  it('keeps a short order code and the rest of the URL as written', () => {
    const url = `${base}/paymentlink/order/ORD-123456789012?expand=items#top`
    expect(redactUrl(url)).toBe(url)
  })

  it('hides query parameters with secret names, in any case and as card[number]', () => {
    expect(
      redactUrl(`${base}/x?client_secret=shh&APIKEY=k&card%5Bnumber%5D=4000&cvv=1&page=2`),
    ).toBe(
      `${base}/x?client_secret=${REDACTED}&APIKEY=${REDACTED}&card%5Bnumber%5D=${REDACTED}&cvv=${REDACTED}&page=2`,
    )
  })

  it('hides known secrets and card numbers anywhere in path, query and fragment', () => {
    expect(
      redactUrl(
        `${base}/keys/sk_live_123/x?note=pan+4242424242424242&ref=sk_live_123#sk_live_123`,
        ['sk_live_123'],
      ),
    ).toBe(`${base}/keys/${REDACTED}/x?note=pan+${REDACTED}&ref=${REDACTED}#${REDACTED}`)
  })

  test.prop([pan, fc.constantFrom('/order/', '/x?id=', '/x?a=1&b=', '#')])(
    'no card number survives wherever it sits',
    (p, where) => {
      expect(redactUrl(`${base}${where}${p}`)).not.toContain(p)
    },
  )
})
