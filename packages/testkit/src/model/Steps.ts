/**
 * The steps of a story, as fast-check commands (`fc.AsyncCommand`, played by
 * `fc.asyncModelRun`): what the buyer, the merchant portal, the network (faults), the
 * clock and the webhook sender do, and what the integration is asked to do. Each step
 * reads as a sentence in the printed story. The model draws them itself; write them by
 * hand to replay a story or keep one as a regression test (`checkModel`'s `story`).
 *
 * @since 0.2.0
 */
import fc from 'fast-check'
import type * as Faults from '../service/Faults.js'
import type { CardKind, Forgery, ThreeDsEnding, WebhookMove, World } from './World.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One step of a story.
 *
 * @category model
 * @since 0.2.0
 */
export type Step = fc.AsyncCommand<object, World>

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const CARD_NAMES: Readonly<Record<CardKind, string>> = {
  success: 'a card that succeeds',
  authentication: 'a card that needs 3DS',
  declined: 'a declined card',
}

// whole hours in hours (25 h), anything else in minutes (61 min, not 1.0166666666666666 h)
const minutes = (ms: number): string =>
  ms >= 3_600_000 && ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : `${ms / 60_000} min`

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

/**
 * The buyer pays order `reference` at the shop's own checkout with a card of `kind`.
 *
 * @example
 * ```ts
 * import { Steps } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Steps.payOrder('o1', 'authentication').toString(), 'the buyer pays order o1 with a card that needs 3DS')
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const payOrder = (reference: string, kind: CardKind): Step =>
  step(`the buyer pays order ${reference} with ${CARD_NAMES[kind]}`, (world) =>
    world.payOrder(reference, kind),
  )

/**
 * The shop creates a payment link for order `reference`.
 *
 * @example
 * ```ts
 * import { Steps } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Steps.createLink('o2').toString(), 'the shop creates a payment link for order o2')
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const createLink = (reference: string): Step =>
  step(`the shop creates a payment link for order ${reference}`, (world) =>
    world.createLink(reference),
  )

/**
 * The buyer pays the pending payment link of order `reference` on the hosted checkout.
 *
 * @example
 * ```ts
 * import { Steps } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Steps.buyerPaysLink('o1').toString(), 'the buyer pays the payment link of order o1')
 * ```
 *
 * @category constructors
 * @since 0.2.0
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
 * import { Steps } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Steps.portal('finalize', 'o1').toString(), 'the merchant portal finalizes order o1')
 * ```
 *
 * @category constructors
 * @since 0.2.0
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
 * import { Faults } from '@paykit/testkit/service'
 * import { Steps } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(
 *   Steps.injectFault(Faults.processedThen500, { operation: 'charge', nth: 2 }).toString(),
 *   'the service processes the 2nd charge, then answers 500',
 * )
 * ```
 *
 * @category constructors
 * @since 0.2.0
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
 * import { Steps } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Steps.latency('charge', 60_000).toString(), 'the next charge is answered after 60 s')
 * ```
 *
 * @category constructors
 * @since 0.2.0
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
 * import { Steps } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Steps.clearFaults.toString(), 'the network recovers (no more faults)')
 * ```
 *
 * @category constructors
 * @since 0.2.0
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
 * import { Steps } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Steps.advanceClock(11 * 60_000).toString(), '11 min pass')
 * ```
 *
 * @category constructors
 * @since 0.2.0
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
 * import { Steps } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Steps.threeDsEnding('abandon').toString(), 'from now on the buyer abandons the 3DS frame')
 * assert.equal(
 *   Steps.threeDsEnding({ pendingFirst: 'success' }).toString(),
 *   'from now on the 3DS frame posts PENDING, then ends success',
 * )
 * ```
 *
 * @category constructors
 * @since 0.2.0
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
  concurrent: 'the oldest pending webhook is delivered twice at once (a retry in flight)',
}

/**
 * A move of the webhook sender: deliver the oldest pending event, the newest first (out
 * of order), the last one again, hold the oldest back, lose the oldest (redelivered once
 * the world is quiet), deliver everything pending, deliver the oldest twice at once (a
 * retry sent while the first delivery is still being handled). The story notes which
 * event of which order it was, and what the endpoint answered when it refused it.
 *
 * @example
 * ```ts
 * import { Steps } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Steps.webhook('duplicate').toString(), 'the last delivered webhook is delivered again')
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const webhook = (move: WebhookMove): Step =>
  step(WEBHOOK_TEXT[move], (world) => world.webhook(move))

const FORGED_TEXT: Readonly<Record<Forgery, (reference: string) => string>> = {
  unsigned: (r) => `an unsigned webhook about order ${r} arrives (forged)`,
  otherSecret: (r) => `a webhook about order ${r} signed with another secret arrives (forged)`,
  stale: (r) => `a webhook about order ${r} signed 2 h ago arrives (forged, stale)`,
  tampered: (r) => `a webhook about order ${r} altered after signing arrives (forged)`,
  unknownOrder: () => 'a webhook about an order the shop never made arrives (forged)',
  replayed: (r) => `an earlier webhook about order ${r} is replayed with a fresh signature`,
}

/**
 * The webhook adversary: an event the service did not send (or not then) reaches the
 * integration's endpoint. The forged ones claim what the service has not done (a pending
 * or cancelled order paid, a paid one finalized, a finalized one cancelled): `unsigned`,
 * signed with another secret (`otherSecret`), signed 2 h ago with the merchant's secret
 * (`stale`), altered after a genuine signature (`tampered`), or about an order the shop
 * never made (`unknownOrder`, signed with another secret, whatever `reference`);
 * `replayed` delivers the earliest event the
 * service sent about the order again, with a fresh signature. The story notes the event
 * and the endpoint's answer; the invariant "no change from a webhook the service did not
 * send" judges what it did.
 *
 * @example
 * ```ts
 * import { Steps } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Steps.forgedWebhook('unsigned', 'o1').toString(), 'an unsigned webhook about order o1 arrives (forged)')
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const forgedWebhook = (kind: Forgery, reference: string): Step =>
  step(FORGED_TEXT[kind](reference), (world) => world.forgedWebhook(kind, reference))

/**
 * The integration's reconcile job runs, for order `reference` or (none) for every order.
 *
 * @example
 * ```ts
 * import { Steps } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Steps.reconcile().toString(), 'the shop reconciles')
 * assert.equal(Steps.reconcile('o2').toString(), 'the shop reconciles order o2')
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const reconcile = (reference?: string): Step =>
  step(
    reference === undefined ? 'the shop reconciles' : `the shop reconciles order ${reference}`,
    (world) => world.reconcile(reference),
  )
