/**
 * The world a story runs in: a fake of the service (in memory by default, or the nock mock,
 * or the sandbox over HTTP) on a virtual clock, its fault plan, the buyer (3DS frame and
 * hosted checkout), webhook delivery, and the user's integration built on top. It keeps
 * the story told so far and judges the invariants after each step. Only its types and
 * `InvariantBroken` are public: a step (`Step`) runs in a `World`.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import { createClient } from '@paykit/core'
import { fetchTransport, type Authenticate, type Transport } from '@paykit/core/client'
import type { OrderDetails, OrderStatus } from '@paykit/core/codecs'
import { Money } from '@paykit/core/money'
import type { WebhookEvent } from '@paykit/core/webhook'
import { authenticateHeadless, type HeadlessEnding } from '../buyer/Authenticate.js'
import { memoryPaymentService } from '../memory/memoryPaymentService.js'
import { mockPaymentService } from '../nock/mockPaymentService.js'
import { startSandbox } from '../sandbox/startSandbox.js'
import type { ServiceControls } from '../service/ServiceControls.js'
import {
  makeWebhookOutbox,
  signedWebhook,
  unsignedWebhook,
  type SignedWebhook,
  type WebhookHandler,
  type WebhookOutbox,
} from '../service/WebhookDelivery.js'
import { clockOf } from '../simulator/Clock.js'
import { authorizationCodeOf, defaultBuyer, orderDetailsOf } from '../simulator/Orders.js'
import { FIRST_ORDER_ID, orderCodeOf } from '../simulator/PaymentLinks.js'
import { eventsOf, idOf, own, type SimulatorState } from '../simulator/State.js'
import { defaultCredentials, testCards } from '../simulator/TestCards.js'
import type {
  Adapter,
  BuyerCard,
  Integration,
  IntegrationOrder,
  RegisteredCard,
  ShopOrder,
  StatusMeaning,
  WebhookHeaders,
} from './Integration.js'
import type {
  ForgedDelivery,
  Invariant,
  Observation,
  ServiceOrder,
  ViewedOrder,
} from './Invariants.js'
import { messageOf, messagesOf, redactor } from './Redaction.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Which fake of the service a story runs against: `memory` (the default: the simulator
 * in process, no network), `nock` (the nock mock under the core's fetch transport) or
 * `sandbox` (the sandbox over real HTTP). The stories and invariants are the same.
 *
 * @category model
 * @since 0.2.0
 */
export type ServiceKind = 'memory' | 'nock' | 'sandbox'

/**
 * How the buyer ends a 3DS authentication in the frame: the headless buyer's endings (a
 * result, maybe after a PENDING message or a message for another authentication, or
 * `abandon`: the frame closed, no message).
 *
 * @category model
 * @since 0.2.0
 */
export type ThreeDsEnding = HeadlessEnding

/**
 * The card a buyer pays with at the shop's checkout: one that succeeds, one that needs
 * 3DS first, one that is declined.
 *
 * @category model
 * @since 0.2.0
 */
export type CardKind = 'success' | 'authentication' | 'declined'

/**
 * The webhook sender's moves: deliver the oldest pending event, the newest first (out of
 * order), the last one again, hold the oldest back, lose the oldest (redelivered once the
 * world is quiet), deliver everything pending, or deliver the oldest twice at once
 * (`concurrent`: a retry sent while the first delivery is still being handled).
 *
 * @category model
 * @since 0.2.0
 */
export type WebhookMove =
  'deliverNext' | 'deliverLatest' | 'duplicate' | 'delay' | 'drop' | 'deliverAll' | 'concurrent'

/**
 * The webhook adversary's moves, each an event the service did not send (or not then):
 * `unsigned` (no signature header), `otherSecret` (signed with a secret not the
 * merchant's), `stale` (signed 2 h ago with the merchant's secret), `tampered` (a genuine
 * signature over a body then altered), `unknownOrder` (about an order the shop never made,
 * signed with another secret: to be refused before anything is recorded of it) and
 * `replayed` (an earlier event the service sent, delivered again with a fresh signature).
 * The forged ones claim what the service has not done: a pending or cancelled order paid, a
 * paid one finalized, a finalized one cancelled.
 *
 * @category model
 * @since 0.2.0
 */
export type Forgery =
  'unsigned' | 'otherSecret' | 'stale' | 'tampered' | 'unknownOrder' | 'replayed'

/**
 * An invariant broken during a story: the error a story throws, its message the
 * numbered story. The model builds it from texts it has redacted (no secret, card number
 * or CVV), and gives it no `cause`.
 *
 * @example
 * ```ts
 * import { InvariantBroken } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const broken = new InvariantBroken('one link per order reference', 'order o1 has 2 payment links', [
 *   'the shop creates a payment link for order o1',
 * ])
 * assert.equal(
 *   broken.message,
 *   'one link per order reference: order o1 has 2 payment links\n' +
 *     'The story (1 step):\n' +
 *     '  1. the shop creates a payment link for order o1',
 * )
 * ```
 *
 * @category model
 * @since 0.2.0
 */
export class InvariantBroken extends Error {
  override readonly name = 'InvariantBroken'
  constructor(
    readonly invariant: string,
    readonly problem: string,
    readonly story: ReadonlyArray<string>,
    /** The shop orders of the story, as `ordersLine` writes them (none: no line). */
    readonly orders?: string,
  ) {
    super(
      `${invariant}: ${problem}\nThe story (${story.length} ${story.length === 1 ? 'step' : 'steps'}):\n${story.map((s, i) => `  ${i + 1}. ${s}`).join('\n')}${orders === undefined ? '' : `\nThe orders: ${orders}`}`,
    )
  }
}

/**
 * A running world: the fake, the integration, and the story told so far.
 *
 * @category model
 * @since 0.2.0
 */
export interface World {
  readonly service: ServiceControls
  readonly outbox: WebhookOutbox
  /** The ending of the next 3DS authentications. */
  threeDs: ThreeDsEnding
  /** The buyer pays `reference` with a card of `kind` (registered first by the kit when told); the note. */
  readonly payOrder: (reference: string, kind: CardKind) => Promise<string>
  /** The shop creates a link for `reference`; the note. */
  readonly createLink: (reference: string) => Promise<string>
  /** The shop reconciles `reference`, or every order; the note. */
  readonly reconcile: (reference?: string) => Promise<string>
  /** A move of the webhook sender; the note (which event of which order, the answer). */
  readonly webhook: (move: WebhookMove) => Promise<string>
  /** A webhook the service did not send, about `reference`, to the endpoint; the note. */
  readonly forgedWebhook: (kind: Forgery, reference: string) => Promise<string>
  /** The shop orders of the story. */
  readonly orders: ReadonlyArray<ShopOrder>
  /** Adds a step to the story and checks the invariants. */
  readonly step: (text: string) => void
  /** The last step: faults lifted, every webhook delivered, reconcile, the final check. */
  readonly eventually: () => Promise<void>
  /** The service's view of every order touched so far. */
  readonly serviceOrders: () => ReadonlyArray<ServiceOrder>
  /** The pending link order of `reference` at the service, if any. */
  readonly pendingLinkOf: (reference: string) => string | undefined
  /** The link order of `reference` at the service with `status`, if any. */
  readonly linkOf: (reference: string, status: OrderStatus) => string | undefined
  readonly story: () => ReadonlyArray<string>
  /** The one redaction of every text the model prints or throws. */
  readonly redact: (text: string) => string
  readonly close: () => Promise<void>
}

/**
 * Options of a world.
 *
 * @category model
 * @since 0.2.0
 */
export type WorldOptions = Adapter & {
  readonly invariants: ReadonlyArray<Invariant>
  readonly service: ServiceKind
  /** The shop orders of the story (`o1`, `o2`, ...). */
  readonly orders: ReadonlyArray<ShopOrder>
  /** What each status of the view means at the service (`meaningOf(statuses)`). */
  readonly means: (order: IntegrationOrder, index: number) => ReadonlyArray<OrderStatus>
  /**
   * How "eventually" delivers the webhooks still pending: oldest first (`false`, the
   * default), or late as a sender's retries come (`true`): the pending ones newest first,
   * then the lost ones.
   */
  readonly late?: boolean
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/** The virtual clock's start: every story begins at the same instant, so it replays. */
const START_MS = Date.UTC(2026, 0, 5, 9, 0, 0)
const WEBHOOK_SECRET = 'whsec_model_5f1c2a9e'
// The forger's own secret (not the merchant's: a signature with it must be refused).
const FORGER_SECRET = 'whsec_forger_0d4e1b77'
// A stale signature: older than any sensible tolerance (the core's is 5 min).
const STALE_MS = 2 * 3_600_000
// Order codes the service never issues (forged events about no real link).
const FORGED_ORDER_ID = FIRST_ORDER_ID + 900_000
const CVV = '7319'
const SERVICE_STATUSES: ReadonlyArray<OrderStatus> = ['PENDING', 'PAID', 'CANCELLED', 'FINALIZED']
// A quoted text of the integration is cut this short in a step (after redaction).
const QUOTE_MAX = 160
// A step lists this many deliveries, then how many more.
const DELIVERIES_SHOWN = 10
let nockWorlds = 0

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const isServiceStatus = (s: unknown): s is OrderStatus =>
  SERVICE_STATUSES.includes(s as OrderStatus)

const statusList = (value: unknown, field: string): ReadonlyArray<OrderStatus> => {
  const list: ReadonlyArray<unknown> = Array.isArray(value) ? value : [value]
  const wrong = list.find((s) => !isServiceStatus(s))
  if (list.length === 0 || wrong !== undefined)
    throw new TypeError(
      `${field}: ${JSON.stringify(wrong) ?? 'nothing'} is not a status of the service (${SERVICE_STATUSES.join(', ')})`,
    )
  return list as ReadonlyArray<OrderStatus>
}

/**
 * What each order of the view means at the service, from the `statuses` option (checked
 * here: a meaning that is not a service status is an error naming the key). By default a
 * status means itself and must be one of the service's four.
 *
 * @category constructors
 * @since 0.2.0
 */
export const meaningOf = (
  statuses: StatusMeaning | undefined,
): ((order: IntegrationOrder, index: number) => ReadonlyArray<OrderStatus>) => {
  const checked = (order: IntegrationOrder, index: number): string => {
    const field = `view()[${index}]`
    if (typeof order !== 'object' || order === null)
      throw new TypeError(`${field}: expected { reference, status, timesPaid }`)
    if (typeof order.reference !== 'string' || order.reference === '')
      throw new TypeError(`${field}.reference: expected the order's reference (a text)`)
    if (!Number.isInteger(order.timesPaid) || order.timesPaid < 0)
      throw new TypeError(
        `${field}.timesPaid: expected how many times the order was recorded paid (0, 1, ...), got ${String(order.timesPaid)}`,
      )
    if (typeof order.status !== 'string')
      throw new TypeError(`${field}.status: expected a text, got ${typeof order.status}`)
    // null: not given, as undefined (an adapter in JavaScript may write either)
    const paid: unknown = order.amountPaid
    if (paid !== undefined && paid !== null && (typeof paid !== 'number' || !Number.isFinite(paid)))
      throw new TypeError(
        `${field}.amountPaid: expected the amount recorded paid in decimal major units (19.99), got ${String(order.amountPaid)}`,
      )
    return field
  }
  if (statuses === undefined)
    return (order, index) => {
      const field = checked(order, index)
      if (isServiceStatus(order.status)) return [order.status]
      throw new TypeError(
        `${field}.status: "${order.status}" is not a status of the service (${SERVICE_STATUSES.join(', ')}); say what it means with the option statuses`,
      )
    }
  if (typeof statuses === 'function')
    return (order, index) => {
      const field = checked(order, index)
      const means = statuses(order)
      if (means === undefined)
        throw new TypeError(
          `${field}.status: "${order.status}" has no meaning (statuses gave none)`,
        )
      return statusList(means, `statuses(${field})`)
    }
  const table = new Map<string, ReadonlyArray<OrderStatus>>()
  for (const [key, value] of Object.entries(statuses))
    table.set(key, statusList(value, `statuses.${key}`))
  return (order, index) => {
    const field = checked(order, index)
    const means = table.get(order.status)
    if (means === undefined)
      throw new TypeError(
        `${field}.status: "${order.status}" is not in the option statuses (${[...table.keys()].join(', ')})`,
      )
    return means
  }
}

/**
 * The headers of a webhook as `WebhookHeaders`: a `Headers` object that also reads as a
 * record, in any case (spread, it gives lower-case names).
 *
 * @category constructors
 * @since 0.2.0
 */
const webhookHeaders = (record: Readonly<Record<string, string>>): WebhookHeaders => {
  const headers = new Headers(record)
  return new Proxy(headers, {
    get: (target, name) => {
      if (typeof name !== 'string' || name in target) {
        const value: unknown = Reflect.get(target, name, target)
        // Headers' methods read private slots: call them on the Headers itself.
        return typeof value === 'function' ? value.bind(target) : value
      }
      return target.get(name) ?? undefined
    },
    has: (target, name) => name in target || (typeof name === 'string' && target.has(name)),
    ownKeys: (target) => [...target.keys()],
    getOwnPropertyDescriptor: (target, name) =>
      typeof name === 'string' && target.has(name)
        ? { value: target.get(name), enumerable: true, configurable: true, writable: false }
        : undefined,
  }) as WebhookHeaders
}

interface Fake {
  readonly controls: ServiceControls
  readonly baseUrl: string
  readonly transport: Transport
  readonly timeoutMs: number
  readonly close: () => Promise<void>
}

const openFake = async (kind: ServiceKind, now: () => Date): Promise<Fake> => {
  if (kind === 'memory') {
    const service = memoryPaymentService({ baseUrl: 'https://paykit.model', now })
    return {
      controls: service,
      baseUrl: service.baseUrl,
      transport: service.transport,
      timeoutMs: 5_000,
      close: async () => undefined,
    }
  }
  // Over a socket a `hang` costs the client's whole timeout: keep it short.
  const timeoutMs = 250
  if (kind === 'nock') {
    const mock = mockPaymentService({ baseUrl: `https://paykit-model-${++nockWorlds}.test`, now })
    return {
      controls: mock,
      baseUrl: mock.baseUrl,
      transport: fetchTransport({ timeoutMs }),
      timeoutMs,
      close: async () => mock.restore(),
    }
  }
  const sandbox = await startSandbox({ now, expirySweepMs: 0 })
  return {
    controls: sandbox,
    baseUrl: sandbox.url,
    transport: fetchTransport({ timeoutMs }),
    timeoutMs,
    close: () => sandbox.close(),
  }
}

const PAID_AT_SERVICE: ReadonlySet<OrderStatus> = new Set(['PAID', 'FINALIZED'])

const EVENT_TYPE: Readonly<Record<OrderStatus, WebhookEvent['type']>> = {
  PENDING: 'order.paid',
  PAID: 'order.paid',
  CANCELLED: 'order.cancelled',
  FINALIZED: 'order.finalized',
}

/** What a forged event claims of an order the service has at `status`: what it has not done. */
const claimOf = (status: OrderStatus): OrderStatus =>
  status === 'PAID' ? 'FINALIZED' : status === 'FINALIZED' ? 'CANCELLED' : 'PAID'

const moneyOf = (n: number): Money.Money => {
  const money = Money.fromNumber(n)
  return money._tag === 'Right' ? money.right : Money.zero
}

/** The exact sum of amounts (most orders have none or one). */
const totalOf = (amounts: ReadonlyArray<number>): number =>
  amounts.length < 2 ? (amounts[0] ?? 0) : Money.toNumber(Money.sum(amounts.map(moneyOf)))

/** `o1 59.97 USD (19.99 x 3)`: a shop order as the report lists it. */
const orderText = (order: ShopOrder): string => {
  const shown = (n: number): string => Money.toString(moneyOf(n), 2)
  const [only] = order.lineItems
  const items =
    order.lineItems.length === 1 && only?.quantity === 1
      ? ''
      : ` (${order.lineItems.map((i) => (i.quantity === 1 ? shown(i.price) : `${shown(i.price)} x ${i.quantity}`)).join(' + ')})`
  return `${order.reference} ${shown(order.amount)} ${order.currency}${items}`
}

/**
 * The shop orders as a report lists them: `o1 59.97 USD (19.99 x 3), o2 0.30 USD (0.10 +
 * 0.20)`.
 *
 * @category destructors
 * @since 0.2.0
 */
export const ordersLine = (orders: ReadonlyArray<ShopOrder>): string =>
  orders.map(orderText).join(', ')

/** The deliveries in the order made: `a, then b, then c`, the first ten. */
const inOrder = (deliveries: ReadonlyArray<string>): string =>
  deliveries.length <= DELIVERIES_SHOWN
    ? deliveries.join(', then ')
    : `${deliveries.slice(0, DELIVERIES_SHOWN).join(', then ')}, then ${deliveries.length - DELIVERIES_SHOWN} more`

/**
 * Opens a world for one story: a fresh fake, a fresh integration.
 *
 * @category constructors
 * @since 0.2.0
 */
export const openWorld = async (options: WorldOptions): Promise<World> => {
  const wall = (): Date => new Date(START_MS)
  const fake = await openFake(options.service, wall)
  const service = fake.controls
  const clock = (): Date => clockOf(service.state(), wall())
  const orders = options.orders
  const known = new Set(orders.map((o) => o.reference))
  const expirationYear = String(Math.max(new Date().getUTCFullYear(), 2026) + 3)
  const cardOf = (kind: CardKind): BuyerCard => ({
    number: testCards[kind].number,
    expirationMonth: '12',
    expirationYear,
    cvv: CVV,
    cardHolder: 'Ada Buyer',
  })
  const secrets = [
    defaultCredentials.clientSecret,
    defaultCredentials.apiKey,
    WEBHOOK_SECRET,
    CVV,
    testCards.success.number,
    testCards.authentication.number,
    testCards.declined.number,
  ]
  // The access tokens the service issued, secrets too (kept in its state a day past expiry).
  const tokens = new Set<string>()
  // one list while no new token is issued (the invariants build their patterns once a list)
  let secretList: ReadonlyArray<string> = secrets
  const secretsNow = (): ReadonlyArray<string> => {
    if (secretList.length !== secrets.length + tokens.size) secretList = [...secrets, ...tokens]
    return secretList
  }
  const redact = redactor(secretsNow)
  const quote = (text: string): string => {
    const clean = redact(text)
    return JSON.stringify(clean.length > QUOTE_MAX ? `${clean.slice(0, QUOTE_MAX)}…` : clean)
  }

  let threeDs: ThreeDsEnding = 'success'
  const authenticate: Authenticate = (url, id) =>
    authenticateHeadless(threeDs, {
      transport: fake.transport,
      timeoutMs: fake.timeoutMs,
    })(url, id)
  const clientConfig = {
    baseUrl: fake.baseUrl,
    credentials: defaultCredentials,
    transport: fake.transport,
    now: () => clock().getTime(),
    sleep: async () => undefined,
    timeoutMs: fake.timeoutMs,
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
  }
  // Either card type: which one `payOrder` takes is the adapter's `registerCards`.
  const integration = options.integration({
    clientConfig,
    authenticate,
    webhookSecret: WEBHOOK_SECRET,
    clock,
  }) as Integration<unknown>
  // The buyer's side registers cards with a client of its own (only when told to).
  const buyer = options.registerCards === true ? createClient(clientConfig) : undefined

  // What went over the wire, related to the shop's orders: each id a charge or link carried
  // (the integration's own, or the kit's reference) and each link code, to the order.
  const owner = new Map<string, string>(orders.map((o) => [o.reference, o.reference]))
  const ownIds = new Map<string, Array<string>>()
  // The payment methods registered while the integration worked on one order ('' when
  // charged for several: a card on file says nothing).
  const cardOwner = new Map<string, string>()
  const relate = (id: string | null, reference: string, isOwn: boolean): void => {
    if (id === null || owner.has(id) || !known.has(reference)) return
    owner.set(id, reference)
    if (!isOwn) return
    const ids = ownIds.get(reference)
    if (ids === undefined) ownIds.set(reference, [id])
    else ids.push(id)
  }

  /** `o2`, or `o2 (inv_0002)` when the integration sent its own id. */
  const nameOn = (reference: string | null, orderCode: string): string => {
    const order = (reference === null ? undefined : owner.get(reference)) ?? owner.get(orderCode)
    if (order === undefined) return reference ?? orderCode
    return reference === null || reference === order ? order : `${order} (${reference})`
  }
  const eventName = (event: WebhookEvent): string =>
    `${event.type} of ${nameOn(event.data.orderReference, event.data.orderCode)}`
  /** `type of order` of a webhook body. */
  const eventOf = (body: string): string => {
    try {
      const event = JSON.parse(body) as {
        type?: unknown
        data?: { orderReference?: unknown; orderCode?: unknown }
      }
      const reference = event.data?.orderReference
      const code = event.data?.orderCode
      return `${String(event.type)} of ${nameOn(typeof reference === 'string' ? reference : null, String(code))}`
    } catch {
      return 'a webhook'
    }
  }

  const thrown: Array<string> = []
  const answers: Array<string> = []
  // Every delivery made to the endpoint, in order, as the story names it.
  const deliveries: Array<string> = []
  const handleOnce: WebhookHandler = async (body, headers) => {
    const what = eventOf(body)
    let answer: { readonly status: number; readonly body?: string }
    try {
      answer = await integration.handleWebhook(body, webhookHeaders(headers))
    } catch (e) {
      const messages = messagesOf(e)
      thrown.push(...messages)
      deliveries.push(`${what} (the endpoint threw ${quote(messages.join(', caused by: '))})`)
      throw e
    }
    if (typeof answer !== 'object' || answer === null || typeof answer.status !== 'number') {
      deliveries.push(`${what} (the endpoint answered ${quote(messageOf(answer))}, not { status })`)
      throw new TypeError('handleWebhook: expected an answer { status, body? }')
    }
    if (answer.body !== undefined) answers.push(String(answer.body))
    const ok = answer.status >= 200 && answer.status < 300
    deliveries.push(
      ok
        ? what
        : `${what} (answered ${answer.status}${answer.body === undefined || answer.body === '' ? '' : ` ${quote(String(answer.body))}`})`,
    )
    return { status: answer.status }
  }
  // set by `twiceAtOnce`: the next delivery is handled twice at once (the sender's retry)
  let retryInFlight = false
  const handler: WebhookHandler = (body, headers, signal) => {
    if (!retryInFlight) return handleOnce(body, headers, signal)
    retryInFlight = false
    const retry = handleOnce(body, headers, signal).catch(() => undefined)
    return Promise.all([handleOnce(body, headers, signal), retry]).then(([first]) => first)
  }
  const outbox = makeWebhookOutbox(service, { handler, secret: WEBHOOK_SECRET, now: clock })

  // Which shop order each charge and link counts for, read from the state after each step
  // (a charge is never changed once made: each is read once).
  const chargeRefs: Array<string> = []
  const charges: Array<ServiceOrder['charges'][number]> = []
  const links = new Map<string, { reference: string; status: OrderStatus; total: number }>()
  let ordersSeen = 0
  let methodsSeen = 0
  let tokensSeen = 0
  let acting: string | undefined
  const story: Array<string> = []

  /** The order a charge under a new id counts for, from its card and its amount. */
  const byCard = (card: string | undefined, amount: number): string | undefined => {
    const cents = Math.round(amount * 100)
    const same = orders.filter((o) => Math.round(o.amount * 100) === cents)
    const only = same.length === 1 ? same[0]?.reference : undefined
    if (card === undefined || card === '') return only
    return same.length === 0 || same.some((o) => o.reference === card) ? card : (only ?? card)
  }

  const scan = (state: SimulatorState): void => {
    if (state.counters.token !== tokensSeen)
      for (const token of Object.keys(state.tokens)) tokens.add(token)
    tokensSeen = state.counters.token
    for (let n = methodsSeen + 1; n <= state.counters.paymentMethod; n++)
      if (acting !== undefined && !cardOwner.has(idOf('pm', n)))
        cardOwner.set(idOf('pm', n), acting)
    methodsSeen = state.counters.paymentMethod
    for (let i = chargeRefs.length; i < state.charges.length; i++) {
      const charge = state.charges[i]
      if (charge === undefined) break
      const card = cardOwner.get(charge.cardId)
      const amount = Money.toNumber(charge.amount)
      // by its id when known; else the order worked on; else (eventually) its card's or the
      // one order of its amount (a card on file charged for another order)
      const reference =
        owner.get(charge.orderId) ?? acting ?? byCard(card, amount) ?? charge.orderId
      relate(charge.orderId, reference, true)
      if (card !== undefined && card !== reference) cardOwner.set(charge.cardId, '')
      chargeRefs.push(reference)
      charges.push({ id: charge.id, status: charge.status, amount })
    }
    for (let n = ordersSeen + 1; n <= state.counters.order; n++) {
      const code = orderCodeOf(FIRST_ORDER_ID + n - 1)
      const order = own(state.orders, code)
      if (order === undefined) continue
      const ref = order.orderReference
      const reference = (ref === null ? undefined : owner.get(ref)) ?? acting ?? ref ?? code
      relate(ref, reference, true)
      relate(code, reference, false)
      links.set(code, { reference, status: order.status, total: Money.toNumber(order.total) })
    }
    ordersSeen = state.counters.order
    for (const [code, link] of links) {
      const order = own(state.orders, code)
      if (order !== undefined && order.status !== link.status) link.status = order.status
    }
  }

  const serviceOrders = (): ReadonlyArray<ServiceOrder> => {
    const state = service.state()
    scan(state)
    const byRef = new Map<
      string,
      {
        charges: Array<ServiceOrder['charges'][number]>
        links: Array<ServiceOrder['links'][number]>
      }
    >()
    const entry = (reference: string) => {
      let e = byRef.get(reference)
      if (e === undefined) byRef.set(reference, (e = { charges: [], links: [] }))
      return e
    }
    charges.forEach((c, i) => entry(chargeRefs[i] ?? c.id).charges.push(c))
    for (const [orderCode, link] of links)
      entry(link.reference).links.push({ orderCode, status: link.status, total: link.total })
    const currency = state.config.store.currencyCode
    return [...byRef].map(([reference, e]): ServiceOrder => {
      const succeeded = e.charges.filter((c) => c.status === 'SUCCEEDED')
      const paidLinks = e.links.filter((l) => PAID_AT_SERVICE.has(l.status))
      const status: OrderStatus =
        paidLinks[0] !== undefined
          ? paidLinks[0].status
          : succeeded.length > 0
            ? 'PAID'
            : (e.links.at(-1)?.status ?? 'PENDING')
      return {
        reference,
        ownIds: ownIds.get(reference) ?? [],
        amount: orders.find((o) => o.reference === reference)?.amount,
        currency,
        charges: e.charges,
        succeededCharges: succeeded.map((c) => c.id),
        links: e.links,
        total: totalOf([...succeeded.map((c) => c.amount), ...paidLinks.map((l) => l.total)]),
        status,
      }
    })
  }

  const listed = ordersLine(orders)
  const broken = (invariant: string, problem: string): InvariantBroken =>
    new InvariantBroken(redact(invariant), redact(problem), story.map(redact), redact(listed))

  /** The integration's view, each order related to the kit's; throws what is wrong with it. */
  const readView = (): ReadonlyArray<ViewedOrder> => {
    const view: unknown = integration.view()
    if (!Array.isArray(view))
      throw new TypeError('view(): expected an array of { reference, status, timesPaid }')
    return (view as ReadonlyArray<IntegrationOrder>).map((order, i) => {
      const means = options.means(order, i)
      return { ...order, order: owner.get(order.reference) ?? order.reference, means }
    })
  }

  // After a step that delivered a webhook the service did not send: what, and the view before.
  let forged: ForgedDelivery | undefined

  const observe = (quiet: boolean): Observation => {
    let view: ReadonlyArray<ViewedOrder>
    let log: ReadonlyArray<string>
    try {
      view = readView()
      const lines: unknown = integration.log()
      if (!Array.isArray(lines) || lines.some((l) => typeof l !== 'string'))
        throw new TypeError('log(): expected an array of texts')
      log = lines as ReadonlyArray<string>
    } catch (e) {
      // a view the model cannot read: the story so far, and what was wrong
      throw broken("the integration's view and log can be read", messageOf(e))
    }
    return {
      service: serviceOrders(),
      view,
      log: thrown.length === 0 && answers.length === 0 ? log : [...log, ...thrown, ...answers],
      secrets: secretsNow(),
      quiet,
      ...(forged === undefined ? {} : { forged }),
    }
  }

  const check = (text: string, quiet: boolean): void => {
    story.push(text)
    try {
      const observation = observe(quiet)
      for (const invariant of options.invariants) {
        const problem = invariant.check(observation)
        if (problem !== undefined) throw broken(invariant.name, problem)
      }
    } finally {
      forged = undefined
    }
  }

  const act = async (reference: string | undefined, work: () => Promise<void>): Promise<string> => {
    acting = reference
    try {
      await work()
      return ''
    } catch (e) {
      const messages = messagesOf(e)
      thrown.push(...messages)
      return `: the integration threw ${quote(messages.join(', caused by: '))}`
    } finally {
      scan(service.state())
      acting = undefined
    }
  }

  const orderOf = (reference: string): ShopOrder =>
    orders.find((o) => o.reference === reference) ?? {
      reference,
      amount: 1,
      currency: service.state().config.store.currencyCode,
      lineItems: [{ name: 'Item', price: 1, quantity: 1 }],
    }

  const payOrder = async (reference: string, kind: CardKind): Promise<string> => {
    const card = cardOf(kind)
    if (buyer === undefined)
      return act(reference, () => integration.payOrder(orderOf(reference), card))
    const method = await buyer.createPaymentMethod({ card })()
    scan(service.state())
    if (E.isLeft(method))
      return `: the buyer's card was not registered (${quote(method.left.message)})`
    cardOwner.set(method.right.id, reference)
    const registered: RegisteredCard = { paymentMethodId: method.right.id }
    return act(reference, () => integration.payOrder(orderOf(reference), registered))
  }

  const deliveredSince = (start: number): ReadonlyArray<string> => deliveries.slice(start)

  /** The webhook `deliver` sends, handled twice at once (a retry while the first is handled). */
  const twiceAtOnce = async (deliver: () => Promise<unknown>): Promise<void> => {
    retryInFlight = true
    await deliver()
    retryInFlight = false
  }

  const webhook = async (move: WebhookMove): Promise<string> => {
    const start = deliveries.length
    switch (move) {
      case 'delay':
      case 'drop': {
        const event = move === 'delay' ? outbox.delay() : outbox.drop()
        return event === undefined ? ': there is none' : `: ${eventName(event)}`
      }
      case 'deliverAll': {
        await outbox.deliverAll()
        const made = deliveredSince(start)
        return made.length === 0 ? ': there is none' : `: ${made.length} (${inOrder(made)})`
      }
      case 'concurrent': {
        await twiceAtOnce(outbox.deliverNext)
        const made = deliveredSince(start)
        return made.length === 0 ? ': there is none' : `: ${inOrder(made)}`
      }
      default: {
        const delivery = await (move === 'deliverNext'
          ? outbox.deliverNext()
          : move === 'deliverLatest'
            ? outbox.deliverLatest()
            : outbox.duplicate())
        return delivery === undefined ? ': there is none' : `: ${inOrder(deliveredSince(start))}`
      }
    }
  }

  let forgeries = 0
  /** An event about `reference` saying `status` (its latest link's details, or made up). */
  const eventAbout = (reference: string, status: OrderStatus, at: Date): WebhookEvent => {
    const state = service.state()
    const code = [...links].reverse().find(([, l]) => l.reference === reference)?.[0]
    const record = code === undefined ? undefined : own(state.orders, code)
    const amount = moneyOf(orderOf(reference).amount)
    const orderId = FORGED_ORDER_ID + forgeries
    const details: OrderDetails =
      record !== undefined
        ? orderDetailsOf(state, record)
        : orderDetailsOf(state, {
            orderId,
            orderCode: orderCodeOf(orderId),
            orderReference: ownIds.get(reference)?.[0] ?? reference,
            name: 'PaymentLink Order',
            description: null,
            lineItems: [],
            subtotal: amount,
            total: amount,
            metadata: [],
            successUrl: null,
            cancelUrl: null,
            locationCode: null,
            status: 'PENDING',
            payment: null,
            createdAtMs: at.getTime(),
            expiresAtMs: at.getTime() + 86_400_000,
          })
    const paid = PAID_AT_SERVICE.has(status)
    return {
      id: idOf('evt', orderId),
      type: EVENT_TYPE[status],
      createdAt: at.toISOString(),
      data: {
        ...details,
        orderStatus: status,
        payment: paid
          ? (details.payment ?? {
              authorizationCode: authorizationCodeOf(orderId),
              voucherUrl: `${details.paymentLinkUrl}/voucher`,
              buyer: defaultBuyer,
            })
          : details.payment,
      },
    }
  }

  // how the invariant names the event (`what`)
  const FORGED_AS: Readonly<Record<Forgery, (event: string) => string>> = {
    unsigned: (e) => `the unsigned ${e}`,
    otherSecret: (e) => `the ${e} signed with another secret`,
    stale: (e) => `the ${e} signed 2 h ago`,
    tampered: (e) => `the ${e} altered after signing`,
    unknownOrder: (e) => `the ${e}, an order the shop never made,`,
    replayed: (e) => `the ${e} replayed with a fresh signature`,
  }

  const forgedWebhook = async (kind: Forgery, reference: string): Promise<string> => {
    scan(service.state())
    forgeries++
    const now = clock()
    let request: SignedWebhook
    let what: string
    if (kind === 'replayed') {
      const codes = new Set([...links].filter(([, l]) => l.reference === reference).map(([c]) => c))
      const event = eventsOf(service.state()).find((e) => codes.has(e.data.orderCode))
      if (event === undefined) return ': there is none'
      request = signedWebhook(event, WEBHOOK_SECRET, { timestamp: now })
      what = FORGED_AS.replayed(eventName(event))
    } else {
      const target = kind === 'unknownOrder' ? `o${orders.length + 1}` : reference
      const status = serviceOrders().find((o) => o.reference === target)?.status ?? 'PENDING'
      const claim = eventAbout(target, claimOf(status), now)
      const body = unsignedWebhook(claim).body
      request =
        kind === 'unsigned'
          ? { body, headers: unsignedWebhook(claim).headers }
          : kind === 'tampered'
            ? {
                body,
                headers: signedWebhook(eventAbout(target, status, now), WEBHOOK_SECRET, {
                  timestamp: now,
                }).headers,
              }
            : signedWebhook(claim, kind === 'stale' ? WEBHOOK_SECRET : FORGER_SECRET, {
                timestamp: kind === 'stale' ? new Date(now.getTime() - STALE_MS) : now,
              })
      what = FORGED_AS[kind](eventName(claim))
    }
    let before: ReadonlyArray<ViewedOrder> | undefined
    try {
      before = readView()
    } catch {
      before = undefined // the step's own check reports an unreadable view
    }
    const start = deliveries.length
    await handler(request.body, request.headers, new AbortController().signal).catch(
      () => undefined,
    )
    scan(service.state())
    if (before !== undefined) forged = { what, before }
    return `: ${inOrder(deliveredSince(start))}`
  }

  // each delivery listed, a refused one again at each attempt
  const delivered = (made: ReadonlyArray<string>, what: string): string =>
    made.length === 1
      ? `${what} is delivered (${inOrder(made)})`
      : `${what} are delivered, in this order (${inOrder(made)})`

  // A sender in trouble: the pending webhooks newest first, each retried while its first
  // delivery is handled, then the lost ones (retries come after the newer events
  // delivered meanwhile); a refused one is tried again after those.
  const deliverLate = async (): Promise<void> => {
    for (let n = outbox.pending().length; n > 0; n--) await twiceAtOnce(outbox.deliverLatest)
    await outbox.redeliverDropped()
    await outbox.deliverAll()
  }

  const eventually = async (): Promise<void> => {
    service.clearFaults()
    const first = deliveries.length
    const late = options.late === true && outbox.pending().length + outbox.dropped().length > 0
    await (late ? deliverLate() : outbox.deliverAll())
    const before = deliveredSince(first)
    const note = await act(undefined, () => integration.reconcile())
    const second = deliveries.length
    await outbox.deliverAll()
    const after = deliveredSince(second)
    const pending =
      before.length === 0
        ? 'no webhook is pending'
        : late
          ? delivered(
              before,
              'the pending webhooks (newest first, each twice at once, any lost one last)',
            )
          : delivered(before, before.length === 1 ? 'the pending webhook' : 'the pending webhooks')
    const more =
      after.length === 0
        ? ''
        : `; then ${delivered(after, after.length === 1 ? 'the webhook it caused' : 'the webhooks it caused')}`
    check(`eventually: the network recovers, ${pending}, the shop reconciles${note}${more}`, true)
  }

  const linkOf = (reference: string, status: OrderStatus): string | undefined => {
    scan(service.state())
    const state = service.state()
    for (const [code, link] of links)
      if (link.reference === reference && own(state.orders, code)?.status === status) return code
    return undefined
  }

  return {
    service,
    outbox,
    get threeDs() {
      return threeDs
    },
    set threeDs(ending: ThreeDsEnding) {
      threeDs = ending
    },
    payOrder,
    createLink: (reference) => act(reference, () => integration.createLink(orderOf(reference))),
    reconcile: (reference) =>
      act(reference, () =>
        reference === undefined ? integration.reconcile() : integration.reconcile(reference),
      ),
    webhook,
    forgedWebhook,
    orders,
    step: (text) => check(text, false),
    eventually,
    serviceOrders,
    pendingLinkOf: (reference: string) => linkOf(reference, 'PENDING'),
    linkOf,
    story: () => [...story],
    redact,
    close: fake.close,
  }
}
