/**
 * What n8n forms and webhooks deliver, converted into what the core's codecs take. A form
 * field, a query parameter or a webhook body gives text: `"25.50"`, `"9"`, `"31"`. The core
 * stays strict (an amount is a JSON number, an expiry month two digits, a year four); the
 * node applies these documented conversions before the core validates, and refuses, naming
 * the field, a text it cannot convert without changing its value. Anything a conversion
 * does not recognise is passed on unchanged, for the core to judge.
 *
 * Accepted forms:
 * - amount (a payment link's `amount`, a line item's `product.price`, a charge's
 *   `order.amount`): a number, as it is; or a text of digits with an optional decimal
 *   point (`"25.50"`, `" 25.5 "`, `"25"`, `".5"`, `"-3"`: a minus sign is kept, and the
 *   core then says the amount must be greater than 0), surrounding spaces ignored, whose
 *   value a JSON number holds exactly: every text of at most 15 significant digits does;
 *   a longer one is refused rather than rounded. Such a text becomes the core's `Money`
 *   once, here; the core writes it as a JSON number when it sends the request. Refused: a comma (`"1,000.00"` or
 *   `"25,50"`: thousands separator or decimal comma, it cannot be told which), an exponent
 *   (`"1e3"`), a currency sign, an empty text.
 * - expiry month: a whole number from 0 to 99, as a number or a text of one or two digits
 *   (`9`, `"9"`, `" 09 "`), becomes two digits (`"09"`).
 * - expiry year: a whole number of two digits (`31`, `"31"`) becomes `20YY` (`"2031"`); one
 *   of four digits (`2031`, `"2031"`) becomes that text.
 *
 * Messages never repeat the value they refuse.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { FieldError } from '@paykit/core/pure'
import { Money } from '@paykit/core/pure'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** A value as the input gave it, converted where a documented conversion applies. */
type Converted = E.Either<FieldError, unknown>

/**
 * A request with its convertible fields converted (a copy: the input is not changed), and
 * the field errors of those that could not be.
 */
interface ConvertedRequest {
  readonly request: unknown
  readonly errors: ReadonlyArray<FieldError>
}

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/** Digits with an optional decimal point, and an optional minus sign. */
const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/

/** Every decimal text with at most this many significant digits is a JSON number exactly. */
const EXACT_SIGNIFICANT_DIGITS = 15

const AMOUNT_EXAMPLE = 'must be a number, like 25.50'

/** How many significant digits a text that matches `DECIMAL` has. */
const significantDigits = (text: string): number =>
  Math.max(1, text.replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '').length)

/** `".5"` as `"0.5"`, `"25."` as `"25"`: the form `Money.fromString` reads. */
const canonical = (text: string): string => {
  const negative = text.startsWith('-')
  const [whole = '', fraction = ''] = (negative ? text.slice(1) : text).split('.')
  return `${negative ? '-' : ''}${whole === '' ? '0' : whole}${fraction === '' ? '' : `.${fraction}`}`
}

/** Why a text is no amount, in words that do not repeat it. */
const notAnAmount = (text: string): string =>
  text === ''
    ? `${AMOUNT_EXAMPLE} (got an empty text)`
    : /^[-+\d.,\s]+$/.test(text) && text.includes(',')
      ? `${AMOUNT_EXAMPLE}, with a dot for decimals and no thousands separator (got a text with a comma)`
      : `${AMOUNT_EXAMPLE} (got a text that is not a number)`

// -------------------------------------------------------------------------------------
// conversions
// -------------------------------------------------------------------------------------

/**
 * An amount at `path` (`amount`, `lineItems[0].product.price`, `order.amount`): a number as
 * it is; a decimal text as the `Money` of exactly that decimal (`"25.50"` -> 25.5), which
 * the core's codecs take as it is and write once, as a JSON number, on the wire; a text
 * that is no decimal, or that no JSON number holds exactly (more than 15 significant
 * digits, and not exact), refused naming `path`: `"abc"` at `amount` gives
 * `amount: must be a number, like 25.50 (got a text that is not a number)`. Any other
 * value unchanged, for the core to judge.
 */
export const amountFromInput =
  (path: string) =>
  (value: unknown): Converted => {
    if (typeof value !== 'string') return E.right(value)
    const text = value.trim()
    if (!DECIMAL.test(text)) return E.left({ path, message: notAnAmount(text) })
    const exact = Money.fromString(canonical(text))
    // Sent as the JSON number nearest to it: refused unless that number is the same decimal.
    const sent = E.isRight(exact) ? Money.fromNumber(Money.toNumber(exact.right)) : exact
    if (E.isRight(exact) && E.isRight(sent) && Money.Eq.equals(exact.right, sent.right))
      return E.right(exact.right)
    return E.left({
      path,
      message: `has more digits than a JSON number holds exactly (${significantDigits(text)} significant digits; any amount of at most ${EXACT_SIGNIFICANT_DIGITS} is sent exactly), so it is refused rather than rounded`,
    })
  }

/** A whole number as a number or a text (spaces around it ignored), when it matches `digits`. */
const wholeOf = (value: unknown, digits: RegExp): string | undefined => {
  const text =
    typeof value === 'number'
      ? Number.isSafeInteger(value) && value >= 0
        ? String(value)
        : undefined
      : typeof value === 'string'
        ? value.trim()
        : undefined
  return text !== undefined && digits.test(text) ? text : undefined
}

/**
 * A card's expiry month: `9`, `"9"` or `" 09 "` as `"09"` (a whole number below 100, as a
 * number or a text of one or two digits, padded to two); any other value unchanged, for the
 * core to judge (it takes `"01"` to `"12"`).
 */
export const expirationMonthFromInput = (value: unknown): unknown =>
  wholeOf(value, /^\d{1,2}$/)?.padStart(2, '0') ?? value

/**
 * A card's expiry year: two digits (`31`, `"31"`) as `"2031"`, four digits (`2031`,
 * `"2031"`) as that text; any other value unchanged, for the core to judge (it takes four
 * digits). Cards expire within a few years of being issued, so two digits mean 20YY.
 */
export const expirationYearFromInput = (value: unknown): unknown => {
  const whole = wholeOf(value, /^(?:\d{2}|\d{4})$/)
  return whole === undefined ? value : whole.length === 2 ? `20${whole}` : whole
}

// -------------------------------------------------------------------------------------
// requests
// -------------------------------------------------------------------------------------

/**
 * A whole number given as text (`"3"`, `" 60 "`) as that number; any other value unchanged,
 * for the core to judge (`"3.5"`, `"-1"` and `"three"` stay text and are refused there,
 * naming the field). A form or a webhook gives a quantity as text.
 */
export const wholeNumberFromInput = (value: unknown): unknown => {
  const whole = typeof value === 'string' ? wholeOf(value, /^\d{1,15}$/) : undefined
  return whole === undefined ? value : Number(whole)
}

const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === 'object' && u !== null && !Array.isArray(u)

/**
 * A payment-link request as an item gave it, with its amounts converted by
 * `amountFromInput` (`amount` and each `lineItems[k].product.price`) and its whole numbers
 * by `wholeNumberFromInput` (`expirationMinutes`, each `lineItems[k].quantity`). Everything
 * else is left for the core to judge; the input is copied where it changes, never modified.
 */
export const paymentLinkRequestFromInput = (request: unknown): ConvertedRequest => {
  if (!isRecord(request)) return { request, errors: [] }
  const errors: FieldError[] = []
  const converted = (path: string, value: unknown): unknown => {
    const result = amountFromInput(path)(value)
    if (E.isRight(result)) return result.right
    errors.push(result.left)
    return value
  }
  const out: Record<string, unknown> = { ...request }
  if ('amount' in request) out.amount = converted('amount', request.amount)
  if ('expirationMinutes' in request)
    out.expirationMinutes = wholeNumberFromInput(request.expirationMinutes)
  if (Array.isArray(request.lineItems))
    out.lineItems = request.lineItems.map((item: unknown, k) => {
      if (!isRecord(item)) return item
      const withQuantity =
        'quantity' in item ? { ...item, quantity: wholeNumberFromInput(item.quantity) } : item
      return isRecord(item.product) && 'price' in item.product
        ? {
            ...withQuantity,
            product: {
              ...item.product,
              price: converted(`lineItems[${k}].product.price`, item.product.price),
            },
          }
        : withQuantity
    })
  return { request: out, errors }
}
