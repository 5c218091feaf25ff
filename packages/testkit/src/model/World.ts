/**
 * The world a story runs in: a fake of the service (in memory by default, or the nock mock,
 * or the sandbox over HTTP) on a virtual clock, its fault plan, the buyer (3DS frame and
 * hosted checkout), webhook delivery, and the user's integration built on top. It keeps
 * the story told so far and judges the invariants after each step.
 *
 * @since 0.1.0
 */
import { fetchTransport, type Authenticate, type OrderStatus, type Transport } from '@paykit/core'
import { authenticateHeadless, type HeadlessEnding } from '../buyer/Authenticate.js'
import { memoryPaymentService } from '../memory/memoryPaymentService.js'
import { mockPaymentService } from '../nock/mockPaymentService.js'
import { startSandbox } from '../sandbox/startSandbox.js'
import type { ServiceControls } from '../service/ServiceControls.js'
import { makeWebhookOutbox, type WebhookOutbox } from '../service/WebhookDelivery.js'
import { clockOf } from '../simulator/Clock.js'
import { FIRST_ORDER_ID, orderCodeOf } from '../simulator/PaymentLinks.js'
import { own, type SimulatorState } from '../simulator/State.js'
import { defaultCredentials, testCards } from '../simulator/TestCards.js'
import type { BuyerCard, Integration, MakeIntegration, ShopOrder } from './Integration.js'
import type { Invariant, Observation, ServiceOrder } from './Invariants.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Which fake of the service a story runs against: `memory` (the default: the simulator
 * in process, no network), `nock` (the nock mock under the core's fetch transport) or
 * `sandbox` (the sandbox over real HTTP). The stories and invariants are the same.
 *
 * @category model
 * @since 0.1.0
 */
export type ServiceKind = 'memory' | 'nock' | 'sandbox'

/**
 * How the buyer ends a 3DS authentication in the frame: the headless buyer's endings (a
 * result, maybe after a PENDING message or a message for another authentication, or
 * `abandon`: the frame closed, no message).
 *
 * @category model
 * @since 0.1.0
 */
export type ThreeDsEnding = HeadlessEnding

/**
 * The card a buyer pays with at the shop's checkout: one that succeeds, one that needs
 * 3DS first, one that is declined.
 *
 * @category model
 * @since 0.1.0
 */
export type CardKind = 'success' | 'authentication' | 'declined'

/**
 * An invariant broken during a story: the error a story throws, its message the
 * numbered story.
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
 * @since 0.1.0
 */
export class InvariantBroken extends Error {
  override readonly name = 'InvariantBroken'
  constructor(
    readonly invariant: string,
    readonly problem: string,
    readonly story: ReadonlyArray<string>,
  ) {
    super(
      `${invariant}: ${problem}\nThe story (${story.length} ${story.length === 1 ? 'step' : 'steps'}):\n${story.map((s, i) => `  ${i + 1}. ${s}`).join('\n')}`,
    )
  }
}

/**
 * A running world.
 *
 * @category model
 * @since 0.1.0
 */
export interface World {
  readonly service: ServiceControls
  readonly outbox: WebhookOutbox
  readonly integration: Integration
  /** The shop's orders: `o1`, `o2`, ... */
  readonly orders: ReadonlyArray<ShopOrder>
  readonly card: (kind: CardKind) => BuyerCard
  /** The ending of the next 3DS authentications. */
  threeDs: ThreeDsEnding
  /** Runs one step of the integration's work on behalf of `reference` (charges and links it makes count for it). */
  readonly act: (reference: string | undefined, work: () => Promise<void>) => Promise<string>
  /** Adds a step to the story and checks the invariants (`quiet`: the final check). */
  readonly step: (text: string, quiet?: boolean) => void
  /** The service's view of every order touched so far. */
  readonly serviceOrders: () => ReadonlyArray<ServiceOrder>
  /** The pending link order of `reference` at the service, if any. */
  readonly pendingLinkOf: (reference: string) => string | undefined
  /** The link order of `reference` at the service that is paid, if any. */
  readonly linkOf: (reference: string, status: OrderStatus) => string | undefined
  readonly story: () => ReadonlyArray<string>
  readonly close: () => Promise<void>
}

/**
 * Options of a world.
 *
 * @category model
 * @since 0.1.0
 */
export interface WorldOptions {
  readonly integration: MakeIntegration
  readonly invariants: ReadonlyArray<Invariant>
  readonly service: ServiceKind
  /** How many shop orders the stories use (default 2: `o1`, `o2`). */
  readonly orders: number
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/** The virtual clock's start: every story begins at the same instant, so it replays. */
const START_MS = Date.UTC(2026, 0, 5, 9, 0, 0)
const WEBHOOK_SECRET = 'whsec_model_5f1c2a9e'
const CVV = '7319'
let nockWorlds = 0

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const amountOf = (i: number): number => [10, 25.5, 7.25][i] ?? 5 + i

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

const LINK_PAID: ReadonlySet<OrderStatus> = new Set(['PAID', 'FINALIZED'])

/**
 * Opens a world for one story: a fresh fake, a fresh integration.
 *
 * @example
 * ```ts
 * import { builtInInvariants, openWorld } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const world = await openWorld({
 *   service: 'memory',
 *   orders: 2,
 *   invariants: builtInInvariants,
 *   integration: () => ({
 *     payOrder: async () => undefined,
 *     createLink: async () => undefined,
 *     handleWebhook: async () => ({ status: 200 }),
 *     reconcile: async () => undefined,
 *     view: () => [],
 *     log: () => [],
 *   }),
 * })
 * assert.deepEqual(world.orders.map((o) => o.reference), ['o1', 'o2'])
 * world.step('nothing happens')
 * assert.deepEqual(world.story(), ['nothing happens'])
 * await world.close()
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const openWorld = async (options: WorldOptions): Promise<World> => {
  const wall = (): Date => new Date(START_MS)
  const fake = await openFake(options.service, wall)
  const service = fake.controls
  const clock = (): Date => clockOf(service.state(), wall())
  const orders: ReadonlyArray<ShopOrder> = Array.from({ length: options.orders }, (_, i) => ({
    reference: `o${i + 1}`,
    amount: amountOf(i),
  }))
  const known = new Set(orders.map((o) => o.reference))
  const expirationYear = String(Math.max(new Date().getUTCFullYear(), 2026) + 3)
  const card = (kind: CardKind): BuyerCard => ({
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

  const world = {
    threeDs: 'success' as ThreeDsEnding,
  }
  const authenticate: Authenticate = (url, id) =>
    authenticateHeadless(world.threeDs, {
      transport: fake.transport,
      timeoutMs: fake.timeoutMs,
    })(url, id)
  const integration = options.integration({
    clientConfig: {
      baseUrl: fake.baseUrl,
      credentials: defaultCredentials,
      transport: fake.transport,
      now: () => clock().getTime(),
      sleep: async () => undefined,
      timeoutMs: fake.timeoutMs,
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
    },
    authenticate,
    webhookSecret: WEBHOOK_SECRET,
    clock,
  })
  const outbox = makeWebhookOutbox(service, {
    handler: integration.handleWebhook,
    secret: WEBHOOK_SECRET,
    now: clock,
  })

  // Which shop order each charge and link counts for, read from the state after each step.
  const chargeRefs: Array<string> = []
  // The access tokens the service issued, secrets too (kept in its state a day past expiry).
  const tokens = new Set<string>()
  const links = new Map<string, { reference: string; status: OrderStatus }>()
  let ordersSeen = 0
  let acting: string | undefined
  const story: Array<string> = []
  const thrown: Array<string> = []

  const referenceOf = (id: string | null): string =>
    id !== null && known.has(id) ? id : (acting ?? id ?? '?')

  const scan = (state: SimulatorState): void => {
    for (const token of Object.keys(state.tokens)) tokens.add(token)
    for (let i = chargeRefs.length; i < state.charges.length; i++)
      chargeRefs.push(referenceOf(state.charges[i]?.orderId ?? null))
    for (let n = ordersSeen + 1; n <= state.counters.order; n++) {
      const code = orderCodeOf(FIRST_ORDER_ID + n - 1)
      const order = own(state.orders, code)
      if (order !== undefined)
        links.set(code, { reference: referenceOf(order.orderReference), status: order.status })
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
      { charges: Array<string>; links: Array<{ orderCode: string; status: OrderStatus }> }
    >()
    const entry = (reference: string) => {
      let e = byRef.get(reference)
      if (e === undefined) byRef.set(reference, (e = { charges: [], links: [] }))
      return e
    }
    state.charges.forEach((c, i) => {
      const e = entry(chargeRefs[i] ?? c.orderId)
      if (c.status === 'SUCCEEDED') e.charges.push(c.id)
    })
    for (const [orderCode, link] of links)
      entry(link.reference).links.push({ orderCode, status: link.status })
    return [...byRef].map(([reference, e]): ServiceOrder => {
      const paidLink = e.links.find((l) => LINK_PAID.has(l.status))
      const status: OrderStatus =
        paidLink !== undefined
          ? paidLink.status
          : e.charges.length > 0
            ? 'PAID'
            : (e.links.at(-1)?.status ?? 'PENDING')
      return { reference, succeededCharges: e.charges, links: e.links, status }
    })
  }

  const observe = (quiet: boolean): Observation => ({
    service: serviceOrders(),
    view: integration.view(),
    log: [...integration.log(), ...thrown],
    secrets: tokens.size === 0 ? secrets : [...secrets, ...tokens],
    quiet,
  })

  const step = (text: string, quiet = false): void => {
    story.push(text)
    const observation = observe(quiet)
    for (const invariant of options.invariants) {
      const problem = invariant.check(observation)
      if (problem !== undefined) throw new InvariantBroken(invariant.name, problem, [...story])
    }
  }

  const act = async (reference: string | undefined, work: () => Promise<void>): Promise<string> => {
    acting = reference
    try {
      await work()
      return ''
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e)
      thrown.push(message)
      return `: the integration threw "${message.slice(0, 120)}"`
    } finally {
      scan(service.state())
      acting = undefined
    }
  }

  const linkOf = (reference: string, status: OrderStatus): string | undefined => {
    scan(service.state())
    const state = service.state()
    for (const [code, link] of links)
      if (link.reference === reference && own(state.orders, code)?.status === status) return code
    return undefined
  }

  return Object.assign(world, {
    service,
    outbox,
    integration,
    orders,
    card,
    act,
    step,
    serviceOrders,
    pendingLinkOf: (reference: string) => linkOf(reference, 'PENDING'),
    linkOf,
    story: () => [...story],
    close: fake.close,
  })
}
