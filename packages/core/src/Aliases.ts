/**
 * Names for the root's generic exports (issue 18). `timeout`, `unauthorized`, `last4` and
 * `subtotal` are words that many modules export, so an editor offered `@paykit/core` as
 * their auto-import in code that meant something else. Their grouped names are the
 * error constructors' `…Error` form (beside `httpError`, `decodeError`, `networkError`),
 * `cardLast4`, and `Money.multiply`; the old names still work, marked deprecated (an
 * editor shows them struck through and ranks them last). The order-status machine is the
 * namespace `OrderFlow`, as `ChargeFlow` and `Authentication` are (issue 22); its
 * functions' earlier names, `canTransitionOrderStatus` and the others, are kept here
 * the same way.
 *
 * @since 0.1.0
 */
import { timeout as timeoutOf, unauthorized as unauthorizedOf } from './client/PaykitError.js'
import * as OrderFlow from './machines/OrderFlow.js'
import { subtotal as subtotalOf } from './model/PaymentLink.js'
import { last4 as last4Of } from './model/PaymentMethod.js'

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A `Timeout` error: `operation` (the request, or the wait) did not finish within
 * `timeoutMs`. For `POST /charges` its `outcomeUnknown` is true: the charge may have been
 * processed.
 *
 * @example
 * ```ts
 * import { timeoutError } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * const e = timeoutError('POST /token', 30_000)
 * assert.equal(e._tag, 'Timeout')
 * assert.equal(e.timeoutMs, 30_000)
 * assert.equal(e.outcomeUnknown, false)
 * assert.equal(timeoutError('POST /charges', 30_000).outcomeUnknown, true)
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const timeoutError: typeof timeoutOf = timeoutOf

/**
 * An `Unauthorized` error: a 401 the client cannot cure, naming the credential to check
 * (`sentBy: 'transport'` when the transport added the credential itself).
 *
 * @example
 * ```ts
 * import { unauthorizedError } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * const e = unauthorizedError('POST /token', 'clientCredentials')
 * assert.equal(e._tag, 'Unauthorized')
 * assert.equal(e.message, 'POST /token was refused (HTTP 401): check the client id and client secret.')
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const unauthorizedError: typeof unauthorizedOf = unauthorizedOf

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * The last four digits of a card number (fewer when it has fewer), the only part that is
 * safe to show.
 *
 * @example
 * ```ts
 * import { cardLast4 } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(cardLast4('4242 4242 4242 4242'), '4242')
 * assert.equal(cardLast4('12'), '12')
 * ```
 *
 * @category destructors
 * @since 0.1.0
 */
export const cardLast4: typeof last4Of = last4Of

// -------------------------------------------------------------------------------------
// deprecated
// -------------------------------------------------------------------------------------

/**
 * @deprecated Use `timeoutError` (the same function): `timeout` is a generic name.
 *
 * @example
 * ```ts
 * import { timeout, timeoutError } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(timeout, timeoutError)
 * ```
 *
 * @category deprecated
 * @since 0.1.0
 */
export const timeout: typeof timeoutOf = timeoutOf

/**
 * @deprecated Use `unauthorizedError` (the same function): `unauthorized` is a generic
 * name.
 *
 * @example
 * ```ts
 * import { unauthorized, unauthorizedError } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(unauthorized, unauthorizedError)
 * ```
 *
 * @category deprecated
 * @since 0.1.0
 */
export const unauthorized: typeof unauthorizedOf = unauthorizedOf

/**
 * @deprecated Use `cardLast4` (the same function): `last4` is a generic name.
 *
 * @example
 * ```ts
 * import { cardLast4, last4 } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(last4, cardLast4)
 * ```
 *
 * @category deprecated
 * @since 0.1.0
 */
export const last4: typeof last4Of = last4Of

/**
 * @deprecated Use `Money.multiply(quantity)(unitPrice)` (the same product, exact):
 * `subtotal` is a generic name.
 *
 * @example
 * ```ts
 * import { Money, subtotal } from '@paykit/core'
 * import { pipe } from 'fp-ts/lib/function.js'
 * import assert from 'node:assert/strict'
 *
 * const price = Money.fromCents(1999)
 * assert.ok(Money.Eq.equals(pipe(price, subtotal(3)), pipe(price, Money.multiply(3))))
 * ```
 *
 * @category deprecated
 * @since 0.1.0
 */
export const subtotal: typeof subtotalOf = subtotalOf

/**
 * @deprecated Use `OrderFlow.canTransition` (the same function): the order-status machine
 * is the namespace `OrderFlow`, as `ChargeFlow` is.
 *
 * @example
 * ```ts
 * import { OrderFlow, canTransitionOrderStatus } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(canTransitionOrderStatus, OrderFlow.canTransition)
 * assert.equal(canTransitionOrderStatus('PAID')('PENDING'), true)
 * ```
 *
 * @category deprecated
 * @since 0.1.0
 */
export const canTransitionOrderStatus: typeof OrderFlow.canTransition = OrderFlow.canTransition

/**
 * @deprecated Use `OrderFlow.isTerminal` (the same function): the order-status machine is
 * the namespace `OrderFlow`, as `ChargeFlow` is.
 *
 * @example
 * ```ts
 * import { OrderFlow, isTerminalOrderStatus } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(isTerminalOrderStatus, OrderFlow.isTerminal)
 * assert.equal(isTerminalOrderStatus('CANCELLED'), true)
 * ```
 *
 * @category deprecated
 * @since 0.1.0
 */
export const isTerminalOrderStatus: typeof OrderFlow.isTerminal = OrderFlow.isTerminal

/**
 * @deprecated Use `OrderFlow.reduce` (the same function): the order-status machine is the
 * namespace `OrderFlow`, as `ChargeFlow` is.
 *
 * @example
 * ```ts
 * import { OrderFlow, reduceOrderStatus } from '@paykit/core'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(reduceOrderStatus, OrderFlow.reduce)
 * assert.deepEqual(reduceOrderStatus('PENDING', 'PAID'), E.right('PAID'))
 * ```
 *
 * @category deprecated
 * @since 0.1.0
 */
export const reduceOrderStatus: typeof OrderFlow.reduce = OrderFlow.reduce

/**
 * @deprecated Use `OrderFlow.transition` (the same function): the order-status machine is
 * the namespace `OrderFlow`, as `ChargeFlow` is.
 *
 * @example
 * ```ts
 * import { OrderFlow, transitionOrderStatus } from '@paykit/core'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { pipe } from 'fp-ts/lib/function.js'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(transitionOrderStatus, OrderFlow.transition)
 * assert.deepEqual(pipe('PENDING', transitionOrderStatus('PAID')), E.right('PAID'))
 * ```
 *
 * @category deprecated
 * @since 0.1.0
 */
export const transitionOrderStatus: typeof OrderFlow.transition = OrderFlow.transition
