/**
 * What the model asks of the user's integration (a shop's checkout service, a billing
 * job): the adapter through which the story drives it and reads what it believes.
 *
 * @since 0.2.0
 */
import type { ClientConfig, Credentials } from '@paykit/core'
import type { Authenticate, Sleep, Transport } from '@paykit/core/client'
import type { OrderStatus } from '@paykit/core/codecs'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One line of a shop order: a name, a unit price in decimal major units of the order's
 * currency (whole cents: 19.99) and a quantity.
 *
 * @category model
 * @since 0.2.0
 */
export interface ShopLineItem {
  readonly name: string
  readonly price: number
  readonly quantity: number
}

/**
 * An order of the shop that the story asks the integration to get paid. `reference` is the
 * kit's name for it (`o1`, `o2`...: send it, or an id of your own, as a charge's
 * `order.id` or a link's `orderReference`). `amount` is what the buyer owes, in decimal
 * major units of `currency` as the service takes them (a charge's `order.amount`, a link's
 * `amount`): `19.99` is 19 dollars 99 cents, always whole cents, never cents as an
 * integer. `lineItems` are what it is made of (their prices times quantities sum to
 * `amount` exactly, as decimals: in binary floating point they may not). The amounts are
 * drawn toward values whose float arithmetic goes wrong (`19.99 * 100`, `0.1 + 0.2`,
 * totals past 2^31 cents).
 *
 * @category model
 * @since 0.2.0
 */
export interface ShopOrder {
  readonly reference: string
  readonly amount: number
  readonly currency: string
  readonly lineItems: ReadonlyArray<ShopLineItem>
}

/**
 * The card the buyer gives at the shop's own checkout (spec 2.2): the integration
 * registers it (`POST /paymentmethods`) and charges it. Its number and CVV must never
 * appear in what the integration logs.
 *
 * @category model
 * @since 0.2.0
 */
export interface BuyerCard {
  readonly number: string
  readonly expirationMonth: string
  readonly expirationYear: string
  readonly cvv: string
  readonly cardHolder: string
}

/**
 * The buyer's card once the kit registered it (the `registerCards` option): the payment
 * method id to charge, as a checkout whose card form posts to the service hands it over.
 *
 * @category model
 * @since 0.2.0
 */
export interface RegisteredCard {
  readonly paymentMethodId: string
}

/**
 * One order as the integration sees it: `reference`, the kit's (`o1`) or the integration's
 * own id for it that went over the wire (a charge's `order.id`, a link's
 * `orderReference`, or the link's `orderCode`); its status in the integration's own words
 * (the service's four, or the user's own mapped by the `statuses` option); `timesPaid`, how
 * many times it recorded the order as paid (fulfilled it, sent the goods): 1 for a paid
 * order, 0 otherwise; and, optionally, `amountPaid`: the amount it recorded as paid, in
 * decimal major units like `ShopOrder.amount` (given, the kit checks it against what the
 * service charged, to the cent).
 *
 * @category model
 * @since 0.2.0
 */
export interface IntegrationOrder {
  readonly reference: string
  readonly status: string
  readonly timesPaid: number
  readonly amountPaid?: number
}

/**
 * What each of the integration's statuses means at the service: a record from its
 * status to the service status (or statuses) it stands for, or a function of the order
 * (`undefined`: not a status it has). By default each of the service's four statuses
 * means itself and nothing else.
 *
 * @category model
 * @since 0.2.0
 */
export type StatusMeaning =
  | Readonly<Record<string, OrderStatus | ReadonlyArray<OrderStatus>>>
  | ((order: IntegrationOrder) => OrderStatus | ReadonlyArray<OrderStatus> | undefined)

/**
 * The headers of a webhook request: a `Headers` object (`headers.get('Paykit-Signature')`)
 * that also reads as a record in any case (`headers['Paykit-Signature']`,
 * `headers['paykit-signature']`, `{ ...headers }` with lower-case names).
 *
 * @category model
 * @since 0.2.0
 */
export type WebhookHeaders = Headers & Readonly<Record<string, string | undefined>>

/**
 * What the integration's webhook endpoint answers: its HTTP status (2xx: delivered) and,
 * maybe, the body it sent (shown in the story, redacted, when the status is not 2xx).
 *
 * @category model
 * @since 0.2.0
 */
export interface WebhookAnswer {
  readonly status: number
  readonly body?: string
}

/**
 * What the model hands the integration to build itself on: a client config for the
 * core's `createClient` (base URL, credentials, the world's transport, clock, a sleep
 * that does not wait, a timeout), the buyer in the 3DS frame (`authenticate`, for
 * `chargeWith3ds`), the webhook secret and the world's clock for `verifyWebhookEvent`.
 *
 * @category model
 * @since 0.2.0
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
 * - `payOrder(order, card)`: the buyer pays at the shop's checkout with a card (a
 *   `BuyerCard`, or a `RegisteredCard` when the kit registers cards); `order.amount` is in
 *   decimal major units of `order.currency`, as the service takes it;
 * - `createLink(order)`: the shop creates a hosted payment link for the order;
 * - `handleWebhook(body, headers)`: its webhook endpoint (the raw body as signed;
 *   `WebhookHeaders`), answering `{ status, body? }` (2xx: delivered);
 * - `reconcile(reference?)`: its catch-up job, for one order (the kit's reference) or (no
 *   reference) all;
 * - `view()`: the orders as it sees them, each under the kit's reference or an id of its
 *   own that went over the wire, `amountPaid` (optional) in decimal major units;
 * - `log()`: every line it logged (no secret, card number or CVV may appear).
 *
 * A rejected promise is part of the story (the integration gave up), not a failure.
 *
 * @category model
 * @since 0.2.0
 */
export interface Integration<Card = BuyerCard> {
  readonly payOrder: (order: ShopOrder, card: Card) => Promise<void>
  readonly createLink: (order: ShopOrder) => Promise<void>
  readonly handleWebhook: (body: string, headers: WebhookHeaders) => Promise<WebhookAnswer>
  readonly reconcile: (reference?: string) => Promise<void>
  readonly view: () => ReadonlyArray<IntegrationOrder>
  readonly log: () => ReadonlyArray<string>
}

/**
 * Builds a fresh integration for one story (each story starts from nothing).
 *
 * @category model
 * @since 0.2.0
 */
export type MakeIntegration<Card = BuyerCard> = (context: IntegrationContext) => Integration<Card>

/**
 * The user's adapter as a model takes it: `integration`, and `registerCards: true` when
 * its `payOrder` takes a `RegisteredCard` (the kit registers the buyer's card at the
 * service first, as the buyer's browser does on a checkout whose card form posts to the
 * service) instead of a `BuyerCard`.
 *
 * @category model
 * @since 0.2.0
 */
export type Adapter =
  | { readonly integration: MakeIntegration; readonly registerCards?: false }
  | { readonly integration: MakeIntegration<RegisteredCard>; readonly registerCards: true }
