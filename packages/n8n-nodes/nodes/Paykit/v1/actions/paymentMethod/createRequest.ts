/**
 * Payment Method → Create's request of an item: the card read from the input item at the
 * field names the node's parameters give (or from the card parameters of a version-1 node
 * saved before the card moved to the input item), its number and CVV removed from the item
 * once read unless the user keeps them, the customer from the additional fields, then
 * validated by the core once, errors named by field.
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import type { FieldError, PaykitError, PaymentMethodRequestOutput } from '@paykit/core/pure'
import { PaymentMethodRequest, validate, validationError } from '@paykit/core/pure'
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow'
import { expirationMonthFromInput, expirationYearFromInput } from '../../helpers/conversions'
import { looksLikeCardNumber, removeAt, valueAt } from '../../helpers/fieldPath'

// -------------------------------------------------------------------------------------
// fields
// -------------------------------------------------------------------------------------

/** Where the card fields are read from in each input item, by default (the spec's names). */
const DEFAULT_CARD_FIELDS = {
  cardNumberField: 'card.number',
  expirationMonthField: 'card.expirationMonth',
  expirationYearField: 'card.expirationYear',
  cvvField: 'card.cvv',
} as const

/**
 * The card parameters of version 1 before the card moved to the input item: a card number
 * or CVV typed into one sits in the saved workflow in clear, so it is refused by name; an
 * expression still gives the card, as it did. Hidden (nothing new is typed into them) and
 * kept only in version 1, since n8n drops a saved parameter its node no longer declares.
 */
export const LEGACY_CARD_PARAMETERS = [
  { key: 'number', name: 'cardNumber', label: 'Card Number', field: 'Card Number Field' },
  {
    key: 'expirationMonth',
    name: 'expirationMonth',
    label: 'Expiration Month',
    field: 'Expiration Month Field',
  },
  {
    key: 'expirationYear',
    name: 'expirationYear',
    label: 'Expiration Year',
    field: 'Expiration Year Field',
  },
  { key: 'cvv', name: 'cvv', label: 'CVV', field: 'CVV Field' },
] as const

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

interface AdditionalFields {
  readonly cardHolder?: string
  readonly singleUse?: boolean
  readonly id?: string
  readonly name?: string
  readonly email?: string
  readonly phoneNumber?: string
}

/** A card field of the request, the parameter naming its input field, and its label. */
interface CardField {
  readonly key: 'number' | 'expirationMonth' | 'expirationYear' | 'cvv'
  readonly parameter: keyof typeof DEFAULT_CARD_FIELDS
  readonly label: string
  readonly secret: boolean
}

const CARD_FIELDS: ReadonlyArray<CardField> = [
  { key: 'number', parameter: 'cardNumberField', label: 'Card Number Field', secret: true },
  {
    key: 'expirationMonth',
    parameter: 'expirationMonthField',
    label: 'Expiration Month Field',
    secret: false,
  },
  {
    key: 'expirationYear',
    parameter: 'expirationYearField',
    label: 'Expiration Year Field',
    secret: false,
  },
  { key: 'cvv', parameter: 'cvvField', label: 'CVV Field', secret: true },
]

const CUSTOMER_FIELDS = ['id', 'name', 'email', 'phoneNumber'] as const

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const invalid = (errors: ReadonlyArray<FieldError>): PaykitError =>
  validationError(errors, 'payment method request')

/**
 * A card number or CVV as the core takes it: a string of digits. Spaces and dashes people
 * type between digit groups are dropped; a whole number (a form may send one) becomes its
 * digits when it is exact.
 */
const digitsOf = (value: unknown): unknown =>
  typeof value === 'string'
    ? value.replace(/[\s-]/g, '')
    : typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
      ? String(value)
      : value

const convert = (field: Pick<CardField, 'key'>, value: unknown): unknown =>
  field.key === 'expirationMonth'
    ? expirationMonthFromInput(value)
    : field.key === 'expirationYear'
      ? expirationYearFromInput(value)
      : digitsOf(value)

/**
 * The card of item `i` from the card parameters of a version-1 node saved before the card
 * moved to the input item, or undefined when it has none. A card number or CVV typed into
 * them is refused, naming the parameter (n8n keeps it in the saved workflow, in clear);
 * expressions are read as before.
 */
const legacyCardOf = (
  ctx: IExecuteFunctions,
  i: number,
): E.Either<PaykitError, Record<CardField['key'], unknown>> | undefined => {
  const node = ctx.getNode()
  if (node.typeVersion >= 1.1) return undefined
  const raw = (name: string): unknown => node.parameters[name]
  const given = LEGACY_CARD_PARAMETERS.filter(
    (p) => raw(p.name) !== undefined && raw(p.name) !== '',
  )
  if (given.length === 0) return undefined
  const typed = given.filter(
    (p) => (p.key === 'number' || p.key === 'cvv') && !String(raw(p.name)).startsWith('='),
  )
  if (typed.length > 0)
    return E.left(
      invalid(
        typed.map((p) => ({
          path: `card.${p.key}`,
          message: `${p.label} (${p.name}) holds a value typed into the node, which is no longer read: n8n saves node parameters in clear. Replace this node with a new Payment Method → Create node, which reads the card from the input item (${p.field} and the other card fields), and delete this one`,
        })),
      ),
    )
  const card: Partial<Record<CardField['key'], unknown>> = {}
  const errors: FieldError[] = []
  for (const p of LEGACY_CARD_PARAMETERS) {
    const value: unknown = ctx.getNodeParameter(p.name, i, '')
    if (value === undefined || value === null || value === '')
      errors.push({ path: `card.${p.key}`, message: `is required (${p.label})` })
    else card[p.key] = convert(p, value)
  }
  return errors.length > 0
    ? E.left(invalid(errors))
    : E.right(card as Record<CardField['key'], unknown>)
}

/**
 * The card of item `i`, read at the configured field names; the secrets removed after. A
 * version-1 node saved with card parameters reads them instead (`legacyCardOf`).
 */
const cardOf = (
  ctx: IExecuteFunctions,
  i: number,
): E.Either<PaykitError, Record<CardField['key'], unknown>> => {
  const legacy = legacyCardOf(ctx, i)
  if (legacy !== undefined) return legacy
  const json: IDataObject = ctx.getInputData()[i]?.json ?? {}
  const options = ctx.getNodeParameter('options', i, {}) as { readonly keepCardData?: boolean }
  const card: Partial<Record<CardField['key'], unknown>> = {}
  const errors: FieldError[] = []
  const read: string[] = []
  for (const field of CARD_FIELDS) {
    const path = String(
      ctx.getNodeParameter(field.parameter, i, DEFAULT_CARD_FIELDS[field.parameter]),
    ).trim()
    if (looksLikeCardNumber(path)) {
      errors.push({
        path: `card.${field.key}`,
        message: `${field.label} must name the input field that holds the value, not the value itself (the parameter looks like card data; remove it: n8n saves parameters in clear)`,
      })
      continue
    }
    const value = valueAt(json, path)
    if (value === undefined || value === null || value === '') {
      errors.push({
        path: `card.${field.key}`,
        message: `is required: the input item has no value at "${path}" (${field.label})`,
      })
      continue
    }
    card[field.key] = convert(field, value)
    if (field.secret) read.push(path)
  }
  if (options.keepCardData !== true) for (const path of read) removeAt(json, path)
  return errors.length > 0
    ? E.left(invalid(errors))
    : E.right(card as Record<CardField['key'], unknown>)
}

// -------------------------------------------------------------------------------------
// request
// -------------------------------------------------------------------------------------

/** The payment-method request of item `i`: its card and customer, validated, or its field errors. */
export const methodRequestOf = (
  ctx: IExecuteFunctions,
  i: number,
): E.Either<PaykitError, PaymentMethodRequestOutput> =>
  pipe(
    cardOf(ctx, i),
    E.chain((card) => {
      const extra = ctx.getNodeParameter('additionalFields', i, {}) as AdditionalFields
      const customer: IDataObject = {}
      for (const name of CUSTOMER_FIELDS) {
        const value = extra[name]
        if (typeof value === 'string' && value !== '') customer[name] = value
      }
      const request = {
        ...(Object.keys(customer).length > 0 ? { customer } : {}),
        card: {
          ...card,
          ...(extra.cardHolder ? { cardHolder: extra.cardHolder } : {}),
          ...(extra.singleUse === undefined ? {} : { singleUse: extra.singleUse }),
        },
      }
      return pipe(
        validate(PaymentMethodRequest)(request),
        E.bimap(invalid, (valid) => PaymentMethodRequest.encode(valid)),
      )
    }),
  )
