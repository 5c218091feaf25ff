/**
 * @paykit/testkit/vitest: the property suites as vitest `describe` blocks, one call each.
 * The only module of the testkit that imports `vitest`, so that the package root (the
 * sandbox, the nock mock, the arbitraries and the fast-check properties) loads without it.
 *
 * @module @paykit/testkit/vitest
 * @since 0.2.0
 */
// The Node.js floor first: nothing below may load on an unsupported Node.
import '../engines/NodeVersion.js'
import * as fc from 'fast-check'
import { describe, it } from 'vitest'
import { invalidPaymentLinkRequest, paymentLinkRequest } from '../arbitraries/PaymentLink.js'
import {
  cardSecretsOf,
  invalidPaymentMethodRequest,
  paymentMethodRequest,
} from '../arbitraries/PaymentMethod.js'
import { invalidTokenRequest, tokenRequest } from '../arbitraries/Token.js'
import type { ChargeSuiteOptions } from '../properties/Charge.js'
import { chargeValidationProperties } from '../properties/Charge.js'
import type { RefusesBeforeSendingOptions } from '../properties/Http.js'
import { refusesBeforeSending, sendsValid, suiteInputs } from '../properties/Http.js'
import type { PaymentLinkSuiteOptions } from '../properties/PaymentLink.js'
import type { PaymentMethodSuiteOptions } from '../properties/PaymentMethod.js'
import type {
  ValidationProperties,
  ValidationSuite,
  ValidationSuiteOptions,
} from '../properties/Validation.js'
import { parametersOf, validationProperties } from '../properties/Validation.js'

// -------------------------------------------------------------------------------------
// vitest suites
// -------------------------------------------------------------------------------------

/**
 * Registers a vitest `describe(name)` with three given properties as tests.
 *
 * @example
 * ```ts vitest
 * import { validate } from '@paykit/core'
 * import { TokenRequest } from '@paykit/core/codecs'
 * import { tokenValidationProperties } from '@paykit/testkit/properties'
 * import { describeProperties } from '@paykit/testkit/vitest'
 *
 * // Three tests under describe('token request (core)'), 20 runs each.
 * describeProperties('token request (core)', tokenValidationProperties(validate(TokenRequest)), {
 *   numRuns: 20,
 * })
 * ```
 *
 * @category vitest suites
 * @since 0.2.0
 */
export const describeProperties = (
  name: string,
  properties: ValidationProperties,
  options: Omit<ValidationSuiteOptions, 'validate'>,
): void => {
  const parameters = parametersOf(options)
  const timeout = options.timeout ?? 30_000
  describe(name, () => {
    it('accepts every valid request', () => fc.assert(properties.acceptsValid, parameters), timeout)
    it(
      'refuses every invalid request, naming its field and no unrelated one',
      () => fc.assert(properties.refusesInvalid, parameters),
      timeout,
    )
    it(
      'never throws, whatever the input',
      () => fc.assert(properties.neverThrows, parameters),
      timeout,
    )
  })
}

/**
 * Registers a vitest `describe(name)` with the three properties of `suite` as tests.
 *
 * @example
 * ```ts vitest
 * import { validate } from '@paykit/core'
 * import { ChargeRequest } from '@paykit/core/codecs'
 * import { chargeRequest, invalidChargeRequest } from '@paykit/testkit/arbitraries'
 * import { describeValidation } from '@paykit/testkit/vitest'
 *
 * describeValidation(
 *   'charge request (no issuer rule)',
 *   { valid: chargeRequest(), invalid: invalidChargeRequest() },
 *   { validate: validate(ChargeRequest), numRuns: 20 },
 * )
 * ```
 *
 * @category vitest suites
 * @since 0.2.0
 */
export const describeValidation = (
  name: string,
  suite: ValidationSuite,
  options: ValidationSuiteOptions,
): void => {
  describeProperties(name, validationProperties(options.validate, suite), options)
}

/**
 * Registers `describe('token request validation')` with the three tests.
 *
 * @example
 * ```ts vitest
 * import { validate } from '@paykit/core'
 * import { TokenRequest } from '@paykit/core/codecs'
 * import { describeTokenValidation } from '@paykit/testkit/vitest'
 *
 * describeTokenValidation({ validate: validate(TokenRequest), numRuns: 20 }) // or your own
 * ```
 *
 * @category vitest suites
 * @since 0.2.0
 */
export const describeTokenValidation = (options: ValidationSuiteOptions): void =>
  describeValidation(
    'token request validation',
    { valid: tokenRequest(), invalid: invalidTokenRequest() },
    options,
  )

/**
 * Registers `describe('payment-method request validation')` with three tests: every valid
 * card is accepted, every invalid one is refused naming its field (no message repeats the
 * card number or CVV), validation never throws.
 *
 * @example
 * ```ts vitest
 * import { validate } from '@paykit/core'
 * import { paymentMethodRequestAt } from '@paykit/core/codecs'
 * import { describePaymentMethodValidation } from '@paykit/testkit/vitest'
 *
 * // The same date for the validation and the suite: expiries are relative to it.
 * const now = new Date('2026-06-15T00:00:00Z')
 * describePaymentMethodValidation({
 *   validate: validate(paymentMethodRequestAt(now)),
 *   now,
 *   numRuns: 20,
 * })
 * ```
 *
 * @category vitest suites
 * @since 0.2.0
 */
export const describePaymentMethodValidation = (options: PaymentMethodSuiteOptions): void => {
  const arbitrary = options.now === undefined ? {} : { now: options.now }
  describeValidation(
    'payment-method request validation',
    {
      valid: paymentMethodRequest(arbitrary),
      invalid: invalidPaymentMethodRequest(arbitrary),
      secretsOf: cardSecretsOf,
    },
    options,
  )
}

/**
 * Registers `describe('charge request validation')` with three tests over payment
 * methods: every valid charge is accepted, every invalid one is refused naming its field,
 * validation never throws.
 *
 * @example
 * ```ts vitest
 * import { validate } from '@paykit/core'
 * import { chargeRequestFor } from '@paykit/core/codecs'
 * import { describeChargeValidation } from '@paykit/testkit/vitest'
 *
 * // Each charge is validated with the rule of its own payment method (USA and CAN among them).
 * describeChargeValidation({ validateFor: (pm) => validate(chargeRequestFor(pm)), numRuns: 20 })
 * ```
 *
 * @category vitest suites
 * @since 0.2.0
 */
export const describeChargeValidation = (options: ChargeSuiteOptions): void =>
  describeProperties(
    'charge request validation',
    chargeValidationProperties(options.validateFor, options.paymentMethods),
    options,
  )

/**
 * Registers `describe('payment-link request validation')` with three tests: every valid
 * request is accepted, every invalid one is refused naming its field (and no unrelated
 * field), validation never throws.
 *
 * @example
 * ```ts vitest
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest } from '@paykit/core/codecs'
 * import { defaultProducts } from '@paykit/testkit'
 * import { describePaymentLinkValidation } from '@paykit/testkit/vitest'
 *
 * describePaymentLinkValidation({
 *   validate: validate(PaymentLinkRequest), // or your own
 *   arbitrary: { catalogue: defaultProducts }, // skus the sandbox knows
 *   numRuns: 20,
 * })
 * ```
 *
 * @category vitest suites
 * @since 0.2.0
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

/**
 * Registers a vitest `describe` whose tests check that every invalid payment-link request
 * (or the `invalid` inputs given) is refused before any request is sent, naming the field,
 * and that every valid one is sent. With `map`, `send` takes the integration's own input
 * (`map(body)`; the bodies it gives `undefined` for, and the invalid ones broken where
 * `covers` says no, are left out).
 *
 * @example
 * ```ts vitest
 * import { createClient } from '@paykit/core'
 * import type { PaymentLinkRequestInput } from '@paykit/core/client'
 * import { defaultCredentials } from '@paykit/testkit'
 * import { mockPaymentService } from '@paykit/testkit/nock'
 * import { describeRefusesBeforeSending } from '@paykit/testkit/vitest'
 * import { afterAll } from 'vitest'
 *
 * const baseUrl = 'https://api.paykit.test'
 * const mock = mockPaymentService({ baseUrl })
 * afterAll(() => mock.restore())
 * const client = createClient({ baseUrl, credentials: defaultCredentials })
 *
 * describeRefusesBeforeSending({
 *   numRuns: 20,
 *   send: async (input) => {
 *     mock.reset() // a fresh request log for each input
 *     const result = await client.createPaymentLink(input as PaymentLinkRequestInput)()
 *     const refused = result._tag === 'Left' && result.left._tag === 'ValidationError'
 *     return {
 *       requestsSent: mock.requests().length,
 *       ...(refused ? { fieldErrors: result.left.fieldErrors } : {}),
 *     }
 *   },
 * })
 * ```
 *
 * @category vitest suites
 * @since 0.2.0
 */
export const describeRefusesBeforeSending = <A = unknown>(
  options: RefusesBeforeSendingOptions<A>,
): void => {
  const { valid, invalid } = suiteInputs(options)
  const timeout = options.timeout ?? 60_000
  describe(options.name ?? 'refuses invalid payment-link requests before sending', () => {
    it(
      'refuses every invalid request before sending it, naming its field',
      () => fc.assert(refusesBeforeSending(options.send, invalid), parametersOf(options)),
      timeout,
    )
    if (options.checkValid ?? true) {
      it(
        'sends every valid request',
        () => fc.assert(sendsValid(options.send, valid), parametersOf(options)),
        timeout,
      )
    }
  })
}
