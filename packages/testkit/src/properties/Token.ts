/**
 * The token-request validation properties: valid client credentials are accepted, every
 * broken `POST /token` body is refused naming its field, and nothing throws. The vitest
 * suite, `describeTokenValidation`, is in `@paykit/testkit/vitest`.
 *
 * @since 0.2.0
 */
import { invalidTokenRequest, tokenRequest } from '../arbitraries/Token.js'
import type { Validate, ValidationProperties } from './Validation.js'
import { validationProperties } from './Validation.js'

// -------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------

/**
 * The three properties of token-request validation, for runners other than vitest.
 *
 * @example
 * ```ts
 * import { tokenValidationProperties } from '@paykit/testkit/properties'
 * import { validate } from '@paykit/core'
 * import { TokenRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 *
 * const { acceptsValid, refusesInvalid, neverThrows } = tokenValidationProperties(
 *   validate(TokenRequest),
 * )
 * for (const property of [acceptsValid, refusesInvalid, neverThrows]) {
 *   await fc.assert(property, { numRuns: 20 })
 * }
 * ```
 *
 * @category properties
 * @since 0.2.0
 */
export const tokenValidationProperties = (validate: Validate): ValidationProperties =>
  validationProperties(validate, { valid: tokenRequest(), invalid: invalidTokenRequest() })
