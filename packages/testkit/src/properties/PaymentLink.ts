/**
 * The payment-link validation properties: every valid `POST /paymentlink/checkout` body
 * is accepted, every invalid one refused naming its field, and nothing throws. The vitest
 * suite, `describePaymentLinkValidation`, is in `@paykit/testkit/vitest`.
 *
 * @since 0.2.0
 */
import type { PaymentLinkArbitraryOptions } from '../arbitraries/PaymentLink.js'
import { invalidPaymentLinkRequest, paymentLinkRequest } from '../arbitraries/PaymentLink.js'
import type { Validate, ValidationProperties, ValidationSuiteOptions } from './Validation.js'
import { validationProperties } from './Validation.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Options of `describePaymentLinkValidation`: the validation under test, and options of
 * the arbitraries (a `catalogue` of skus, `serviceRules` for a validation that knows it).
 *
 * @category model
 * @since 0.2.0
 */
export interface PaymentLinkSuiteOptions extends ValidationSuiteOptions {
  readonly arbitrary?: PaymentLinkArbitraryOptions
}

// -------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------

/**
 * The three properties of payment-link validation, for runners other than vitest.
 *
 * @example
 * ```ts
 * import { defaultProducts } from '@paykit/testkit'
 * import { paymentLinkValidationProperties } from '@paykit/testkit/properties'
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 *
 * const properties = paymentLinkValidationProperties(validate(PaymentLinkRequest), {
 *   catalogue: defaultProducts,
 * })
 * await fc.assert(properties.acceptsValid, { numRuns: 20 })
 * await fc.assert(properties.refusesInvalid, { numRuns: 20 })
 * await fc.assert(properties.neverThrows, { numRuns: 20 })
 * ```
 *
 * @category properties
 * @since 0.2.0
 */
export const paymentLinkValidationProperties = (
  validate: Validate,
  arbitrary: PaymentLinkArbitraryOptions = {},
): ValidationProperties =>
  validationProperties(validate, {
    valid: paymentLinkRequest(arbitrary),
    invalid: invalidPaymentLinkRequest(arbitrary),
  })
