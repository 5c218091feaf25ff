/**
 * Removing secrets and card data from text, values, headers and bodies, so that no error,
 * exchange record or request log carries a credential, a token, a card number or a CVV.
 * Three rules, applied everywhere: the values of secret keys, the secrets the caller
 * knows (`secrets`), and anything shaped like a card number.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import * as J from 'fp-ts/lib/Json.js'
import type { PaykitError } from './PaykitError.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The replacement of a redacted value.
 *
 * @example
 * ```ts
 * import { REDACTED, redactHeaders } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(REDACTED, '[redacted]')
 * assert.equal(redactHeaders({ 'x-api-key': 'sandbox-api-key' })['x-api-key'], REDACTED)
 * ```
 *
 * @category model
 * @since 0.2.0
 */
export const REDACTED = '[redacted]'

// Keys whose value is a secret wherever they appear (compared in lower case).
const SECRET_KEYS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'clientsecret',
  'client_secret',
  'accesstoken',
  'access_token',
  'refreshtoken',
  'apikey',
  'api_key',
  'x-api-key',
  'cardnumber',
  'cvv',
  'cvc',
  'securitycode',
  'password',
  'secret',
])

// Headers that carry a credential (compared in lower case).
const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'cookie',
  'set-cookie',
])

// A card number written anywhere (13 to 19 digits, maybe grouped by spaces or dashes).
// No word boundaries: over-redacting a long id is better than leaking `ref4242...`.
const PAN = /\d(?:[ -]?\d){12,18}/g

// An `application/x-www-form-urlencoded` body: `name=value` pairs joined by `&`. Empty
// pairs, a trailing `&` and bare names are allowed (a body read as text keeps its CVV).
const FORM = /^[^\s=&]*(=[^&]*)?(&[^\s=&]*(=[^&]*)?)*$/

// Headers whose value is `<scheme> <credential>`: the scheme is kept.
const SCHEME_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization'])

const ENCODED_REDACTED = encodeURIComponent(REDACTED)

/** `card.number` is the card number; a `number` elsewhere is not a secret. */
const isSecretKey = (key: string, parentKey: string): boolean => {
  const lower = key.toLowerCase()
  return SECRET_KEYS.has(lower) || (lower === 'number' && parentKey.toLowerCase() === 'card')
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

// -------------------------------------------------------------------------------------
// text
// -------------------------------------------------------------------------------------

/**
 * Replaces every occurrence of each secret in `text` with `[redacted]`. A short all-digit
 * secret (a CVV) is replaced only where it stands alone, not inside a longer number;
 * secrets under 3 characters are ignored (redacting them would shred the text).
 *
 * @example
 * ```ts
 * import { redact } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * const clean = redact(['sandbox-secret', '123'])
 * // The CVV 123 goes, but not the 123 inside 1234.
 * assert.equal(
 *   clean('secret sandbox-secret, cvv 123, amount 1234'),
 *   'secret [redacted], cvv [redacted], amount 1234',
 * )
 * ```
 *
 * @category text
 * @since 0.2.0
 */
export const redact =
  (secrets: ReadonlyArray<string>) =>
  (text: string): string => {
    let out = text
    const sorted = [...new Set(secrets)].filter((s) => s.length >= 3)
    sorted.sort((a, b) => b.length - a.length)
    for (const secret of sorted) {
      out = /^\d{1,6}$/.test(secret)
        ? out.replace(new RegExp(`(?<!\\d)${escapeRegExp(secret)}(?!\\d)`, 'g'), REDACTED)
        : out.split(secret).join(REDACTED)
    }
    return out
  }

/** `redact(secrets)`, then every run of digits shaped like a card number. */
const redactText = (secrets: ReadonlyArray<string>): ((text: string) => string) => {
  const known = redact(secrets)
  return (text) => known(text).replace(PAN, REDACTED)
}

// The secret keys as a pattern; in text that is not JSON the nesting is unknown, so a
// `number` key is taken for the card's.
const KEY = [...SECRET_KEYS, 'number'].map(escapeRegExp).join('|')

// `"key" : value` in JSON-like text (a broken JSON body, a log line): the value is a
// string (maybe unterminated), an array (maybe unclosed) or a bare token up to a
// delimiter. `null` is kept, as in the JSON path.
const QUOTED_PAIR = new RegExp(
  `(["'])(${KEY})\\1(\\s*:\\s*)(?!null\\b)("(?:[^"\\\\]|\\\\.)*"?|'[^']*'?|\\[[^\\]]*\\]?|[^\\s,;&}\\]]+)`,
  'gi',
)

// `key=value` (a query string, a form, a log line): the value runs up to a delimiter.
const EQUALS_PAIR = new RegExp(`(?<![A-Za-z0-9_-])(${KEY})(\\]?\\s*=\\s*)(?!\\s)[^&\\s,;"']+`, 'gi')

/**
 * The values of secret keys in text that is not JSON, found by a tolerant scan of
 * `"key" : value` and `key=value` pairs.
 */
const redactPairs = (text: string): string => {
  if (!text.includes(':') && !text.includes('=')) return text
  return text
    .replace(QUOTED_PAIR, (_, quote: string, key: string, colon: string, value: string) =>
      value.startsWith('"') || value.startsWith("'") || value.startsWith('[')
        ? `${quote}${key}${quote}${colon}"${REDACTED}"`
        : `${quote}${key}${quote}${colon}${REDACTED}`,
    )
    .replace(EQUALS_PAIR, (_, key: string, equals: string) => `${key}${equals}${REDACTED}`)
}

/** Text that is not JSON: secret keys' values, known secrets and card numbers. */
const redactLooseText = (secrets: ReadonlyArray<string>): ((text: string) => string) => {
  const text = redactText(secrets)
  return (body) => text(redactPairs(body))
}

// -------------------------------------------------------------------------------------
// values
// -------------------------------------------------------------------------------------

/**
 * A copy of any JSON-like value with secrets removed: the values of secret keys
 * (`Authorization`, `clientSecret`, `accessToken`, `apiKey`, `cardNumber`, `cvv`, ...,
 * any case) and of `card.number` become `[redacted]`, every string has `secrets` and card
 * numbers redacted, and a number is hidden when its digits hold either. Cycles are cut.
 *
 * @example
 * ```ts
 * import { redactValue } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * const request = {
 *   clientId: 'sandbox-client',
 *   clientSecret: 'sandbox-secret',
 *   card: { number: '4242424242424242', cvv: '123', expirationMonth: '12' },
 *   note: 'paid with 4242 4242 4242 4242',
 * }
 * assert.deepEqual(redactValue(request), {
 *   clientId: 'sandbox-client',
 *   clientSecret: '[redacted]',
 *   card: { number: '[redacted]', cvv: '[redacted]', expirationMonth: '12' },
 *   note: 'paid with [redacted]',
 * })
 * ```
 *
 * @category values
 * @since 0.2.0
 */
export const redactValue = (value: unknown, secrets: ReadonlyArray<string> = []): unknown => {
  const text = redactText(secrets)
  const seen = new WeakSet<object>()
  const go = (u: unknown, parentKey: string, depth: number): unknown => {
    if (typeof u === 'string') return text(u)
    // A number is hidden when its text holds a card number or a known secret (a CVV).
    if (typeof u === 'number') return text(String(u)) === String(u) ? u : REDACTED
    if (typeof u !== 'object' || u === null) return u
    if (depth > 32 || seen.has(u)) return REDACTED
    seen.add(u)
    if (Array.isArray(u)) return u.map((x) => go(x, parentKey, depth + 1))
    const out: Record<string, unknown> = {}
    for (const [key, v] of Object.entries(u)) {
      // A missing secret (null) is kept: it says the field was absent, and hides nothing.
      out[text(key)] =
        !isSecretKey(key, parentKey) || v === null || v === undefined
          ? go(v, key, depth + 1)
          : Array.isArray(v)
            ? v.map(() => REDACTED)
            : REDACTED
    }
    return out
  }
  return go(value, '', 0)
}

/**
 * The error with every string in it (message, problem details, field errors) cleared of
 * `secrets` and card numbers. The client applies it to every error it returns.
 *
 * @example
 * ```ts
 * import { httpError, redactError } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * const e = httpError('POST /token', 400, {
 *   title: 'Bad Request',
 *   status: 400,
 *   detail: 'no client has the secret sandbox-secret',
 * })
 * const clean = redactError(['sandbox-secret'])(e)
 * assert.ok(clean._tag === 'HttpError')
 * assert.equal(clean.problem?.detail, 'no client has the secret [redacted]')
 * assert.equal(clean.message, e.message)
 * ```
 *
 * @category values
 * @since 0.2.0
 */
export const redactError =
  (secrets: ReadonlyArray<string>) =>
  (e: PaykitError): PaykitError =>
    redactValue(e, secrets) as PaykitError

// -------------------------------------------------------------------------------------
// bodies and headers
// -------------------------------------------------------------------------------------

/** The JSON a text holds, or `undefined` when it holds none (no exception escapes). */
const parseJson = (body: string): E.Either<unknown, J.Json> =>
  // Only a text that starts like JSON is parsed: a failed parse throws, which is slow.
  /^\s*[{["\d-]|^\s*(?:true|false|null)\s*$/.test(body) ? J.parse(body) : E.left(undefined)

/**
 * A JSON text with secrets removed (`redactValue` of its parse). A text that is not JSON
 * (a broken JSON body, plain text) has the values of secret keys found by a tolerant scan
 * (`"clientSecret" : "..."`, `cvv=123`; any `number` key counts as the card's), `secrets`
 * and card numbers redacted. An empty text is returned at once.
 *
 * @example
 * ```ts
 * import { redactJsonText } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(
 *   redactJsonText('{"accessToken":"tok_abc","expiresIn":3600}'),
 *   '{"accessToken":"[redacted]","expiresIn":3600}',
 * )
 * // Broken JSON (a truncated body) is scanned for secret keys instead.
 * assert.equal(
 *   redactJsonText('{"clientSecret": "sandbox-secret", "clientId": "x"'),
 *   '{"clientSecret": "[redacted]", "clientId": "x"',
 * )
 * ```
 *
 * @category bodies and headers
 * @since 0.2.0
 */
export const redactJsonText = (body: string, secrets: ReadonlyArray<string> = []): string => {
  if (body === '') return body
  const json = parseJson(body)
  return E.isRight(json)
    ? JSON.stringify(redactValue(json.right, secrets))
    : redactLooseText(secrets)(body)
}

// A form body field by field. Its fields are flat (the checkout form posts the card's
// `number`), so each is read as a field of the card.
const redactForm = (body: string, secrets: ReadonlyArray<string>): string => {
  const text = redactText(secrets)
  return [...new URLSearchParams(body)]
    .map(([name, value]) => {
      const leaf = /([A-Za-z]+)\]?$/.exec(name)?.[1] ?? name
      const secret = isSecretKey(name, 'card') || isSecretKey(leaf, 'card')
      const field = `${encodeURIComponent(text(name))}=${encodeURIComponent(secret ? REDACTED : text(value))}`
      return field.replaceAll(ENCODED_REDACTED, REDACTED)
    })
    .join('&')
}

/**
 * `body` with card numbers, CVVs and secrets replaced by {@link REDACTED}: JSON and form
 * bodies by field name, any body by the `secrets` it holds and the shape of a card number.
 *
 * @example
 * ```ts
 * import { redactBody } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(
 *   redactBody('{"card":{"number":"4242424242424242","cvv":"123"},"cardHolder":"Ana"}'),
 *   '{"card":{"number":"[redacted]","cvv":"[redacted]"},"cardHolder":"Ana"}',
 * )
 * // A form body, field by field (names come back percent-encoded).
 * assert.equal(
 *   redactBody('card[number]=4242424242424242&card[cvv]=123&name=Ana'),
 *   'card%5Bnumber%5D=[redacted]&card%5Bcvv%5D=[redacted]&name=Ana',
 * )
 * ```
 *
 * @category bodies and headers
 * @since 0.2.0
 */
export const redactBody = (body: string, secrets: ReadonlyArray<string> = []): string => {
  if (body === '') return body
  const json = parseJson(body)
  if (E.isRight(json)) return JSON.stringify(redactValue(json.right, secrets))
  return body.includes('=') && FORM.test(body)
    ? redactForm(body, secrets)
    : redactLooseText(secrets)(body)
}

// A header value that may hold a secret: one with digits (a card number, a numeric
// secret), a key-value pair, or room for a known secret (3 characters or more).
const mayHoldSecret = (value: string, hasSecrets: boolean): boolean =>
  (hasSecrets && value.length >= 3) || /[\d=:]/.test(value)

/**
 * `headers` with every credential replaced by {@link REDACTED} (`Authorization` and
 * `Proxy-Authorization` keep their scheme: `Bearer [redacted]`; cookies and API keys are
 * hidden whole) and the other values cleared of the values of secret keys (`cvv=123`),
 * `secrets` and card numbers. Cheap: a value that cannot hold a secret is kept as is and
 * none is parsed as JSON.
 *
 * @example
 * ```ts
 * import { redactHeaders } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(
 *   redactHeaders({
 *     Authorization: 'Bearer tok_abc',
 *     'x-api-key': 'sandbox-api-key',
 *     'content-type': 'application/json',
 *     'x-note': 'cvv=123',
 *   }),
 *   {
 *     Authorization: 'Bearer [redacted]',
 *     'x-api-key': '[redacted]',
 *     'content-type': 'application/json',
 *     'x-note': 'cvv=[redacted]',
 *   },
 * )
 * ```
 *
 * @category bodies and headers
 * @since 0.2.0
 */
export const redactHeaders = (
  headers: Readonly<Record<string, string>>,
  secrets: ReadonlyArray<string> = [],
): Readonly<Record<string, string>> => {
  let text: ((value: string) => string) | undefined
  const hasSecrets = secrets.some((s) => s.length >= 3)
  const out: Record<string, string> = {}
  for (const name of Object.keys(headers)) {
    const value = headers[name] as string
    const lower = name.toLowerCase()
    if (SECRET_HEADERS.has(lower)) {
      // Only Authorization has a scheme: `sid=...; x=y` is a cookie, not a scheme and a value.
      const scheme = SCHEME_HEADERS.has(lower) ? /^(\S+)\s+\S/.exec(value)?.[1] : undefined
      out[name] = scheme === undefined ? REDACTED : `${redactText(secrets)(scheme)} ${REDACTED}`
    } else if (typeof value !== 'string' || !mayHoldSecret(value, hasSecrets)) {
      out[name] = value
    } else {
      text ??= redactLooseText(secrets)
      out[name] = text(value)
    }
  }
  return out
}

// -------------------------------------------------------------------------------------
// urls
// -------------------------------------------------------------------------------------

const decodeOr = (s: string): string => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '))
  } catch {
    return s
  }
}

/** A part of a URL cleared by `text`, as written or once decoded (`4242%204242...`). */
const redactPart =
  (text: (s: string) => string) =>
  (part: string): string => {
    const raw = text(part)
    if (raw !== part) return raw
    const decoded = decodeOr(part)
    return decoded !== part && text(decoded) !== decoded ? REDACTED : part
  }

/**
 * A URL with its secrets removed: in the query, the values of secret names
 * (`client_secret`, `apiKey`, `cvv`, a card `number`, ..., any case, also as
 * `card[number]`) become `[redacted]`; in the path, the query and the fragment, `secrets`
 * and card-number-like digit runs (as text bodies: 13 to 19 digits, maybe grouped,
 * Luhn-valid or not; also percent-encoded) do too. The rest is kept as written.
 *
 * @example
 * ```ts
 * import { redactUrl } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(
 *   redactUrl('https://pay.example/cb?client_secret=abc&order=ord_1&card[number]=4242424242424242'),
 *   'https://pay.example/cb?client_secret=[redacted]&order=ord_1&card[number]=[redacted]',
 * )
 * assert.equal(
 *   redactUrl('https://pay.example/cards/4242424242424242#sandbox-secret', ['sandbox-secret']),
 *   'https://pay.example/cards/[redacted]#[redacted]',
 * )
 * ```
 *
 * @category bodies and headers
 * @since 0.2.0
 */
export const redactUrl = (url: string, secrets: ReadonlyArray<string> = []): string => {
  const part = redactPart(redactText(secrets))
  const hash = url.indexOf('#')
  const beforeHash = hash === -1 ? url : url.slice(0, hash)
  const fragment = hash === -1 ? '' : `#${part(url.slice(hash + 1))}`
  const question = beforeHash.indexOf('?')
  const path = question === -1 ? beforeHash : beforeHash.slice(0, question)
  const query = question === -1 ? undefined : beforeHash.slice(question + 1)
  const redactedPath = path.split('/').map(part).join('/')
  if (query === undefined) return `${redactedPath}${fragment}`
  const redactedQuery = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      if (eq === -1) return part(pair)
      const name = pair.slice(0, eq)
      const decoded = decodeOr(name)
      const leaf = /([A-Za-z_-]+)\]?$/.exec(decoded)?.[1] ?? decoded
      const secret = isSecretKey(decoded, 'card') || isSecretKey(leaf, 'card')
      return `${part(name)}=${secret ? REDACTED : part(pair.slice(eq + 1))}`
    })
    .join('&')
  return `${redactedPath}?${redactedQuery}${fragment}`
}
