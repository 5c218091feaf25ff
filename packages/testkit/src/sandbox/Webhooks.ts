/**
 * Webhook delivery of the sandbox: every new order event is POSTed as JSON to the
 * configured URL, encoded and signed by `signedWebhook` when a secret is set, retried with
 * exponential backoff on failure, and every attempt is logged.
 *
 * @since 0.1.0
 */
import type { WebhookEvent } from '@paykit/core/webhook'
import { signedWebhook } from '../service/WebhookDelivery.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Where and how webhooks go.
 *
 * @category model
 * @since 0.1.0
 */
export interface WebhookOptions {
  /** The receiver's URL. */
  readonly url: string
  /** The signing secret; without it no `Paykit-Signature` header is sent. */
  readonly secret?: string
  /** Attempts per event, the first included (default 5). */
  readonly maxAttempts?: number
  /** Wait before the second attempt; each later wait doubles (default 500 ms). */
  readonly initialDelayMs?: number
  /** How long one attempt may take (default 5000 ms). */
  readonly timeoutMs?: number
  /** The wall clock for the signature's timestamp (default `() => new Date()`). */
  readonly now?: () => Date
}

/**
 * One delivery attempt: `status` is the receiver's HTTP status (null when the request
 * failed, `error` saying how); `delivered` when it answered 2xx.
 *
 * @category model
 * @since 0.1.0
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
  /** Whether another attempt follows (false once delivered or out of attempts). */
  readonly willRetry: boolean
}

/**
 * The delivery queue.
 *
 * @category model
 * @since 0.1.0
 */
export interface WebhookDispatcher {
  /** Starts delivering each event (independently of the others). */
  readonly enqueue: (events: ReadonlyArray<WebhookEvent>) => void
  /** Every attempt so far, oldest first. */
  readonly deliveries: () => ReadonlyArray<Delivery>
  /** Resolves once no delivery is in flight or waiting to retry. */
  readonly idle: () => Promise<void>
  /** Cancels pending retries and in-flight attempts, and forgets the log. */
  readonly reset: () => void
  /** Cancels pending retries and in-flight attempts for good. */
  readonly close: () => void
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * Default attempts per event.
 *
 * @example
 * ```ts
 * import { DEFAULT_WEBHOOK_ATTEMPTS, defaultCredentials, startSandbox } from '@paykit/testkit'
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
 * @since 0.1.0
 */
export const DEFAULT_WEBHOOK_ATTEMPTS = 5

/**
 * Default wait before the first retry, in milliseconds (then 2x, 4x, ...).
 *
 * @example
 * ```ts
 * import { DEFAULT_WEBHOOK_ATTEMPTS, DEFAULT_WEBHOOK_INITIAL_DELAY_MS } from '@paykit/testkit'
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
 * @since 0.1.0
 */
export const DEFAULT_WEBHOOK_INITIAL_DELAY_MS = 500

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A dispatcher posting to `options.url`.
 *
 * @example
 * ```ts
 * import { defaultCredentials, makeLiveService, makeWebhookDispatcher } from '@paykit/testkit'
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
 * const webhooks = makeWebhookDispatcher({ url, secret: 'whsec-example' })
 *
 * const live = makeLiveService({ baseUrl: 'http://paykit.test' })
 * live.onEvents(webhooks.enqueue)
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
 * @since 0.1.0
 */
export const makeWebhookDispatcher = (options: WebhookOptions): WebhookDispatcher => {
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? DEFAULT_WEBHOOK_ATTEMPTS))
  const initialDelayMs = Math.max(0, options.initialDelayMs ?? DEFAULT_WEBHOOK_INITIAL_DELAY_MS)
  const timeoutMs = options.timeoutMs ?? 5000
  const now = options.now ?? (() => new Date())
  let log: Array<Delivery> = []
  let closed = false
  let generation = 0
  const timers = new Set<NodeJS.Timeout>()
  const controllers = new Set<AbortController>()
  let inFlight = 0
  let waiters: Array<() => void> = []

  const settle = (): void => {
    inFlight--
    if (inFlight === 0) {
      const ready = waiters
      waiters = []
      for (const resolve of ready) resolve()
    }
  }

  const attempt = async (event: WebhookEvent, n: number, gen: number): Promise<void> => {
    if (closed || gen !== generation) return settle()
    // The one encoder: amounts travel as JSON numbers; signed when a secret is set.
    const { body, headers } = signedWebhook(event, options.secret ?? '', { timestamp: now() })
    const controller = new AbortController()
    controllers.add(controller)
    const timer = setTimeout(() => controller.abort(), timeoutMs)
    let status: number | null = null
    let error: string | null = null
    try {
      const response = await fetch(options.url, {
        method: 'POST',
        headers,
        body,
        signal: controller.signal,
      })
      status = response.status
      await response.arrayBuffer().catch(() => undefined)
    } catch (e) {
      const cause = (e as { readonly cause?: { readonly code?: unknown } }).cause
      error = controller.signal.aborted
        ? 'timed out or cancelled'
        : typeof cause?.code === 'string'
          ? cause.code
          : e instanceof Error
            ? e.message
            : 'request failed'
    } finally {
      clearTimeout(timer)
      controllers.delete(controller)
    }
    if (gen !== generation) return settle()
    const delivered = status !== null && status >= 200 && status < 300
    const willRetry = !delivered && n < maxAttempts && !closed
    log.push({
      eventId: event.id,
      type: event.type,
      url: options.url,
      attempt: n,
      at: now().toISOString(),
      status,
      error,
      delivered,
      willRetry,
    })
    if (!willRetry) return settle()
    const retry = setTimeout(
      () => {
        timers.delete(retry)
        void attempt(event, n + 1, gen)
      },
      initialDelayMs * 2 ** (n - 1),
    )
    timers.add(retry)
  }

  const cancel = (): void => {
    generation++
    for (const timer of timers) clearTimeout(timer)
    // Each cancelled retry still counts as in flight; settle them so idle() resolves.
    const cancelled = timers.size
    timers.clear()
    for (const controller of controllers) controller.abort()
    for (let i = 0; i < cancelled; i++) settle()
  }

  return {
    enqueue: (events) => {
      if (closed) return
      for (const event of events) {
        inFlight++
        void attempt(event, 1, generation)
      }
    },
    deliveries: () => [...log],
    idle: () =>
      inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
    reset: () => {
      cancel()
      log = []
    },
    close: () => {
      closed = true
      cancel()
    },
  }
}
