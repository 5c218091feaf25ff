/**
 * @paykit/testkit: a fake of the card-payment service (one pure simulator, behind nock
 * and behind a real HTTP sandbox), the sandbox's test cards and credentials, fast-check
 * arbitraries and properties. The vitest suites are in `@paykit/testkit/vitest`, so this
 * root loads without vitest.
 *
 * @since 0.1.0
 */

// -------------------------------------------------------------------------------------
// test cards, credentials, store and catalogue
// -------------------------------------------------------------------------------------
export * from './TestCards.js'

// -------------------------------------------------------------------------------------
// simulator (pure)
// -------------------------------------------------------------------------------------
export type { SimRequest, SimResponse } from './simulator/Http.js'
export {
  AUTHENTICATION_LIFETIME_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TOKEN_LIFETIME_SECONDS,
  eventsOf,
  initialState,
  type AuthenticationRecord,
  type ChargeRecord,
  type OrderRecord,
  type PaymentMethodRecord,
  type SimulatorConfig,
  type SimulatorOptions,
  type SimulatorState,
  type TokenRecord,
} from './simulator/State.js'
export {
  advanceClock,
  cancelOrder,
  completeAuthentication,
  finalizeOrder,
  handle,
  payOrder,
} from './simulator/Simulator.js'
export { clockOf } from './simulator/Clock.js'
export { orderDetailsOf, type OrderPayment } from './simulator/Orders.js'
export { frameMessageOf, type AuthenticationResult } from './simulator/Authentications.js'

// -------------------------------------------------------------------------------------
// adapters
// -------------------------------------------------------------------------------------
export * as Faults from './Faults.js'
export { controlsOf, type ServiceControls } from './ServiceControls.js'
export type { Fault, Failure, Latency, Target as FaultTarget, FaultInjection } from './Faults.js'
export { REDACTED, redactBody, redactHeaders } from '@paykit/core'
export type { LoggedRequest } from './RequestLog.js'
export {
  makeLiveService,
  type Exchange,
  type LiveService,
  type LiveServiceOptions,
  type ServiceEvent,
} from './LiveService.js'
export {
  HANG_MS,
  mockPaymentService,
  type MockPaymentServiceOptions,
  type PaymentServiceMock,
} from './nock/mockPaymentService.js'
export { startSandbox, type Sandbox, type SandboxOptions } from './sandbox/startSandbox.js'
export {
  DEFAULT_WEBHOOK_ATTEMPTS,
  DEFAULT_WEBHOOK_INITIAL_DELAY_MS,
  makeWebhookDispatcher,
  type Delivery,
  type WebhookDispatcher,
  type WebhookOptions,
} from './sandbox/Webhooks.js'
export { CONTROL_PREFIX, MAX_CLOCK_OFFSET_SECONDS } from './sandbox/Control.js'

// -------------------------------------------------------------------------------------
// arbitraries (fast-check): valid requests, and invalid ones labelled with field and rule
// -------------------------------------------------------------------------------------
export {
  breakAt,
  namedFields,
  removeAt,
  removed,
  setAt,
  type Invalid,
  type Key,
} from './arbitraries/common.js'
export { invalidTokenRequest, tokenRequest, type TokenRequestInput } from './arbitraries/Token.js'
export {
  card,
  cardNumber,
  cardSecretsOf,
  customer,
  cvv,
  futureExpiry,
  invalidPaymentMethodRequest,
  luhnCardNumber,
  luhnCompletion,
  nonLuhnCardNumber,
  paymentMethod,
  paymentMethodRequest,
  testCardNumber,
  type CardInput,
  type CustomerInput,
  type PaymentMethodArbitraryOptions,
  type PaymentMethodOutput,
  type PaymentMethodRequestInput,
} from './arbitraries/PaymentMethod.js'
export {
  billingInfo,
  chargeOrder,
  chargeRequest,
  chargeRequestFor,
  countryCode,
  invalidChargeRequest,
  invalidChargeRequestFor,
  type BillingInfoInput,
  type ChargedPaymentMethod,
  type ChargeRequestInput,
} from './arbitraries/Charge.js'
export {
  invalidPaymentLinkRequest,
  lineItem,
  lineItemsTotal,
  optionalFields,
  orderShapeOf,
  paymentLinkRequest,
  product,
  productLineItem,
  skuLineItem,
  upTo,
  type LineItemInput,
  type OrderShape,
  type PaymentLinkArbitraryOptions,
  type PaymentLinkRequestInput,
  type ProductInput,
} from './arbitraries/PaymentLink.js'

// -------------------------------------------------------------------------------------
// properties (fast-check, any runner); the vitest suites are `@paykit/testkit/vitest`
// -------------------------------------------------------------------------------------
export {
  acceptsValid,
  anythingAnd,
  assertNamesField,
  assertNoSecrets,
  concerns,
  neverThrows,
  refusesInvalid,
  validationProperties,
  type Validate,
  type Validation,
  type ValidationProperties,
  type ValidationSuite,
  type ValidationSuiteOptions,
} from './properties/validation.js'
export { tokenValidationProperties } from './properties/Token.js'
export {
  paymentMethodValidationProperties,
  type PaymentMethodSuiteOptions,
} from './properties/PaymentMethod.js'
export { chargeValidationProperties, type ChargeSuiteOptions } from './properties/Charge.js'
export {
  paymentLinkValidationProperties,
  type PaymentLinkSuiteOptions,
} from './properties/PaymentLink.js'
export {
  refusesBeforeSending,
  sendsValid,
  type RefusesBeforeSendingOptions,
  type Send,
  type SendOutcome,
} from './properties/http.js'

// -------------------------------------------------------------------------------------
// 3DS without a browser
// -------------------------------------------------------------------------------------
export { authenticateHeadless, type HeadlessAuthenticateOptions } from './Authenticate.js'
