/**
 * Payment Method → Create: a card registered with the service. One item at a time, never
 * repeated once it may have been sent. The card comes from the input item, at the field
 * names the node's parameters give (n8n saves parameters in clear, so a card is never
 * one); once read, its number and CVV are removed from the input item unless the user
 * keeps them, so the execution n8n saves (the upstream node's output is the same object)
 * holds neither. The output keeps at most the card's last four digits.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import type { FieldError, PaykitError, PaymentMethodRequestOutput } from '@paykit/core/pure'
import {
  PaymentMethod,
  PaymentMethodRequest,
  last4,
  validate,
  validationError,
} from '@paykit/core/pure'
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow'
import { expirationMonthFromInput, expirationYearFromInput } from '../../../shared/conversions'
import { looksLikeCardNumber, removeAt, valueAt } from '../../../shared/fieldPath'
import type { Operation } from '../../../shared/items'
import { DEFAULT_CARD_FIELDS } from '../descriptions/paymentMethod'

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

const convert = (field: CardField, value: unknown): unknown =>
  field.key === 'expirationMonth'
    ? expirationMonthFromInput(value)
    : field.key === 'expirationYear'
      ? expirationYearFromInput(value)
      : digitsOf(value)

/** The card of item `i`, read at the configured field names; the secrets removed after. */
const cardOf = (
  ctx: IExecuteFunctions,
  i: number,
): E.Either<PaykitError, Record<CardField['key'], unknown>> => {
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
// operations
// -------------------------------------------------------------------------------------

/** Payment Method → Create. */
export const create: Operation<PaymentMethodRequestOutput> = {
  concurrent: false,
  prepare: (ctx, i) =>
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
    ),
  send: (client, request, signal) =>
    pipe(
      client.createPaymentMethod(request, signal ? { signal } : {}),
      TE.map((method): IDataObject => ({
        ...PaymentMethod.encode(method),
        card: {
          last4: last4(request.card.number),
          expirationMonth: request.card.expirationMonth,
          expirationYear: request.card.expirationYear,
        },
      })),
    ),
}
