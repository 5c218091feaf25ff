/**
 * Token authentication (spec 4.1, 2.1, 5): client credentials in, a bearer access token out.
 *
 * @since 0.2.0
 */
import * as t from 'io-ts'
import { NonEmptyString, PositiveInt } from '../internal/codec.js'

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

/**
 * Body of `POST /token`: `clientId` and `clientSecret`, both non-empty. Unknown fields
 * are stripped.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { TokenRequest } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * // unknown fields are stripped
 * const body = validate(TokenRequest)({ clientId: 'id', clientSecret: 's3cret', extra: 1 })
 * assert.deepEqual(body, E.right({ clientId: 'id', clientSecret: 's3cret' }))
 * assert.ok(E.isLeft(validate(TokenRequest)({ clientId: '', clientSecret: 's3cret' })))
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const TokenRequest = t.exact(
  t.type({ clientId: NonEmptyString, clientSecret: NonEmptyString }),
  'TokenRequest',
)

/**
 * Response of `POST /token` (spec 2.1). Unknown fields are tolerated.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { AccessToken } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const token = validate(AccessToken)({
 *   accessToken: 'tok_1',
 *   tokenType: 'Bearer',
 *   expiresIn: 3600,
 * })
 * assert.ok(E.isRight(token))
 * assert.equal(token.right.expiresIn, 3600)
 * const expired = validate(AccessToken)({
 *   accessToken: 'tok_1',
 *   tokenType: 'Bearer',
 *   expiresIn: 0,
 * })
 * assert.ok(E.isLeft(expired))
 * assert.equal(expired.left[0]?.path, 'expiresIn')
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const AccessToken = t.type(
  { accessToken: NonEmptyString, tokenType: t.string, expiresIn: PositiveInt },
  'AccessToken',
)

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Client credentials sent to `POST /token`.
 *
 * @category model
 * @since 0.2.0
 */
export type TokenRequest = t.TypeOf<typeof TokenRequest>

/**
 * A bearer access token and its lifetime in seconds.
 *
 * @category model
 * @since 0.2.0
 */
export type AccessToken = t.TypeOf<typeof AccessToken>

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * The `Authorization` header value for a token (`Bearer <token>`).
 *
 * @example
 * ```ts
 * import { authorizationHeader } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(authorizationHeader('tok_1'), 'Bearer tok_1')
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const authorizationHeader = (token: string): string => `Bearer ${token}`
