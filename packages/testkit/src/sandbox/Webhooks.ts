/**
 * Webhook delivery of the sandbox: the testkit's one delivery engine (the outbox of
 * `service/WebhookOutbox.ts`) over the sandbox's service, one outbox per configured URL,
 * its handler a POST of the JSON to that URL (signed by `signedWebhook` when a secret is
 * set), every new event delivered at once to every URL by `deliverEach` (each URL with its
 * own retries and exponential backoff), every attempt logged with its URL.
 *
 * @since 0.2.0
 */
import type { WebhookEvent } from '@paykit/core/webhook'
import { eventsOf, type SimulatorState } from '../simulator/State.js'
import {
  makeWebhookOutbox,
  type HandlerDelivery,
  type WebhookHandler,
  type WebhookOutbox,
} from '../service/WebhookDelivery.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Where and how webhooks go.
 *
 * @category model
 * @since 0.2.0
 */
export interface WebhookOptions {
  /** The receiver's URL, or several: each event goes to each, in its own delivery. */
  readonly url: string | ReadonlyArray<string>
  /** The signing secret; without it no `Paykit-Signature` header is sent. */
  readonly secret?: string
  /** Attempts per event, the first included (default 5). */
  readonly maxAttempts?: number
  /** Wait before the second attempt; each later wait doubles (default 500 ms). */
  readonly initialDelayMs?: number
  /** How long one attempt may take (default 5000 ms), counted once it is sent. */
  readonly timeoutMs?: number
  /**
   * Requests in flight to one URL at most; the others wait their turn (default: no limit).
   * A sender that holds back, as payment services do, keeps a busy receiver from timing out
   * under a burst and every retry from adding to the burst.
   */
  readonly concurrency?: number
  /** The wall clock for the signature's timestamp (default `() => new Date()`). */
  readonly now?: () => Date
}

/**
 * One delivery attempt: `status` is the receiver's HTTP status (null when the request
 * failed, `error` saying how); `delivered` when it answered 2xx.
 *
 * @category model
 * @since 0.2.0
 */
export interface Delivery {
  readonly eventId: string
  readonly type: WebhookEvent['type']
  readonly url: string
  readonly attempt: number
  readonly at: string
  readonly status: number | null
  readonly error: string | null
  readonly delivered: boolean
  /** Whether it sent an event again on purpose (a resend or a duplicate move). */
  readonly duplicate: boolean
  /** Whether another attempt follows (false once delivered or out of attempts). */
  readonly willRetry: boolean
}

/**
 * The sandbox's delivery: every attempt logged, and the outboxes themselves for a test's
 * own moves (events one gave up on are in its `dropped()`, `redeliverDropped` tries again).
 *
 * @category model
 * @since 0.2.0
 */
export interface WebhookDispatcher {
  /** The URLs, in the order given; each event goes to each. */
  readonly urls: ReadonlyArray<string>
  /** The first URL's engine: the manual moves (`deliverNext`, `duplicate`, `drop`...) POST to it. */
  readonly outbox: WebhookOutbox
  /** One engine per URL, in the order of `urls`. */
  readonly outboxes: ReadonlyArray<WebhookOutbox>
  /** Every attempt so far, to every URL, oldest first. */
  readonly deliveries: () => ReadonlyArray<Delivery>
  /**
   * Sends the recorded event `eventId` again, freshly signed, to every URL, each with its
   * own retries (a replay, as a service's retry sends it); false when the service has no
   * such event (or no longer keeps it).
   */
  readonly resend: (eventId: string) => boolean
  /** Resolves once no delivery is in flight or waiting to retry. */
  readonly idle: () => Promise<void>
  /** Cancels pending retries and in-flight attempts, and forgets the log. */
  readonly reset: () => void
  /** Cancels pending retries and in-flight attempts for good. */
  readonly close: () => void
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** Runs a task when fewer than `limit` run, else once an earlier one ends (in turn). */
type Limiter = <A>(task: () => Promise<A>) => Promise<A>

/** A {@link Limiter} of `limit` tasks at once; a freed slot is handed to the next in line. */
const limiter = (limit: number): Limiter => {
  let running = 0
  const waiting: Array<() => void> = []
  return async (task) => {
    if (running < limit) running++
    else await new Promise<void>((resolve) => waiting.push(resolve))
    try {
      return await task()
    } finally {
      const next = waiting.shift()
      if (next === undefined) running--
      else next()
    }
  }
}

/**
 * A handler POSTing to `url`, at most as many at once as `inTurn` lets through (its
 * timeout counted from the send); a failed request is `status: null` with its cause's code.
 */
const postTo =
  (url: string, timeoutMs: number, inTurn: Limiter): WebhookHandler =>
  (body, headers, cancel) =>
    inTurn(async () => {
      const signal = AbortSignal.any([cancel, AbortSignal.timeout(timeoutMs)])
      try {
        const response = await fetch(url, { method: 'POST', headers, body, signal })
        await response.arrayBuffer().catch(() => undefined)
        return { status: response.status }
      } catch (e) {
        const cause = (e as { readonly cause?: { readonly code?: unknown } }).cause
        return {
          status: null,
          error: signal.aborted
            ? 'timed out or cancelled'
            : typeof cause?.code === 'string'
              ? cause.code
              : e instanceof Error
                ? e.message
                : 'request failed',
        }
      }
    })

const asDelivery =
  (url: string) =>
  (d: HandlerDelivery): Delivery => ({
    eventId: d.eventId,
    type: d.type,
    url,
    attempt: d.attempt,
    at: d.at,
    status: d.status,
    error: d.error,
    delivered: d.status !== null && d.status >= 200 && d.status < 300,
    duplicate: d.duplicate,
    willRetry: d.willRetry,
  })

/**
 * The sandbox's delivery of `service`'s events to `options.url` (one URL or several): each
 * new event is POSTed at once to each URL and retried on failure, per URL.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { makeLiveService } from '@paykit/testkit/service'
 * import { makeWebhookDispatcher } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 * import { once } from 'node:events'
 * import { createServer } from 'node:http'
 * import type { AddressInfo } from 'node:net'
 *
 * const signatures: Array<string | undefined> = []
 * const receiver = createServer((req, res) => {
 *   signatures.push(req.headers['paykit-signature'] as string | undefined)
 *   res.end()
 * })
 * await once(receiver.listen(0, '127.0.0.1'), 'listening')
 * const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
 * const live = makeLiveService({ baseUrl: 'http://paykit.test' })
 * const webhooks = makeWebhookDispatcher(live, { url, secret: 'whsec-example' })
 *
 * const { response } = live.exchange({
 *   method: 'POST',
 *   path: '/paymentlink/checkout',
 *   headers: { authorization: `Bearer ${defaultCredentials.apiKey}`, 'content-type': 'application/json' },
 *   body: '{"amount":5}',
 * })
 * live.cancelOrder(JSON.parse(response.body).orderCode)
 * await webhooks.idle()
 * webhooks.close()
 * receiver.close()
 *
 * assert.deepEqual(webhooks.deliveries().map((d) => [d.type, d.status, d.delivered]), [
 *   ['order.cancelled', 200, true],
 * ])
 * assert.match(signatures[0] ?? '', /^t=\d+,v1=[0-9a-f]{64}$/) // verify with the core's verifyWebhookEvent
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const makeWebhookDispatcher = (
  service: {
    readonly state: () => SimulatorState
    readonly onEvents: (listener: () => void) => () => void
  },
  options: WebhookOptions,
): WebhookDispatcher => {
  const urls: ReadonlyArray<string> = typeof options.url === 'string' ? [options.url] : options.url
  const retry = {
    ...(options.maxAttempts === undefined ? {} : { attempts: options.maxAttempts }),
    ...(options.initialDelayMs === undefined ? {} : { initialDelayMs: options.initialDelayMs }),
  }
  const routes = urls.map((url) => ({
    toDelivery: asDelivery(url),
    outbox: makeWebhookOutbox(service, {
      handler: postTo(url, options.timeoutMs ?? 5000, limiter(options.concurrency ?? Infinity)),
      ...(options.secret === undefined ? {} : { secret: options.secret }),
      // The wall clock: a receiver checks the signature's time against its own.
      now: options.now ?? (() => new Date()),
    }),
  }))
  const outboxes = routes.map((r) => r.outbox)
  const [outbox] = outboxes
  if (outbox === undefined) throw new Error('url: at least one webhook URL is needed')
  const unsubscribe = service.onEvents(() => {
    for (const each of outboxes) void each.deliverEach(retry)
  })
  return {
    urls,
    outbox,
    outboxes,
    // Stable: attempts at the same instant keep the order of the URLs.
    deliveries: () =>
      routes
        .flatMap(({ outbox: each, toDelivery }) => each.deliveries().map(toDelivery))
        .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)),
    resend: (eventId) => {
      const known = eventsOf(service.state()).some((e) => e.id === eventId)
      if (known) for (const each of outboxes) void each.resend(eventId, retry)
      return known
    },
    idle: async () => {
      await Promise.all(outboxes.map((each) => each.idle()))
    },
    reset: () => {
      for (const each of outboxes) each.reset()
    },
    close: () => {
      unsubscribe()
      for (const each of outboxes) each.close()
    },
  }
}
