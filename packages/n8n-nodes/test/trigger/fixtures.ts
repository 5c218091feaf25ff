/**
 * What the trigger tests share: the BUILT trigger and credential (dist/, as n8n loads them),
 * sample order events as the sandbox sends them, and signing with the core's `signWebhook`
 * (the sandbox's signer).
 */
import { createRequire } from 'node:module'
import { signWebhook } from '@paykit/core/webhook'
import { defaultStore } from '@paykit/testkit'
import type { IDataObject } from 'n8n-workflow'
import type * as CredentialModule from '../../credentials/PaykitWebhookApi.credentials.js'
import type * as TriggerModule from '../../nodes/PaykitTrigger/PaykitTrigger.node.js'

const require = createRequire(import.meta.url)

/** The built node and credential classes, as n8n `require`s them. */
export const { PaykitTrigger } =
  require('../../dist/nodes/PaykitTrigger/PaykitTrigger.node.js') as typeof TriggerModule
export const { PaykitWebhookApi } =
  require('../../dist/credentials/PaykitWebhookApi.credentials.js') as typeof CredentialModule

export const SECRET = 'whsec_test_7f3a9c2e'

/** Order details (spec 2.8) of a paid order with one line item, amounts with cents. */
export const paidOrder = (over: IDataObject = {}): IDataObject => ({
  orderId: 1001,
  orderCode: 'OC00001001',
  orderReference: 'INV-42',
  name: 'PaymentLink Order',
  description: null,
  lineItems: [
    {
      productId: 7,
      sku: null,
      name: 'Coffee beans 1 kg',
      price: 19.99,
      promoPrice: 19.99,
      quantity: 3,
      imageUrl: null,
      subTotal: 59.97,
    },
  ],
  orderStatus: 'PAID',
  subtotal: 59.97,
  totalDetails: { shippingAmount: 0, discountAmount: 0, surchargeAmount: 0 },
  total: 59.97,
  metadata: [{ name: 'customer', value: 'ada' }],
  paymentLinkUrl: 'http://127.0.0.1:4010/pay/OC00001001',
  successUrl: null,
  cancelUrl: null,
  store: { ...defaultStore },
  payment: {
    authorizationCode: 'A12345',
    voucherUrl: 'http://127.0.0.1:4010/voucher/OC00001001',
    buyer: { name: 'Ada Lovelace', phone: '+50688880000', email: 'ada@example.com' },
  },
  created: '2026-11-22T01:00:00.000Z',
  ...over,
})

let events = 0

/** An order event (`{ id, type, createdAt, data }`), a new id each call unless given. */
export const orderEvent = (over: IDataObject = {}): IDataObject => ({
  id: `evt_${String(++events).padStart(4, '0')}`,
  type: 'order.paid',
  createdAt: '2026-11-22T01:05:00.000Z',
  data: paidOrder(),
  ...over,
})

/** The event's bytes as the sandbox sends them, and its `Paykit-Signature` at `at`. */
export const signed = (
  event: unknown,
  options: { readonly secret?: string; readonly at?: Date; readonly body?: string } = {},
): { readonly rawBody: Buffer; readonly body: unknown; readonly signature: string } => {
  const text = options.body ?? JSON.stringify(event)
  return {
    rawBody: Buffer.from(text, 'utf8'),
    body: event,
    signature: signWebhook({
      secret: options.secret ?? SECRET,
      body: text,
      timestamp: options.at ?? new Date(),
    }),
  }
}
