/**
 * Token authentication (spec 4.1, 2.1, 5): client credentials in, a bearer access token out.
 *
 * @since 0.1.0
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
 * @category codecs
 * @since 0.1.0
 */
export const TokenRequest = t.exact(
  t.type({ clientId: NonEmptyString, clientSecret: NonEmptyString }),
  'TokenRequest',
)

/**
 * Response of `POST /token` (spec 2.1). Unknown fields are tolerated.
 *
 * @category codecs
 * @since 0.1.0
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
 * @since 0.1.0
 */
export type TokenRequest = t.TypeOf<typeof TokenRequest>

/**
 * A bearer access token and its lifetime in seconds.
 *
 * @category model
 * @since 0.1.0
 */
export type AccessToken = t.TypeOf<typeof AccessToken>

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * The `Authorization` header value for a token (`Bearer <token>`).
 *
 * @category destructors
 * @since 0.1.0
 */
export const authorizationHeader = (token: string): string => `Bearer ${token}`
