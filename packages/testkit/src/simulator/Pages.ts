/**
 * The hosted pages the simulator serves: the 3DS frame (Complete and Fail buttons; it
 * posts the spec 6.1 message to `window.parent`), the payment-link checkout, its
 * confirmation and voucher, and the favicon. Every interpolated value is HTML-escaped;
 * the frame message is embedded as JSON that cannot close its script element.
 *
 * What a buyer reads is written for a buyer: field errors become the core's sentences
 * for their codes (`buyerMessage`; the paths stay in the API's JSON answers and in a
 * `data-field` attribute for test automation),
 * and the 3DS frame keeps its buttons in view in every EMV 3DS challenge window size.
 *
 * @since 0.2.0
 */
import {
  Money,
  buyerMessage,
  type FieldError,
  type FrameMessageOutput,
  type OrderDetails,
  type OrderLineItem,
} from '@paykit/core/pure'
import type { Endpoint } from './Route.js'

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
 * @since 0.2.0
 */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c)

/**
 * JSON safe inside a `<script>` element: `<`, `>`, `&` and the line separators are
 * written as `\u` escapes, so no value can end the script.
 *
 * @category escaping
 * @since 0.2.0
 */
export const scriptJson = (value: unknown): string =>
  JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )

// -------------------------------------------------------------------------------------
// layout
// -------------------------------------------------------------------------------------

// `.frame`: the 3DS frame fills its window (100vh is the iframe's height) as a column
// whose details scroll and whose buttons stay in view below them, from the default
// 300x150 iframe to a full page; long ids wrap instead of widening the page.
const STYLE = `body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1f2933;overflow-wrap:anywhere}
h1{font-size:1.4rem}table{width:100%;border-collapse:collapse}td,th{padding:.3rem;border-bottom:1px solid #e4e7eb;text-align:left}
.num{text-align:right}.error{color:#b42318}.status{font-weight:bold}label{display:block;margin:.4rem 0}
input{padding:.3rem;width:100%;box-sizing:border-box}button{padding:.5rem 1rem;margin:.6rem .4rem 0 0}
body.frame{max-width:none;margin:0;padding:0;height:100vh;height:100dvh;display:flex;flex-direction:column;box-sizing:border-box}
.frame main{flex:1 1 auto;min-height:0;overflow:auto;padding:.5rem .75rem}
.frame h1{font-size:1.1rem;margin:0 0 .4rem}.frame p{margin:.3rem 0}
.frame .actions{flex:none;display:flex;gap:.5rem;justify-content:center;margin:0;padding:.5rem .75rem;border-top:1px solid #e4e7eb;background:#fff}
.frame .actions button{flex:1 1 0;max-width:12rem;min-height:2.5rem;margin:0}`

const page = (title: string, body: string, bodyClass?: string): string =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body${bodyClass === undefined ? '' : ` class="${bodyClass}"`}>
${body}
</body>
</html>
`

/**
 * A page with a title and one message (not found, conflicts, errors).
 *
 * @category pages
 * @since 0.2.0
 */
export const messagePage = (title: string, message: string): string =>
  page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`)

// -------------------------------------------------------------------------------------
// 3DS frame
// -------------------------------------------------------------------------------------

/**
 * The 3DS frame of an authentication. While it is PENDING it shows Complete and Fail
 * buttons (form POSTs to `action`), kept in view below the details in any window size
 * (the EMV 3DS challenge sizes 250x400, 390x400, 500x600, 600x400, full page, and the
 * default 300x150 iframe); once it has a result, it shows it and posts `message` to
 * `window.parent` with target origin `*` (the frame cannot know the merchant's origin;
 * the merchant checks the frame's origin).
 *
 * @category pages
 * @since 0.2.0
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
      ? `<form class="actions" method="post" action="${escapeHtml(input.action)}">
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
    `<main>
<h1>3DS authentication (sandbox)</h1>
<p>Order <code>${escapeHtml(input.orderId)}</code>, amount ${escapeHtml(input.amount)}</p>
<p>Authentication <code>${escapeHtml(input.authenticationId)}</code>: <span class="status" id="status">${escapeHtml(input.status)}</span></p>
${input.notice === undefined ? '' : `<p class="error">${escapeHtml(input.notice)}</p>`}
</main>
${buttons}
${script}`,
    'frame',
  )
}

// -------------------------------------------------------------------------------------
// checkout
// -------------------------------------------------------------------------------------

/**
 * An amount in the store's currency: `$19.99 USD`.
 *
 * @category pages
 * @since 0.2.0
 */
const formatAmount = (details: OrderDetails, amount: Money.Money): string =>
  `${details.store.currencySymbol}${Money.toString(amount, 2)} ${details.store.currencyCode}`

const itemRow = (details: OrderDetails, item: OrderLineItem): string =>
  `<tr><td>${escapeHtml(item.name)}</td><td class="num">${item.quantity}</td><td class="num">${escapeHtml(formatAmount(details, item.price))}</td><td class="num">${escapeHtml(formatAmount(details, item.subTotal))}</td></tr>`

// An order made from an amount alone has no line items: one row, its name and total.
const amountRow = (details: OrderDetails): string => {
  const total = escapeHtml(formatAmount(details, details.total))
  return `<tr><td>${escapeHtml(details.name)}</td><td class="num">1</td><td class="num">${total}</td><td class="num">${total}</td></tr>`
}

const itemsTable = (details: OrderDetails): string => {
  const rows =
    details.lineItems.length === 0
      ? amountRow(details)
      : details.lineItems.map((item) => itemRow(details, item)).join('\n')
  return `<table>
<thead><tr><th>Item</th><th class="num">Qty</th><th class="num">Price</th><th class="num">Subtotal</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot><tr><th colspan="3">Total</th><th class="num" id="total">${escapeHtml(formatAmount(details, details.total))}</th></tr></tfoot>
</table>`
}

// -------------------------------------------------------------------------------------
// buyer messages
// -------------------------------------------------------------------------------------

// A field error reads as the core's sentence for its code (`buyerMessage`: "The card
// number is not valid.", "The card was declined. Try another card."), so that an app
// using the core's catalogue says what this page says; the path stays in a `data-field`
// attribute for test automation.
const errorItem = (error: FieldError | string): string =>
  typeof error === 'string'
    ? `<li>${escapeHtml(error)}</li>`
    : `<li data-field="${escapeHtml(error.path)}">${escapeHtml(buyerMessage(error))}</li>`

// -------------------------------------------------------------------------------------
// card form
// -------------------------------------------------------------------------------------

/**
 * The checkout form fields that are typed back into the page after an error. The card
 * number and the CVV are not among them: they are never written into a page.
 *
 * @category pages
 * @since 0.2.0
 */
const KEPT_FIELDS: ReadonlyArray<string> = [
  'expirationMonth',
  'expirationYear',
  'cardHolder',
  'email',
  'phone',
]

type FormValues = Readonly<Record<string, string | undefined>>

const valueOf = (values: FormValues, name: string): string => {
  const value = KEPT_FIELDS.includes(name) && Object.hasOwn(values, name) ? values[name] : undefined
  return value === undefined || value === '' ? '' : ` value="${escapeHtml(value)}"`
}

const invalidFields = (errors: ReadonlyArray<FieldError | string>): ReadonlySet<string> =>
  new Set(errors.flatMap((e) => (typeof e === 'string' ? [] : [e.path.replace(/^card\./, '')])))

const cardForm = (
  details: OrderDetails,
  action: string,
  values: FormValues | undefined,
  errors: ReadonlyArray<FieldError | string>,
): string => {
  const invalid = invalidFields(errors)
  const retyping = values !== undefined && errors.length > 0
  const field = (label: string, name: string, attributes: string): string =>
    `<label>${label} <input name="${name}"${attributes}${valueOf(values ?? {}, name)}${invalid.has(name) ? ' aria-invalid="true"' : ''}></label>`
  return `<form method="post" action="${escapeHtml(action)}" autocomplete="off">
${retyping ? '<p id="retype">For your security, enter the card number and the CVV again.</p>\n' : ''}${field('Card number', 'number', ` inputmode="numeric" required${retyping ? ' autofocus' : ''}`)}
${field('Expiry month (MM)', 'expirationMonth', ' inputmode="numeric" maxlength="2" required')}
${field('Expiry year (YYYY)', 'expirationYear', ' inputmode="numeric" maxlength="4" required')}
${field('CVV', 'cvv', ' inputmode="numeric" maxlength="4" required')}
${field('Name on card', 'cardHolder', '')}
${field('E-mail', 'email', ' type="email"')}
${field('Phone', 'phone', '')}
<button type="submit" name="action" value="pay" id="pay">Pay ${escapeHtml(formatAmount(details, details.total))}</button>
<button type="submit" name="action" value="cancel" id="cancel" formnovalidate>Cancel</button>
</form>`
}

// -------------------------------------------------------------------------------------
// checkout page
// -------------------------------------------------------------------------------------

/**
 * The checkout page of a payment link: items (or, for an order made from an amount, its
 * name and total), the total in the store's currency, and while the order is PENDING a
 * card form with Pay and Cancel buttons (form POST to `action`). `errors` are shown above
 * the form: a field error as the core's sentence for the buyer (`buyerMessage`), a
 * string as it is. `values` (the form that was sent) fill the form again, except the card number and
 * the CVV (`KEPT_FIELDS`).
 *
 * @category pages
 * @since 0.2.0
 */
export const checkoutPage = (input: {
  readonly details: OrderDetails
  readonly action: string
  readonly errors?: ReadonlyArray<FieldError | string>
  readonly values?: FormValues
}): string => {
  const { details } = input
  const errorList = input.errors ?? []
  const errors =
    errorList.length === 0
      ? ''
      : `<ul class="error" id="errors" role="alert">${errorList.map(errorItem).join('')}</ul>`
  const form =
    details.orderStatus === 'PENDING'
      ? cardForm(details, input.action, input.values, errorList)
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
 * @since 0.2.0
 */
export const orderResultPage = (details: OrderDetails, heading: string): string =>
  page(
    heading,
    `<h1>${escapeHtml(heading)}</h1>
<p>Order <code>${escapeHtml(details.orderCode)}</code>: <span class="status" id="status">${escapeHtml(details.orderStatus)}</span></p>
${details.payment === null ? '' : `<p>Authorization code <code id="authorizationCode">${escapeHtml(details.payment.authorizationCode)}</code></p>`}
${itemsTable(details)}`,
  )

// -------------------------------------------------------------------------------------
// favicon
// -------------------------------------------------------------------------------------

/**
 * The sandbox's icon: a card, as SVG (32x32).
 *
 * @category favicon
 * @since 0.2.0
 */
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f2933"/><rect x="5" y="9" width="22" height="14" rx="2" fill="#fff"/><rect x="5" y="12" width="22" height="3" fill="#1f2933"/><rect x="8" y="18" width="6" height="2" fill="#1f2933"/></svg>
`

/**
 * `GET /favicon.ico`: the icon as `image/svg+xml`, cacheable for a day, so browsers get
 * no 404 for it (the API's JSON 404 stays for every other unknown path).
 *
 * @category favicon
 * @since 0.2.0
 */
export const getFavicon: Endpoint = ({ state }) => [
  state,
  {
    status: 200,
    headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' },
    body: FAVICON_SVG,
  },
]
