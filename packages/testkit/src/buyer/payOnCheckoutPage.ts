/**
 * The buyer at the hosted checkout page: the form the page posts to `/pay/<orderCode>`
 * (`action=pay` with the card and the buyer's details), sent without a browser.
 *
 * @since 0.2.0
 */
import { testCards } from '../simulator/TestCards.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The form fields a buyer fills in on the checkout page. Each has a default: the test card
 * that succeeds, expiring in December two years from now, CVV 123, buyer Ana Mora.
 *
 * @category model
 * @since 0.2.0
 */
export interface CheckoutForm {
  readonly number?: string
  readonly expirationMonth?: string
  readonly expirationYear?: string
  readonly cvv?: string
  readonly cardHolder?: string
  readonly email?: string
  readonly phone?: string
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Pays the payment link at `paymentLinkUrl` as a buyer on its checkout page would, and
 * resolves with the page's raw answer (not followed: a 303 to the link's `successUrl`, or
 * the page again with the errors).
 *
 * @example
 * ```ts
 * import { defaultCredentials, testCards } from '@paykit/testkit'
 * import { startSandbox } from '@paykit/testkit/sandbox'
 * import { payOnCheckoutPage } from '@paykit/testkit/buyer'
 * import assert from 'node:assert/strict'
 *
 * const sandbox = await startSandbox()
 * const api = (path: string, body?: unknown) =>
 *   fetch(`${sandbox.url}${path}`, {
 *     method: body === undefined ? 'GET' : 'POST',
 *     headers: {
 *       authorization: `Bearer ${defaultCredentials.apiKey}`,
 *       'content-type': 'application/json',
 *     },
 *     body: body === undefined ? undefined : JSON.stringify(body),
 *   }).then((r) => r.json() as Promise<Record<string, string>>)
 * try {
 *   const link = await api('/paymentlink/checkout', {
 *     amount: 12.5,
 *     successUrl: 'https://shop.example/thanks',
 *   })
 *   const paid = await payOnCheckoutPage(String(link.paymentLinkUrl))
 *   assert.equal(paid.status, 303)
 *   assert.equal(paid.headers.get('location'), 'https://shop.example/thanks')
 *   assert.equal((await api(`/paymentlink/order/${link.orderCode}`)).orderStatus, 'PAID')
 *   // A declined card leaves the order pending.
 *   const other = await api('/paymentlink/checkout', { amount: 3 })
 *   await payOnCheckoutPage(String(other.paymentLinkUrl), { number: testCards.declined.number })
 *   assert.equal((await api(`/paymentlink/order/${other.orderCode}`)).orderStatus, 'PENDING')
 * } finally {
 *   await sandbox.close()
 * }
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const payOnCheckoutPage = (
  paymentLinkUrl: string,
  form: CheckoutForm = {},
): Promise<Response> =>
  fetch(paymentLinkUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      action: 'pay',
      number: form.number ?? testCards.success.number,
      expirationMonth: form.expirationMonth ?? '12',
      expirationYear: form.expirationYear ?? String(new Date().getUTCFullYear() + 2),
      cvv: form.cvv ?? '123',
      cardHolder: form.cardHolder ?? 'ANA MORA',
      email: form.email ?? 'ana@example.com',
      ...(form.phone === undefined ? {} : { phone: form.phone }),
    }),
    redirect: 'manual',
  })
