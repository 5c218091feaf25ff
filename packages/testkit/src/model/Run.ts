/**
 * Running the model: stories drawn by fast-check, each played in a fresh world and ended
 * by the "eventually" step; on failure, the shrunk story as numbered steps with the seed
 * and path that replay it. One runner, `checkModel` (no test runner needed), and one
 * arbitrary, `stories`, for `@fast-check/vitest`'s `test.prop`.
 *
 * @since 0.2.0
 */
import fc from 'fast-check'
import { Money } from '@paykit/core/money'
import { lineItemsTotal, trickyAmount, trickyLineItems } from '../arbitraries/Money.js'
import { headlessEndings } from '../buyer/Authenticate.js'
import * as Faults from '../service/Faults.js'
import { defaultStore } from '../simulator/TestCards.js'
import type { Adapter, ShopLineItem, ShopOrder, StatusMeaning } from './Integration.js'
import { builtInInvariants, type Invariant } from './Invariants.js'
import { redactedError } from './Redaction.js'
import * as Steps from './Steps.js'
import {
  InvariantBroken,
  meaningOf,
  openWorld,
  ordersLine,
  type CardKind,
  type Forgery,
  type ServiceKind,
  type WebhookMove,
  type WorldOptions,
} from './World.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A shop order given by hand (the `orders` option): its amount in decimal major units
 * (whole cents), or its line items (their exact total is the amount), or both (then they
 * must agree).
 *
 * @category model
 * @since 0.2.0
 */
export interface OrderInput {
  readonly amount?: number
  readonly lineItems?: ReadonlyArray<ShopLineItem>
}

/**
 * Options of a model: the adapter (`integration`, maybe `registerCards`) and, optionally,
 * what its statuses mean at the service (`statuses`; strict by default), the user's own
 * invariants (checked after the built-in ones), the fake (`memory` by default, `nock`,
 * `sandbox`), the shop orders (`orders`: how many, 2 by default, their amounts drawn for
 * each story; or the orders themselves), whether the webhook adversary plays
 * (`forgedWebhooks`, on by default), the story's length (0 to 25 steps), the number of
 * runs (100), `seed` and `path` to replay a failure, or one `story` to play as written.
 *
 * @category model
 * @since 0.2.0
 */
export type ModelOptions = Adapter & {
  readonly statuses?: StatusMeaning
  readonly invariants?: ReadonlyArray<Invariant>
  readonly service?: ServiceKind
  readonly orders?: number | ReadonlyArray<OrderInput>
  readonly forgedWebhooks?: boolean
  readonly minSteps?: number
  readonly maxSteps?: number
  readonly numRuns?: number
  readonly seed?: number
  readonly path?: string
  readonly story?: ReadonlyArray<Steps.Step>
}

/**
 * A story drawn by `stories`: its steps, and `play()`, which plays them in a fresh world
 * with the "eventually" step and rejects with an `InvariantBroken` (its message the
 * numbered story) when an invariant breaks.
 *
 * @category model
 * @since 0.2.0
 */
export interface Story {
  readonly orders: ReadonlyArray<ShopOrder>
  readonly steps: ReadonlyArray<Steps.Step>
  readonly play: () => Promise<void>
}

/**
 * The outcome of a model run. On failure: the broken invariant, what is wrong, the shrunk
 * story (numbered in `text`) and the `seed` and `path` that replay it (none for a `story`
 * played as written). Every text in it is redacted.
 *
 * @category model
 * @since 0.2.0
 */
export interface ModelReport {
  readonly ok: boolean
  readonly numRuns: number
  readonly seed: number | undefined
  readonly path: string | undefined
  readonly invariant: string | undefined
  readonly problem: string | undefined
  readonly story: ReadonlyArray<string>
  /** The shop orders of the failing story (none when every story held). */
  readonly orders: ReadonlyArray<ShopOrder>
  /** The report as printed: the problem, the numbered story, its orders, how to replay it. */
  readonly text: string
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const SERVICES: ReadonlyArray<ServiceKind> = ['memory', 'nock', 'sandbox']

const count = (value: unknown, field: string, min: number): number => {
  if (value !== undefined && (!Number.isInteger(value) || (value as number) < min))
    throw new TypeError(
      `${field}: expected an integer of at least ${min}, got ${JSON.stringify(value)}`,
    )
  return value as number
}

const CURRENCY = defaultStore.currencyCode

/** The orders of a story written by hand when none are given: float trouble, by hand. */
const HAND_ORDERS: ReadonlyArray<ReadonlyArray<ShopLineItem>> = [
  [{ name: 'Tea', price: 19.99, quantity: 3 }],
  [
    { name: 'Tea', price: 0.1, quantity: 1 },
    { name: 'Mug', price: 0.2, quantity: 1 },
  ],
  [{ name: 'Lamp', price: 1234567.89, quantity: 1 }],
  [{ name: 'Socks', price: 4.35, quantity: 1 }],
]

const shopOrder = (reference: string, lineItems: ReadonlyArray<ShopLineItem>): ShopOrder => ({
  reference,
  amount: lineItemsTotal(lineItems),
  currency: CURRENCY,
  lineItems,
})

/** An order of the `orders` option, checked (an error naming the field). */
const givenOrder = (input: OrderInput, i: number): ShopOrder => {
  const field = `orders[${i}]`
  const wholeCents = (n: unknown, name: string): number => {
    const money = typeof n === 'number' ? Money.fromNumber(n) : undefined
    if (
      money === undefined ||
      money._tag === 'Left' ||
      !Money.isPositive(money.right) ||
      !Money.Eq.equals(Money.fromCents(Money.toCents(money.right)), money.right)
    )
      throw new TypeError(
        `${name}: expected an amount in decimal major units, whole cents, above 0 (19.99), got ${JSON.stringify(n)}`,
      )
    return n as number
  }
  if (typeof input !== 'object' || input === null)
    throw new TypeError(`${field}: expected { amount } or { lineItems }`)
  const items = input.lineItems?.map((item, j) => {
    const at = `${field}.lineItems[${j}]`
    if (!Number.isInteger(item?.quantity) || item.quantity < 1)
      throw new TypeError(
        `${at}.quantity: expected an integer of at least 1, got ${JSON.stringify(item?.quantity)}`,
      )
    return {
      name: typeof item.name === 'string' ? item.name : `Item ${j + 1}`,
      price: wholeCents(item.price, `${at}.price`),
      quantity: item.quantity,
    }
  })
  if (items === undefined || items.length === 0) {
    const amount = wholeCents(input.amount, `${field}.amount`)
    return shopOrder(`o${i + 1}`, [{ name: 'Order total', price: amount, quantity: 1 }])
  }
  const order = shopOrder(`o${i + 1}`, items)
  if (input.amount !== undefined && wholeCents(input.amount, `${field}.amount`) !== order.amount)
    throw new TypeError(
      `${field}.amount: expected the line items' total ${order.amount}, got ${JSON.stringify(input.amount)}`,
    )
  return order
}

/** A story's orders `o1`..`on`, drawn toward amounts whose float arithmetic goes wrong. */
const drawnOrders = (n: number): fc.Arbitrary<ReadonlyArray<ShopOrder>> =>
  fc.tuple(
    ...Array.from({ length: n }, (_, i) =>
      fc.oneof(
        trickyAmount().map((amount) =>
          shopOrder(`o${i + 1}`, [{ name: 'Order total', price: amount, quantity: 1 }]),
        ),
        trickyLineItems().map((items) => shopOrder(`o${i + 1}`, items)),
      ),
    ),
  )

type Settings = Adapter & {
  readonly invariants: WorldOptions['invariants']
  readonly service: ServiceKind
  readonly means: WorldOptions['means']
  readonly references: ReadonlyArray<string>
  /** The orders of every story (given), or of each story drawn. */
  readonly orders: fc.Arbitrary<ReadonlyArray<ShopOrder>>
  /** The orders of a story written by hand. */
  readonly handOrders: ReadonlyArray<ShopOrder>
  readonly forgedWebhooks: boolean
}

/** The options checked (a clear error naming the field) and the world's settings. */
const settingsOf = (options: ModelOptions): Settings => {
  if (typeof options.integration !== 'function')
    throw new TypeError('integration: expected a function that builds the integration')
  const service = options.service ?? 'memory'
  if (!SERVICES.includes(service))
    throw new TypeError(
      `service: expected one of ${SERVICES.join(', ')}, got ${JSON.stringify(service)}`,
    )
  const given = Array.isArray(options.orders)
    ? (options.orders as ReadonlyArray<OrderInput>).map(givenOrder)
    : undefined
  if (given !== undefined && given.length === 0)
    throw new TypeError('orders: expected at least one order')
  const orderCount = given?.length ?? count(options.orders as number | undefined, 'orders', 1) ?? 2
  if (options.forgedWebhooks !== undefined && typeof options.forgedWebhooks !== 'boolean')
    throw new TypeError(
      `forgedWebhooks: expected true or false, got ${JSON.stringify(options.forgedWebhooks)}`,
    )
  const invariants = options.invariants ?? []
  invariants.forEach((inv, i) => {
    if (typeof inv?.name !== 'string' || typeof inv.check !== 'function')
      throw new TypeError(`invariants[${i}]: expected { name, check(observation) }`)
  })
  const adapter: Adapter =
    options.registerCards === true
      ? { integration: options.integration, registerCards: true }
      : { integration: options.integration }
  const references = Array.from({ length: orderCount }, (_, i) => `o${i + 1}`)
  return {
    ...adapter,
    invariants: [...builtInInvariants, ...invariants],
    service,
    means: meaningOf(options.statuses),
    references,
    orders: given === undefined ? drawnOrders(orderCount) : fc.constant(given),
    handOrders:
      given ?? references.map((r, i) => shopOrder(r, HAND_ORDERS[i % HAND_ORDERS.length] ?? [])),
    forgedWebhooks: options.forgedWebhooks ?? true,
  }
}

/** The steps a story is drawn from, over the shop orders `references`. */
const drawnSteps = (
  references: ReadonlyArray<string>,
  forged: boolean,
): Array<fc.Arbitrary<Steps.Step>> => {
  const reference = fc.constantFrom(...references)
  // Faults strike the requests that move money three times as often as the others: a lost
  // answer to a charge or a link creation is where integrations pay twice.
  const operation = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom<Faults.Operation>('charge', 'chargeAfter3ds', 'createPaymentLink'),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Faults.Operation>('createPaymentMethod', 'getOrder', 'getToken'),
    },
  )
  const failure = fc.constantFrom(...Faults.failures)
  const targeted = fc
    .record({
      failure,
      operation,
      // whichever order comes next half of the time, else one order's
      orderId: fc.option(reference, { nil: undefined, freq: 1 }),
      // the next request most of the time, the 2nd or 3rd one now and then
      nth: fc.oneof(
        { weight: 2, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.integer({ min: 2, max: 3 }) },
      ),
    })
    .map(({ failure, operation, orderId, nth }) =>
      Steps.injectFault(failure, {
        operation,
        ...(orderId === undefined ? {} : { orderId }),
        ...(nth === undefined ? {} : { nth }),
      }),
    )
  // Faults that strike with a probability, seeded by fast-check (so a run replays).
  const probable = fc
    .record({ failure, operation, probability: fc.constantFrom(0.25, 0.5), seed: fc.integer() })
    .map(({ failure, operation, probability, seed }) =>
      Steps.injectFault(failure, { operation, probability, seed }),
    )
  const pay = fc
    .tuple(reference, fc.constantFrom<CardKind>('success', 'authentication', 'declined'))
    .map(([r, kind]) => Steps.payOrder(r, kind))
  const link = reference.map(Steps.createLink)
  const forgery = fc
    .tuple(fc.constantFrom<Forgery>(...FORGERIES), reference)
    .map(([kind, r]) => Steps.forgedWebhook(kind, r))
  const buyer = reference.map(Steps.buyerPaysLink)
  const finalize = reference.map((r) => Steps.portal('finalize', r))
  return [
    pay,
    pay,
    link,
    link,
    buyer,
    buyer,
    // the merchant ships (finalizes) a paid order as often as a buyer pays a link: events
    // after a payment's, out of order, are where integrations go back to an older state
    finalize,
    finalize,
    reference.map((r) => Steps.portal('cancel', r)),
    targeted,
    targeted,
    probable,
    fc.constant(Steps.clearFaults),
    fc.tuple(operation, fc.constantFrom(60_000)).map(([o, ms]) => Steps.latency(o, ms)),
    fc.constantFrom(60_000, 11 * 60_000, 61 * 60_000, 25 * 3_600_000).map(Steps.advanceClock),
    fc.constantFrom(...headlessEndings).map(Steps.threeDsEnding),
    fc
      .constantFrom<WebhookMove>(
        'deliverNext',
        'deliverLatest',
        'duplicate',
        'delay',
        'drop',
        'deliverAll',
        'concurrent',
      )
      .map(Steps.webhook),
    fc
      .constantFrom<WebhookMove>('deliverNext', 'deliverLatest', 'duplicate', 'delay')
      .map(Steps.webhook),
    fc.option(reference, { nil: undefined, freq: 2 }).map((r) => Steps.reconcile(r)),
    // the adversary: two draws in twenty (about 2.5 forged events in a 25-step story)
    ...(forged ? [forgery, forgery] : []),
  ]
}

const FORGERIES: ReadonlyArray<Forgery> = [
  'unsigned',
  'otherSecret',
  'stale',
  'tampered',
  'unknownOrder',
  'replayed',
]

/** Plays `steps` in a fresh world, then "eventually"; nothing it rejects with holds a secret. */
const play = async (
  settings: Settings,
  orders: ReadonlyArray<ShopOrder>,
  steps: ReadonlyArray<Steps.Step>,
  late = false,
): Promise<void> => {
  const world = await openWorld({ ...settings, orders, late })
  try {
    await fc.asyncModelRun(() => ({ model: {}, real: world }), steps)
    await world.eventually()
  } catch (e) {
    if (e instanceof InvariantBroken) throw e
    throw redactedError(e, world.redact)
  } finally {
    await world.close()
  }
}

const storyOf = (
  settings: Settings,
  orders: ReadonlyArray<ShopOrder>,
  steps: ReadonlyArray<Steps.Step>,
  late: boolean,
): Story => {
  const story: Story = { orders, steps, play: () => play(settings, orders, steps, late) }
  // fast-check (and so vitest's counterexample line) prints a story as its orders and steps
  const ending = late ? ', webhooks late in the end' : ''
  return Object.assign(story, {
    [fc.toStringMethod]: () => `${ordersLine(orders)}: ${fc.stringify(steps)}${ending}`,
  })
}

const storiesOf = (
  settings: Settings,
  options: Pick<ModelOptions, 'minSteps' | 'maxSteps'>,
): fc.Arbitrary<Story> => {
  const minLength = count(options.minSteps, 'minSteps', 0) ?? 0
  const maxLength = count(options.maxSteps, 'maxSteps', minLength) ?? Math.max(25, minLength)
  // An array, not fc.commands: its shrinker never drops the last command, which would
  // leave an irrelevant trailing step in the printed story.
  const steps = fc.array(fc.oneof(...drawnSteps(settings.references, settings.forgedWebhooks)), {
    minLength,
    maxLength,
    size: 'max',
  })
  // Two stories in three end with the pending webhooks late (newest first, the lost ones
  // last): an older event after a newer one is what a sender's retries do.
  const late = fc.oneof(
    { weight: 1, arbitrary: fc.constant(false) },
    { weight: 2, arbitrary: fc.constant(true) },
  )
  return fc
    .tuple(settings.orders, steps, late)
    .map(([orders, drawn, late]) => storyOf(settings, orders, drawn, late))
}

/**
 * The stories of a model (`minSteps` to `maxSteps` steps, 0 to 25 by default) for
 * `@fast-check/vitest`: `test.prop([stories(options)])(name, (story) => story.play())`.
 * fast-check shrinks a failing story and prints it with the seed and path that replay it.
 *
 * @example
 * ```ts
 * import fc from 'fast-check'
 * import { stories, type MakeIntegration } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * // an integration that records a payment it never made
 * const liar: MakeIntegration = () => ({
 *   payOrder: async () => undefined,
 *   createLink: async () => undefined,
 *   handleWebhook: async () => ({ status: 200 }),
 *   reconcile: async () => undefined,
 *   view: () => [{ reference: 'o1', status: 'PAID', timesPaid: 1 }],
 *   log: () => [],
 * })
 * const [story] = fc.sample(stories({ integration: liar, maxSteps: 3 }), { numRuns: 1, seed: 7 })
 * assert.ok(story !== undefined && story.steps.length <= 3)
 * await assert.rejects(story.play(), {
 *   name: 'InvariantBroken',
 *   message: /the integration recorded order o1 as paid, the service has not been paid for it/,
 * })
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const stories = (options: ModelOptions): fc.Arbitrary<Story> =>
  storiesOf(settingsOf(options), options)

const textOf = (failure: unknown, seed: number | undefined, path: string | undefined): string => {
  const head =
    failure instanceof InvariantBroken
      ? `Invariant broken: ${failure.message}`
      : `The story threw: ${failure instanceof Error ? failure.message : String(failure)}`
  const replay =
    seed === undefined ? '' : `\nReplay: { seed: ${seed}, path: ${JSON.stringify(path ?? '')} }`
  return `Model-based test failed. ${head}${replay}`
}

const failed = (
  error: unknown,
  orders: ReadonlyArray<ShopOrder>,
  numRuns: number,
  seed: number | undefined,
  path: string | undefined,
): ModelReport => {
  const broken = error instanceof InvariantBroken ? error : undefined
  return {
    ok: false,
    numRuns,
    seed,
    path,
    invariant: broken?.invariant,
    problem: broken?.problem,
    story: broken?.story ?? [],
    orders,
    text: textOf(error, seed, path),
  }
}

/**
 * The runner: plays `numRuns` drawn stories (100 by default), or the one `story` given,
 * with no test runner, and reports. A failing story is shrunk to the shortest that still
 * fails; `seed` and `path` replay it. It rejects only for options it cannot use (an
 * error naming the option).
 *
 * @example
 * ```ts
 * import { checkModel, Steps, type MakeIntegration } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * // an integration that logs the card it is given
 * const leaky: MakeIntegration = () => {
 *   const lines: Array<string> = []
 *   return {
 *     payOrder: async (order, card) => void lines.push(`paying ${order.reference} with ${card.number}`),
 *     createLink: async () => undefined,
 *     handleWebhook: async () => ({ status: 200 }),
 *     reconcile: async () => undefined,
 *     view: () => [],
 *     log: () => lines,
 *   }
 * }
 * const report = await checkModel({ integration: leaky, numRuns: 50, seed: 42 })
 * assert.equal(report.ok, false)
 * assert.equal(report.invariant, 'no secret or card datum logged')
 * assert.equal(report.story.length, 1) // shrunk: one payment is enough
 * assert.match(report.text, /1\. the buyer pays order o\d with a card/)
 * assert.match(report.text, /paying o\d with \[redacted\]/)
 * assert.match(report.text, /Replay: \{ seed: 42, path: "[\d:]+" \}/)
 *
 * // the same failure as a story written by hand
 * const again = await checkModel({ integration: leaky, story: [Steps.payOrder('o2', 'declined')] })
 * assert.equal(again.problem, 'the integration logged a secret or card datum: "paying o2 with [redacted]"')
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const checkModel = async (options: ModelOptions): Promise<ModelReport> => {
  const settings = settingsOf(options)
  if (options.story !== undefined) {
    const failure = await play(settings, settings.handOrders, options.story).then(
      () => undefined,
      (e: unknown) => e ?? new Error('the story rejected with nothing'),
    )
    return failure === undefined
      ? {
          ok: true,
          numRuns: 1,
          seed: undefined,
          path: undefined,
          invariant: undefined,
          problem: undefined,
          story: [],
          orders: [],
          text: 'the story held every invariant',
        }
      : failed(failure, settings.handOrders, 1, undefined, undefined)
  }
  const property = fc.asyncProperty(storiesOf(settings, options), (story) => story.play())
  const details = await fc.check(property, {
    numRuns: count(options.numRuns, 'numRuns', 1) ?? 100,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.path === undefined ? {} : { path: options.path }),
  })
  if (!details.failed)
    return {
      ok: true,
      numRuns: details.numRuns,
      seed: details.seed,
      path: undefined,
      invariant: undefined,
      problem: undefined,
      story: [],
      orders: [],
      text: `${details.numRuns} stories, every invariant held (seed ${details.seed})`,
    }
  return failed(
    details.errorInstance,
    details.counterexample?.[0]?.orders ?? [],
    details.numRuns,
    details.seed,
    details.counterexamplePath ?? undefined,
  )
}
