/**
 * Payment Link operations: create a link (from the node's fields, or the whole request
 * from the input item), read an order, wait for an order status. Safe to run side by side
 * and as an AI tool: a link creation is repeated only when the user opts in. Amounts given
 * as text (a form's or a webhook's `"25.50"`, an expression's result) are converted exactly
 * before the core validates the request (`shared/conversions`).
 */
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import type {
  FieldError,
  OrderStatus,
  PaykitError,
  PaymentLinkRequestInput,
} from '@paykit/core/pure'
import {
  OrderDetails,
  OrderStatus as OrderStatusCodec,
  PaymentLinkRequest,
  PaymentLinkResponse,
  validate,
  validationError,
} from '@paykit/core/pure'
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow'
import { paymentLinkRequestFromInput } from '../../../shared/conversions'
import type { Operation } from '../../../shared/items'

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

const orderCodeOf = (ctx: IExecuteFunctions, i: number): E.Either<PaykitError, string> => {
  const code = String(ctx.getNodeParameter('orderCode', i, '')).trim()
  return code === ''
    ? E.left(validationError([{ path: 'Order Code', message: 'is required' }], 'order code'))
    : E.right(code)
}

const encodeOrder = TE.map(
  (order: OrderDetails): IDataObject => OrderDetails.encode(order) as unknown as IDataObject,
)

// -------------------------------------------------------------------------------------
// operations
// -------------------------------------------------------------------------------------

interface CreateInput {
  readonly request: PaymentLinkRequestInput
  readonly retry: boolean
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

/** Payment Link → Create. */
export const create: Operation<CreateInput> = {
  concurrent: true,
  prepare: (ctx, i) => {
    const { request: given, prefix } = requestOf(ctx, i)
    const { request, errors: conversion } = paymentLinkRequestFromInput(given)
    const retry = (ctx.getNodeParameter('options.retryUncertain', i, false) as boolean) === true
    const checked = validate(PaymentLinkRequest)(request)
    const errors = requestErrors(conversion, E.isLeft(checked) ? checked.left : [])
    return errors.length > 0
      ? E.left(validationError(prefixed(prefix, errors), 'payment link request'))
      : E.right({ request: request as PaymentLinkRequestInput, retry })
  },
  send: (client, { request, retry }, signal) =>
    pipe(
      client.createPaymentLink(request, { retry, ...(signal ? { signal } : {}) }),
      TE.map((link): IDataObject => PaymentLinkResponse.encode(link)),
    ),
}

/** Payment Link → Get Order. */
export const getOrder: Operation<string> = {
  concurrent: true,
  prepare: (ctx, i) => orderCodeOf(ctx, i),
  send: (client, orderCode, signal) =>
    encodeOrder(client.getOrder(orderCode, signal ? { signal } : {})),
}

interface WaitInput {
  readonly orderCode: string
  readonly statuses: ReadonlyArray<OrderStatus>
  readonly timeoutMs: number
  readonly intervalMs: number
}

/** Payment Link → Wait for Status: the core's poll, with n8n's sleep between polls. */
export const waitForStatus: Operation<WaitInput> = {
  concurrent: true,
  prepare: (ctx, i) =>
    pipe(
      orderCodeOf(ctx, i),
      E.chain((orderCode) => {
        const statuses = ctx.getNodeParameter('statuses', i, []) as unknown[]
        const errors: FieldError[] = statuses.flatMap((s, k) =>
          OrderStatusCodec.is(s)
            ? []
            : [
                {
                  path: `Statuses[${k}]`,
                  message: 'must be PENDING, PAID, CANCELLED or FINALIZED',
                },
              ],
        )
        if (statuses.length === 0)
          errors.push({ path: 'Statuses', message: 'must name at least one status' })
        const timeoutMs = Number(ctx.getNodeParameter('waitTimeout', i)) * 1000
        const intervalMs = Number(ctx.getNodeParameter('pollInterval', i)) * 1000
        if (!(timeoutMs > 0))
          errors.push({ path: 'Wait Timeout (Seconds)', message: 'must be greater than 0' })
        if (!(intervalMs > 0))
          errors.push({ path: 'Poll Interval (Seconds)', message: 'must be greater than 0' })
        return errors.length > 0
          ? E.left(validationError(errors, 'Wait for Status parameters'))
          : E.right({ orderCode, statuses: statuses as OrderStatus[], timeoutMs, intervalMs })
      }),
    ),
  send: (client, { orderCode, statuses, timeoutMs, intervalMs }, signal) =>
    encodeOrder(
      client.waitForOrderStatus(orderCode, statuses, {
        timeoutMs,
        intervalMs,
        ...(signal ? { signal } : {}),
      }),
    ),
}
