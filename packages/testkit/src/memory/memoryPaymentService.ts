/**
 * The simulator in process without any network: a `Transport` for the core's client that
 * hands each request to the same live service as the nock mock and the sandbox (same
 * routes, fault plan and request log), answered on the spot. For model-based tests that
 * run thousands of stories: no socket, no interceptor, no timer.
 *
 * A fault is carried out as the client would meet it: `connectionReset` is a `reset`
 * transport error, `hang` a `timeout`, `truncatedBody` a `body` error (all three after the
 * service processed the request); a latency is not waited for, only compared with the
 * request's `timeoutMs` (longer: a `timeout`).
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import {
  transportError,
  type Transport,
  type TransportError,
  type TransportResponse,
} from '@paykit/core/client'
import { makeLiveService, type LiveServiceOptions } from '../service/LiveService.js'
import { clockOf } from '../simulator/Clock.js'
import { controlsOf, type ServiceControls } from '../service/ServiceControls.js'
import {
  makeWebhookOutbox,
  type WebhookOutbox,
  type WebhookOutboxOptions,
} from '../service/WebhookDelivery.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The handle of an in-memory service: the controls every fake has, its transport, and
 * webhook delivery to a handler.
 *
 * @category model
 * @since 0.2.0
 */
export interface MemoryPaymentService extends ServiceControls {
  /** The base URL its transport answers (any other origin or prefix is refused). */
  readonly baseUrl: string
  /** The core client's transport: `createClient({ baseUrl, credentials, transport })`. */
  readonly transport: Transport
  /** An outbox delivering this service's webhook events to `options.handler`. */
  readonly webhooks: (options: WebhookOutboxOptions) => WebhookOutbox
  /** Back to the initial state: no tokens, orders, events, faults or request log. */
  readonly reset: () => void
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const done = (
  result: E.Either<TransportError, TransportResponse>,
): TE.TaskEither<TransportError, TransportResponse> => {
  const promise = Promise.resolve(result)
  return () => promise
}

/**
 * A fresh in-memory service answering at `options.baseUrl` (`options.now` is the wall
 * clock it adds its own offset to: pass a virtual clock for runs that replay).
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { createClient } from '@paykit/core'
 * import { defaultCredentials } from '@paykit/testkit'
 * import { Faults } from '@paykit/testkit/service'
 * import { memoryPaymentService } from '@paykit/testkit/memory'
 * import assert from 'node:assert/strict'
 *
 * const service = memoryPaymentService({ baseUrl: 'https://paykit.memory' })
 * const { baseUrl, transport } = service
 * const client = createClient({ baseUrl, credentials: defaultCredentials, transport })
 * const link = await client.createPaymentLink({ amount: 19.99, orderReference: 'o1' })()
 * assert.ok(E.isRight(link))
 *
 * // processed, then the connection is reset: the link exists, the client cannot know
 * service.injectFault(Faults.processedThenReset, { operation: 'createPaymentLink', times: 1 })
 * const lost = await client.createPaymentLink({ amount: 5, orderReference: 'o2' })()
 * assert.ok(E.isLeft(lost) && lost.left.outcomeUnknown === true)
 * assert.equal(service.state().counters.order, 2)
 * assert.deepEqual(service.requests().map((r) => r.fault), [undefined, 'connectionReset'])
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const memoryPaymentService = (options: LiveServiceOptions): MemoryPaymentService => {
  const base = new URL(options.baseUrl)
  const prefix = base.pathname.replace(/\/+$/, '')
  const live = makeLiveService(options)
  const wall = options.now ?? (() => new Date())

  const transport: Transport = (request) => {
    if (request.signal?.aborted === true)
      return done(E.left(transportError('aborted', 'cancelled by the caller', 'no')))
    let url: URL
    try {
      url = new URL(request.url)
    } catch {
      return done(E.left(transportError('other', 'invalid URL', 'no')))
    }
    const path = `${url.pathname}${url.search}`
    if (url.origin !== base.origin || (prefix !== '' && !url.pathname.startsWith(prefix)))
      return done(E.left(transportError('refused', 'ECONNREFUSED')))
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value
    const { decision, response } = live.exchange({
      method: request.method,
      path,
      headers,
      body: request.body ?? '',
    })
    if (request.timeoutMs !== undefined && decision.latencyMs > request.timeoutMs)
      return done(E.left(transportError('timeout', 'no response within the time limit')))
    switch (decision.failure?.kind) {
      case 'connectionReset':
        return done(E.left(transportError('reset', 'ECONNRESET')))
      case 'hang':
        return done(E.left(transportError('timeout', 'no response within the time limit')))
      case 'truncatedBody':
        return done(E.left(transportError('body', 'ECONNRESET')))
      default:
        return done(E.right(response))
    }
  }

  return {
    baseUrl: options.baseUrl,
    transport,
    ...controlsOf(live),
    // Signed on the simulator's clock over the same wall clock as the service.
    webhooks: (outbox) =>
      makeWebhookOutbox(live, { now: () => clockOf(live.state(), wall()), ...outbox }),
    reset: live.reset,
  }
}
