/**
 * Delivery of a service's webhook events to a handler in process, with the controls a
 * test needs: deliver now, duplicate, reorder, delay, drop and redeliver. The signer is a
 * parameter and nothing here imports a Node built-in: MSW's handlers run it in a browser.
 *
 * @since 0.1.0
 */
import { WebhookEvent } from '@paykit/core/pure'
import { clockOf } from '../simulator/Clock.js'
import { eventCountOf, eventsSince, type SimulatorState } from '../simulator/State.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One webhook request: the raw body and the headers (names in lower case, as a Node
 * receiver sees them).
 *
 * @category model
 * @since 0.1.0
 */
export interface SignedWebhook {
  readonly body: string
  readonly headers: Readonly<Record<string, string>>
}

/**
 * The user's webhook handler: given the raw body and the headers, the HTTP status it
 * answers (2xx: delivered; anything else, or a rejection: still pending).
 *
 * @category model
 * @since 0.1.0
 */
export type WebhookHandler = (
  body: string,
  headers: Readonly<Record<string, string>>,
) => Promise<{ readonly status: number }>

/**
 * One delivery to the handler: the event, the status answered (`null` when the handler
 * threw) and whether it was a duplicate of a delivered event.
 *
 * @category model
 * @since 0.1.0
 */
export interface HandlerDelivery {
  readonly eventId: string
  readonly type: WebhookEvent['type']
  readonly status: number | null
  readonly duplicate: boolean
}

/**
 * What signs an event for delivery: the body and headers for `event` with `secret` at
 * `timestamp` (`signedWebhook` in Node; nothing else in this module needs `node:crypto`).
 *
 * @category model
 * @since 0.1.0
 */
export type WebhookSigner = (
  event: WebhookEvent,
  secret: string,
  options: { readonly timestamp: Date },
) => SignedWebhook | Promise<SignedWebhook>

/**
 * Options of {@link makeWebhookOutboxWith}: the handler, the signing secret (none: no
 * signature header) and the clock of the signature's timestamp (the simulator's clock by
 * default).
 *
 * @category model
 * @since 0.1.0
 */
export interface WebhookOutboxOptions {
  readonly handler: WebhookHandler
  readonly secret?: string
  readonly now?: () => Date
}

/**
 * The events a service emitted and not yet delivered, and the moves that deliver them.
 * New events are read from the service each time a control runs. Each `deliver*` resolves
 * with the delivery made (`undefined` when there was nothing to deliver).
 *
 * @category model
 * @since 0.1.0
 */
export interface WebhookOutbox {
  /** The events waiting, oldest first (dropped ones excluded). */
  readonly pending: () => ReadonlyArray<WebhookEvent>
  /** The events dropped, waiting for {@link WebhookOutbox.redeliverDropped}. */
  readonly dropped: () => ReadonlyArray<WebhookEvent>
  /** Every delivery made, oldest first. */
  readonly deliveries: () => ReadonlyArray<HandlerDelivery>
  /** Delivers the oldest pending event. */
  readonly deliverNext: () => Promise<HandlerDelivery | undefined>
  /** Delivers the newest pending event first: events arrive out of order. */
  readonly deliverLatest: () => Promise<HandlerDelivery | undefined>
  /** Delivers the last delivered event again. */
  readonly duplicate: () => Promise<HandlerDelivery | undefined>
  /** Moves the oldest pending event behind the others: it arrives late. */
  readonly delay: () => WebhookEvent | undefined
  /** Sets the oldest pending event aside, as if the delivery was lost. */
  readonly drop: () => WebhookEvent | undefined
  /** Puts the dropped events back, oldest first, and delivers them. */
  readonly redeliverDropped: () => Promise<ReadonlyArray<HandlerDelivery>>
  /**
   * Delivers every pending and dropped event, oldest first, each up to `attempts` times
   * (default 5) while the handler refuses it.
   */
  readonly deliverAll: (attempts?: number) => Promise<ReadonlyArray<HandlerDelivery>>
}

// -------------------------------------------------------------------------------------
// encoders
// -------------------------------------------------------------------------------------

/**
 * The JSON body of an event, encoded by the core's codec (amounts as JSON numbers).
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core'
 * import { encodeWebhookEvent, makeLiveService, defaultCredentials } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * const live = makeLiveService({ baseUrl: 'http://paykit.test' })
 * const { response } = live.exchange({
 *   method: 'POST',
 *   path: '/paymentlink/checkout',
 *   headers: { authorization: `Bearer ${defaultCredentials.apiKey}`, 'content-type': 'application/json' },
 *   body: '{"amount":19.99}',
 * })
 * live.cancelOrder(JSON.parse(response.body).orderCode)
 * const [event] = live.events()
 * assert.ok(event !== undefined && Money.toString(event.data.total) === '19.99')
 * assert.equal(JSON.parse(encodeWebhookEvent(event)).data.total, 19.99) // a number
 * ```
 *
 * @category encoders
 * @since 0.1.0
 */
export const encodeWebhookEvent = (event: WebhookEvent): string =>
  JSON.stringify(WebhookEvent.encode(event))

/**
 * The request the sandbox sends for `event` without a secret: the encoded body,
 * `content-type` and `user-agent`, no signature.
 *
 * @example
 * ```ts
 * import { defaultCredentials, makeLiveService, unsignedWebhook } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * const live = makeLiveService({ baseUrl: 'http://paykit.test' })
 * const { response } = live.exchange({
 *   method: 'POST',
 *   path: '/paymentlink/checkout',
 *   headers: { authorization: `Bearer ${defaultCredentials.apiKey}`, 'content-type': 'application/json' },
 *   body: '{"amount":3}',
 * })
 * live.cancelOrder(JSON.parse(response.body).orderCode)
 * const [event] = live.events()
 * assert.ok(event !== undefined)
 * const { body, headers } = unsignedWebhook(event)
 * assert.equal(JSON.parse(body).type, 'order.cancelled')
 * assert.deepEqual(Object.keys(headers), ['content-type', 'user-agent'])
 * ```
 *
 * @category encoders
 * @since 0.1.0
 */
export const unsignedWebhook = (event: WebhookEvent): SignedWebhook => ({
  body: encodeWebhookEvent(event),
  headers: { 'content-type': 'application/json', 'user-agent': 'paykit-sandbox' },
})

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * An outbox over a service's events (anything with the simulator's `state()`: the
 * in-memory service, the nock mock, the sandbox, MSW's handlers), delivering to
 * `options.handler` what `sign` makes of each event. `makeWebhookOutbox` is this with
 * `signedWebhook`; `@paykit/testkit/msw` takes the signer from its caller, for a browser
 * has no `node:crypto`.
 *
 * @example
 * ```ts
 * import { createClient } from '@paykit/core'
 * import { defaultCredentials, makeWebhookOutboxWith, mockPaymentService, signedWebhook } from '@paykit/testkit'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const mock = mockPaymentService({ baseUrl: 'https://paykit.test' })
 * try {
 *   const seen: Array<string> = []
 *   const outbox = makeWebhookOutboxWith(signedWebhook)(mock, {
 *     secret: 'whsec-test',
 *     handler: async (body) => {
 *       seen.push(JSON.parse(body).type)
 *       return { status: 200 }
 *     },
 *   })
 *   const client = createClient({ baseUrl: mock.baseUrl, credentials: defaultCredentials })
 *   const link = await client.createPaymentLink({ amount: 5 })()
 *   assert.ok(E.isRight(link))
 *   mock.payOrder(link.right.orderCode)
 *   mock.finalizeOrder(link.right.orderCode)
 *   await outbox.deliverLatest() // out of order: order.finalized first
 *   await outbox.duplicate() // and again
 *   await outbox.deliverAll()
 *   assert.deepEqual(seen, ['order.finalized', 'order.finalized', 'order.paid'])
 * } finally {
 *   mock.restore()
 * }
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const makeWebhookOutboxWith =
  (sign: WebhookSigner) =>
  (
    service: { readonly state: () => SimulatorState },
    options: WebhookOutboxOptions,
  ): WebhookOutbox => {
    const now = options.now ?? (() => clockOf(service.state(), new Date()))
    let read = eventCountOf(service.state())
    let queue: Array<WebhookEvent> = []
    let lost: Array<WebhookEvent> = []
    const log: Array<HandlerDelivery> = []
    let last: WebhookEvent | undefined

    const pull = (): void => {
      const state = service.state()
      const total = eventCountOf(state)
      if (total === read) return
      queue.push(...eventsSince(state, read))
      read = total
    }

    const send = async (event: WebhookEvent, duplicate: boolean): Promise<HandlerDelivery> => {
      const { body, headers } = await sign(event, options.secret ?? '', { timestamp: now() })
      let status: number | null = null
      try {
        status = (await options.handler(body, headers)).status
      } catch {
        status = null
      }
      const delivery = { eventId: event.id, type: event.type, status, duplicate }
      log.push(delivery)
      const ok = status !== null && status >= 200 && status < 300
      if (!duplicate && !ok) queue.push(event) // refused: it stays pending, behind the others
      if (ok) last = event
      return delivery
    }

    const takeAt = async (index: number): Promise<HandlerDelivery | undefined> => {
      pull()
      const event = queue[index]
      if (event === undefined) return undefined
      queue.splice(index, 1)
      return send(event, false)
    }

    return {
      pending: () => {
        pull()
        return [...queue]
      },
      dropped: () => [...lost],
      deliveries: () => [...log],
      deliverNext: () => takeAt(0),
      deliverLatest: () => {
        pull()
        return takeAt(queue.length - 1)
      },
      duplicate: async () => (last === undefined ? undefined : send(last, true)),
      delay: () => {
        pull()
        const event = queue.shift()
        if (event !== undefined) queue.push(event)
        return event
      },
      drop: () => {
        pull()
        const event = queue.shift()
        if (event !== undefined) lost.push(event)
        return event
      },
      redeliverDropped: async () => {
        const events = lost
        lost = []
        const out: Array<HandlerDelivery> = []
        for (const event of events) out.push(await send(event, false))
        return out
      },
      deliverAll: async (attempts = 5) => {
        pull()
        queue = [...queue, ...lost].sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        lost = []
        const out: Array<HandlerDelivery> = []
        const tries = new Map<string, number>()
        for (let event = queue.shift(); event !== undefined; event = queue.shift()) {
          const n = (tries.get(event.id) ?? 0) + 1
          tries.set(event.id, n)
          if (n > attempts) continue
          out.push(await send(event, false))
          pull()
        }
        return out
      },
    }
  }
