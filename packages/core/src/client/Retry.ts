/**
 * Safe retries as pure decisions: which failed attempt may be repeated, and after what
 * delay. Repeating is only safe when the request never reached the service or when doing
 * it twice cannot do harm. A request that changes state and may have been processed (the
 * errors' `outcomeUnknown`) is never repeated by default; a charge never, whatever the
 * options.
 *
 * @since 0.2.0
 */
import type { TransportError } from './Transport.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A bounded exponential backoff: at most `maxAttempts` attempts in all (1 = no retry);
 * the n-th retry waits about `baseDelayMs * factor^(n-1)`, capped at `maxDelayMs`.
 *
 * @category model
 * @since 0.2.0
 */
export interface RetryPolicy {
  readonly maxAttempts: number
  readonly baseDelayMs: number
  readonly maxDelayMs: number
  readonly factor: number
}

/**
 * What a request does, which decides whether repeating it is safe:
 * `token` (`POST /token`) and `read` (any GET) are safe to repeat; `paymentMethod`
 * (`POST /paymentmethods`) and `paymentLink` (`POST /paymentlink/checkout`) create a
 * resource, so repeating one that may have been sent needs the caller's opt-in (the client
 * offers it for links only: a repeat leaves at most an unused link, which expires);
 * `charge` (`POST /charges`) moves money and is never repeated once it may have been sent.
 *
 * @category model
 * @since 0.2.0
 */
export type RequestKind = 'token' | 'read' | 'paymentMethod' | 'paymentLink' | 'charge'

/**
 * How an attempt ended: a transport error, or an HTTP response with its status.
 *
 * @category model
 * @since 0.2.0
 */
export type Outcome =
  | { readonly _tag: 'Failure'; readonly error: TransportError }
  | { readonly _tag: 'Response'; readonly status: number }

/**
 * Whether to repeat an attempt, and after how long.
 *
 * @category model
 * @since 0.2.0
 */
export type Decision =
  { readonly _tag: 'Retry'; readonly delayMs: number } | { readonly _tag: 'Stop' }

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The client's default: 3 attempts; the two retries wait 200 ms then 400 ms before jitter
 * (capped at 2 s), and the jitter takes up to half of each off (100-200 ms, 200-400 ms).
 *
 * @example
 * ```ts
 * import { Retry, defaultRetryPolicy } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(defaultRetryPolicy.maxAttempts, 3)
 * const delay = Retry.delayMs(defaultRetryPolicy)
 * assert.deepEqual([delay(1, 0), delay(1, 1)], [100, 200]) // the first retry
 * assert.deepEqual([delay(2, 0), delay(2, 1)], [200, 400]) // the second
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 200,
  maxDelayMs: 2_000,
  factor: 2,
}

/**
 * A single attempt, never repeated.
 *
 * @example
 * ```ts
 * import { Retry, noRetry, transportError } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * // Even a read that never reached the service is not repeated.
 * const decide = Retry.decide(noRetry, 'read')
 * assert.deepEqual(decide(1, Retry.failure(transportError('refused'))), { _tag: 'Stop' })
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const noRetry: RetryPolicy = { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, factor: 1 }

/**
 * An outcome from a transport error.
 *
 * @example
 * ```ts
 * import { Retry, transportError } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * const dropped = Retry.failure(transportError('reset', 'ECONNRESET'))
 * assert.ok(dropped._tag === 'Failure')
 * assert.equal(dropped.error.sent, 'maybe')
 * assert.equal(Retry.isRetryable('read')(dropped), true)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const failure = (error: TransportError): Outcome => ({ _tag: 'Failure', error })

/**
 * An outcome from an HTTP status.
 *
 * @example
 * ```ts
 * import { Retry } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(Retry.response(503), { _tag: 'Response', status: 503 })
 * assert.equal(Retry.isRetryable('read')(Retry.response(503)), true)
 * assert.equal(Retry.isRetryable('read')(Retry.response(404)), false)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const response = (status: number): Outcome => ({ _tag: 'Response', status })

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

const safeToRepeat = (kind: RequestKind, optIn: boolean): boolean =>
  kind === 'token' || kind === 'read' || (optIn && kind !== 'charge')

/**
 * Whether an attempt that ended in `outcome` may be repeated:
 * - a request the caller cancelled: never;
 * - a request that was not sent (`sent: 'no'`): always, whatever it is;
 * - a request that may have been sent (`sent: 'maybe'`, timeouts included) or that got a
 *   5xx: `token` and `read` yes; `paymentMethod` and `paymentLink` only with `optIn`;
 *   `charge` never, not even with `optIn`;
 * - any other response (2xx, 4xx): never (401 is handled by a token refresh, not here).
 *
 * @example
 * ```ts
 * import { Retry, transportError } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * const dropped = Retry.failure(transportError('reset')) // may have reached the service
 * assert.equal(Retry.isRetryable('read')(dropped), true)
 * assert.equal(Retry.isRetryable('paymentLink')(dropped), false)
 * assert.equal(Retry.isRetryable('paymentLink', true)(dropped), true) // the caller opted in
 * assert.equal(Retry.isRetryable('charge', true)(dropped), false) // a charge: never
 * // A request that was never sent is safe to repeat, a charge included.
 * assert.equal(Retry.isRetryable('charge')(Retry.failure(transportError('refused'))), true)
 * ```
 *
 * @category rules
 * @since 0.2.0
 */
export const isRetryable =
  (kind: RequestKind, optIn = false) =>
  (outcome: Outcome): boolean => {
    if (outcome._tag === 'Response')
      return outcome.status >= 500 && outcome.status <= 599 && safeToRepeat(kind, optIn)
    if (outcome.error.failure === 'aborted') return false
    if (outcome.error.sent === 'no') return true
    return safeToRepeat(kind, optIn)
  }

/**
 * The delay before retry number `retry` (1 for the first): exponential, capped, with
 * "equal jitter" from `random` in [0, 1) (half fixed, half random), so that many clients
 * do not retry in step. Pure: the caller passes the random number.
 *
 * @example
 * ```ts
 * import { Retry } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * const delay = Retry.delayMs({ maxAttempts: 6, baseDelayMs: 100, maxDelayMs: 1_000, factor: 2 })
 * // The longest delays (random 1): exponential, then capped.
 * assert.deepEqual([1, 2, 3, 4, 5].map((retry) => delay(retry, 1)), [100, 200, 400, 800, 1_000])
 * // Equal jitter: never less than half.
 * assert.equal(delay(3, 0), 200)
 * assert.equal(delay(3), 300)
 * ```
 *
 * @category rules
 * @since 0.2.0
 */
export const delayMs =
  (policy: RetryPolicy) =>
  (retry: number, random = 0.5): number => {
    const exp = policy.baseDelayMs * Math.pow(policy.factor, Math.max(0, retry - 1))
    const capped = Math.max(0, Math.min(policy.maxDelayMs, exp))
    const r = Math.min(Math.max(random, 0), 1)
    return Math.round(capped / 2 + (capped / 2) * r)
  }

/**
 * After attempt number `attempt` (1 for the first) ended in `outcome`: retry (with the
 * delay) when the outcome is retryable and the policy allows another attempt, else stop.
 *
 * @example
 * ```ts
 * import { Retry, defaultRetryPolicy } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * const decide = Retry.decide(defaultRetryPolicy, 'token')
 * const unavailable = Retry.response(503)
 * assert.deepEqual(decide(1, unavailable, 0.5), { _tag: 'Retry', delayMs: 150 })
 * assert.deepEqual(decide(3, unavailable), { _tag: 'Stop' }) // 3 attempts made
 * assert.deepEqual(decide(1, Retry.response(400)), { _tag: 'Stop' }) // repeating cannot help
 * ```
 *
 * @category rules
 * @since 0.2.0
 */
export const decide =
  (policy: RetryPolicy, kind: RequestKind, optIn = false) =>
  (attempt: number, outcome: Outcome, random = 0.5): Decision =>
    attempt < policy.maxAttempts && isRetryable(kind, optIn)(outcome)
      ? { _tag: 'Retry', delayMs: delayMs(policy)(attempt, random) }
      : { _tag: 'Stop' }
