/**
 * An order service as a shop already has it, written against `@paykit/core` and not for
 * the model kit: its own order states (`awaiting_payment`, `link_sent`, `paid`,
 * `cancelled`), amounts in cents, a storefront whose card form registers the card at the
 * service (so `checkout` takes a payment method id, never a card), a fetch-style webhook
 * route (`Headers`, `Paykit-Signature` read in its own case), a per-order `sync` job and
 * a structured logger. `paid` is its one word for "the buyer paid": whether the merchant
 * portal has finalized the order since does not concern it.
 *
 * `orders.test.ts` puts it under `@paykit/testkit/model` with a thin adapter
 * (`underTheKit`).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Client } from '@paykit/core'
import type { Authenticate } from '@paykit/core/client'
import { verifyWebhookEvent } from '@paykit/core/webhook'

/** The service's own states of an order. */
export type OrderState = 'awaiting_payment' | 'link_sent' | 'paid' | 'cancelled'

/** One order as the service stores it. */
export interface OrderRecord {
  readonly id: string
  readonly totalCents: number
  state: OrderState
  /** Times the goods were sent (once, when the order became paid). */
  fulfilments: number
  /** The card charge whose outcome is unknown (a lost answer): sync sends it again. */
  unsettledCharge?: { readonly paymentMethodId: string }
  /** The link's order code at the payment service, once known. */
  linkCode?: string
}

/** What the service is built on. */
export interface OrderServiceDeps {
  readonly paykit: Client
  readonly authenticate: Authenticate
  readonly webhookSecret: string
  readonly clock: () => Date
  readonly logger: (event: string, fields: Readonly<Record<string, unknown>>) => void
}

/** A request to the webhook route, as a fetch-style server hands it over. */
export interface WebhookRequest {
  readonly headers: Headers
  readonly rawBody: string
}

// States only move forward: a late or repeated event never takes an order back.
const RANK: Readonly<Record<OrderState, number>> = {
  awaiting_payment: 0,
  link_sent: 0,
  paid: 1,
  cancelled: 1,
}

/** The order service. */
export const createOrderService = (deps: OrderServiceDeps) => {
  const orders = new Map<string, OrderRecord>()
  const { paykit, logger } = deps

  const recordOf = (id: string, totalCents: number): OrderRecord => {
    let order = orders.get(id)
    if (order === undefined) {
      order = { id, totalCents, state: 'awaiting_payment', fulfilments: 0 }
      orders.set(id, order)
    }
    return order
  }

  const moveTo = (order: OrderRecord, state: OrderState): void => {
    if (RANK[state] <= RANK[order.state]) return
    order.state = state
    logger('order.state', { orderId: order.id, state })
    if (state === 'paid') {
      order.fulfilments++
      logger('order.fulfilled', { orderId: order.id })
    }
  }

  const charge = async (order: OrderRecord, paymentMethodId: string): Promise<void> => {
    // The order id is the charge's: a second charge of a paid order is refused
    // (DUPLICATE_ORDER), so sending it again after a lost answer is safe.
    const flow = await paykit.chargeWith3ds(
      { order: { id: order.id, amount: order.totalCents / 100 }, cardId: paymentMethodId },
      deps.authenticate,
    )()
    if (E.isLeft(flow)) {
      logger('charge.failed', { orderId: order.id, reason: flow.left._tag })
      if (flow.left.outcomeUnknown) order.unsettledCharge = { paymentMethodId }
      return
    }
    // an answer: the charge is settled (a refusal above leaves an unknown outcome unknown)
    delete order.unsettledCharge
    const state = flow.right
    if (
      state._tag === 'Succeeded' ||
      (state._tag === 'Failed' && state.error.code === 'DUPLICATE_ORDER')
    )
      moveTo(order, 'paid')
    else logger('charge.ended', { orderId: order.id, outcome: state._tag })
  }

  return {
    /** The storefront's checkout: the card was registered by the card form. */
    checkout: async (orderId: string, totalCents: number, paymentMethodId: string) => {
      const order = recordOf(orderId, totalCents)
      if (order.state !== 'awaiting_payment' || order.unsettledCharge !== undefined) return
      await charge(order, paymentMethodId)
    },

    /** Sends the buyer a hosted payment link (one per order). */
    sendPaymentLink: async (orderId: string, totalCents: number) => {
      const order = recordOf(orderId, totalCents)
      if (order.state !== 'awaiting_payment' || order.unsettledCharge !== undefined) return
      order.state = 'link_sent'
      const link = await paykit.createPaymentLink({
        amount: totalCents / 100,
        orderReference: orderId,
      })()
      if (E.isRight(link)) {
        order.linkCode = link.right.orderCode
        logger('link.sent', { orderId, orderCode: link.right.orderCode })
      } else if (!link.left.outcomeUnknown) {
        // refused: nothing exists, it may be asked again; unknown: its webhooks will tell
        order.state = 'awaiting_payment'
        logger('link.refused', { orderId, reason: link.left._tag })
      }
    },

    /** The webhook route: a signed order event from the payment service. */
    receiveWebhook: async (request: WebhookRequest) => {
      const event = verifyWebhookEvent({
        secret: deps.webhookSecret,
        body: request.rawBody,
        header: request.headers.get('Paykit-Signature') ?? undefined,
        now: deps.clock(),
      })
      if (E.isLeft(event)) {
        logger('webhook.refused', { reason: event.left })
        return { status: 401, body: 'bad signature' }
      }
      const { data } = event.right
      const order = data.orderReference === null ? undefined : orders.get(data.orderReference)
      if (order === undefined) return { status: 200, body: 'ignored' }
      order.linkCode ??= data.orderCode
      if (order.state === 'awaiting_payment') order.state = 'link_sent'
      if (data.orderStatus === 'PAID' || data.orderStatus === 'FINALIZED') moveTo(order, 'paid')
      if (data.orderStatus === 'CANCELLED') moveTo(order, 'cancelled')
      return { status: 200, body: 'ok' }
    },

    /** The sync job of one order: a charge sent again, a link read back. */
    sync: async (orderId: string) => {
      const order = orders.get(orderId)
      if (order === undefined) return
      if (order.unsettledCharge !== undefined) {
        await charge(order, order.unsettledCharge.paymentMethodId)
      }
      if (order.linkCode === undefined) return
      const details = await paykit.getOrder(order.linkCode)()
      if (E.isLeft(details)) return
      const status = details.right.orderStatus
      if (status === 'PAID' || status === 'FINALIZED') moveTo(order, 'paid')
      if (status === 'CANCELLED') moveTo(order, 'cancelled')
    },

    /** Every order, as the back office lists them. */
    listOrders: (): ReadonlyArray<Readonly<OrderRecord>> => [...orders.values()],
  }
}

/** The order service's interface. */
export type OrderService = ReturnType<typeof createOrderService>
