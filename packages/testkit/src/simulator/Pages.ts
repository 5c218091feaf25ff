/**
 * The hosted pages the simulator serves: the 3DS frame (Complete and Fail buttons; it
 * posts the spec 6.1 message to `window.parent`), the payment-link checkout, its
 * confirmation and voucher. Every interpolated value is HTML-escaped; the frame message
 * is embedded as JSON that cannot close its script element.
 *
 * @since 0.1.0
 */
import { Money, type FrameMessageOutput, type OrderDetails } from '@paykit/core'

// -------------------------------------------------------------------------------------
// escaping
// -------------------------------------------------------------------------------------

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/**
 * Text made safe for HTML content and attribute values.
 *
 * @category escaping
 * @since 0.1.0
 */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c)

/**
 * JSON safe inside a `<script>` element: `<`, `>`, `&` and the line separators are
 * written as `\u` escapes, so no value can end the script.
 *
 * @category escaping
 * @since 0.1.0
 */
export const scriptJson = (value: unknown): string =>
  JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )

// -------------------------------------------------------------------------------------
// layout
// -------------------------------------------------------------------------------------

const STYLE = `body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1f2933}
h1{font-size:1.4rem}table{width:100%;border-collapse:collapse}td,th{padding:.3rem;border-bottom:1px solid #e4e7eb;text-align:left}
.num{text-align:right}.error{color:#b42318}.status{font-weight:bold}label{display:block;margin:.4rem 0}
input{padding:.3rem;width:100%;box-sizing:border-box}button{padding:.5rem 1rem;margin:.6rem .4rem 0 0}`

const page = (title: string, body: string): string =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`

/**
 * A page with a title and one message (not found, conflicts, errors).
 *
 * @category pages
 * @since 0.1.0
 */
export const messagePage = (title: string, message: string): string =>
  page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`)

// -------------------------------------------------------------------------------------
// 3DS frame
// -------------------------------------------------------------------------------------

/**
 * The 3DS frame of an authentication. While it is PENDING it shows Complete and Fail
 * buttons (form POSTs to `action`); once it has a result, it shows it and posts
 * `message` to `window.parent` with target origin `*` (the frame cannot know the
 * merchant's origin; the merchant checks the frame's origin).
 *
 * @category pages
 * @since 0.1.0
 */
export const authenticationPage = (input: {
  readonly authenticationId: string
  readonly status: string
  readonly orderId: string
  readonly amount: string
  readonly action: string
  readonly message: FrameMessageOutput | null
  readonly notice?: string
}): string => {
  const buttons =
    input.message === null
      ? `<form method="post" action="${escapeHtml(input.action)}">
<button type="submit" name="result" value="success" id="complete">Complete</button>
<button type="submit" name="result" value="failed" id="fail">Fail</button>
</form>`
      : ''
  const script =
    input.message === null
      ? ''
      : `<script>
(function () {
  var message = ${scriptJson(input.message)};
  if (window.parent && window.parent !== window) window.parent.postMessage(message, '*');
})();
</script>`
  return page(
    '3DS authentication',
    `<h1>3DS authentication (sandbox)</h1>
<p>Order <code>${escapeHtml(input.orderId)}</code>, amount ${escapeHtml(input.amount)}</p>
<p>Authentication <code>${escapeHtml(input.authenticationId)}</code>: <span class="status" id="status">${escapeHtml(input.status)}</span></p>
${input.notice === undefined ? '' : `<p class="error">${escapeHtml(input.notice)}</p>`}
${buttons}
${script}`,
  )
}

// -------------------------------------------------------------------------------------
// checkout
// -------------------------------------------------------------------------------------

/**
 * An amount in the store's currency: `$19.99 USD`.
 *
 * @category pages
 * @since 0.1.0
 */
export const formatAmount = (details: OrderDetails, amount: Money.Money): string =>
  `${details.store.currencySymbol}${Money.toString(amount, 2)} ${details.store.currencyCode}`

const itemsTable = (details: OrderDetails): string => {
  const rows = details.lineItems
    .map(
      (item) =>
        `<tr><td>${escapeHtml(item.name)}</td><td class="num">${item.quantity}</td><td class="num">${escapeHtml(formatAmount(details, item.price))}</td><td class="num">${escapeHtml(formatAmount(details, item.subTotal))}</td></tr>`,
    )
    .join('\n')
  return `<table>
<thead><tr><th>Item</th><th class="num">Qty</th><th class="num">Price</th><th class="num">Subtotal</th></tr></thead>
<tbody>
${rows === '' ? `<tr><td colspan="4">${escapeHtml(details.name)}</td></tr>` : rows}
</tbody>
<tfoot><tr><th colspan="3">Total</th><th class="num" id="total">${escapeHtml(formatAmount(details, details.total))}</th></tr></tfoot>
</table>`
}

/**
 * The checkout page of a payment link: items, total in the store's currency, and while
 * the order is PENDING a card form with Pay and Cancel buttons (form POST to `action`).
 * `errors` are shown above the form (field errors, a declined card).
 *
 * @category pages
 * @since 0.1.0
 */
export const checkoutPage = (input: {
  readonly details: OrderDetails
  readonly action: string
  readonly errors?: ReadonlyArray<string>
}): string => {
  const { details } = input
  const errors =
    input.errors === undefined || input.errors.length === 0
      ? ''
      : `<ul class="error" id="errors">${input.errors.map((e) => `<li>${escapeHtml(e)}</li>`).join('')}</ul>`
  const form =
    details.orderStatus === 'PENDING'
      ? `<form method="post" action="${escapeHtml(input.action)}" autocomplete="off">
<label>Card number <input name="number" inputmode="numeric" required></label>
<label>Expiry month (MM) <input name="expirationMonth" inputmode="numeric" maxlength="2" required></label>
<label>Expiry year (YYYY) <input name="expirationYear" inputmode="numeric" maxlength="4" required></label>
<label>CVV <input name="cvv" inputmode="numeric" maxlength="4" required></label>
<label>Name on card <input name="cardHolder"></label>
<label>E-mail <input name="email" type="email"></label>
<label>Phone <input name="phone"></label>
<button type="submit" name="action" value="pay" id="pay">Pay ${escapeHtml(formatAmount(details, details.total))}</button>
<button type="submit" name="action" value="cancel" id="cancel" formnovalidate>Cancel</button>
</form>`
      : ''
  return page(
    `${details.store.name}: ${details.name}`,
    `<h1>${escapeHtml(details.store.name)}</h1>
<h2>${escapeHtml(details.name)}</h2>
${details.description === null ? '' : `<p>${escapeHtml(details.description)}</p>`}
<p>Order <code>${escapeHtml(details.orderCode)}</code>: <span class="status" id="status">${escapeHtml(details.orderStatus)}</span></p>
${itemsTable(details)}
${errors}
${form}`,
  )
}

/**
 * The page after paying or cancelling when the link has no redirect address, and the
 * voucher of a paid order.
 *
 * @category pages
 * @since 0.1.0
 */
export const orderResultPage = (details: OrderDetails, heading: string): string =>
  page(
    heading,
    `<h1>${escapeHtml(heading)}</h1>
<p>Order <code>${escapeHtml(details.orderCode)}</code>: <span class="status" id="status">${escapeHtml(details.orderStatus)}</span></p>
${details.payment === null ? '' : `<p>Authorization code <code id="authorizationCode">${escapeHtml(details.payment.authorizationCode)}</code></p>`}
${itemsTable(details)}`,
  )
