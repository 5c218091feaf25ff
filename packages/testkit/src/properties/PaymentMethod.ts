/**
 * The payment-method validation properties: every valid `POST /paymentmethods` body is
 * accepted, every invalid one refused naming its field without repeating the card number
 * or CVV, and nothing throws. The vitest suite, `describePaymentMethodValidation`, is in
 * `@paykit/testkit/vitest`.
 *
 * @since 0.2.0
 */
import type { PaymentMethodArbitraryOptions } from '../arbitraries/PaymentMethod.js'
import {
  cardSecretsOf,
  invalidPaymentMethodRequest,
  paymentMethodRequest,
} from '../arbitraries/PaymentMethod.js'
import type { Validate, ValidationProperties, ValidationSuiteOptions } from './Validation.js'
import { validationProperties } from './Validation.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Options of `describePaymentMethodValidation`. `now` is the date the validation compares
 * expiries with (default: the time the suite is registered); give the same date to both.
 *
 * @category model
 * @since 0.2.0
 */
export interface PaymentMethodSuiteOptions
  extends ValidationSuiteOptions, PaymentMethodArbitraryOptions {}

// -------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------

/**
 * The three properties of payment-method validation, for runners other than vitest.
 *
 * @example
 * ```ts
 * import { paymentMethodValidationProperties } from '@paykit/testkit/properties'
 * import { validate } from '@paykit/core'
 * import { paymentMethodRequestAt } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 *
 * // The same date for the validation and the arbitraries: expiries are relative to it.
 * const now = new Date('2026-06-15T00:00:00Z')
 * const properties = paymentMethodValidationProperties(validate(paymentMethodRequestAt(now)), {
 *   now,
 * })
 * await fc.assert(properties.acceptsValid, { numRuns: 20 })
 * await fc.assert(properties.refusesInvalid, { numRuns: 20 }) // naming the field, no card number
 * await fc.assert(properties.neverThrows, { numRuns: 20 })
 * ```
 *
 * @category properties
 * @since 0.2.0
 */
export const paymentMethodValidationProperties = (
  validate: Validate,
  arbitrary: PaymentMethodArbitraryOptions = {},
): ValidationProperties =>
  validationProperties(validate, {
    valid: paymentMethodRequest(arbitrary),
    invalid: invalidPaymentMethodRequest(arbitrary),
    secretsOf: cardSecretsOf,
  })
