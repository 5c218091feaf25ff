/**
 * `@paykit/testkit/buyer`: the buyer without a browser: 3DS answered as a buyer would
 * (`authenticateHeadless`) and the hosted checkout page paid over HTTP.
 *
 * @module @paykit/testkit/buyer
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// 3DS and the checkout page
// -------------------------------------------------------------------------------------
export * from './Authenticate.js'
export * from './payOnCheckoutPage.js'
