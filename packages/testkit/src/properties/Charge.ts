/**
 * The charge validation properties, for the rule that depends on the payment method: for
 * any payment method (USA and CAN issuers among them), every valid `POST /charges` body is
 * accepted, every invalid one (a missing `billingInfo` for a USA or CAN card among them)
 * is refused naming its field, and nothing throws. The vitest suite,
 * `describeChargeValidation`, is in `@paykit/testkit/vitest`.
 *
 * @since 0.2.0
 */
import * as fc from 'fast-check'
import type { ChargedPaymentMethod } from '../arbitraries/Charge.js'
import { chargeRequestForPaymentMethod, invalidChargeRequestFor } from '../arbitraries/Charge.js'
import type { Invalid } from '../arbitraries/Common.js'
import { paymentMethod } from '../arbitraries/PaymentMethod.js'
import type { Validate, ValidationProperties, ValidationSuiteOptions } from './Validation.js'
import { acceptsValid, neverThrows, refusesInvalid } from './Validation.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Options of `describeChargeValidation`: `validateFor` gives the validation of a charge of
 * one payment method (the core's `validate(chargeRequestFor(paymentMethod))`, or the
 * integrator's own); `paymentMethods` the payment methods to charge (default: the test
 * cards and other issuers, `paymentMethod()`).
 *
 * @category model
 * @since 0.2.0
 */
export interface ChargeSuiteOptions extends Omit<ValidationSuiteOptions, 'validate'> {
  readonly validateFor: (paymentMethod: ChargedPaymentMethod) => Validate
  readonly paymentMethods?: fc.Arbitrary<ChargedPaymentMethod>
}

// -------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------

interface ForPaymentMethod<A> {
  readonly paymentMethod: ChargedPaymentMethod
  readonly input: A
}

const forEach = <A>(
  paymentMethods: fc.Arbitrary<ChargedPaymentMethod>,
  of: (pm: ChargedPaymentMethod) => fc.Arbitrary<A>,
): fc.Arbitrary<ForPaymentMethod<A>> =>
  paymentMethods.chain((pm) => of(pm).map((input) => ({ paymentMethod: pm, input })))

/**
 * The three properties of charge validation over payment methods, for runners other than
 * vitest. Each input is validated by `validateFor` of its own payment method.
 *
 * @example
 * ```ts
 * import { chargeValidationProperties } from '@paykit/testkit/properties'
 * import { validate } from '@paykit/core'
 * import { chargeRequestFor } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 *
 * // Each charge is validated with the rule of its own payment method (USA and CAN among them).
 * const properties = chargeValidationProperties((paymentMethod) =>
 *   validate(chargeRequestFor(paymentMethod)),
 * )
 * await fc.assert(properties.acceptsValid, { numRuns: 20 })
 * await fc.assert(properties.refusesInvalid, { numRuns: 20 })
 * await fc.assert(properties.neverThrows, { numRuns: 20 })
 * ```
 *
 * @category properties
 * @since 0.2.0
 */
export const chargeValidationProperties = (
  validateFor: (paymentMethod: ChargedPaymentMethod) => Validate,
  paymentMethods: fc.Arbitrary<ChargedPaymentMethod> = paymentMethod(),
): ValidationProperties => {
  // The payment method travels with the input, so one validation serves all of them.
  const validate: Validate = (u) => {
    const { paymentMethod: pm, input } = u as ForPaymentMethod<unknown>
    return validateFor(pm)(input)
  }
  const invalid: fc.Arbitrary<Invalid> = forEach(paymentMethods, invalidChargeRequestFor).map(
    ({ paymentMethod: pm, input }) => ({
      ...input,
      value: { paymentMethod: pm, input: input.value },
    }),
  )
  return {
    acceptsValid: acceptsValid(validate, forEach(paymentMethods, chargeRequestForPaymentMethod)),
    refusesInvalid: refusesInvalid(validate, invalid),
    neverThrows: neverThrows(
      validate,
      fc.oneof(
        forEach(paymentMethods, () => fc.anything()),
        invalid.map((record) => record.value),
      ),
    ),
  }
}
