/**
 * A shop's checkout service, as a new user would write it against `@paykit/core`: the
 * buyer pays by card (3DS when needed) or through a hosted payment link; a webhook
 * endpoint and a reconcile job keep the shop's orders in step with the service.
 *
 * `checkoutService(mistakes)` builds it with some of the mistakes real integrations make;
 * `naiveCheckout` has four of them, `fixedCheckout` none. The model of
 * `@paykit/testkit/model` finds each one (see checkout.test.ts).
 */
import * as E from 'fp-ts/lib/Either.js'
import { createClient, validate } from '@paykit/core'
import type { OrderStatus } from '@paykit/core/codecs'
import { verifyWebhookEvent, WebhookEvent } from '@paykit/core/webhook'
import type {
  Integration,
  IntegrationContext,
  IntegrationOrder,
  MakeIntegration,
  ShopOrder,
} from '@paykit/testkit/model'

/** The mistakes the service can be built with. */
export interface Mistakes {
  /** After a charge whose outcome is unknown (a 500, a reset), charges again under a new order id. */
  readonly retriesWithNewOrderId?: boolean
  /** After a link creation whose answer was lost, creates the link again. */
  readonly createsSecondLink?: boolean
  /** Takes each webhook's order status as the order's, whatever arrived before. */
  readonly trustsWebhookOrder?: boolean
  /** Records a payment (ships the goods) for every `order.paid` it gets, duplicates too. */
  readonly marksPaidTwice?: boolean
  /** Logs the card it registers. */
  readonly logsCard?: boolean
  /** Takes a webhook with no signature header as genuine. */
  readonly trustsUnsigned?: boolean
  /**
   * Charges with the plain `charge` call and takes its `AUTHENTICATION_REQUIRED` answer
   * (3DS still to do) for a payment.
   */
  readonly paidOn3dsPending?: boolean
  /** Forgets a charge whose answer was lost: the reconcile job never settles it. */
  readonly forgetsLostCharge?: boolean
  /** Ships on any event of its link: an `order.cancelled` (an expired link) too. */
  readonly shipsOnAnyEvent?: boolean
  /**
   * Confirms an `order.paid` with the service before shipping, the "not shipped yet" check
   * made before the read: two deliveries of one event at once both ship.
   */
  readonly racesDuplicates?: boolean
  /**
   * Not a mistake: checks no signature, but confirms every event by reading its order back
   * (`GET /paymentlink/order/{orderCode}`) and records what the service says (the signature
   * only for an order the service no longer has).
   */
  readonly readsBack?: boolean
}

/** Every mistake, one by one (not `readsBack`, which is not one). */
export const MISTAKES: ReadonlyArray<Exclude<keyof Mistakes, 'readsBack'>> = [
  'retriesWithNewOrderId',
  'createsSecondLink',
  'trustsWebhookOrder',
  'marksPaidTwice',
  'logsCard',
  'trustsUnsigned',
  'paidOn3dsPending',
  'forgetsLostCharge',
  'shipsOnAnyEvent',
  'racesDuplicates',
]

interface Order {
  readonly reference: string
  status: OrderStatus
  timesPaid: number
  /** The card charge: its payment method and whether its outcome is unknown. */
  charge?: { readonly cardId: string; readonly amount: number; unknown: boolean }
  /** The link: its order code once known; requested even if the answer was lost. */
  linkCode?: string
  linkRequested: boolean
}

// A status never goes back: PENDING, then PAID or CANCELLED, then FINALIZED.
const RANK: Readonly<Record<OrderStatus, number>> = {
  PENDING: 0,
  PAID: 1,
  CANCELLED: 1,
  FINALIZED: 2,
}

/** The checkout service with the `mistakes` given. */
export const checkoutService =
  (mistakes: Mistakes = {}): MakeIntegration =>
  (context: IntegrationContext): Integration => {
    const client = createClient(context.clientConfig)
    const orders = new Map<string, Order>()
    const lines: Array<string> = []
    const log = (line: string): void => void lines.push(line)

    const orderOf = (reference: string): Order => {
      let order = orders.get(reference)
      if (order === undefined) {
        order = { reference, status: 'PENDING', timesPaid: 0, linkRequested: false }
        orders.set(reference, order)
      }
      return order
    }

    /** The order's new status from the service; a payment is recorded once. */
    const update = (order: Order, status: OrderStatus, trust = false): void => {
      if (trust || RANK[status] > RANK[order.status]) order.status = status
      if ((status === 'PAID' || status === 'FINALIZED') && order.timesPaid === 0) {
        order.timesPaid = 1
        log(`order ${order.reference} paid: shipping`)
      }
    }

    // "the charge went through; 3DS is between the buyer and the bank"
    const chargeNo3ds = async (order: Order, orderId: string): Promise<void> => {
      if (order.charge === undefined) return
      const { cardId, amount } = order.charge
      const answer = await client.charge({ order: { id: orderId, amount }, cardId })()
      if (E.isLeft(answer)) {
        log(`charge of ${order.reference} failed: ${answer.left.message}`)
        order.charge.unknown = answer.left.outcomeUnknown
        return
      }
      order.charge.unknown = false
      const { status, error } = answer.right
      if (status !== 'FAILED' || error?.code === 'DUPLICATE_ORDER') update(order, 'PAID')
      else log(`charge of ${order.reference} failed`)
    }

    const charge = async (order: Order, orderId: string, attempt = 0): Promise<void> => {
      if (order.charge === undefined) return
      if (mistakes.paidOn3dsPending === true) return chargeNo3ds(order, orderId)
      const { cardId, amount } = order.charge
      const flow = await client.chargeWith3ds(
        { order: { id: orderId, amount }, cardId },
        context.authenticate,
      )()
      if (E.isLeft(flow)) {
        log(`charge of ${order.reference} failed: ${flow.left.message}`)
        if (!flow.left.outcomeUnknown || mistakes.forgetsLostCharge === true) return
        if (mistakes.retriesWithNewOrderId === true && attempt === 0)
          return charge(order, `${order.reference}-retry`, 1)
        order.charge.unknown = true // the reconcile job sends the same charge again
        return
      }
      // an answer: an earlier outcome is known now (a refusal above leaves it unknown)
      order.charge.unknown = false
      const state = flow.right
      if (state._tag === 'Succeeded') update(order, 'PAID')
      // The order was charged before (the answer was lost): it is paid.
      else if (state._tag === 'Failed' && state.error.code === 'DUPLICATE_ORDER')
        update(order, 'PAID')
      else log(`charge of ${order.reference} ended ${state._tag}`)
    }

    return {
      payOrder: async (shop: ShopOrder, card) => {
        const order = orderOf(shop.reference)
        // One way to pay an order: a card, or its link (never both).
        if (order.status !== 'PENDING' || order.linkRequested) return
        if (mistakes.logsCard === true) log(`registering card ${card.number} for ${shop.reference}`)
        const method = await client.createPaymentMethod({ card })()
        if (E.isLeft(method)) return log(`card not registered: ${method.left.message}`)
        // Always the shop's reference as order id: a second charge of a paid order is
        // refused (DUPLICATE_ORDER), so trying again is safe.
        order.charge = { cardId: method.right.id, amount: shop.amount, unknown: false }
        return charge(order, shop.reference)
      },

      createLink: async (shop: ShopOrder) => {
        const order = orderOf(shop.reference)
        if (order.status !== 'PENDING' || order.charge !== undefined || order.linkRequested) return
        order.linkRequested = true
        const request = { amount: shop.amount, orderReference: shop.reference }
        let link = await client.createPaymentLink(request)()
        if (E.isLeft(link) && link.left.outcomeUnknown && mistakes.createsSecondLink === true)
          link = await client.createPaymentLink(request)()
        if (E.isRight(link)) {
          order.linkCode = link.right.orderCode
          return
        }
        log(`link for ${shop.reference} not created: ${link.left.message}`)
        // Refused: nothing was created, so it may be asked again. Unknown: a link may
        // exist; its webhooks will tell.
        if (!link.left.outcomeUnknown) order.linkRequested = false
      },

      handleWebhook: async (body, headers) => {
        const header = headers['paykit-signature']
        if (mistakes.readsBack === true) {
          // the event only says "look at this order": the service says what it is
          const claimed = validate(WebhookEvent)(JSON.parse(body))
          const order = E.isRight(claimed)
            ? orders.get(claimed.right.data.orderReference ?? '')
            : undefined
          if (E.isLeft(claimed) || order === undefined) return { status: 200 }
          const details = await client.getOrder(claimed.right.data.orderCode)()
          if (E.isRight(details)) {
            if (details.right.orderReference !== order.reference) return { status: 200 }
            order.linkCode ??= details.right.orderCode
            order.linkRequested = true
            update(order, details.right.orderStatus)
            return { status: 200 }
          }
          // not to be read back (the service dropped it a day past its expiry): the signature
        }
        const event =
          header === undefined && mistakes.trustsUnsigned === true
            ? E.mapLeft(() => 'not an order event')(validate(WebhookEvent)(JSON.parse(body)))
            : verifyWebhookEvent({
                secret: context.webhookSecret,
                body,
                header,
                now: context.clock(),
              })
        if (E.isLeft(event)) {
          log(`webhook refused: ${event.left}`)
          return { status: 401 }
        }
        const { type, data } = event.right
        if (data.orderReference === null) return { status: 200 }
        const order = orderOf(data.orderReference)
        order.linkCode ??= data.orderCode
        order.linkRequested = true
        if (type === 'order.paid' && mistakes.marksPaidTwice === true) {
          order.timesPaid++
          log(`order ${order.reference} paid: shipping`)
        }
        if (type === 'order.paid' && mistakes.racesDuplicates === true && order.timesPaid === 0) {
          await client.getOrder(data.orderCode)() // "confirm before shipping"
          order.timesPaid++
          log(`order ${order.reference} paid: shipping`)
        }
        // "the link is done": shipped whatever the event says
        if (mistakes.shipsOnAnyEvent === true && order.timesPaid === 0) {
          order.timesPaid = 1
          log(`order ${order.reference} done: shipping`)
        }
        update(order, data.orderStatus, mistakes.trustsWebhookOrder === true)
        return { status: 200 }
      },

      reconcile: async (reference) => {
        for (const order of orders.values()) {
          if (reference !== undefined && order.reference !== reference) continue
          if (order.charge?.unknown === true && mistakes.retriesWithNewOrderId !== true)
            await charge(order, order.reference)
          // The naive job only looks at orders it still thinks pending.
          const stale = mistakes.trustsWebhookOrder === true ? order.status === 'PENDING' : true
          if (order.linkCode === undefined || !stale) continue
          const details = await client.getOrder(order.linkCode)()
          if (E.isRight(details)) update(order, details.right.orderStatus)
        }
      },

      view: (): ReadonlyArray<IntegrationOrder> =>
        [...orders.values()].map(({ reference, status, timesPaid }) => ({
          reference,
          status,
          timesPaid,
        })),
      log: () => lines,
    }
  }

/** The service as first written: four mistakes the model catches. */
export const naiveCheckout: MakeIntegration = checkoutService({
  retriesWithNewOrderId: true,
  createsSecondLink: true,
  trustsWebhookOrder: true,
  marksPaidTwice: true,
})

/** The service with every mistake fixed. */
export const fixedCheckout: MakeIntegration = checkoutService()
