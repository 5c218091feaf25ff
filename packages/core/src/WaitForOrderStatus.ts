/**
 * Polling an order until its status is one of those waited for, with a growing interval
 * and a deadline that a hanging poll cannot outlive.
 *
 * @since 0.1.0
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Client } from './Client.js'
import type { Caller } from './ClientCall.js'
import type { FieldError } from './FieldError.js'
import type { PaykitError } from './PaykitError.js'
import { timeout } from './PaykitError.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * What the poll needs: the client's `getOrder`, its clock and its validation errors.
 *
 * @category model
 * @since 0.1.0
 */
export interface WaitForOrderStatusDeps extends Pick<Caller, 'invalid' | 'now' | 'sleep'> {
  readonly getOrder: Client['getOrder']
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * `waitForOrderStatus` of a client: polls until the order's status is one of `statuses`,
 * or a `Timeout` error when `timeoutMs` passes first.
 *
 * @category constructors
 * @since 0.1.0
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
        timeout(
          `waiting for order ${orderCode} to be ${statuses.join(' or ')}`,
          options.timeoutMs,
          detail,
        ),
      )
    return async () => {
      const started = deps.now()
      // A poll that hangs must not outlive the deadline: it is cancelled (for transports
      // that honour the signal) and no longer awaited (for those that do not).
      const deadline = new AbortController()
      let onDeadline: () => void = () => undefined
      const expired = new Promise<'expired'>((resolve) => {
        onDeadline = () => resolve('expired')
      })
      const timer = setTimeout(() => {
        deadline.abort()
        onDeadline()
      }, options.timeoutMs)
      const signal =
        options.signal === undefined
          ? deadline.signal
          : AbortSignal.any([options.signal, deadline.signal])
      let last = 'no answer yet'
      try {
        let interval = options.intervalMs
        for (;;) {
          const order = await Promise.race([deps.getOrder(orderCode, { signal })(), expired])
          if (order === 'expired') return timedOut(last)
          if (E.isLeft(order))
            return deadline.signal.aborted && options.signal?.aborted !== true
              ? timedOut(last)
              : order
          const status = order.right.orderStatus
          if (statuses.includes(status)) return order
          last = `last status ${status}`
          const remaining = options.timeoutMs - (deps.now() - started)
          if (remaining <= 0 || signal.aborted) return timedOut(last)
          // The last poll falls on the deadline rather than giving up an interval early.
          await deps.sleep(Math.min(interval, remaining), signal)
          interval = Math.min(maxInterval, interval * 1.5)
        }
      } finally {
        clearTimeout(timer)
      }
    }
  }
