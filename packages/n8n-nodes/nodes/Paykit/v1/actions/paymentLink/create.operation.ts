/**
 * Payment Link → Create: a hosted payment link for an order, from the node's fields or the
 * whole request from the input item. Safe to run side by side and as an AI tool: a link
 * creation is repeated only when the user opts in. Amounts given as text (a form's or a
 * webhook's `"25.50"`, an expression's result) are converted exactly before the core
 * validates the request (`helpers/conversions`); the request, validated once here, is sent
 * as it is (`createValidatedPaymentLink`).
 *
 * One Link per Order Reference (on by default from version 1.1): the service cannot look
 * a link up by `orderReference`, so a re-run of an execution (n8n's retry of a crashed or
 * failed one, the user's) would create a second link for every order it had done. The
 * node records each reference in n8n's de-duplication store just BEFORE sending it: a
 * crash between the record and the request leaves that order without a link, never with
 * two. A reference recorded before comes out on the Already Requested output; a creation
 * the service refused (nothing created) is forgotten so a corrected run can create it; one
 * whose outcome is unknown stays recorded.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import type {
  FieldError,
  PaykitError,
  PaymentLinkRequest as PaymentLinkRequestType,
} from '@paykit/core/pure'
import {
  PaymentLinkRequest,
  PaymentLinkResponse,
  validate,
  validationError,
} from '@paykit/core/pure'
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow'
import { paymentLinkRequestFromInput } from '../../helpers/conversions'
import type { ReferenceMemory } from '../../helpers/deduplication'
import { DEFAULT_HISTORY_SIZE, referenceMemory } from '../../helpers/deduplication'
import type { Operation } from '../../helpers/items'
import type { OperationDescription } from '../Action'

// -------------------------------------------------------------------------------------
// description
// -------------------------------------------------------------------------------------

/** A line item's field shown only for a one-time product (beside its Product Type). */
const oneTimeProduct = { show: { kind: ['product'] } }

const forCreateFields = { show: { orderSource: ['fields'] } }

const retryUncertain: INodeProperties = {
  displayName: 'Retry Uncertain Link Creation',
  name: 'retryUncertain',
  type: 'boolean',
  default: false,
  description:
    'Whether to send a link creation again when it may have reached the service (a timeout, a dropped connection). A repeat can create a second link for the order.',
}

const oneLinkPerReference: INodeProperties = {
  displayName: 'One Link per Order Reference',
  name: 'oneLinkPerReference',
  type: 'boolean',
  default: true,
  description:
    "Whether to record each order reference in n8n's database before its request and not request a second link for it: a reference seen before goes to the Already Requested output. Exact when one n8n process runs this workflow. With several queue-mode workers n8n's store has no lock: a worker that dies can lose the records of its last requests (a re-run links those orders again), and one reference given to two workers at once can pass on both. For exactly once across workers, claim each order in your own database first (the package's Postgres claim example). Items without an order reference are always created.",
}

/** Version 1 keeps its behaviour (off unless turned on); new nodes (1.1) have it on. */
const oneLinkPerReferenceByVersion: ReadonlyArray<INodeProperties> = [
  {
    ...oneLinkPerReference,
    displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
  },
  { ...oneLinkPerReference, default: false, displayOptions: { show: { '@version': [1] } } },
]

const createAgain: INodeProperties = {
  displayName: 'Create Again for a Known Reference',
  name: 'createAgain',
  type: 'boolean',
  default: false,
  description:
    'Whether to create a link even when this node has requested one for the order reference before (with One Link per Order Reference; an expression can choose per item, e.g. for an order whose link expired). The reference stays remembered.',
}

const historySize: INodeProperties = {
  displayName: 'Reference History Size',
  name: 'referenceHistorySize',
  type: 'number',
  typeOptions: { minValue: 1 },
  default: DEFAULT_HISTORY_SIZE,
  description:
    'How many order references One Link per Order Reference remembers; past that the oldest are forgotten, and a re-run that gives one of those creates a second link',
}

/** Payment Link → Create: its entry in the Operation list, its fields and options. */
export const description: OperationDescription = {
  option: {
    name: 'Create',
    action: 'Create a payment link',
    description: 'Create a hosted payment link for an order (POST /paymentlink/checkout)',
  },
  properties: [
    {
      displayName: 'Order Source',
      name: 'orderSource',
      type: 'options',
      noDataExpression: true,
      options: [
        {
          name: 'Define Below',
          value: 'fields',
          description: 'Describe the order with the fields of this node',
        },
        {
          name: 'From Input Item',
          value: 'item',
          description:
            "Take the whole request from each item's JSON, fields named as in the Paykit API (amount or lineItems, orderReference, ...)",
        },
      ],
      default: 'fields',
    },
    {
      displayName: 'Request Field',
      name: 'requestField',
      type: 'string',
      displayOptions: { show: { orderSource: ['item'] } },
      default: '',
      placeholder: 'order',
      description:
        'Name of the item field that holds the request (dots for nested fields). Leave empty to use the whole item.',
    },
    {
      displayName: 'Order Described By',
      name: 'orderBy',
      type: 'options',
      noDataExpression: true,
      displayOptions: forCreateFields,
      options: [
        { name: 'Total Amount', value: 'amount' },
        { name: 'Line Items', value: 'lineItems' },
      ],
      default: 'amount',
    },
    {
      displayName: 'Amount',
      name: 'amount',
      type: 'number',
      typeOptions: { minValue: 0, numberPrecision: 2 },
      required: true,
      displayOptions: {
        show: {
          orderSource: ['fields'],
          orderBy: ['amount'],
        },
      },
      default: 0,
      description:
        'Total order amount, greater than 0. An expression may give a text such as 25.50: it is read exactly.',
    },
    {
      displayName: 'Line Items',
      name: 'lineItems',
      type: 'fixedCollection',
      typeOptions: { multipleValues: true },
      placeholder: 'Add Line Item',
      required: true,
      displayOptions: {
        show: {
          orderSource: ['fields'],
          orderBy: ['lineItems'],
        },
      },
      default: {},
      options: [
        {
          name: 'item',
          displayName: 'Line Item',
          // Each type shows only its own fields: a catalogue SKU its SKU, a one-time product
          // its name, price, image and shipping; both a quantity.
          values: [
            {
              displayName: 'Image URL',
              name: 'imageUrl',
              type: 'string',
              displayOptions: oneTimeProduct,
              default: '',
              description: 'Picture of the product on the checkout page (at most 512 characters)',
            },
            {
              displayName: 'Price',
              name: 'price',
              type: 'number',
              typeOptions: { minValue: 0 },
              required: true,
              displayOptions: oneTimeProduct,
              default: 0,
              description:
                'Unit price, greater than 0. An expression may give a text such as 25.50: it is read exactly.',
            },
            {
              displayName: 'Product Name',
              name: 'name',
              type: 'string',
              required: true,
              displayOptions: oneTimeProduct,
              default: '',
            },
            {
              displayName: 'Product Type',
              name: 'kind',
              type: 'options',
              options: [
                {
                  name: 'Catalogue SKU',
                  value: 'sku',
                  description: 'A product already defined in the merchant portal',
                },
                {
                  name: 'One-Time Product',
                  value: 'product',
                  description: 'A product described here: name, price, image, shipping',
                },
              ],
              default: 'sku',
            },
            {
              displayName: 'Quantity',
              name: 'quantity',
              type: 'number',
              typeOptions: { minValue: 1 },
              default: 1,
            },
            {
              displayName: 'Requires Shipping',
              name: 'requiresShipping',
              type: 'boolean',
              displayOptions: oneTimeProduct,
              default: false,
              description: 'Whether the buyer must give a shipping address',
            },
            {
              displayName: 'SKU',
              name: 'sku',
              type: 'string',
              required: true,
              displayOptions: { show: { kind: ['sku'] } },
              default: '',
              placeholder: 'MUG-LOGO',
              description: 'Stock-keeping unit of a product defined in the merchant portal',
            },
          ],
        },
      ],
    },
    {
      displayName: 'Additional Fields',
      name: 'additionalFields',
      type: 'collection',
      placeholder: 'Add Field',
      displayOptions: forCreateFields,
      default: {},
      options: [
        {
          displayName: 'Cancel URL',
          name: 'cancelUrl',
          type: 'string',
          default: '',
          description: 'Where the buyer goes after cancelling',
        },
        {
          displayName: 'Expiration (Minutes)',
          name: 'expirationMinutes',
          type: 'number',
          typeOptions: { minValue: 1 },
          default: 1440,
          description: 'Link lifetime in minutes',
        },
        {
          displayName: 'Location Code',
          name: 'locationCode',
          type: 'string',
          default: '',
          description: "Branch code; the store's default branch when empty",
        },
        {
          displayName: 'Metadata',
          name: 'metadata',
          type: 'fixedCollection',
          typeOptions: { multipleValues: true },
          placeholder: 'Add Metadata',
          default: {},
          options: [
            {
              name: 'entry',
              displayName: 'Entry',
              values: [
                { displayName: 'Name', name: 'name', type: 'string', default: '' },
                { displayName: 'Value', name: 'value', type: 'string', default: '' },
              ],
            },
          ],
        },
        {
          displayName: 'Order Description',
          name: 'orderDescription',
          type: 'string',
          typeOptions: { rows: 3 },
          default: '',
        },
        {
          displayName: 'Order Name',
          name: 'orderName',
          type: 'string',
          default: '',
          placeholder: 'PaymentLink Order',
        },
        {
          displayName: 'Order Reference',
          name: 'orderReference',
          type: 'string',
          default: '',
          description: "The merchant's own reference for the order",
        },
        {
          displayName: 'Success URL',
          name: 'successUrl',
          type: 'string',
          default: '',
          description: 'Where the buyer goes after paying',
        },
      ],
    },
    ...oneLinkPerReferenceByVersion,
  ],
  options: [retryUncertain, createAgain, historySize],
}

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
// operation
// -------------------------------------------------------------------------------------

/** One memory per node run: `prepare` sees each item, the run's claims go together. */
const memories = new WeakMap<IExecuteFunctions, ReferenceMemory>()

const memoryOf = (ctx: IExecuteFunctions): ReferenceMemory => {
  const known = memories.get(ctx)
  if (known !== undefined) return known
  const size = ctx.getNodeParameter('options.referenceHistorySize', 0, DEFAULT_HISTORY_SIZE)
  const memory = referenceMemory(ctx, Math.max(1, Math.floor(Number(size) || DEFAULT_HISTORY_SIZE)))
  memories.set(ctx, memory)
  return memory
}

/** The reference of item `i` to remember, when One Link per Order Reference is on. */
const onceOf = (
  ctx: IExecuteFunctions,
  i: number,
  request: PaymentLinkRequestType,
): CreateInput['once'] => {
  const reference = request.orderReference
  if (ctx.getNodeParameter('oneLinkPerReference', 0, false) !== true) return undefined
  if (reference === undefined || reference === '') return undefined
  const again = ctx.getNodeParameter('options.createAgain', i, false) === true
  return { memory: memoryOf(ctx), reference, again }
}

interface CreateInput {
  readonly request: PaymentLinkRequestType
  readonly retry: boolean
  readonly once: { memory: ReferenceMemory; reference: string; again: boolean } | undefined
}

const createLink = (
  client: Parameters<Operation<CreateInput>['send']>[0],
  { request, retry }: CreateInput,
  signal: AbortSignal | undefined,
) =>
  pipe(
    client.createValidatedPaymentLink(request, { retry, ...(signal ? { signal } : {}) }),
    TE.map((link): IDataObject => PaymentLinkResponse.encode(link)),
  )

/**
 * The creation under One Link per Order Reference: recorded first, then sent; forgotten
 * again when the service refused it (nothing was created), confirmed otherwise.
 */
const createOnce =
  (
    client: Parameters<Operation<CreateInput>['send']>[0],
    input: CreateInput & { once: NonNullable<CreateInput['once']> },
    signal: AbortSignal | undefined,
  ): TE.TaskEither<PaykitError, IDataObject> =>
  async () => {
    const { memory, reference, again } = input.once
    const fresh = await memory.claim(reference, again).catch((reason: unknown) => {
      throw new Error(
        `Could not record the order reference in n8n's de-duplication store, so nothing was sent: ${reason instanceof Error ? reason.message : String(reason)}`,
      )
    })
    if (!fresh) return E.right({ orderReference: reference, alreadyRequested: true })
    const result = await createLink(client, input, signal)()
    // If forgetting fails the reference stays recorded: the safe side (no second link).
    if (E.isLeft(result) && !result.left.outcomeUnknown)
      await memory.release(reference).catch(() => undefined)
    // Another worker's write of n8n's row may have dropped the record meanwhile: it is
    // checked (and made again) beside the next items; the run's end waits for the checks.
    else memory.confirm(reference)
    return result
  }

/** Payment Link → Create: items side by side; an AI agent may run it. */
export const operation: Operation<CreateInput> = {
  concurrent: true,
  toolSafe: true,
  prepare: (ctx, i) => {
    const { request: given, prefix } = requestOf(ctx, i)
    const { request, errors: conversion } = paymentLinkRequestFromInput(given)
    const retry = (ctx.getNodeParameter('options.retryUncertain', i, false) as boolean) === true
    const checked = validate(PaymentLinkRequest)(request)
    const errors = requestErrors(conversion, E.isLeft(checked) ? checked.left : [])
    return errors.length > 0 || E.isLeft(checked)
      ? E.left(validationError(prefixed(prefix, errors), 'payment link request'))
      : E.right({ request: checked.right, retry, once: onceOf(ctx, i, checked.right) })
  },
  send: (client, input, signal) =>
    input.once === undefined
      ? createLink(client, input, signal)
      : createOnce(client, { ...input, once: input.once }, signal),
  finish: async (ctx) => {
    await memories.get(ctx)?.settle()
  },
}
