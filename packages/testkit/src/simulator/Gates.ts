/**
 * What a request must pass before an endpoint sees it: a body within the size limit, a
 * JSON content type and well-formed JSON, a form body for the hosted pages, and a valid
 * bearer credential. Each gate answers Left with the 4xx problem details to send.
 *
 * @since 0.2.0
 */
import { fieldError } from '@paykit/core/pure'
import * as E from 'fp-ts/lib/Either.js'
import type { SimRequest, SimResponse } from './Http.js'
import { badRequest, problem } from './Responses.js'
import { through, type Context, type Result } from './Route.js'
import { own, type SimulatorState } from './State.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Which bearer credentials an endpoint accepts: an access token from `POST /token`, or
 * also the configured API key (the payment-link endpoints, spec 4.4 and 5.4).
 *
 * @category model
 * @since 0.2.0
 */
type Credential = 'accessToken' | 'accessTokenOrApiKey'

// -------------------------------------------------------------------------------------
// gates
// -------------------------------------------------------------------------------------

const encoder = new TextEncoder()

/**
 * Refuses a body larger than `maxBodyBytes` (UTF-8 bytes) with 413.
 *
 * @category gates
 * @since 0.2.0
 */
export const withinSizeLimit = (
  state: SimulatorState,
  request: SimRequest,
): E.Either<SimResponse, void> =>
  // A string has at most 3 UTF-8 bytes per UTF-16 unit: skip encoding when it cannot exceed.
  request.body.length * 3 > state.config.maxBodyBytes &&
  encoder.encode(request.body).length > state.config.maxBodyBytes
    ? E.left(problem(413, `The request body is larger than ${state.config.maxBodyBytes} bytes.`))
    : E.right(undefined)

const mediaTypeOf = (request: SimRequest): string =>
  (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? ''

/**
 * Whether the request says its body is JSON (`application/json` or `application/*+json`).
 *
 * @category gates
 * @since 0.2.0
 */
export const isJson = (request: SimRequest): boolean => {
  const type = mediaTypeOf(request)
  return type === 'application/json' || /^application\/[a-z0-9.+-]*\+json$/.test(type)
}

/**
 * Whether the request's body is an HTML form (`application/x-www-form-urlencoded`).
 *
 * @category gates
 * @since 0.2.0
 */
export const isForm = (request: SimRequest): boolean =>
  mediaTypeOf(request) === 'application/x-www-form-urlencoded'

/**
 * The parsed JSON body: 415 when the content type is not JSON, 400 (naming the root,
 * `$`) when the body is not well-formed JSON.
 *
 * @category gates
 * @since 0.2.0
 */
export const jsonBody = (request: SimRequest): E.Either<SimResponse, unknown> => {
  if (!isJson(request))
    return E.left(problem(415, 'The request body must be JSON (Content-Type: application/json).'))
  try {
    return E.right(JSON.parse(request.body) as unknown)
  } catch {
    return E.left(badRequest([fieldError('', { code: 'json' })], 'The body is not JSON.'))
  }
}

/**
 * The fields of a form body (the last value of a repeated name).
 *
 * @category gates
 * @since 0.2.0
 */
export const formBody = (request: SimRequest): Readonly<Record<string, string>> =>
  Object.fromEntries(new URLSearchParams(request.body))

/**
 * Whether `given` is the configured secret `expected`, in time that does not depend on
 * where they differ nor on `given`: every character of `expected` is compared, without
 * stopping at the first difference (plain JavaScript, so the simulator runs in a browser).
 *
 * @category gates
 * @since 0.2.0
 */
export const sameSecret = (given: string, expected: string): boolean => {
  let diff = given.length ^ expected.length
  // charCodeAt past the end of `given` is NaN, and NaN | 0 is 0.
  for (let i = 0; i < expected.length; i++)
    diff |= expected.charCodeAt(i) ^ (given.charCodeAt(i) | 0)
  return diff === 0
}

const BEARER = /^Bearer[ \t]+([\x21-\x7e]+)[ \t]*$/i

// RFC 6750 3.1: no error code when the request carries no bearer credential at all.
const unauthorized = (detail: string, invalidToken = true): SimResponse =>
  problem(401, detail, {
    'www-authenticate': invalidToken
      ? 'Bearer realm="paykit", error="invalid_token"'
      : 'Bearer realm="paykit"',
  })

/**
 * Checks the `Authorization: Bearer <credential>` header at simulator time `atMs`:
 * missing, malformed, unknown or expired -> 401 problem details.
 *
 * @category gates
 * @since 0.2.0
 */
export const bearer = (
  state: SimulatorState,
  request: SimRequest,
  atMs: number,
  accepts: Credential,
): E.Either<SimResponse, void> => {
  const header = request.headers['authorization']
  if (header === undefined || header.trim() === '')
    return E.left(unauthorized('The Authorization header is missing (Bearer credential).', false))
  const m = BEARER.exec(header)
  const credential = m?.[1]
  if (credential === undefined)
    return E.left(unauthorized('The Authorization header must be "Bearer <credential>".', false))
  if (accepts === 'accessTokenOrApiKey' && sameSecret(credential, state.config.apiKey))
    return E.right(undefined)
  const token = own(state.tokens, credential)
  if (token === undefined)
    return E.left(
      unauthorized(
        accepts === 'accessToken'
          ? 'The access token is not valid.'
          : 'The credential is neither the API key nor a valid access token.',
      ),
    )
  if (token.expiresAtMs <= atMs) return E.left(unauthorized('The access token has expired.'))
  return E.right(undefined)
}

// -------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------

/**
 * The gates of an authenticated JSON endpoint, in the order the service checks them: the
 * bearer credential, then a JSON body; `handler` runs with the parsed body.
 *
 * @category combinators
 * @since 0.2.0
 */
export const authenticatedJson =
  ({ state, request, atMs }: Context, accepts: Credential) =>
  (handler: (body: unknown) => Result): Result =>
    through(
      state,
      bearer(state, request, atMs, accepts),
    )(() => through(state, jsonBody(request))(handler))
