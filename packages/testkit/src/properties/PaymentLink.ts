/**
 * The payment-link validation suite: every valid `POST /paymentlink/checkout` body is
 * accepted, every invalid one refused naming its field, and nothing throws.
 *
 * @since 0.1.0
 */
import type { PaymentLinkArbitraryOptions } from '../arbitraries/PaymentLink.js'
import { invalidPaymentLinkRequest, paymentLinkRequest } from '../arbitraries/PaymentLink.js'
import type { Validate, ValidationProperties, ValidationSuiteOptions } from './validation.js'
import { describeValidation, validationProperties } from './validation.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Options of `describePaymentLinkValidation`: the validation under test, and options of
 * the arbitraries (a `catalogue` of skus, `serviceRules` for a validation that knows it).
 *
 * @category model
 * @since 0.1.0
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
 * @category properties
 * @since 0.1.0
 */
export const paymentLinkValidationProperties = (
  validate: Validate,
  arbitrary: PaymentLinkArbitraryOptions = {},
): ValidationProperties =>
  validationProperties(validate, {
    valid: paymentLinkRequest(arbitrary),
    invalid: invalidPaymentLinkRequest(arbitrary),
  })

// -------------------------------------------------------------------------------------
// vitest suites
// -------------------------------------------------------------------------------------

/**
 * Registers `describe('payment-link request validation')` with three tests: every valid
 * request is accepted, every invalid one is refused naming its field (and no unrelated
 * field), validation never throws.
 *
 * @category vitest suites
 * @since 0.1.0
 */
export const describePaymentLinkValidation = (options: PaymentLinkSuiteOptions): void =>
  describeValidation(
    'payment-link request validation',
    {
      valid: paymentLinkRequest(options.arbitrary),
      invalid: invalidPaymentLinkRequest(options.arbitrary),
    },
    options,
  )
