import type { INodeProperties } from 'n8n-workflow'
import { requestOptions } from './options'

const forCreate = { show: { resource: ['paymentMethod'], operation: ['create'] } }

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

/** Fields of the Payment Method operations. Card number and CVV are masked in the editor. */
export const paymentMethodFields: ReadonlyArray<INodeProperties> = [
  {
    displayName: 'Card Number',
    name: 'cardNumber',
    type: 'string',
    typeOptions: { password: true },
    required: true,
    displayOptions: forCreate,
    default: '',
    description: 'Never shown in the output: the output keeps the last four digits only',
  },
  {
    displayName: 'Expiration Month',
    name: 'expirationMonth',
    type: 'string',
    required: true,
    displayOptions: forCreate,
    default: '',
    placeholder: '12',
    description: 'Two digits, 01 to 12',
  },
  {
    displayName: 'Expiration Year',
    name: 'expirationYear',
    type: 'string',
    required: true,
    displayOptions: forCreate,
    default: '',
    placeholder: '2030',
    description: 'Four digits',
  },
  {
    displayName: 'CVV',
    name: 'cvv',
    type: 'string',
    typeOptions: { password: true },
    required: true,
    displayOptions: forCreate,
    default: '',
    description: 'Card security code, 3 or 4 digits. Never shown in the output.',
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
  requestOptions(['paymentMethod'], ['create'], false),
]
