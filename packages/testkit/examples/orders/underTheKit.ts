/**
 * The order service under `@paykit/testkit/model`: the whole adapter. The kit registers
 * the buyer's card (the service takes a payment method id), hands the webhook route a
 * `Headers`, reconciles one order or all through the service's per-order `sync`, and
 * reads the service's own states through `statuses`.
 */
import { createClient } from '@paykit/core'
import type { MakeIntegration, ModelOptions, RegisteredCard } from '@paykit/testkit/model'
import { createOrderService } from './orderService.js'

const cents = (amount: number): number => Math.round(amount * 100)

/** The adapter: one order service per story, its log lines kept as text. */
export const underTheKit: MakeIntegration<RegisteredCard> = (context) => {
  const lines: Array<string> = []
  const service = createOrderService({
    paykit: createClient(context.clientConfig),
    authenticate: context.authenticate,
    webhookSecret: context.webhookSecret,
    clock: context.clock,
    logger: (event, fields) => void lines.push(`${event} ${JSON.stringify(fields)}`),
  })
  return {
    payOrder: (order, card) =>
      service.checkout(order.reference, cents(order.amount), card.paymentMethodId),
    createLink: (order) => service.sendPaymentLink(order.reference, cents(order.amount)),
    handleWebhook: (body, headers) => service.receiveWebhook({ headers, rawBody: body }),
    reconcile: async (reference) => {
      const ids = reference === undefined ? service.listOrders().map((o) => o.id) : [reference]
      for (const id of ids) await service.sync(id)
    },
    view: () =>
      service
        .listOrders()
        .map((o) => ({ reference: o.id, status: o.state, timesPaid: o.fulfilments })),
    log: () => lines,
  }
}

/** What its states mean at the payment service: `paid` is paid, finalized since or not. */
export const statuses = {
  awaiting_payment: 'PENDING',
  link_sent: 'PENDING',
  paid: ['PAID', 'FINALIZED'],
  cancelled: 'CANCELLED',
} as const

/** The options that put it under the kit. */
export const orderServiceModel = {
  integration: underTheKit,
  registerCards: true,
  statuses,
} as const satisfies ModelOptions
