/**
 * The testkit's one webhook delivery engine: a service's events delivered to a handler,
 * by hand with the controls a test needs (deliver now, duplicate, reorder, delay, drop and
 * redeliver) or each on its own with retries and backoff (`deliverEach`, how the sandbox
 * POSTs to a URL). The signer is a parameter and nothing here imports a Node built-in:
 * MSW's handlers run it in a browser.
 *
 * @since 0.2.0
 */
import { WebhookEvent } from '@paykit/core/pure'
import { clockOf } from '../simulator/Clock.js'
import { eventCountOf, eventsOf, eventsSince, type SimulatorState } from '../simulator/State.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One webhook request: the raw body and the headers (names in lower case, as a Node
 * receiver sees them).
 *
 * @category model
 * @since 0.2.0
 */
export interface SignedWebhook {
  readonly body: string
  readonly headers: Readonly<Record<string, string>>
}

/**
 * The user's webhook handler: given the raw body, the headers and a signal aborted when
 * the outbox is reset or closed, the HTTP status it answers (2xx: delivered; anything
 * else, or a rejection: still pending). `status: null` with `error` says the request
 * itself failed (a transport's own words: no value of the body).
 *
 * @category model
 * @since 0.2.0
 */
export type WebhookHandler = (
  body: string,
  headers: Readonly<Record<string, string>>,
  signal: AbortSignal,
) => Promise<{ readonly status: number | null; readonly error?: string }>

/**
 * One delivery to the handler: the event, the status answered (`null` when the request
 * failed, `error` saying how, or the handler threw), whether it was a duplicate of a
 * delivered event, the event's `attempt` number (1 for its first delivery), when it was
 * answered (`at`, the outbox's clock) and whether `deliverEach` will try it again.
 *
 * @category model
 * @since 0.2.0
 */
export interface HandlerDelivery {
  readonly eventId: string
  readonly type: WebhookEvent['type']
  readonly status: number | null
  readonly error: string | null
  readonly duplicate: boolean
  readonly attempt: number
  readonly at: string
  readonly willRetry: boolean
}

/**
 * How `deliverEach` retries a refused event: `attempts` in all, the first included
 * (default 5), waiting `initialDelayMs` before the second (default 500 ms), doubled for
 * each later one.
 *
 * @category model
 * @since 0.2.0
 */
export interface WebhookRetry {
  readonly attempts?: number
  readonly initialDelayMs?: number
}

/**
 * What signs an event for delivery: the body and headers for `event` with `secret` at
 * `timestamp` (`signedWebhook` in Node; nothing else in this module needs `node:crypto`).
 *
 * @category model
 * @since 0.2.0
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
 * @since 0.2.0
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
 * @since 0.2.0
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
  /**
   * Delivers every pending event now, each on its own (at once, not one after another),
   * retrying a refusal with backoff; an event out of attempts is dropped. Resolves with
   * every attempt once each event is delivered or dropped.
   */
  readonly deliverEach: (retry?: WebhookRetry) => Promise<ReadonlyArray<HandlerDelivery>>
  /**
   * Delivers the service's recorded event `eventId` again, freshly signed, with
   * `deliverEach`'s retries (each attempt logged as a `duplicate`): a replay as a service
   * retry sends it. Resolves with its attempts (none for an id the service has not kept).
   */
  readonly resend: (
    eventId: string,
    retry?: WebhookRetry,
  ) => Promise<ReadonlyArray<HandlerDelivery>>
  /** Resolves once no `deliverEach` attempt is in flight or waiting to retry. */
  readonly idle: () => Promise<void>
  /**
   * Cancels waiting retries and aborts attempts in flight (their answers are not logged),
   * forgets the pending and dropped events and the log, and reads the service's events
   * from its current count (after the service's own reset).
   */
  readonly reset: () => void
  /** Cancels waiting retries and attempts in flight for good: nothing is delivered after. */
  readonly close: () => void
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * Default attempts per event (`deliverEach`, `deliverAll` and the sandbox).
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { DEFAULT_WEBHOOK_ATTEMPTS } from '@paykit/testkit/service'
 * import { startSandbox } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 * import { once } from 'node:events'
 * import { createServer } from 'node:http'
 * import type { AddressInfo } from 'node:net'
 *
 * const receiver = createServer((_req, res) => res.writeHead(503).end()) // always down
 * await once(receiver.listen(0, '127.0.0.1'), 'listening')
 * const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
 * const sandbox = await startSandbox({ webhookUrl, webhookRetryDelayMs: 1 })
 * try {
 *   const res = await fetch(`${sandbox.url}/paymentlink/checkout`, {
 *     method: 'POST',
 *     headers: { authorization: `Bearer ${defaultCredentials.apiKey}`, 'content-type': 'application/json' },
 *     body: JSON.stringify({ amount: 5 }),
 *   })
 *   const { orderCode } = (await res.json()) as { orderCode: string }
 *   sandbox.cancelOrder(orderCode) // emits order.cancelled
 *   await sandbox.webhooksIdle()
 *   assert.equal(sandbox.deliveries().length, DEFAULT_WEBHOOK_ATTEMPTS) // 5 tries, then it gives up
 * } finally {
 *   await sandbox.close()
 *   receiver.close()
 * }
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const DEFAULT_WEBHOOK_ATTEMPTS = 5

/**
 * Default wait before the first retry, in milliseconds (then 2x, 4x, ...).
 *
 * @example
 * ```ts
 * import { DEFAULT_WEBHOOK_ATTEMPTS, DEFAULT_WEBHOOK_INITIAL_DELAY_MS } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(DEFAULT_WEBHOOK_INITIAL_DELAY_MS, 500)
 * // the waits between the default attempts: 500, 1000, 2000 and 4000 ms
 * const waits = Array.from(
 *   { length: DEFAULT_WEBHOOK_ATTEMPTS - 1 },
 *   (_, i) => DEFAULT_WEBHOOK_INITIAL_DELAY_MS * 2 ** i,
 * )
 * assert.equal(waits.reduce((a, b) => a + b), 7500)
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const DEFAULT_WEBHOOK_INITIAL_DELAY_MS = 500

// -------------------------------------------------------------------------------------
// encoders
// -------------------------------------------------------------------------------------

/**
 * The JSON body of an event, encoded by the core's codec (amounts as JSON numbers).
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import { defaultCredentials } from '@paykit/testkit'
 * import { encodeWebhookEvent, makeLiveService } from '@paykit/testkit/service'
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
 * @since 0.2.0
 */
export const encodeWebhookEvent = (event: WebhookEvent): string =>
  JSON.stringify(WebhookEvent.encode(event))

/**
 * The request the sandbox sends for `event` without a secret: the encoded body,
 * `content-type` and `user-agent`, no signature.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { makeLiveService, unsignedWebhook } from '@paykit/testkit/service'
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
 * @since 0.2.0
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
 * import { defaultCredentials } from '@paykit/testkit'
 * import { makeWebhookOutboxWith, signedWebhook } from '@paykit/testkit/service'
 * import { mockPaymentService } from '@paykit/testkit/nock'
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
 * @since 0.2.0
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
    let log: Array<HandlerDelivery> = []
    let attempts = new Map<string, number>()
    let last: WebhookEvent | undefined
    // A reset or close starts a new generation: answers of an older one are not logged.
    let generation = 0
    let closed = false
    let controller = new AbortController()
    const timers = new Map<ReturnType<typeof setTimeout>, () => void>()
    let running = 0
    let waiters: Array<() => void> = []

    const pull = (): void => {
      const state = service.state()
      const total = eventCountOf(state)
      if (total === read) return
      queue.push(...eventsSince(state, read))
      read = total
    }

    const isOk = (status: number | null): boolean =>
      status !== null && status >= 200 && status < 300

    /** One attempt; `undefined` when a reset or close came first (nothing logged). */
    const attempt = async (
      event: WebhookEvent,
      duplicate: boolean,
      willRetryIfRefused: boolean,
    ): Promise<HandlerDelivery | undefined> => {
      const gen = generation
      const { signal } = controller
      const { body, headers } = await sign(event, options.secret ?? '', { timestamp: now() })
      let status: number | null = null
      let error: string | null = null
      try {
        const answer = await options.handler(body, headers, signal)
        status = answer.status
        error = answer.error ?? null
      } catch {
        error = signal.aborted ? 'cancelled' : 'the handler threw'
      }
      if (gen !== generation || closed) return undefined
      const n = (attempts.get(event.id) ?? 0) + 1
      attempts.set(event.id, n)
      const willRetry = willRetryIfRefused && !isOk(status)
      const delivery: HandlerDelivery = {
        eventId: event.id,
        type: event.type,
        status,
        error,
        duplicate,
        attempt: n,
        at: now().toISOString(),
        willRetry,
      }
      log.push(delivery)
      if (isOk(status)) last = event
      return delivery
    }

    /** A manual move: a refused event stays pending, behind the others. */
    const send = async (
      event: WebhookEvent,
      duplicate: boolean,
    ): Promise<HandlerDelivery | undefined> => {
      const delivery = await attempt(event, duplicate, false)
      if (delivery !== undefined && !duplicate && !isOk(delivery.status)) queue.push(event)
      return delivery
    }

    const takeAt = async (index: number): Promise<HandlerDelivery | undefined> => {
      pull()
      const event = queue[index]
      if (event === undefined) return undefined
      queue.splice(index, 1)
      return send(event, false)
    }

    const sendAll = async (
      events: ReadonlyArray<WebhookEvent>,
    ): Promise<ReadonlyArray<HandlerDelivery>> => {
      const out: Array<HandlerDelivery> = []
      for (const event of events) {
        const delivery = await send(event, false)
        if (delivery !== undefined) out.push(delivery)
      }
      return out
    }

    /** Resolves after `ms`, or at once (false) when a reset or close cancels the wait. */
    const wait = (ms: number): Promise<boolean> =>
      new Promise((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer)
          resolve(true)
        }, ms)
        timers.set(timer, () => resolve(false))
      })

    /** One event's attempts until delivered or out of attempts (then dropped). */
    const deliverWithRetries = async (
      event: WebhookEvent,
      { attempts: maxAttempts, initialDelayMs }: Required<WebhookRetry>,
      duplicate = false,
    ): Promise<ReadonlyArray<HandlerDelivery>> => {
      const out: Array<HandlerDelivery> = []
      const gen = generation
      for (let n = 1; ; n++) {
        const delivery = await attempt(event, duplicate, n < maxAttempts)
        if (delivery === undefined) return out
        out.push(delivery)
        if (isOk(delivery.status)) return out
        if (!delivery.willRetry) {
          lost.push(event)
          return out
        }
        if (!(await wait(initialDelayMs * 2 ** (n - 1))) || gen !== generation) return out
      }
    }

    const retryOf = (retry: WebhookRetry): Required<WebhookRetry> => ({
      attempts: Math.max(1, Math.floor(retry.attempts ?? DEFAULT_WEBHOOK_ATTEMPTS)),
      initialDelayMs: Math.max(0, retry.initialDelayMs ?? DEFAULT_WEBHOOK_INITIAL_DELAY_MS),
    })

    /** Each of `events` on its own with retries, counted until settled for `idle`. */
    const retried = async (
      events: ReadonlyArray<WebhookEvent>,
      retry: WebhookRetry,
      duplicate: boolean,
    ): Promise<ReadonlyArray<HandlerDelivery>> => {
      const policy = retryOf(retry)
      running += events.length
      const each = await Promise.all(
        events.map((event) => deliverWithRetries(event, policy, duplicate).finally(settle)),
      )
      return each.flat()
    }

    const settle = (): void => {
      running--
      if (running > 0) return
      const ready = waiters
      waiters = []
      for (const resolve of ready) resolve()
    }

    const cancel = (): void => {
      generation++
      for (const [timer, resolve] of timers) {
        clearTimeout(timer)
        resolve()
      }
      timers.clear()
      controller.abort()
      controller = new AbortController()
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
      duplicate: async () => (last === undefined ? undefined : attempt(last, true, false)),
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
        return sendAll(events)
      },
      deliverAll: async (tries = DEFAULT_WEBHOOK_ATTEMPTS) => {
        pull()
        queue = [...queue, ...lost].sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        lost = []
        const out: Array<HandlerDelivery> = []
        const sent = new Map<string, number>()
        for (let event = queue.shift(); event !== undefined; event = queue.shift()) {
          const n = (sent.get(event.id) ?? 0) + 1
          sent.set(event.id, n)
          if (n > tries) continue
          const delivery = await send(event, false)
          if (delivery !== undefined) out.push(delivery)
          pull()
        }
        return out
      },
      deliverEach: async (retry = {}) => {
        if (closed) return []
        pull()
        const events = queue
        queue = []
        return retried(events, retry, false)
      },
      resend: async (eventId, retry = {}) => {
        if (closed) return []
        const event = eventsOf(service.state()).find((e) => e.id === eventId)
        return event === undefined ? [] : retried([event], retry, true)
      },
      idle: () =>
        running === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
      reset: () => {
        cancel()
        read = eventCountOf(service.state())
        queue = []
        lost = []
        log = []
        attempts = new Map()
        last = undefined
      },
      close: () => {
        closed = true
        cancel()
      },
    }
  }
