import type { INodeProperties } from 'n8n-workflow'
import { requestOptions } from './options'

const forOperations = (...operation: ReadonlyArray<string>) => ({
  show: { resource: ['paymentLink'], operation: [...operation] },
})

/** A line item's field shown only for a one-time product (beside its Product Type). */
const oneTimeProduct = { show: { kind: ['product'] } }

const forCreateFields = {
  show: { resource: ['paymentLink'], operation: ['create'], orderSource: ['fields'] },
}

/** Operations of the Payment Link resource. */
export const paymentLinkOperations: INodeProperties = {
  displayName: 'Operation',
  name: 'operation',
  type: 'options',
  noDataExpression: true,
  displayOptions: { show: { resource: ['paymentLink'] } },
  options: [
    {
      name: 'Create',
      value: 'create',
      action: 'Create a payment link',
      description: 'Create a hosted payment link for an order (POST /paymentlink/checkout)',
    },
    {
      name: 'Get Order',
      value: 'getOrder',
      action: 'Get a payment link order',
      description: 'Read an order by its order code (GET /paymentlink/order/{orderCode})',
    },
    {
      name: 'Wait for Status',
      value: 'waitForStatus',
      action: 'Wait for an order status',
      description: 'Poll an order until it reaches one of the chosen statuses, or time out',
    },
  ],
  default: 'create',
}

/** Fields of the Payment Link operations. */
export const paymentLinkFields: ReadonlyArray<INodeProperties> = [
  {
    displayName: 'Order Source',
    name: 'orderSource',
    type: 'options',
    noDataExpression: true,
    displayOptions: forOperations('create'),
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
    displayOptions: {
      show: { resource: ['paymentLink'], operation: ['create'], orderSource: ['item'] },
    },
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
        resource: ['paymentLink'],
        operation: ['create'],
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
        resource: ['paymentLink'],
        operation: ['create'],
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
  {
    displayName: 'Order Code',
    name: 'orderCode',
    type: 'string',
    required: true,
    displayOptions: forOperations('getOrder', 'waitForStatus'),
    default: '',
    placeholder: 'OC00001001',
    description: 'The order code returned when the link was created',
  },
  {
    displayName: 'Statuses',
    name: 'statuses',
    type: 'multiOptions',
    required: true,
    displayOptions: forOperations('waitForStatus'),
    options: [
      { name: 'Cancelled', value: 'CANCELLED' },
      { name: 'Finalized', value: 'FINALIZED' },
      { name: 'Paid', value: 'PAID' },
      { name: 'Pending', value: 'PENDING' },
    ],
    default: ['PAID'],
    description: 'Stop waiting when the order reaches one of these',
  },
  {
    displayName: 'Wait Timeout (Seconds)',
    name: 'waitTimeout',
    type: 'number',
    typeOptions: { minValue: 1 },
    displayOptions: forOperations('waitForStatus'),
    default: 300,
    description: 'Fail the item when no chosen status is seen within this time',
  },
  {
    displayName: 'Poll Interval (Seconds)',
    name: 'pollInterval',
    type: 'number',
    typeOptions: { minValue: 0.1 },
    displayOptions: forOperations('waitForStatus'),
    default: 5,
    description:
      'Time before the first poll; later polls wait 1.5 times longer, up to 10 times this',
  },
  requestOptions(['paymentLink'], ['create', 'getOrder', 'waitForStatus'], true),
]
