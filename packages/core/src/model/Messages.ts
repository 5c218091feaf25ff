/**
 * What a buyer reads for a field error: one English sentence per code (`messages`),
 * about a field named in a buyer's words (`fieldLabels`), never a codec path, a rule
 * name or the value typed. The sandbox's checkout pages say exactly these sentences, so
 * an app that uses them says what the sandbox says; an app in another language gives
 * `buyerMessageWith` a catalogue of the same shape (the type checks that it words every
 * code).
 *
 * @since 0.2.0
 */
import { type FieldError, issueOf } from './FieldError.js'
import type { FieldErrorCode, FieldIssue, IssueOf, Literal } from '../internal/issue.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The sentence of one code for a buyer: from the issue (its parameters) and the field's
 * label (`card number`).
 *
 * @category model
 * @since 0.2.0
 */
export type BuyerSentence<C extends FieldErrorCode> = (issue: IssueOf<C>, field: string) => string

/**
 * A sentence for every code: a catalogue in one language.
 *
 * @category model
 * @since 0.2.0
 */
export type MessageCatalogue = { readonly [C in FieldErrorCode]: BuyerSentence<C> }

/**
 * Field paths (`card.number`) and what a buyer calls them (`card number`).
 *
 * @category model
 * @since 0.2.0
 */
export type FieldLabels = Readonly<Record<string, string>>

/**
 * What `buyerMessageWith` words field errors with: the sentences, the labels, and the
 * sentence for an error at a field that has no label.
 *
 * @category model
 * @since 0.2.0
 */
export interface BuyerMessages {
  readonly messages: MessageCatalogue
  readonly labels: FieldLabels
  readonly fallback: string
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

const orList = (words: ReadonlyArray<string>): string =>
  words.length <= 1
    ? words.join('')
    : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1] ?? ''}`

// A choice as a button or an option shows it: `pay` reads `Pay`.
const choice = (value: Literal): string => {
  const text = String(value)
  return text.charAt(0).toUpperCase() + text.slice(1)
}

const notValid = (_: unknown, field: string): string => `The ${field} is not valid.`

const UNREADABLE = 'The details could not be read. Try again.'

/**
 * The English sentence of every code, for a buyer: `messages.luhn(issue, 'card number')`
 * is "The card number is not valid.". Sentences never repeat what was typed.
 *
 * @example
 * ```ts
 * import { messages } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(messages.luhn({ code: 'luhn' }, 'card number'), 'The card number is not valid.')
 * assert.equal(messages.required({ code: 'required' }, 'card number'), 'Enter the card number.')
 * assert.equal(
 *   messages.maxLength({ code: 'maxLength', maximum: 255 }, 'order name'),
 *   'The order name must be at most 255 characters.',
 * )
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const messages: MessageCatalogue = {
  required: (_, field) => `Enter the ${field}.`,
  type: notValid,
  oneOf: ({ values }) => `Choose ${orList(values.map(choice))}.`,
  maxLength: ({ maximum }, field) => `The ${field} must be at most ${maximum} characters.`,
  minItems: ({ minimum }, field) =>
    `The ${field} must have at least ${minimum === 1 ? 'one item' : `${minimum} items`}.`,
  minimum: ({ minimum, inclusive }, field) =>
    inclusive
      ? `The ${field} must be ${minimum} or more.`
      : `The ${field} must be more than ${minimum}.`,
  positiveInt: (_, field) => `The ${field} must be a whole number of 1 or more.`,
  integer: (_, field) => `The ${field} must be a whole number.`,
  finite: (_, field) => `The ${field} must be a number.`,
  url: (_, field) => `The ${field} must be a web address starting with http:// or https://.`,
  dateTime: (_, field) => `The ${field} is not a valid date and time.`,
  locale: notValid,
  timeZone: notValid,
  countryCode: (_, field) =>
    `The ${field} is not valid: enter a two- or three-letter country code.`,
  digits: notValid,
  digitCount: notValid,
  luhn: notValid,
  expiryMonth: (_, field) => `The ${field} is not valid: enter two digits from 01 to 12.`,
  expiryYear: (_, field) => `The ${field} is not valid: enter four digits (YYYY).`,
  cvv: (_, field) => `The ${field} must be 3 or 4 digits.`,
  expired: () => 'The card has expired.',
  declined: () => 'The card was declined. Try another card.',
  requiredForCountry: ({ countries }, field) =>
    `Enter the ${field}: cards issued in ${orList(countries)} need it.`,
  nullForStatus: notValid,
  atLeastOne: ({ fields }) => `Enter at least one of ${orList(fields)}.`,
  exactlyOne: ({ fields }) => `Enter exactly one of ${orList(fields)}.`,
  exclusive: ({ fields }) => `Enter exactly one of ${orList(fields)}.`,
  notInCatalogue: (_, field) => `The ${field} is not a product of this store.`,
  mismatch: ({ total }, field) => `The ${field} must equal the total of the items (${total}).`,
  notFound: (_, field) => `The ${field} was not found.`,
  json: () => UNREADABLE,
  unreadable: () => UNREADABLE,
  invalid: notValid,
}

/**
 * What a buyer calls the fields of a card and its billing data (the paths of a
 * payment-method request and of a charge request).
 *
 * @example
 * ```ts
 * import { fieldLabels } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(fieldLabels['card.number'], 'card number')
 * assert.equal(fieldLabels['card.cvv'], 'security code (CVV)')
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const fieldLabels: FieldLabels = {
  card: 'card',
  'card.number': 'card number',
  'card.expirationMonth': 'expiry month',
  'card.expirationYear': 'expiry year',
  'card.cvv': 'security code (CVV)',
  'card.cardHolder': 'name on the card',
  'card.singleUse': 'single-use choice',
  'customer.name': 'name',
  'customer.email': 'e-mail address',
  'customer.phoneNumber': 'phone number',
  billingInfo: 'billing address',
  'billingInfo.countryCode': 'billing country',
  'billingInfo.stateCode': 'billing state',
  'billingInfo.zipCode': 'billing postal code',
}

/**
 * The sentence for an error at a field the labels do not name: a request to check the
 * details, which names nothing the buyer cannot see.
 *
 * @example
 * ```ts
 * import { buyerMessage, fallbackBuyerMessage } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * const error = { path: 'lineItems[0].sku', message: 'is required', code: 'required' } as const
 * assert.equal(buyerMessage(error), fallbackBuyerMessage)
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const fallbackBuyerMessage = 'The payment details are not valid. Check them and try again.'

// The codes whose sentence names no field: said as they are wherever the error is.
const WITHOUT_FIELD: ReadonlySet<FieldErrorCode> = new Set<FieldErrorCode>([
  'oneOf',
  'expired',
  'declined',
  'atLeastOne',
  'exactlyOne',
  'exclusive',
  'json',
  'unreadable',
])

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * A field error in the words of a catalogue: the sentence of its code (`issueOf`, so an
 * error without a code is read from its message) about the field's label; `fallback`
 * when the labels do not name the field and the sentence needs it.
 *
 * @example
 * ```ts
 * import { buyerMessageWith, fieldError, fieldLabels, messages } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * // another language: a sentence for every code (the type checks none is missing)
 * const spanish = buyerMessageWith({
 *   messages: { ...messages, required: (_, field) => `Ingrese ${field}.` },
 *   labels: { ...fieldLabels, 'card.number': 'el número de tarjeta' },
 *   fallback: 'Revise los datos.',
 * })
 * assert.equal(
 *   spanish(fieldError('card.number', { code: 'required' })),
 *   'Ingrese el número de tarjeta.',
 * )
 * assert.equal(spanish(fieldError('sku', { code: 'required' })), 'Revise los datos.')
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const buyerMessageWith =
  ({ messages: sentences, labels, fallback }: BuyerMessages) =>
  (error: FieldError): string => {
    const issue = issueOf(error)
    // The sentence of the issue's own code: it takes that issue.
    const sentence = sentences[issue.code] as (issue: FieldIssue, field: string) => string
    if (WITHOUT_FIELD.has(issue.code)) return sentence(issue, '')
    const label = Object.hasOwn(labels, error.path) ? labels[error.path] : undefined
    return label === undefined ? fallback : sentence(issue, label)
  }

/**
 * A field error as an English sentence for a buyer (`messages`, `fieldLabels`): what the
 * sandbox's checkout page shows. An error at a field without a label reads as
 * `fallbackBuyerMessage`.
 *
 * @example
 * ```ts
 * import { buyerMessage, fieldError } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(
 *   buyerMessage(fieldError('card.number', { code: 'luhn' })),
 *   'The card number is not valid.',
 * )
 * assert.equal(
 *   buyerMessage(fieldError('card.expirationMonth', { code: 'expired' })),
 *   'The card has expired.',
 * )
 * // an error without a code is read from its message
 * assert.equal(
 *   buyerMessage({ path: 'card.cvv', message: 'must be 3 or 4 digits' }),
 *   'The security code (CVV) must be 3 or 4 digits.',
 * )
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const buyerMessage: (error: FieldError) => string = buyerMessageWith({
  messages,
  labels: fieldLabels,
  fallback: fallbackBuyerMessage,
})
