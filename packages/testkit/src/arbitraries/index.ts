/**
 * `@paykit/testkit/arbitraries`: fast-check arbitraries of valid requests, and of invalid
 * ones labelled with the field and the rule they break. The generic names (`amount`,
 * `text`, `blank`, `removed`, `card`, `cvv`) are only in the namespace `Arbitraries`
 * (`Arbitraries.card()`).
 *
 * @module @paykit/testkit/arbitraries
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// arbitraries
// -------------------------------------------------------------------------------------
export {
  asciiOfLength,
  breakAt,
  httpUrl,
  httpUrlOfLength,
  type Invalid,
  isoDateTime,
  type Key,
  namedFields,
  notANumber,
  notAnObject,
  notAString,
  pathOfKeys,
  removeAt,
  setAt,
  textOfLength,
} from './Common.js'
export * from './Token.js'
export {
  type CardInput,
  cardNumber,
  cardSecretsOf,
  customer,
  type CustomerInput,
  futureExpiry,
  invalidPaymentMethodRequest,
  luhnCardNumber,
  luhnCompletion,
  nonLuhnCardNumber,
  paymentMethod,
  type PaymentMethodArbitraryOptions,
  type PaymentMethodOutput,
  paymentMethodRequest,
  type PaymentMethodRequestInput,
  testCardNumber,
} from './PaymentMethod.js'
export * from './Charge.js'
export * from './PaymentLink.js'
export * from './Order.js'
export * from './WebhookEvent.js'
export * from './Authentication.js'
export * from './Problem.js'
export * as Arbitraries from './All.js'
