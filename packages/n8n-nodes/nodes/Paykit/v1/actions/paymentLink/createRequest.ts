/**
 * Payment Link → Create's request of an item: from the node's fields (a field left empty is
 * absent, its default applies) or from the item's JSON (the whole item or one of its
 * fields), its amounts and whole numbers converted from text (`helpers/conversions`), then
 * validated by the core once, errors named by field.
 */
import * as E from 'fp-ts/lib/Either.js'
import type {
  FieldError,
  PaykitError,
  PaymentLinkRequest as PaymentLinkRequestType,
} from '@paykit/core/pure'
import { PaymentLinkRequest, validate, validationError } from '@paykit/core/pure'
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow'
import { paymentLinkRequestFromInput } from '../../helpers/conversions'

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

interface LineItemParameters {
  readonly kind?: 'sku' | 'product'
  readonly sku?: string
  readonly name?: string
  /** A number, or the text an expression gave (converted with the request). */
  readonly price?: number | string
  readonly imageUrl?: string
  readonly requiresShipping?: boolean
  readonly quantity?: number
}

interface AdditionalFields {
  readonly orderReference?: string
  readonly orderName?: string
  readonly orderDescription?: string
  readonly successUrl?: string
  readonly cancelUrl?: string
  readonly locationCode?: string
  readonly expirationMinutes?: number
  readonly metadata?: { readonly entry?: ReadonlyArray<{ name?: string; value?: string }> }
}

const TEXT_FIELDS = [
  'orderReference',
  'orderName',
  'orderDescription',
  'successUrl',
  'cancelUrl',
  'locationCode',
] as const

/** A field left empty in the editor is absent from the request (its default applies). */
const present = (fields: AdditionalFields): IDataObject => {
  const out: IDataObject = {}
  for (const name of TEXT_FIELDS) {
    const value = fields[name]
    if (typeof value === 'string' && value !== '') out[name] = value
  }
  if (fields.expirationMinutes !== undefined) out.expirationMinutes = fields.expirationMinutes
  const metadata = fields.metadata?.entry ?? []
  if (metadata.length > 0) out.metadata = metadata.map((m) => ({ name: m.name, value: m.value }))
  return out
}

const lineItemOf = (item: LineItemParameters): IDataObject =>
  item.kind === 'product'
    ? {
        product: {
          name: item.name,
          price: item.price,
          ...(item.imageUrl ? { imageUrl: item.imageUrl } : {}),
          requiresShipping: item.requiresShipping ?? false,
        },
        quantity: item.quantity,
      }
    : { sku: item.sku, quantity: item.quantity }

const fieldAt = (json: IDataObject, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (value, key) =>
        typeof value === 'object' && value !== null ? (value as IDataObject)[key] : undefined,
      json,
    )

const prefixed = (prefix: string, errors: ReadonlyArray<FieldError>): ReadonlyArray<FieldError> =>
  prefix === ''
    ? errors
    : errors.map((e) => ({ ...e, path: e.path === '' ? prefix : `${prefix}.${e.path}` }))

/** The request of item `i`, as the user described it, before validation. */
const requestOf = (ctx: IExecuteFunctions, i: number): { request: unknown; prefix: string } => {
  if (ctx.getNodeParameter('orderSource', i) === 'item') {
    const field = (ctx.getNodeParameter('requestField', i, '') as string).trim()
    const json = ctx.getInputData()[i]?.json ?? {}
    return { request: field === '' ? json : fieldAt(json, field), prefix: field }
  }
  const order: IDataObject =
    ctx.getNodeParameter('orderBy', i) === 'amount'
      ? { amount: ctx.getNodeParameter('amount', i) }
      : {
          lineItems: (ctx.getNodeParameter('lineItems.item', i, []) as LineItemParameters[]).map(
            lineItemOf,
          ),
        }
  return {
    request: {
      ...order,
      ...present(ctx.getNodeParameter('additionalFields', i, {}) as AdditionalFields),
    },
    prefix: '',
  }
}

/**
 * The errors of a request: those of its amounts' conversion, then the core's, except the
 * core's about a field whose conversion already failed (it would only say "must be a
 * number" again).
 */
const requestErrors = (
  conversion: ReadonlyArray<FieldError>,
  core: ReadonlyArray<FieldError>,
): ReadonlyArray<FieldError> => [
  ...conversion,
  ...core.filter((e) => !conversion.some((c) => c.path === e.path)),
]

// -------------------------------------------------------------------------------------
// request
// -------------------------------------------------------------------------------------

/** The payment-link request of item `i`, converted and validated, or its field errors. */
export const linkRequestOf = (
  ctx: IExecuteFunctions,
  i: number,
): E.Either<PaykitError, PaymentLinkRequestType> => {
  const { request: given, prefix } = requestOf(ctx, i)
  const { request, errors: conversion } = paymentLinkRequestFromInput(given)
  const checked = validate(PaymentLinkRequest)(request)
  const errors = requestErrors(conversion, E.isLeft(checked) ? checked.left : [])
  return errors.length > 0 || E.isLeft(checked)
    ? E.left(validationError(prefixed(prefix, errors), 'payment link request'))
    : E.right(checked.right)
}
