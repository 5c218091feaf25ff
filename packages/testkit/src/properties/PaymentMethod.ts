/**
 * The payment-method validation properties: every valid `POST /paymentmethods` body is
 * accepted, every invalid one refused naming its field without repeating the card number
 * or CVV, and nothing throws. The vitest suite, `describePaymentMethodValidation`, is in
 * `@paykit/testkit/vitest`.
 *
 * @since 0.1.0
 */
import type { PaymentMethodArbitraryOptions } from '../arbitraries/PaymentMethod.js'
import {
  cardSecretsOf,
  invalidPaymentMethodRequest,
  paymentMethodRequest,
} from '../arbitraries/PaymentMethod.js'
import type { Validate, ValidationProperties, ValidationSuiteOptions } from './validation.js'
import { validationProperties } from './validation.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Options of `describePaymentMethodValidation`. `now` is the date the validation compares
 * expiries with (default: the time the suite is registered); give the same date to both.
 *
 * @category model
 * @since 0.1.0
 */
export interface PaymentMethodSuiteOptions
  extends ValidationSuiteOptions, PaymentMethodArbitraryOptions {}

// -------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------

/**
 * The three properties of payment-method validation, for runners other than vitest.
 *
 * @category properties
 * @since 0.1.0
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
