/**
 * Removing secrets and card data from text, values, headers and bodies, so that no error,
 * exchange record or request log carries a credential, a token, a card number or a CVV.
 * Three rules, applied everywhere: the values of secret keys, the secrets the caller
 * knows (`secrets`), and anything shaped like a card number.
 *
 * @since 0.1.0
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
 * @category model
 * @since 0.1.0
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
 * @category text
 * @since 0.1.0
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

// -------------------------------------------------------------------------------------
// values
// -------------------------------------------------------------------------------------

/**
 * A copy of any JSON-like value with secrets removed: the values of secret keys
 * (`Authorization`, `clientSecret`, `accessToken`, `apiKey`, `cardNumber`, `cvv`, ...,
 * any case) and of `card.number` become `[redacted]`, every string has `secrets` and card
 * numbers redacted, and a number is hidden when its digits hold either. Cycles are cut.
 *
 * @category values
 * @since 0.1.0
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
 * @category values
 * @since 0.1.0
 */
export const redactError =
  (secrets: ReadonlyArray<string>) =>
  (e: PaykitError): PaykitError =>
    redactValue(e, secrets) as PaykitError

// -------------------------------------------------------------------------------------
// bodies and headers
// -------------------------------------------------------------------------------------

/**
 * A JSON text with secrets removed (`redactValue` of its parse); a text that is not JSON
 * has `secrets` and card numbers redacted.
 *
 * @category bodies and headers
 * @since 0.1.0
 */
export const redactJsonText = (body: string, secrets: ReadonlyArray<string> = []): string => {
  const json = J.parse(body)
  return E.isRight(json)
    ? JSON.stringify(redactValue(json.right, secrets))
    : redactText(secrets)(body)
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
 * @category bodies and headers
 * @since 0.1.0
 */
export const redactBody = (body: string, secrets: ReadonlyArray<string> = []): string =>
  body.includes('=') && FORM.test(body) && E.isLeft(J.parse(body))
    ? redactForm(body, secrets)
    : redactJsonText(body, secrets)

/**
 * `headers` with every credential replaced by {@link REDACTED} (`Authorization` and
 * `Proxy-Authorization` keep their scheme: `Bearer [redacted]`; cookies and API keys are
 * hidden whole) and the other values cleared like a body.
 *
 * @category bodies and headers
 * @since 0.1.0
 */
export const redactHeaders = (
  headers: Readonly<Record<string, string>>,
  secrets: ReadonlyArray<string> = [],
): Readonly<Record<string, string>> =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => {
      const lower = name.toLowerCase()
      if (!SECRET_HEADERS.has(lower)) return [name, redactJsonText(value, secrets)]
      // Only Authorization has a scheme: `sid=...; x=y` is a cookie, not a scheme and a value.
      const scheme = SCHEME_HEADERS.has(lower) ? /^(\S+)\s+\S/.exec(value)?.[1] : undefined
      return [name, scheme === undefined ? REDACTED : `${redactText(secrets)(scheme)} ${REDACTED}`]
    }),
  )
