/**
 * What Charge → Create and Complete After 3DS share: the charge's fields, the charge of an
 * item validated by the core, and its sending. One item at a time; the core never repeats
 * a charge that may have reached the service.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import type { ChargeRequest as ChargeRequestType, FieldError, PaykitError } from '@paykit/core/pure'
import {
  ChargeRequest,
  ChargeResponse,
  MoneyFromNumber,
  chargeRequestFor,
  validate,
  validationError,
} from '@paykit/core/pure'
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow'
import { amountFromInput } from '../../helpers/conversions'
import type { Operation } from '../../helpers/items'
import { chargeOutputsByVersion } from './chargeOutputs'

// -------------------------------------------------------------------------------------
// description
// -------------------------------------------------------------------------------------

/** The fields of a charge before those of its authentication (order, amount, card). */
export const chargeFieldsBefore: ReadonlyArray<INodeProperties> = [
  {
    displayName: 'Order ID',
    name: 'orderId',
    type: 'string',
    required: true,
    default: '',
    description:
      "The merchant's order identifier. An order that already succeeded is never charged again.",
  },
  {
    displayName: 'Amount',
    name: 'amount',
    type: 'number',
    typeOptions: { minValue: 0, numberPrecision: 2 },
    required: true,
    default: 0,
    description:
      'Amount to charge, greater than 0. An expression may give a text such as 25.50: it is read exactly.',
  },
  {
    displayName: 'Payment Method ID',
    name: 'cardId',
    type: 'string',
    required: true,
    default: '',
    placeholder: 'pm_000001',
    description: 'The ID returned by Payment Method → Create',
  },
]

/** The fields of a charge after those of its authentication (extra, billing, outputs). */
export const chargeFieldsAfter: ReadonlyArray<INodeProperties> = [
  {
    displayName: 'Additional Fields',
    name: 'additionalFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    options: [
      {
        displayName: 'Card Issuer Country',
        name: 'cardCountryCode',
        type: 'string',
        default: '',
        placeholder: 'USA',
        description:
          "The payment method's bin.countryCode; when empty, the input item's bin.countryCode (Payment Method → Create outputs it). Billing info is then checked before sending: it is required for USA and CAN cards.",
      },
      { displayName: 'Order Description', name: 'description', type: 'string', default: '' },
      { displayName: 'Order Name', name: 'name', type: 'string', default: '' },
    ],
  },
  {
    displayName: 'Billing Info',
    name: 'billingInfo',
    type: 'collection',
    placeholder: 'Add Billing Field',
    default: {},
    description: 'Required when the card was issued in the USA or Canada',
    options: [
      {
        displayName: 'Country Code',
        name: 'countryCode',
        type: 'string',
        default: '',
        placeholder: 'US',
      },
      {
        displayName: 'State Code',
        name: 'stateCode',
        type: 'string',
        default: '',
        placeholder: 'CA',
      },
      { displayName: 'Zip Code', name: 'zipCode', type: 'string', default: '' },
    ],
  },
  ...chargeOutputsByVersion,
]

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * A charge of an item, validated once (the card's issuer country rules too): the decoded
 * request (its amount the core's `Money`), what is sent and what the output shows.
 */
export interface ChargeInput {
  readonly request: ChargeRequestType
}

interface AdditionalFields {
  readonly cardCountryCode?: string
  readonly description?: string
  readonly name?: string
}

const nonEmpty = (fields: IDataObject): IDataObject =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '' && v !== undefined))

export const invalid = (errors: ReadonlyArray<FieldError>): PaykitError =>
  validationError(errors, 'charge request')

/**
 * The card issuer's country of item `i` when the item carries the payment method, as
 * Payment Method → Create outputs it (`bin.countryCode`); used when the parameter is empty.
 */
const issuerCountryOf = (ctx: IExecuteFunctions, i: number): string | undefined => {
  const bin = ctx.getInputData()[i]?.json.bin
  const country =
    typeof bin === 'object' && bin !== null ? (bin as IDataObject).countryCode : undefined
  return typeof country === 'string' && country.trim() !== '' ? country.trim() : undefined
}

/** The first charge of item `i` (authenticationId null), validated by the core. */
export const chargeOf = (ctx: IExecuteFunctions, i: number): E.Either<PaykitError, ChargeInput> => {
  const extra = ctx.getNodeParameter('additionalFields', i, {}) as AdditionalFields
  const billing = nonEmpty(ctx.getNodeParameter('billingInfo', i, {}) as IDataObject)
  // A number as typed, or the text an expression gave ("25.50"), converted exactly.
  const given = ctx.getNodeParameter('amount', i)
  const amount = amountFromInput('order.amount')(given)
  const request = {
    order: {
      id: ctx.getNodeParameter('orderId', i),
      amount: E.isRight(amount) ? amount.right : given,
      ...nonEmpty({ description: extra.description, name: extra.name }),
    },
    cardId: ctx.getNodeParameter('cardId', i),
    authenticationId: null,
    ...(Object.keys(billing).length > 0 ? { billingInfo: billing } : {}),
  }
  const cardCountryCode = extra.cardCountryCode?.trim() || issuerCountryOf(ctx, i)
  const codec =
    cardCountryCode === undefined
      ? ChargeRequest
      : chargeRequestFor({ bin: { countryCode: cardCountryCode } })
  const checked = validate(codec)(request)
  if (E.isLeft(amount))
    return E.left(
      invalid([
        amount.left,
        ...(E.isLeft(checked) ? checked.left.filter((e) => e.path !== amount.left.path) : []),
      ]),
    )
  return pipe(
    checked,
    E.bimap(invalid, (decoded) => ({ request: decoded })),
  )
}

/**
 * A charge sent: the decoded request as it is (the core's codec takes its `Money` and writes
 * the JSON number once, on the wire); its output is the decoded response as JSON and what
 * was charged, both written from the decoded values once.
 */
export const send: Operation<ChargeInput>['send'] = (client, { request }, signal) =>
  pipe(
    client.chargeValidated(request, signal ? { signal } : {}),
    TE.map((response): IDataObject => ({
      ...(ChargeResponse.encode(response) as unknown as IDataObject),
      request: {
        orderId: request.order.id,
        // As sent: the JSON number the core wrote.
        amount: MoneyFromNumber.encode(request.order.amount),
        cardId: request.cardId,
        authenticationId: request.authenticationId,
      },
    })),
  )
