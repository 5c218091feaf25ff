import type { INodeProperties } from 'n8n-workflow'
import { requestOptions } from './options'

const forCreate = { show: { resource: ['paymentMethod'], operation: ['create'] } }

const requestSettings = requestOptions(['paymentMethod'], ['create'], false)

/** Operations of the Payment Method resource. */
export const paymentMethodOperations: INodeProperties = {
  displayName: 'Operation',
  name: 'operation',
  type: 'options',
  noDataExpression: true,
  displayOptions: { show: { resource: ['paymentMethod'] } },
  options: [
    {
      name: 'Create',
      value: 'create',
      action: 'Create a payment method from a card',
      description: 'Register a card and get its payment method ID (POST /paymentmethods)',
    },
  ],
  default: 'create',
}

/** Where the card fields are read from in each input item, by default (the spec's names). */
export const DEFAULT_CARD_FIELDS = {
  cardNumberField: 'card.number',
  expirationMonthField: 'card.expirationMonth',
  expirationYearField: 'card.expirationYear',
  cvvField: 'card.cvv',
} as const

/**
 * Fields of the Payment Method operations. The card is never a parameter: n8n saves every
 * parameter in clear (the workflow, its history and each execution), so the node takes the
 * field names that hold the card in the input item, and by default removes the number and
 * the CVV from that item once read.
 */
export const paymentMethodFields: ReadonlyArray<INodeProperties> = [
  {
    displayName:
      'The card is read from each input item (a form, a webhook), never typed in here: n8n saves node parameters in clear. Once read, the card number and CVV are removed from the input item, so the execution n8n saves holds neither.',
    name: 'cardNotice',
    type: 'notice',
    displayOptions: forCreate,
    default: '',
  },
  {
    displayName: 'Card Number Field',
    name: 'cardNumberField',
    type: 'string',
    required: true,
    displayOptions: forCreate,
    default: 'card.number',
    placeholder: 'card.number',
    description:
      'Name of the input field that holds the card number; dots reach into objects (body.card.number)',
  },
  {
    displayName: 'Expiration Month Field',
    name: 'expirationMonthField',
    type: 'string',
    required: true,
    displayOptions: forCreate,
    default: 'card.expirationMonth',
    placeholder: 'card.expirationMonth',
    description:
      'Name of the input field that holds the expiry month: 1 to 12, with or without a leading zero',
  },
  {
    displayName: 'Expiration Year Field',
    name: 'expirationYearField',
    type: 'string',
    required: true,
    displayOptions: forCreate,
    default: 'card.expirationYear',
    placeholder: 'card.expirationYear',
    description:
      'Name of the input field that holds the expiry year: four digits, or two (31 means 2031)',
  },
  {
    displayName: 'CVV Field',
    name: 'cvvField',
    type: 'string',
    required: true,
    displayOptions: forCreate,
    default: 'card.cvv',
    placeholder: 'card.cvv',
    description: 'Name of the input field that holds the card security code (3 or 4 digits)',
  },
  {
    displayName: 'Additional Fields',
    name: 'additionalFields',
    type: 'collection',
    placeholder: 'Add Field',
    displayOptions: forCreate,
    default: {},
    options: [
      { displayName: 'Card Holder', name: 'cardHolder', type: 'string', default: '' },
      {
        displayName: 'Customer Email',
        name: 'email',
        type: 'string',
        placeholder: 'name@email.com',
        default: '',
      },
      {
        displayName: 'Customer ID',
        name: 'id',
        type: 'string',
        default: '',
        description: "The merchant's own customer identifier",
      },
      { displayName: 'Customer Name', name: 'name', type: 'string', default: '' },
      { displayName: 'Customer Phone Number', name: 'phoneNumber', type: 'string', default: '' },
      {
        displayName: 'Single Use',
        name: 'singleUse',
        type: 'boolean',
        default: false,
        description: 'Whether the card is for a single use',
      },
    ],
  },
  {
    ...requestSettings,
    options: [
      {
        displayName: 'Keep Card Data in Input',
        name: 'keepCardData',
        type: 'boolean',
        default: false,
        description:
          "Whether to leave the card number and CVV in the input item. Off by default: n8n saves every node's items with the execution, so a kept card number is stored in clear.",
      },
      ...(requestSettings.options ?? []),
    ],
  },
]
