/**
 * The steps of a story, as fast-check commands: what the buyer, the merchant portal, the
 * network (faults), the clock and the webhook sender do, and what the integration is
 * asked to do. Each step reads as a sentence in the printed story.
 *
 * @since 0.1.0
 */
import fc from 'fast-check'
import { headlessEndings } from '../buyer/Authenticate.js'
import * as Faults from '../service/Faults.js'
import type { CardKind, ThreeDsEnding, World } from './World.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One step of a story.
 *
 * @category model
 * @since 0.1.0
 */
export type Step = fc.AsyncCommand<object, World>

/**
 * The webhook sender's moves: deliver the oldest pending event, the newest first (out of
 * order), the last one again, hold the oldest back, lose the oldest (redelivered once the
 * world is quiet), deliver everything pending.
 *
 * @category model
 * @since 0.1.0
 */
export type WebhookMove =
  'deliverNext' | 'deliverLatest' | 'duplicate' | 'delay' | 'drop' | 'deliverAll'

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const CARD_NAMES: Readonly<Record<CardKind, string>> = {
  success: 'a card that succeeds',
  authentication: 'a card that needs 3DS',
  declined: 'a declined card',
}

const minutes = (ms: number): string =>
  ms >= 3_600_000 ? `${ms / 3_600_000} h` : `${ms / 60_000} min`

/** A command from its sentence and its work. */
const step = (text: string, run: (world: World) => Promise<string | undefined>): Step => {
  const command: Step = {
    check: () => true,
    run: async (_model, world) => {
      let note: string | undefined
      try {
        note = await run(world)
      } catch (e) {
        // the service refused a control (an order dropped, a move not allowed)
        note = `: refused (${e instanceof Error ? e.message : String(e)})`
      }
      world.step(`${text}${note ?? ''}`)
    },
    toString: () => text,
  }
  // fast-check prints a counterexample with this
  return Object.assign(command, { [fc.toStringMethod]: () => text })
}

/** A step's work that only moves the world (nothing to note). */
const control =
  (move: (world: World) => void) =>
  async (world: World): Promise<undefined> => {
    move(world)
    return undefined
  }

const orderOf = (world: World, reference: string) =>
  world.orders.find((o) => o.reference === reference) ?? { reference, amount: 1 }

/**
 * The buyer pays order `reference` at the shop's own checkout with a card of `kind`.
 *
 * @example
 * ```ts
 * import { payOrder } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(payOrder('o1', 'authentication').toString(), 'the buyer pays order o1 with a card that needs 3DS')
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const payOrder = (reference: string, kind: CardKind): Step =>
  step(`the buyer pays order ${reference} with ${CARD_NAMES[kind]}`, (world) =>
    world.act(reference, () =>
      world.integration.payOrder(orderOf(world, reference), world.card(kind)),
    ),
  )

/**
 * The shop creates a payment link for order `reference`.
 *
 * @example
 * ```ts
 * import { createLink } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(createLink('o2').toString(), 'the shop creates a payment link for order o2')
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const createLink = (reference: string): Step =>
  step(`the shop creates a payment link for order ${reference}`, (world) =>
    world.act(reference, () => world.integration.createLink(orderOf(world, reference))),
  )

/**
 * The buyer pays the pending payment link of order `reference` on the hosted checkout.
 *
 * @example
 * ```ts
 * import { buyerPaysLink } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(buyerPaysLink('o1').toString(), 'the buyer pays the payment link of order o1')
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const buyerPaysLink = (reference: string): Step =>
  step(`the buyer pays the payment link of order ${reference}`, async (world) => {
    const code = world.pendingLinkOf(reference)
    if (code === undefined) return ': there is none pending'
    world.service.payOrder(code)
    return ''
  })

/**
 * The merchant portal finalizes (ships) the paid link order of `reference`, or cancels
 * its pending one.
 *
 * @example
 * ```ts
 * import { portal } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(portal('finalize', 'o1').toString(), 'the merchant portal finalizes order o1')
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const portal = (action: 'finalize' | 'cancel', reference: string): Step =>
  step(`the merchant portal ${action}s order ${reference}`, async (world) => {
    const code = world.linkOf(reference, action === 'finalize' ? 'PAID' : 'PENDING')
    if (code === undefined) return ': no such link order'
    if (action === 'finalize') world.service.finalizeOrder(code)
    else world.service.cancelOrder(code)
    return ''
  })

/**
 * The network: `failure` for the requests of `target` (one request unless `times` or a
 * `probability` says otherwise).
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit'
 * import { injectFault } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(
 *   injectFault(Faults.processedThen500, { operation: 'charge', nth: 2 }).toString(),
 *   'the service processes the 2nd charge, then answers 500',
 * )
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const injectFault = (
  failure: Faults.Failure,
  target: Faults.Target & { readonly times?: number },
): Step => {
  const what = target.operation ?? 'request'
  const which =
    target.probability !== undefined
      ? `each ${what} with probability ${target.probability}`
      : `the ${target.nth === undefined ? 'next' : ordinal(target.nth)} ${what}`
  const of = target.orderId === undefined ? '' : ` of order ${target.orderId}`
  const text: Record<Faults.Failure['kind'], string> = {
    status500: `the service fails ${which}${of} with a 500 before processing it`,
    processedThen500: `the service processes ${which}${of}, then answers 500`,
    connectionReset: `the service processes ${which}${of}, then the connection is reset`,
    hang: `the service processes ${which}${of}, then never answers (timeout)`,
    truncatedBody: `the service processes ${which}${of}, then its answer is cut short`,
    malformedBody: `the service processes ${which}${of}, then answers a body that is not JSON`,
    offContractBody: `the service processes ${which}${of}, then answers a body off the contract`,
  }
  const times = target.probability === undefined ? { times: target.times ?? 1 } : {}
  return step(
    text[failure.kind],
    control((world) => world.service.injectFault(failure, { ...target, ...times })),
  )
}

const ordinal = (n: number): string =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`

/**
 * The network delays the answers to `operation` by `ms` (past the client's timeout: the
 * request is processed and the client times out).
 *
 * @example
 * ```ts
 * import { latency } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(latency('charge', 60_000).toString(), 'the next charge is answered after 60 s')
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const latency = (operation: Faults.Operation, ms: number): Step =>
  step(
    `the next ${operation} is answered after ${ms / 1000} s`,
    control((world) => world.service.setLatency(ms, { operation, times: 1 })),
  )

/**
 * Every fault is lifted.
 *
 * @example
 * ```ts
 * import { clearFaults } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(clearFaults.toString(), 'the network recovers (no more faults)')
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const clearFaults: Step = step(
  'the network recovers (no more faults)',
  control((world) => world.service.clearFaults()),
)

/**
 * Time passes on the service's clock (tokens, 3DS authentications and links expire).
 *
 * @example
 * ```ts
 * import { advanceClock } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(advanceClock(11 * 60_000).toString(), '11 min pass')
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const advanceClock = (ms: number): Step =>
  step(
    `${minutes(ms)} pass`,
    control((world) => world.service.advanceClock(ms)),
  )

/**
 * How the buyer ends the next 3DS authentications in the frame.
 *
 * @example
 * ```ts
 * import { threeDsEnding } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(threeDsEnding('abandon').toString(), 'from now on the buyer abandons the 3DS frame')
 * assert.equal(
 *   threeDsEnding({ pendingFirst: 'success' }).toString(),
 *   'from now on the 3DS frame posts PENDING, then ends success',
 * )
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const threeDsEnding = (ending: ThreeDsEnding): Step =>
  step(
    ending === 'abandon'
      ? 'from now on the buyer abandons the 3DS frame'
      : typeof ending === 'string'
        ? `from now on the 3DS frame ends ${ending}`
        : 'pendingFirst' in ending
          ? `from now on the 3DS frame posts PENDING, then ends ${ending.pendingFirst}`
          : `from now on the 3DS frame posts a message for another authentication, then ends ${ending.otherAuthenticationFirst}`,
    control((world) => {
      world.threeDs = ending
    }),
  )

const WEBHOOK_TEXT: Readonly<Record<WebhookMove, string>> = {
  deliverNext: 'the oldest pending webhook is delivered',
  deliverLatest: 'the newest pending webhook is delivered first (out of order)',
  duplicate: 'the last delivered webhook is delivered again',
  delay: 'the oldest pending webhook is held back',
  drop: 'the oldest pending webhook is lost (redelivered later)',
  deliverAll: 'every pending webhook is delivered',
}

/**
 * A move of the webhook sender.
 *
 * @example
 * ```ts
 * import { webhook } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(webhook('duplicate').toString(), 'the last delivered webhook is delivered again')
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const webhook = (move: WebhookMove): Step =>
  step(WEBHOOK_TEXT[move], async (world) => {
    const what = (d: { readonly type: string; readonly eventId: string } | undefined): string =>
      d === undefined ? ': there is none' : `: ${d.type}`
    switch (move) {
      case 'delay':
      case 'drop': {
        const event = move === 'delay' ? world.outbox.delay() : world.outbox.drop()
        return event === undefined
          ? ': there is none'
          : `: ${event.type} of ${event.data.orderReference ?? event.data.orderCode}`
      }
      case 'deliverAll': {
        const all = await world.outbox.deliverAll()
        return `: ${all.length}`
      }
      default: {
        const delivery = await (move === 'deliverNext'
          ? world.outbox.deliverNext()
          : move === 'deliverLatest'
            ? world.outbox.deliverLatest()
            : world.outbox.duplicate())
        return what(delivery)
      }
    }
  })

/**
 * The integration's reconcile job runs.
 *
 * @example
 * ```ts
 * import { reconcile } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(reconcile.toString(), 'the shop reconciles')
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const reconcile: Step = step('the shop reconciles', (world) =>
  world.act(undefined, () => world.integration.reconcile()),
)

/**
 * The last step of every story, once the commands ran: the network recovers, every
 * pending and lost webhook is delivered, the shop reconciles, and whatever that sent is
 * delivered too; then the invariants are checked in their final form.
 *
 * @example
 * ```ts
 * import { eventually } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(typeof eventually, 'function')
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const eventually = async (world: World): Promise<void> => {
  world.service.clearFaults()
  const before = (await world.outbox.deliverAll()).length
  const note = await world.act(undefined, () => world.integration.reconcile())
  const after = (await world.outbox.deliverAll()).length
  const n = before + after
  world.step(
    `eventually: the network recovers, ${n} pending webhook${n === 1 ? ' is' : 's are'} delivered, the shop reconciles${note}`,
    true,
  )
}

// -------------------------------------------------------------------------------------
// arbitraries
// -------------------------------------------------------------------------------------

/**
 * The steps a story is drawn from, over the shop orders `references`. Faults target an
 * operation, maybe an order and the nth call, or strike with a probability (seeded by
 * fast-check, so a run replays).
 *
 * @example
 * ```ts
 * import fc from 'fast-check'
 * import { steps } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const [step] = fc.sample(fc.oneof(...steps(['o1', 'o2'])), { numRuns: 1, seed: 1 })
 * assert.ok(step !== undefined && typeof step.toString() === 'string')
 * ```
 *
 * @category arbitraries
 * @since 0.1.0
 */
export const steps = (references: ReadonlyArray<string>): Array<fc.Arbitrary<Step>> => {
  const reference = fc.constantFrom(...references)
  const operation = fc.constantFrom<Faults.Operation>(
    'charge',
    'chargeAfter3ds',
    'createPaymentLink',
    'createPaymentMethod',
    'getOrder',
    'getToken',
  )
  const failure = fc.constantFrom(...Faults.failures)
  const targeted = fc
    .record({
      failure,
      operation,
      orderId: fc.option(reference, { nil: undefined }),
      nth: fc.option(fc.integer({ min: 2, max: 3 }), { nil: undefined, freq: 3 }),
    })
    .map(({ failure, operation, orderId, nth }) =>
      injectFault(failure, {
        operation,
        ...(orderId === undefined ? {} : { orderId }),
        ...(nth === undefined ? {} : { nth }),
      }),
    )
  const probable = fc
    .record({ failure, operation, probability: fc.constantFrom(0.25, 0.5), seed: fc.integer() })
    .map(({ failure, operation, probability, seed }) =>
      injectFault(failure, { operation, probability, seed }),
    )
  const pay = fc
    .tuple(reference, fc.constantFrom<CardKind>('success', 'authentication', 'declined'))
    .map(([r, kind]) => payOrder(r, kind))
  const link = reference.map(createLink)
  const buyer = reference.map(buyerPaysLink)
  return [
    pay,
    pay,
    link,
    link,
    buyer,
    buyer,
    reference.map((r) => portal('finalize', r)),
    reference.map((r) => portal('cancel', r)),
    targeted,
    targeted,
    probable,
    fc.constant(clearFaults),
    fc.tuple(operation, fc.constantFrom(60_000)).map(([o, ms]) => latency(o, ms)),
    fc.constantFrom(60_000, 11 * 60_000, 61 * 60_000, 25 * 3_600_000).map(advanceClock),
    fc.constantFrom(...headlessEndings).map(threeDsEnding),
    fc
      .constantFrom<WebhookMove>(
        'deliverNext',
        'deliverLatest',
        'duplicate',
        'delay',
        'drop',
        'deliverAll',
      )
      .map(webhook),
    fc.constantFrom<WebhookMove>('deliverNext', 'deliverLatest', 'duplicate', 'delay').map(webhook),
    fc.constant(reconcile),
  ]
}
