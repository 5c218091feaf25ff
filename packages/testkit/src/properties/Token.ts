/**
 * The token-request validation suite: valid client credentials are accepted, every broken
 * `POST /token` body is refused naming its field, and nothing throws.
 *
 * @since 0.1.0
 */
import { invalidTokenRequest, tokenRequest } from '../arbitraries/Token.js'
import type { Validate, ValidationProperties, ValidationSuiteOptions } from './validation.js'
import { describeValidation, validationProperties } from './validation.js'

// -------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------

/**
 * The three properties of token-request validation, for runners other than vitest.
 *
 * @category properties
 * @since 0.1.0
 */
export const tokenValidationProperties = (validate: Validate): ValidationProperties =>
  validationProperties(validate, { valid: tokenRequest(), invalid: invalidTokenRequest() })

// -------------------------------------------------------------------------------------
// vitest suites
// -------------------------------------------------------------------------------------

/**
 * Registers `describe('token request validation')` with the three tests.
 *
 * @category vitest suites
 * @since 0.1.0
 */
export const describeTokenValidation = (options: ValidationSuiteOptions): void =>
  describeValidation(
    'token request validation',
    { valid: tokenRequest(), invalid: invalidTokenRequest() },
    options,
  )
