/**
 * What the model asks of the user's integration (a shop's checkout service, a billing
 * job): the adapter through which the story drives it and reads what it believes.
 *
 * @since 0.1.0
 */
import type {
  Authenticate,
  ClientConfig,
  Credentials,
  OrderStatus,
  Sleep,
  Transport,
} from '@paykit/core'
import type { WebhookHandler } from '../service/WebhookDelivery.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * An order of the shop that the story asks the integration to get paid: its reference
 * (the merchant's order id: a charge's `order.id`, a link's `orderReference`) and amount.
 *
 * @category model
 * @since 0.1.0
 */
export interface ShopOrder {
  readonly reference: string
  readonly amount: number
}

/**
 * The card the buyer gives at the shop's own checkout (spec 2.2): the integration
 * registers it (`POST /paymentmethods`) and charges it. Its number and CVV must never
 * appear in what the integration logs.
 *
 * @category model
 * @since 0.1.0
 */
export interface BuyerCard {
  readonly number: string
  readonly expirationMonth: string
  readonly expirationYear: string
  readonly cvv: string
  readonly cardHolder: string
}

/**
 * One order as the integration sees it: its status in the spec's words (`PENDING` until
 * it knows the order is paid) and `timesPaid`, how many times it recorded the order as
 * paid (fulfilled it, sent the goods): 1 for a paid order, 0 otherwise.
 *
 * @category model
 * @since 0.1.0
 */
export interface IntegrationOrder {
  readonly reference: string
  readonly status: OrderStatus
  readonly timesPaid: number
}

/**
 * What the model hands the integration to build itself on: a client config for the
 * core's `createClient` (base URL, credentials, the world's transport, clock, a sleep
 * that does not wait, a timeout), the buyer in the 3DS frame (`authenticate`, for
 * `chargeWith3ds`), the webhook secret and the world's clock for `verifyWebhookEvent`.
 *
 * @category model
 * @since 0.1.0
 */
export interface IntegrationContext {
  readonly clientConfig: ClientConfig & {
    readonly credentials: Credentials
    readonly transport: Transport
    readonly now: () => number
    readonly sleep: Sleep
    readonly timeoutMs: number
  }
  readonly authenticate: Authenticate
  readonly webhookSecret: string
  readonly clock: () => Date
}

/**
 * The adapter to the user's integration:
 * - `payOrder(order, card)`: the buyer pays at the shop's checkout with a card;
 * - `createLink(order)`: the shop creates a hosted payment link for the order;
 * - `handleWebhook(body, headers)`: its webhook endpoint (raw body, lower-case headers);
 * - `reconcile()`: its catch-up job (run once the world is quiet);
 * - `view()`: the orders as it sees them;
 * - `log()`: every line it logged (no secret, card number or CVV may appear).
 *
 * A rejected promise is part of the story (the integration gave up), not a failure.
 *
 * @category model
 * @since 0.1.0
 */
export interface Integration {
  readonly payOrder: (order: ShopOrder, card: BuyerCard) => Promise<void>
  readonly createLink: (order: ShopOrder) => Promise<void>
  readonly handleWebhook: WebhookHandler
  readonly reconcile: () => Promise<void>
  readonly view: () => ReadonlyArray<IntegrationOrder>
  readonly log: () => ReadonlyArray<string>
}

/**
 * Builds a fresh integration for one story (each story starts from nothing).
 *
 * @category model
 * @since 0.1.0
 */
export type MakeIntegration = (context: IntegrationContext) => Integration
