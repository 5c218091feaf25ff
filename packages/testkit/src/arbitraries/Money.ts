/**
 * Amounts that break arithmetic: whole-cent amounts and line items drawn toward the values
 * whose binary floating point goes wrong (`19.99 * 100` is `1998.9999999999998`,
 * `0.1 + 0.2` is `0.30000000000000004`, `0.7 * 3` is `2.0999999999999996`, amounts past 2^31 cents), for tests of
 * code that converts, sums or rounds money. Each value is exact as the core's `Money`.
 *
 * @since 0.2.0
 */
import { Money } from '@paykit/core/pure'
import * as fc from 'fast-check'
import { amount } from './Common.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A line item as a shop holds it: a name, a unit price in decimal major units (whole
 * cents) and a quantity.
 *
 * @category model
 * @since 0.2.0
 */
export interface PricedItem {
  readonly name: string
  readonly price: number
  readonly quantity: number
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * Amounts known to break float arithmetic on money: `x * 100` below a whole cent (19.99,
 * 0.29, 1.15, 4.35: `Math.floor` loses a cent) or above it (0.07, 0.14, 1.1: `Math.ceil`
 * adds one), a float sum (0.3, 0.8), 59.97 (19.99 x 3), half units and
 * five-cent ends (2.5, 100.05, 9.95: rounding to fewer decimals), and large totals (past
 * float32's exact cents, 2^31 cents, ten million).
 *
 * @example
 * ```ts
 * import { Arbitraries } from '@paykit/testkit/arbitraries'
 * import assert from 'node:assert/strict'
 *
 * assert.ok(Arbitraries.trickyAmounts.includes(19.99))
 * assert.equal(Math.floor(19.99 * 100), 1998) // a cent lost
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const trickyAmounts: ReadonlyArray<number> = [
  19.99, 59.97, 0.29, 0.57, 1.15, 4.35, 0.07, 0.14, 1.1, 8.2, 0.3, 0.8, 2.5, 100.05, 9.95,
  1234567.89, 167772.17, 21474836.48, 9999999.99,
]

const TRICKY_PRICES: ReadonlyArray<number> = [0.1, 0.2, 0.7, 19.99, 0.29, 1.15, 4.35, 2.55, 33.33]
const NAMES: ReadonlyArray<string> = ['Tea', 'Mug', 'Gift wrap', 'Shipping', 'Socks', 'Lamp']

/** Whether `cents / 100 * 100` is not `cents` in binary floating point. */
const offInBinary = (cents: number): boolean => (cents / 100) * 100 !== cents

// The cents under 1000.00 whose hundredfold is off in binary (about 1 in 9), computed once.
let offCents: ReadonlyArray<number> | undefined
const offCentsList = (): ReadonlyArray<number> =>
  (offCents ??= Array.from({ length: 99_999 }, (_, i) => i + 1).filter(offInBinary))

// -------------------------------------------------------------------------------------
// arbitraries
// -------------------------------------------------------------------------------------

/**
 * A whole-cent amount in decimal major units, weighted toward binary-float trouble: the
 * `trickyAmounts`, amounts under 1,000 whose `x * 100` is not a whole number in binary,
 * any amount from 0.01 to 1,000, and large totals (a million to a billion).
 *
 * @example
 * ```ts
 * import { Arbitraries } from '@paykit/testkit/arbitraries'
 * import { Money } from '@paykit/core/money'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * for (const a of fc.sample(Arbitraries.trickyAmount(), 50)) {
 *   const money = Money.fromNumber(a)
 *   assert.ok(money._tag === 'Right' && Money.isPositive(money.right))
 *   assert.equal(Money.toString(money.right), Money.toString(Money.fromCents(Money.toCents(money.right))))
 * }
 * ```
 *
 * @category arbitraries
 * @since 0.2.0
 */
export const trickyAmount = (): fc.Arbitrary<number> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...trickyAmounts) },
    {
      weight: 3,
      arbitrary: fc.nat({ max: 10_000 }).map((i) => {
        const list = offCentsList()
        return (list[i % list.length] ?? 1999) / 100
      }),
    },
    { weight: 2, arbitrary: amount(1, 100_000) },
    { weight: 1, arbitrary: amount(100_000_000, 100_000_000_000) },
  )

/**
 * One to four line items, a unit price (whole cents) times a quantity each, weighted toward
 * float trouble: prices such as 0.10, 0.20, 19.99 and 1.15, quantities of 3 and more,
 * large prices now and then. Their exact total is {@link lineItemsTotal}.
 *
 * @example
 * ```ts
 * import { Arbitraries } from '@paykit/testkit/arbitraries'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * for (const items of fc.sample(Arbitraries.trickyLineItems(), 30)) {
 *   assert.ok(items.length >= 1 && items.length <= 4)
 *   assert.ok(items.every((i) => Number.isInteger(i.quantity) && i.quantity >= 1))
 *   assert.ok(Arbitraries.lineItemsTotal(items) > 0)
 * }
 * ```
 *
 * @category arbitraries
 * @since 0.2.0
 */
export const trickyLineItems = (): fc.Arbitrary<ReadonlyArray<PricedItem>> =>
  fc
    .array(
      fc.record({
        price: fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...TRICKY_PRICES) },
          { weight: 2, arbitrary: trickyAmount() },
          { weight: 1, arbitrary: amount(1, 10_000) },
        ),
        quantity: fc.oneof(fc.constant(3), fc.integer({ min: 1, max: 12 })),
      }),
      { minLength: 1, maxLength: 4 },
    )
    .map((items) => items.map((item, i) => ({ name: NAMES[i % NAMES.length] ?? 'Item', ...item })))

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * The exact total of line items (price x quantity, summed as decimals), as a JSON number.
 *
 * @example
 * ```ts
 * import { Arbitraries } from '@paykit/testkit/arbitraries'
 * import assert from 'node:assert/strict'
 *
 * const items = [
 *   { name: 'Tea', price: 0.1, quantity: 1 },
 *   { name: 'Mug', price: 0.2, quantity: 1 },
 * ]
 * assert.equal(Arbitraries.lineItemsTotal(items), 0.3) // 0.1 + 0.2 is 0.30000000000000004
 * assert.equal(Arbitraries.lineItemsTotal([{ name: 'Tea', price: 0.7, quantity: 3 }]), 2.1) // 0.7 * 3 is 2.0999999999999996
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const lineItemsTotal = (items: ReadonlyArray<PricedItem>): number =>
  Money.toNumber(
    Money.sum(
      items.map((item) => {
        const price = Money.fromNumber(item.price)
        return price._tag === 'Right' ? Money.multiply(item.quantity)(price.right) : Money.zero
      }),
    ),
  )
