/**
 * Arbitraries of the body of `POST /token` (the core's `TokenRequest`): valid client
 * credentials, and bodies broken in exactly one way; and of its answer (`AccessToken`).
 *
 * @since 0.2.0
 */
import type { AccessToken, TokenRequest } from '@paykit/core/codecs'
import * as fc from 'fast-check'
import type * as t from 'io-ts'
import type { Invalid } from './Common.js'
import { blank, breakAt, notAString, notAnObject, removed, text } from './Common.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A `POST /token` body as a caller sends it: the core's `TokenRequest` as JSON (its
 * `t.OutputOf`), so a change of the core's codec fails to compile here.
 *
 * @category model
 * @since 0.2.0
 */
export type TokenRequestInput = t.OutputOf<typeof TokenRequest>

// -------------------------------------------------------------------------------------
// valid
// -------------------------------------------------------------------------------------

/**
 * Valid client credentials: two non-blank strings.
 *
 * @example
 * ```ts
 * import { tokenRequest } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { TokenRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 *
 * fc.assert(
 *   fc.property(tokenRequest(), (body) => validate(TokenRequest)(body)._tag === 'Right'),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category valid
 * @since 0.2.0
 */
export const tokenRequest = (): fc.Arbitrary<TokenRequestInput> =>
  fc.record({ clientId: text(64), clientSecret: text(128) })

// -------------------------------------------------------------------------------------
// invalid
// -------------------------------------------------------------------------------------

/**
 * A `POST /token` body broken in exactly one way: the body is not an object, or
 * `clientId` / `clientSecret` is missing, blank or not a string.
 *
 * @example
 * ```ts
 * import { invalidTokenRequest } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { TokenRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * fc.assert(
 *   fc.property(invalidTokenRequest(), ({ value, field, rule }) => {
 *     const result = validate(TokenRequest)(value)
 *     assert.ok(result._tag === 'Left' && result.left.some((e) => e.path === field), rule)
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category invalid
 * @since 0.2.0
 */
export const invalidTokenRequest = (): fc.Arbitrary<Invalid> =>
  tokenRequest().chain((base) =>
    fc.oneof(
      notAnObject.map((value): Invalid => ({ value, field: '', rule: 'body is an object' })),
      ...(['clientId', 'clientSecret'] as const).flatMap((key) => [
        fc.constant(breakAt(base, [key], removed, `${key} is required`)),
        blank.map((value) => breakAt(base, [key], value, `${key} is not empty`)),
        notAString.map((value) => breakAt(base, [key], value, `${key} is a string`)),
      ]),
    ),
  )

// -------------------------------------------------------------------------------------
// responses
// -------------------------------------------------------------------------------------

/**
 * A `POST /token` answer as JSON (the core's `AccessToken`): a non-blank token, type
 * `Bearer`, a lifetime of 1 s to 1 day (the sandbox's is 3600 s).
 *
 * @example
 * ```ts
 * import { accessToken } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { AccessToken } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * for (const json of fc.sample(accessToken(), 20)) {
 *   const token = validate(AccessToken)(json)
 *   assert.ok(token._tag === 'Right' && token.right.expiresIn > 0)
 * }
 * ```
 *
 * @category responses
 * @since 0.2.0
 */
export const accessToken = (): fc.Arbitrary<t.OutputOf<typeof AccessToken>> =>
  fc.record({
    accessToken: fc.stringMatching(/^[A-Za-z0-9_-]{16,64}$/),
    tokenType: fc.constant('Bearer'),
    expiresIn: fc.oneof(fc.constant(3600), fc.integer({ min: 1, max: 86_400 })),
  })
