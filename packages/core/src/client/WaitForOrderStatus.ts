/**
 * Polling an order until its status is one of those waited for, with a growing interval
 * and a deadline that a hanging poll cannot outlive. Time is the client's injected `now`
 * and `sleep` only (no global timer): each poll races a sleep until the deadline.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Caller } from './ClientCall.js'
import type { Client } from './Client.js'
import type { FieldError } from '../model/FieldError.js'
import type { PaykitError } from './PaykitError.js'
import { timeoutError } from './PaykitError.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * What the poll needs: the client's `getOrder`, its clock and its validation errors.
 *
 * @category model
 * @since 0.2.0
 */
interface WaitForOrderStatusDeps extends Pick<Caller, 'invalid' | 'now' | 'sleep'> {
  readonly getOrder: Client['getOrder']
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const EXPIRED = 'expired' as const

/**
 * `waitForOrderStatus` of a client: polls until the order's status is one of `statuses`,
 * or a `Timeout` error when `timeoutMs` passes first.
 *
 * @category constructors
 * @since 0.2.0
 */
export const waitForOrderStatus =
  (deps: WaitForOrderStatusDeps): Client['waitForOrderStatus'] =>
  (orderCode, statuses, options) => {
    const errors: Array<FieldError> = [
      ...(statuses.length === 0
        ? [{ path: 'statuses', message: 'must name at least one status' }]
        : []),
      ...(options.timeoutMs > 0 ? [] : [{ path: 'timeoutMs', message: 'must be greater than 0' }]),
      ...(options.intervalMs > 0
        ? []
        : [{ path: 'intervalMs', message: 'must be greater than 0' }]),
    ]
    if (errors.length > 0) return deps.invalid('wait options', [])(errors)
    const maxInterval = Math.max(
      options.intervalMs,
      options.maxIntervalMs ?? options.intervalMs * 10,
    )
    const timedOut = (detail: string): E.Either<PaykitError, never> =>
      E.left(
        timeoutError(
          `waiting for order ${orderCode} to be ${statuses.join(' or ')}`,
          options.timeoutMs,
          detail,
        ),
      )
    return async () => {
      const started = deps.now()
      const remaining = () => options.timeoutMs - (deps.now() - started)
      // Aborted when the wait ends: a poll still running then is cancelled (for transports
      // that honour the signal) and no longer awaited (for those that do not).
      const deadline = new AbortController()
      const signal =
        options.signal === undefined
          ? deadline.signal
          : AbortSignal.any([options.signal, deadline.signal])
      let last = 'no answer yet'
      try {
        let interval = options.intervalMs
        for (;;) {
          // Released as soon as the poll answers, so no sleep outlives its poll; a sleep
          // that rejects when released (n8n's does) must not leave a rejection unhandled.
          const watch = new AbortController()
          const expired = deps.sleep(Math.max(0, remaining()), watch.signal).then(
            (): typeof EXPIRED => EXPIRED,
            (): typeof EXPIRED => EXPIRED,
          )
          const order = await Promise.race([deps.getOrder(orderCode, { signal })(), expired])
          watch.abort()
          if (order === EXPIRED) return timedOut(last)
          if (E.isLeft(order)) return order
          const status = order.right.orderStatus
          if (statuses.includes(status)) return order
          last = `last status ${status}`
          const rest = remaining()
          if (rest <= 0 || signal.aborted) return timedOut(last)
          // The last poll falls on the deadline rather than giving up an interval early.
          await deps.sleep(Math.min(interval, rest), signal)
          interval = Math.min(maxInterval, interval * 1.5)
        }
      } finally {
        deadline.abort()
      }
    }
  }
