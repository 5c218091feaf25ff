import type { INodeProperties } from 'n8n-workflow'
import { requestOptions } from './options'

const forOperations = (...operation: ReadonlyArray<string>) => ({
  show: { resource: ['charge'], operation: [...operation] },
})

const both = forOperations('create', 'completeAfter3ds')

/** Operations of the Charge resource. */
export const chargeOperations: INodeProperties = {
  displayName: 'Operation',
  name: 'operation',
  type: 'options',
  noDataExpression: true,
  displayOptions: { show: { resource: ['charge'] } },
  options: [
    {
      name: 'Create',
      value: 'create',
      action: 'Charge a payment method',
      description:
        'Charge a saved card for an order (POST /charges). Ends SUCCEEDED, FAILED or AUTHENTICATION_REQUIRED.',
    },
    {
      name: 'Complete After 3DS',
      value: 'completeAfter3ds',
      action: 'Complete a charge after 3DS',
      description:
        'Repeat the charge with the authentication ID once the buyer passed 3DS (POST /charges)',
    },
  ],
  default: 'create',
}

/** Fields of the Charge operations. */
export const chargeFields: ReadonlyArray<INodeProperties> = [
  {
    displayName: 'Order ID',
    name: 'orderId',
    type: 'string',
    required: true,
    displayOptions: both,
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
    displayOptions: both,
    default: 0,
    description:
      'Amount to charge, greater than 0. An expression may give a text such as 25.50: it is read exactly.',
  },
  {
    displayName: 'Payment Method ID',
    name: 'cardId',
    type: 'string',
    required: true,
    displayOptions: both,
    default: '',
    placeholder: 'pm_000001',
    description: 'The ID returned by Payment Method → Create',
  },
  {
    displayName: 'Authentication From',
    name: 'authenticationFrom',
    type: 'options',
    noDataExpression: true,
    displayOptions: forOperations('completeAfter3ds'),
    options: [
      {
        name: 'Frame Message',
        value: 'frameMessage',
        description:
          'The message the 3DS frame posted; the charge is repeated only for authentication.complete with Status SUCCESS',
      },
      { name: 'Authentication ID', value: 'authenticationId' },
    ],
    default: 'frameMessage',
  },
  {
    displayName: 'Frame Message',
    name: 'frameMessage',
    type: 'json',
    required: true,
    displayOptions: {
      show: {
        resource: ['charge'],
        operation: ['completeAfter3ds'],
        authenticationFrom: ['frameMessage'],
      },
    },
    default: '',
    placeholder: '{"MessageType":"authentication.complete","Status":"SUCCESS", ...}',
    description:
      'MessageType, Status, AuthenticationId, OrderId and OrderAmount, as the frame posted them (for example from a Webhook node: {{ $JSON.body }})',
  },
  {
    displayName: 'Authentication ID',
    name: 'authenticationId',
    type: 'string',
    required: true,
    displayOptions: {
      show: {
        resource: ['charge'],
        operation: ['completeAfter3ds'],
        authenticationFrom: ['authenticationId'],
      },
    },
    default: '',
    description: 'The ID of a 3DS authentication that succeeded',
  },
  {
    displayName: 'Additional Fields',
    name: 'additionalFields',
    type: 'collection',
    placeholder: 'Add Field',
    displayOptions: both,
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
    displayOptions: both,
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
  {
    displayName: 'Outputs',
    name: 'chargeOutputs',
    type: 'options',
    noDataExpression: true,
    displayOptions: both,
    options: [
      {
        name: 'One per Status',
        value: 'byStatus',
        description:
          'Succeeded, Authentication Required and Failed (a declined charge, or an item that failed with Continue On Fail)',
      },
      {
        name: 'Single',
        value: 'single',
        description: 'Every item on one output: branch on its status yourself',
      },
    ],
    default: 'byStatus',
    description: 'Whether a declined charge goes to an output of its own',
  },
  requestOptions(['charge'], ['create', 'completeAfter3ds'], false),
]
