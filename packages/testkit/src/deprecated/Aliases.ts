/**
 * The root's generic names, kept as deprecated aliases (issue 18): `amount`, `text`,
 * `blank`, `removed`, `card`, `cvv`, `handle`, `expire` and `own` are words that many
 * modules export, so an editor offered `@paykit/testkit` as their auto-import in code that
 * meant something else. Their grouped names are the namespaces `Arbitraries`
 * (`Arbitraries.card()`) and `Simulator` (`Simulator.handle(...)`); `own` is an internal
 * helper of the simulator. An editor shows these struck through and ranks them last.
 *
 * @since 0.1.0
 */
import * as Arbitraries from '../arbitraries/index.js'
import * as Simulator from '../simulator/Simulator.js'
import { own as ownOf } from '../simulator/State.js'

// -------------------------------------------------------------------------------------
// deprecated: arbitraries
// -------------------------------------------------------------------------------------

/**
 * @deprecated Use `Arbitraries.amount` (the same function): `amount` is a generic name.
 *
 * @example
 * ```ts
 * import { Arbitraries, amount } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(amount, Arbitraries.amount)
 * ```
 *
 * @category deprecated
 * @since 0.1.0
 */
export const amount: typeof Arbitraries.amount = Arbitraries.amount

/**
 * @deprecated Use `Arbitraries.text` (the same function): `text` is a generic name.
 *
 * @example
 * ```ts
 * import { Arbitraries, text } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(text, Arbitraries.text)
 * ```
 *
 * @category deprecated
 * @since 0.1.0
 */
export const text: typeof Arbitraries.text = Arbitraries.text

/**
 * @deprecated Use `Arbitraries.blank` (the same arbitrary): `blank` is a generic name.
 *
 * @example
 * ```ts
 * import { Arbitraries, blank } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(blank, Arbitraries.blank)
 * ```
 *
 * @category deprecated
 * @since 0.1.0
 */
export const blank: typeof Arbitraries.blank = Arbitraries.blank

/**
 * @deprecated Use `Arbitraries.removed` (the same symbol): `removed` is a generic name.
 *
 * @example
 * ```ts
 * import { Arbitraries, removed } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(removed, Arbitraries.removed)
 * ```
 *
 * @category deprecated
 * @since 0.1.0
 */
export const removed: typeof Arbitraries.removed = Arbitraries.removed

/**
 * @deprecated Use `Arbitraries.card` (the same function): `card` is a generic name.
 *
 * @example
 * ```ts
 * import { Arbitraries, card } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(card, Arbitraries.card)
 * ```
 *
 * @category deprecated
 * @since 0.1.0
 */
export const card: typeof Arbitraries.card = Arbitraries.card

/**
 * @deprecated Use `Arbitraries.cvv` (the same function): `cvv` is a generic name.
 *
 * @example
 * ```ts
 * import { Arbitraries, cvv } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(cvv, Arbitraries.cvv)
 * ```
 *
 * @category deprecated
 * @since 0.1.0
 */
export const cvv: typeof Arbitraries.cvv = Arbitraries.cvv

// -------------------------------------------------------------------------------------
// deprecated: simulator
// -------------------------------------------------------------------------------------

/**
 * @deprecated Use `Simulator.handle` (the same function): `handle` is a generic name.
 *
 * @example
 * ```ts
 * import { Simulator, handle } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(handle, Simulator.handle)
 * ```
 *
 * @category deprecated
 * @since 0.1.0
 */
export const handle: typeof Simulator.handle = Simulator.handle

/**
 * @deprecated Use `Simulator.expire` (the same function): `expire` is a generic name.
 *
 * @example
 * ```ts
 * import { Simulator, expire } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(expire, Simulator.expire)
 * ```
 *
 * @category deprecated
 * @since 0.1.0
 */
export const expire: typeof Simulator.expire = Simulator.expire

/**
 * @deprecated An internal helper of the simulator (a record's own value, never one of
 * `Object.prototype`'s): use `Object.hasOwn(record, key) ? record[key] : undefined`.
 *
 * @example
 * ```ts
 * import { own } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * const prices: Readonly<Record<string, number>> = { 'MUG-LOGO': 8.5 }
 * const ownValue = (key: string) => (Object.hasOwn(prices, key) ? prices[key] : undefined)
 * for (const key of ['MUG-LOGO', 'constructor', '__proto__']) assert.equal(own(prices, key), ownValue(key))
 * ```
 *
 * @category deprecated
 * @since 0.1.0
 */
export const own: typeof ownOf = ownOf
