/**
 * A subscription-billing service as a SaaS already has it, written against `@paykit/core`
 * and not for the model kit: each billing period it issues an invoice under its own number
 * (`INV-0001`, never the customer's order reference), with line items priced in integer
 * cents; the subscriber pays it by card at the billing portal (3DS when the card asks), or
 * through the payment link the invoice email carries (one link per invoice, its
 * `orderReference` the invoice number); a fetch-style webhook route (`Request` in,
 * `Response` out) that verifies with the core's `verifyWebhookEvent`; a reconcile job that
 * settles charges whose answer was lost and reads each link back. Its states: `open`,
 * `paid` (whether the merchant portal has finalized the order since or not) and `void`.
 *
 * `createBillingService(deps, bugs)` builds it with some realistic bugs (each off by
 * default); `billing.test.ts` puts it under `@paykit/testkit/model` (`underTheKit.ts`) and
 * expects the kit to find each one, and the correct service to hold.
 */
import * as E from 'fp-ts/lib/Either.js'
import { validate, type Client } from '@paykit/core'
import type { Authenticate } from '@paykit/core/client'
import type { OrderStatus } from '@paykit/core/codecs'
import { Money } from '@paykit/core/money'
import { verifyWebhookEvent, WebhookEvent } from '@paykit/core/webhook'

/** The bugs the service can be built with. */
export interface Bugs {
  /** Converts prices to cents with `Math.floor(price * 100)` (19.99 becomes 1998). */
  readonly floorCents?: boolean
  /** Takes a webhook with no signature header as genuine ("our own replays are unsigned"). */
  readonly trustsUnsigned?: boolean
  /** Verifies the signature with a month of tolerance ("clock skew"): a stale event passes. */
  readonly acceptsStale?: boolean
  /** The reconcile job charges an unsettled invoice again under a new invoice number. */
  readonly renumbersOnRetry?: boolean
  /** The webhook route finds the invoice by its number as a 0-based array index (off by one). */
  readonly invoiceByIndex?: boolean
}

/** An invoice's state. */
export type InvoiceState = 'open' | 'paid' | 'void'

/** One invoice line: a price in integer cents, a quantity. */
export interface InvoiceLine {
  readonly description: string
  readonly unitCents: number
  readonly quantity: number
}

/** One invoice as the service stores it. */
export interface Invoice {
  number: string
  /** The subscriber's order it bills (the merchant's own reference for it). */
  readonly orderRef: string
  readonly lines: ReadonlyArray<InvoiceLine>
  readonly totalCents: number
  state: InvoiceState
  /** Times the payment was booked (the period activated): once. */
  bookings: number
  paidCents: number
  /** A card charge whose outcome is unknown (a lost answer): reconcile settles it. */
  unsettled?: { readonly paymentMethodId: string }
  /** The payment link's order code once known; `linkAsked` once a link was requested. */
  linkCode?: string
  linkAsked: boolean
}

/** The card the subscriber types at the billing portal. */
export interface PortalCard {
  readonly number: string
  readonly expirationMonth: string
  readonly expirationYear: string
  readonly cvv: string
  readonly cardHolder: string
}

/** What the service is built on. */
export interface BillingDeps {
  readonly paykit: Client
  readonly authenticate: Authenticate
  readonly webhookSecret: string
  readonly clock: () => Date
  readonly log: (line: string) => void
}

const EXACT = (price: number): number => {
  const money = Money.fromNumber(price)
  if (E.isLeft(money)) throw new RangeError(`price: ${money.left}`)
  return Number(Money.toCents(money.right))
}

const RANK: Readonly<Record<InvoiceState, number>> = { open: 0, paid: 1, void: 1 }

/** The billing service. */
export const createBillingService = (deps: BillingDeps, bugs: Bugs = {}) => {
  const { paykit, log } = deps
  const invoices: Array<Invoice> = []
  const cents = bugs.floorCents === true ? (price: number) => Math.floor(price * 100) : EXACT
  let issued = 0
  const nextNumber = (): string => `INV-${String(++issued).padStart(4, '0')}`

  const byNumber = (number: string): Invoice | undefined =>
    bugs.invoiceByIndex === true
      ? invoices[Number(number.slice(4))]
      : invoices.find((i) => i.number === number)

  const moveTo = (invoice: Invoice, state: InvoiceState, paidCents: number): void => {
    if (RANK[state] <= RANK[invoice.state]) return
    invoice.state = state
    if (state !== 'paid') return
    invoice.bookings++
    invoice.paidCents = paidCents
    log(`invoice ${invoice.number} paid: period activated`)
  }

  const charge = async (invoice: Invoice, paymentMethodId: string): Promise<void> => {
    const flow = await paykit.chargeWith3ds(
      {
        order: { id: invoice.number, amount: invoice.totalCents / 100 },
        cardId: paymentMethodId,
      },
      deps.authenticate,
    )()
    if (E.isLeft(flow)) {
      log(`charge of ${invoice.number} failed (${flow.left._tag})`)
      if (flow.left.outcomeUnknown) invoice.unsettled = { paymentMethodId }
      return
    }
    // an answer: the charge is settled (a refusal above leaves an unknown outcome unknown)
    delete invoice.unsettled
    const state = flow.right
    if (state._tag === 'Succeeded')
      moveTo(invoice, 'paid', cents(Money.toNumber(state.order.amount)))
    // charged before under this number (the answer was lost): it is paid
    else if (state._tag === 'Failed' && state.error.code === 'DUPLICATE_ORDER')
      moveTo(invoice, 'paid', invoice.totalCents)
    else log(`charge of ${invoice.number} ended ${state._tag}`)
  }

  const apply = (invoice: Invoice, status: OrderStatus, total: Money.Money): void => {
    if (status === 'PAID' || status === 'FINALIZED')
      moveTo(invoice, 'paid', cents(Money.toNumber(total)))
    if (status === 'CANCELLED') moveTo(invoice, 'void', 0)
  }

  return {
    /** Issues the invoice of a subscriber's order (once: the same invoice again after). */
    issueInvoice: (
      orderRef: string,
      items: ReadonlyArray<{ name: string; price: number; quantity: number }>,
    ): Invoice => {
      const open = invoices.find((i) => i.orderRef === orderRef)
      if (open !== undefined) return open
      const lines = items.map((i) => ({
        description: i.name,
        unitCents: cents(i.price),
        quantity: i.quantity,
      }))
      const invoice: Invoice = {
        number: nextNumber(),
        orderRef,
        lines,
        totalCents: lines.reduce((sum, l) => sum + l.unitCents * l.quantity, 0),
        state: 'open',
        bookings: 0,
        paidCents: 0,
        linkAsked: false,
      }
      invoices.push(invoice)
      return invoice
    },

    /** The billing portal: the subscriber pays an open invoice with a card. */
    payInvoice: async (number: string, card: PortalCard): Promise<void> => {
      const invoice = invoices.find((i) => i.number === number)
      if (invoice === undefined || invoice.state !== 'open') return
      if (invoice.linkAsked || invoice.unsettled !== undefined) return
      const method = await paykit.createPaymentMethod({ card })()
      if (E.isLeft(method)) return log(`card refused for ${number} (${method.left._tag})`)
      await charge(invoice, method.right.id)
    },

    /** Emails the invoice with its payment link (one link per invoice). */
    sendInvoiceLink: async (number: string): Promise<void> => {
      const invoice = invoices.find((i) => i.number === number)
      if (invoice === undefined || invoice.state !== 'open') return
      if (invoice.linkAsked || invoice.unsettled !== undefined) return
      invoice.linkAsked = true
      const link = await paykit.createPaymentLink({
        orderReference: invoice.number,
        lineItems: invoice.lines.map((l) => ({
          product: { name: l.description, price: l.unitCents / 100 },
          quantity: l.quantity,
        })),
      })()
      if (E.isRight(link)) {
        invoice.linkCode = link.right.orderCode
        return log(`invoice ${number} emailed with link ${link.right.orderCode}`)
      }
      log(`link for ${number} not created (${link.left._tag})`)
      // refused: nothing exists; unknown: a link may exist, its webhooks will tell
      if (!link.left.outcomeUnknown) invoice.linkAsked = false
    },

    /** The webhook route, as a fetch-style server mounts it. */
    webhookRoute: async (request: Request): Promise<Response> => {
      const body = await request.text()
      const header = request.headers.get('Paykit-Signature')
      const event =
        header === null && bugs.trustsUnsigned === true
          ? E.mapLeft(() => 'not an event')(validate(WebhookEvent)(JSON.parse(body)))
          : verifyWebhookEvent({
              secret: deps.webhookSecret,
              body,
              header: header ?? undefined,
              now: deps.clock(),
              ...(bugs.acceptsStale === true ? { toleranceSeconds: 30 * 86_400 } : {}),
            })
      if (E.isLeft(event)) {
        log(`webhook refused: ${event.left}`)
        return new Response('invalid signature', { status: 400 })
      }
      const { data } = event.right
      const invoice =
        data.orderReference === null
          ? invoices.find((i) => i.linkCode === data.orderCode)
          : byNumber(data.orderReference)
      if (invoice === undefined) return new Response('unknown invoice', { status: 202 })
      invoice.linkCode ??= data.orderCode
      invoice.linkAsked = true
      apply(invoice, data.orderStatus, data.total)
      return new Response(null, { status: 204 })
    },

    /** The reconcile job: settles lost charges, reads each link back; one order's or all. */
    reconcile: async (orderRef?: string): Promise<void> => {
      for (const invoice of [...invoices]) {
        if (orderRef !== undefined && invoice.orderRef !== orderRef) continue
        const lost = invoice.unsettled
        if (lost !== undefined && invoice.state === 'open') {
          // a fresh number "so the retry is not refused as a duplicate"
          if (bugs.renumbersOnRetry === true) invoice.number = nextNumber()
          await charge(invoice, lost.paymentMethodId)
        }
        if (invoice.linkCode === undefined) continue
        const order = await paykit.getOrder(invoice.linkCode)()
        if (E.isRight(order)) apply(invoice, order.right.orderStatus, order.right.total)
      }
    },

    /** Every invoice, as the back office lists them. */
    invoices: (): ReadonlyArray<Readonly<Invoice>> => invoices,
  }
}

/** The billing service's interface. */
export type BillingService = ReturnType<typeof createBillingService>
