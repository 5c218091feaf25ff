/**
 * The answers the simulator gives: JSON bodies, problem details (spec 7.2 shape for
 * every status), HTML pages and redirects.
 *
 * @since 0.2.0
 */
import { serverProblem, validationProblem, type FieldError } from '@paykit/core/pure'
import type { SimResponse } from './Http.js'

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

const JSON_TYPE = 'application/json; charset=utf-8'
const HTML_TYPE = 'text/html; charset=utf-8'

// The headers of a JSON answer without extra ones, shared (responses are never mutated).
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': JSON_TYPE })

const problemTypes: Readonly<Record<number, readonly [string, string]>> = {
  401: ['https://tools.ietf.org/html/rfc7235#section-3.1', 'Unauthorized'],
  404: ['https://tools.ietf.org/html/rfc7231#section-6.5.4', 'Not Found'],
  405: ['https://tools.ietf.org/html/rfc7231#section-6.5.5', 'Method Not Allowed'],
  409: ['https://tools.ietf.org/html/rfc7231#section-6.5.8', 'Conflict'],
  413: ['https://tools.ietf.org/html/rfc7231#section-6.5.11', 'Payload Too Large'],
  415: ['https://tools.ietf.org/html/rfc7231#section-6.5.13', 'Unsupported Media Type'],
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A JSON answer.
 *
 * @category constructors
 * @since 0.2.0
 */
export const json = (
  status: number,
  body: unknown,
  headers?: Readonly<Record<string, string>>,
): SimResponse => jsonText(status, JSON.stringify(body), headers)

/**
 * A JSON answer whose body is already JSON text.
 *
 * @category constructors
 * @since 0.2.0
 */
export const jsonText = (
  status: number,
  body: string,
  headers?: Readonly<Record<string, string>>,
): SimResponse => ({
  status,
  headers: headers === undefined ? JSON_HEADERS : { 'content-type': JSON_TYPE, ...headers },
  body,
})

/**
 * A problem-details answer `{ type, title, status, detail }` for a status other than 400
 * and 500 (401, 404, 405, 409, 413, 415).
 *
 * @category constructors
 * @since 0.2.0
 */
export const problem = (
  status: number,
  detail: string,
  headers: Readonly<Record<string, string>> = {},
): SimResponse => {
  const [type, title] = problemTypes[status] ?? [
    'https://tools.ietf.org/html/rfc7231#section-6.5.1',
    'Bad Request',
  ]
  return json(status, { type, title, status, detail }, headers)
}

/**
 * The 400 answer naming every broken field (the core's `validationProblem`, plus a
 * `detail`).
 *
 * @category constructors
 * @since 0.2.0
 */
export const badRequest = (
  errors: ReadonlyArray<FieldError>,
  detail = 'The request breaks one or more rules; see errors.',
): SimResponse => json(400, { ...validationProblem(errors), detail })

/**
 * The 500 answer of spec 7.2 (no `errors`).
 *
 * @category constructors
 * @since 0.2.0
 */
export const internalError = (): SimResponse => json(500, serverProblem())

/**
 * An HTML page.
 *
 * @category constructors
 * @since 0.2.0
 */
export const html = (status: number, body: string): SimResponse => ({
  status,
  headers: { 'content-type': HTML_TYPE, 'cache-control': 'no-store' },
  body,
})

/**
 * A 303 See Other to `location` (after a form POST).
 *
 * @category constructors
 * @since 0.2.0
 */
export const redirect = (location: string): SimResponse => ({
  status: 303,
  headers: { location, 'content-type': HTML_TYPE },
  body: '',
})
