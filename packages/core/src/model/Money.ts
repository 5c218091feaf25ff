/**
 * Exact decimal money. Amounts travel as JSON numbers (the spec's number/decimal) and are
 * held as decimals inside, so that subtotals and totals never suffer float rounding.
 *
 * @since 0.1.0
 */
import { Decimal } from 'decimal.js'
import * as E from 'fp-ts/lib/Either.js'
import type * as Eq_ from 'fp-ts/lib/Eq.js'
import type * as Monoid_ from 'fp-ts/lib/Monoid.js'
import type * as Ord_ from 'fp-ts/lib/Ord.js'
import * as t from 'io-ts'
import { refine } from '../internal/codec.js'

// 40 significant digits: exact for 10^9 prices x 10^6 quantities x many lines.
const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN })

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * An exact decimal amount (immutable).
 *
 * @category model
 * @since 0.1.0
 */
export type Money = Decimal

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Zero.
 *
 * @category constructors
 * @since 0.1.0
 */
export const zero: Money = new D(0)

/**
 * The exact decimal a JSON number denotes (`0.1` is one tenth, not its binary neighbour);
 * Left for NaN and infinities.
 *
 * @category constructors
 * @since 0.1.0
 */
export const fromNumber = (n: number): E.Either<string, Money> =>
  Number.isFinite(n) ? E.right(new D(n)) : E.left('must be a finite number')

/**
 * A decimal string such as `"19.99"`; Left when it is not one.
 *
 * @category constructors
 * @since 0.1.0
 */
export const fromString = (s: string): E.Either<string, Money> =>
  /^-?\d+(\.\d+)?$/.test(s.trim()) ? E.right(new D(s.trim())) : E.left('must be a decimal number')

/**
 * An amount from integer minor units (cents).
 *
 * @category constructors
 * @since 0.1.0
 */
export const fromCents = (cents: bigint | number): Money => new D(cents.toString()).div(100)

// -------------------------------------------------------------------------------------
// operations (pipe-first: `pipe(price, multiply(quantity))`)
// -------------------------------------------------------------------------------------

/**
 * `a + b`.
 *
 * @category operations
 * @since 0.1.0
 */
export const add =
  (b: Money) =>
  (a: Money): Money =>
    a.plus(b)

/**
 * `a x factor` (a quantity, or another amount).
 *
 * @category operations
 * @since 0.1.0
 */
export const multiply =
  (factor: number | Money) =>
  (a: Money): Money =>
    a.times(factor)

/**
 * The sum of amounts (zero for none).
 *
 * @category operations
 * @since 0.1.0
 */
export const sum = (amounts: ReadonlyArray<Money>): Money =>
  amounts.reduce((acc, m) => acc.plus(m), zero)

/**
 * Whether `a` is strictly greater than zero.
 *
 * @category predicates
 * @since 0.1.0
 */
export const isPositive = (a: Money): boolean => a.gt(0)

/**
 * The JSON number of an amount (the nearest double to the exact decimal).
 *
 * @category destructors
 * @since 0.1.0
 */
export const toNumber = (a: Money): number => a.toNumber()

/**
 * The exact decimal as a string (`"1234.50"` with `fixed`, else the shortest form).
 *
 * @category destructors
 * @since 0.1.0
 */
export const toString = (a: Money, fixed?: number): string =>
  fixed === undefined ? a.toFixed() : a.toFixed(fixed)

/**
 * The amount in integer minor units (cents), rounded half to even.
 *
 * @category destructors
 * @since 0.1.0
 */
export const toCents = (a: Money): bigint => BigInt(a.times(100).toDecimalPlaces(0).toFixed())

// -------------------------------------------------------------------------------------
// instances
// -------------------------------------------------------------------------------------

/**
 * Equality by value (`1.50` equals `1.5`).
 *
 * @category instances
 * @since 0.1.0
 */
export const Eq: Eq_.Eq<Money> = { equals: (a, b) => a.eq(b) }

/**
 * Order by value.
 *
 * @category instances
 * @since 0.1.0
 */
export const Ord: Ord_.Ord<Money> = {
  equals: Eq.equals,
  compare: (a, b) => (a.lt(b) ? -1 : a.gt(b) ? 1 : 0),
}

/**
 * Addition with zero.
 *
 * @category instances
 * @since 0.1.0
 */
export const MonoidSum: Monoid_.Monoid<Money> = { concat: (a, b) => a.plus(b), empty: zero }

/**
 * Whether a value is a `Money`.
 *
 * @category refinements
 * @since 0.1.0
 */
export const isMoney = (u: unknown): u is Money => Decimal.isDecimal(u)

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

/**
 * A JSON number decoded as exact `Money`, encoded back to a JSON number.
 *
 * @category codecs
 * @since 0.1.0
 */
export const MoneyFromNumber: t.Type<Money, number, unknown> = new t.Type<Money, number, unknown>(
  'Money',
  isMoney,
  (u, c) =>
    typeof u === 'number' && Number.isFinite(u)
      ? t.success(new D(u))
      : isMoney(u) && u.isFinite()
        ? t.success(u)
        : t.failure(u, c, typeof u === 'number' ? 'must be a finite number' : 'must be a number'),
  toNumber,
)

/**
 * An amount greater than 0 (a charge's `order.amount`, a payment link's `amount`), decoded
 * as `Money`.
 *
 * @category codecs
 * @since 0.1.0
 */
export const PositiveMoney: t.Type<Money, number, unknown> = refine(
  MoneyFromNumber,
  isPositive,
  'must be greater than 0',
  'PositiveMoney',
)
