/**
 * The request log both adapters keep: what came in and what went out, with credentials
 * and card data redacted so that the log can be printed in a test failure.
 *
 * @since 0.1.0
 */
import type { SimRequest } from './simulator/Http.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One request as the log keeps it. `status` is the status sent (`undefined` when the
 * answer was lost to an injected fault, named in `fault`).
 *
 * @category model
 * @since 0.1.0
 */
export interface LoggedRequest {
  readonly at: string
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly status: number | undefined
  readonly fault: string | undefined
}

// -------------------------------------------------------------------------------------
// redaction
// -------------------------------------------------------------------------------------

/** The placeholder that replaces a secret. */
export const REDACTED = '[redacted]'

const SECRET_HEADERS = new Set(['authorization', 'cookie', 'x-api-key', 'proxy-authorization'])
const SECRET_KEY =
  /^(number|cardNumber|cvv|cvc|securityCode|clientSecret|secret|password|accessToken|apiKey)$/i
// A card number written anywhere else (13 to 19 digits, maybe grouped by spaces or dashes).
// No word boundaries: over-redacting a long id is better than leaking `ref4242...`.
const PAN = /\d(?:[ -]?\d){12,18}/g

const ENCODED_REDACTED = encodeURIComponent(REDACTED)

const redactValue = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(redactValue)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? REDACTED : redactValue(v)]),
    )
  if (typeof value === 'string') return value.replace(PAN, REDACTED)
  // A card number sent as a JSON number.
  if (typeof value === 'number' && /^\d{13,19}$/.test(value.toFixed(0))) return REDACTED
  return value
}

/**
 * `headers` with every credential replaced by {@link REDACTED} (`Authorization` keeps its
 * scheme: `Bearer [redacted]`).
 *
 * @category redaction
 * @since 0.1.0
 */
export const redactHeaders = (
  headers: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => {
      if (!SECRET_HEADERS.has(name.toLowerCase())) return [name, value]
      const scheme = /^(\S+)\s+\S/.exec(value)?.[1]
      return [name, scheme === undefined ? REDACTED : `${scheme} ${REDACTED}`]
    }),
  )

/**
 * `body` with card numbers, CVVs and secrets replaced by {@link REDACTED}: JSON and form
 * bodies by field name, anything else by the shape of a card number.
 *
 * @category redaction
 * @since 0.1.0
 */
export const redactBody = (body: string): string => {
  if (body === '') return body
  try {
    return JSON.stringify(redactValue(JSON.parse(body)))
  } catch {
    if (/^[^\s=&]+=[^&]*(&[^\s=&]+=[^&]*)*$/.test(body)) {
      const fields = [...new URLSearchParams(body)].map(([k, v]) => {
        const leaf = /([A-Za-z]+)\]?$/.exec(k)?.[1] ?? k
        const value = SECRET_KEY.test(leaf) ? REDACTED : v.replace(PAN, REDACTED)
        return `${encodeURIComponent(k)}=${encodeURIComponent(value).replaceAll(ENCODED_REDACTED, REDACTED)}`
      })
      return fields.join('&')
    }
    return body.replace(PAN, REDACTED)
  }
}

/**
 * The log entry of `request`, redacted.
 *
 * @category constructors
 * @since 0.1.0
 */
export const logEntry = (
  request: SimRequest,
  at: Date,
  status: number | undefined,
  fault: string | undefined,
): LoggedRequest => ({
  at: at.toISOString(),
  method: request.method,
  path: request.path,
  headers: redactHeaders(request.headers),
  body: redactBody(request.body),
  status,
  fault,
})
