/**
 * Payment Method → Create: a card registered with the service. One item at a time, never
 * repeated once it may have been sent. The card comes from the input item, at the field
 * names the node's parameters give (n8n saves parameters in clear, so a card is never
 * one); once read, its number and CVV are removed from the input item unless the user
 * keeps them, so the execution n8n saves (the upstream node's output is the same object)
 * holds neither. The output keeps at most the card's last four digits. Its description and
 * operation here; the request of an item read and validated in `createRequest.ts`.
 */
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import type { PaymentMethodRequestOutput } from '@paykit/core/pure'
import { PaymentMethod, cardLast4 } from '@paykit/core/pure'
import type { IDataObject, INodeProperties } from 'n8n-workflow'
import type { Operation } from '../../helpers/items'
import type { OperationDescription } from '../Action'
import { LEGACY_CARD_PARAMETERS, methodRequestOf } from './createRequest'

// -------------------------------------------------------------------------------------
// description
// -------------------------------------------------------------------------------------

const keepCardData: INodeProperties = {
  displayName: 'Keep Card Data in Input',
  name: 'keepCardData',
  type: 'boolean',
  default: false,
  description:
    "Whether to leave the card number and CVV in the input item. Off by default: n8n saves every node's items with the execution, so a kept card number is stored in clear.",
}

const legacyCardParameters: ReadonlyArray<INodeProperties> = LEGACY_CARD_PARAMETERS.map(
  (p): INodeProperties => ({
    displayName: p.label,
    name: p.name,
    type: 'hidden',
    default: '',
    displayOptions: { show: { '@version': [1] } },
  }),
)

/**
 * Payment Method → Create: its entry in the Operation list, its fields and options. The
 * card is never a parameter: n8n saves every parameter in clear (the workflow, its history
 * and each execution), so the node takes the field names that hold the card in the input
 * item, and by default removes the number and the CVV from that item once read.
 */
export const description: OperationDescription = {
  option: {
    name: 'Create',
    action: 'Create a payment method from a card',
    description: 'Register a card and get its payment method ID (POST /paymentmethods)',
  },
  properties: [
    {
      displayName:
        'The card is read from each input item, never typed in here: n8n saves node parameters in clear. Once read, its number and CVV are removed from the input item.',
      name: 'cardNotice',
      type: 'notice',
      default: '',
    },
    {
      displayName:
        "Give this node card data produced inside the workflow (for example fetched from a vault by an earlier node), never a card posted into a Webhook or Form trigger: n8n writes the trigger's data into the execution in its database before any node runs.",
      name: 'cardSourceNotice',
      type: 'notice',
      default: '',
    },
    {
      displayName: 'Card Number Field',
      name: 'cardNumberField',
      type: 'string',
      required: true,
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
      default: 'card.cvv',
      placeholder: 'card.cvv',
      description: 'Name of the input field that holds the card security code (3 or 4 digits)',
    },
    {
      displayName: 'Additional Fields',
      name: 'additionalFields',
      type: 'collection',
      placeholder: 'Add Field',
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
    ...legacyCardParameters,
  ],
  options: [keepCardData],
}

// -------------------------------------------------------------------------------------
// operation
// -------------------------------------------------------------------------------------

/** Payment Method → Create: one item at a time; never an AI tool (it takes card data). */
export const operation: Operation<PaymentMethodRequestOutput> = {
  concurrent: false,
  toolSafe: false,
  prepare: methodRequestOf,
  send: (client, request, signal) =>
    pipe(
      client.createPaymentMethod(request, signal ? { signal } : {}),
      TE.map((method): IDataObject => ({
        ...PaymentMethod.encode(method),
        card: {
          last4: cardLast4(request.card.number),
          expirationMonth: request.card.expirationMonth,
          expirationYear: request.card.expirationYear,
        },
      })),
    ),
}
