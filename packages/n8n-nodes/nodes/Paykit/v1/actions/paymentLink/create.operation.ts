/**
 * Payment Link → Create: a hosted payment link for an order, from the node's fields or the
 * whole request from the input item. Safe to run side by side and as an AI tool: a link
 * creation is repeated only when the user opts in. Its description and operation here; the
 * request of an item, converted and validated once: `createRequest.ts`, sent as it is
 * (`createValidatedPaymentLink`); One Link per Order Reference and its outputs:
 * `oneLinkPerReference.ts`.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import type { PaymentLinkRequest } from '@paykit/core/pure'
import { PaymentLinkResponse } from '@paykit/core/pure'
import type { IDataObject, INodeProperties } from 'n8n-workflow'
import { DEFAULT_HISTORY_SIZE } from '../../helpers/deduplication'
import type { Operation } from '../../helpers/items'
import type { OperationDescription } from '../Action'
import { linkRequestOf } from './createRequest'
import type { Claim } from './oneLinkPerReference'
import { claimOf, createOnce, settleClaims } from './oneLinkPerReference'

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
// operation
// -------------------------------------------------------------------------------------

/** Created and Already Requested with One Link per Order Reference, else one output. */
export { outputs, route } from './oneLinkPerReference'

interface CreateInput {
  readonly request: PaymentLinkRequest
  readonly retry: boolean
  readonly once: Claim | undefined
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

/** Payment Link → Create: items side by side; an AI agent may run it. */
export const operation: Operation<CreateInput> = {
  concurrent: true,
  toolSafe: true,
  prepare: (ctx, i) =>
    pipe(
      linkRequestOf(ctx, i),
      E.map((request) => ({
        request,
        retry: (ctx.getNodeParameter('options.retryUncertain', i, false) as boolean) === true,
        once: claimOf(ctx, i, request.orderReference),
      })),
    ),
  send: (client, input, signal) =>
    input.once === undefined
      ? createLink(client, input, signal)
      : createOnce(input.once, createLink(client, input, signal)),
  finish: settleClaims,
}
