/**
 * The billing service under `@paykit/testkit/model`: the whole adapter. The kit's order is
 * the subscriber's order an invoice bills; everything else is the service's own: its
 * invoice numbers (the kit relates them to its orders by what went over the wire), its
 * integer cents, its `Request`/`Response` webhook route, its states read through
 * `statuses`.
 */
import { createClient } from '@paykit/core'
import type { MakeIntegration, ModelOptions } from '@paykit/testkit/model'
import { createBillingService, type Bugs } from './billingService.js'

/** The adapter for the service built with `bugs` (none: the correct service). */
export const underTheKit =
  (bugs: Bugs = {}): MakeIntegration =>
  (context) => {
    const lines: Array<string> = []
    const billing = createBillingService(
      {
        paykit: createClient(context.clientConfig),
        authenticate: context.authenticate,
        webhookSecret: context.webhookSecret,
        clock: context.clock,
        log: (line) => void lines.push(line),
      },
      bugs,
    )
    return {
      payOrder: async (order, card) => {
        const invoice = billing.issueInvoice(order.reference, order.lineItems)
        await billing.payInvoice(invoice.number, card)
      },
      createLink: async (order) => {
        const invoice = billing.issueInvoice(order.reference, order.lineItems)
        await billing.sendInvoiceLink(invoice.number)
      },
      handleWebhook: async (body, headers) => {
        const request = new Request('https://billing.example/hooks/paykit', {
          method: 'POST',
          headers,
          body,
        })
        const response = await billing.webhookRoute(request)
        return { status: response.status, body: await response.text() }
      },
      reconcile: (reference) => billing.reconcile(reference),
      view: () =>
        billing.invoices().map((invoice) => ({
          reference: invoice.number,
          status: invoice.state,
          timesPaid: invoice.bookings,
          amountPaid: invoice.paidCents / 100,
        })),
      log: () => lines,
    }
  }

/** The options that put the correct service under the kit. */
export const billingModel = {
  integration: underTheKit(),
  statuses: { open: 'PENDING', paid: ['PAID', 'FINALIZED'], void: 'CANCELLED' },
} as const satisfies ModelOptions
