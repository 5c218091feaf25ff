/**
 * Exact decimal money. Amounts travel as JSON numbers (the spec's number/decimal) and are
 * held as decimals inside, so that subtotals and totals never suffer float rounding.
 *
 * @since 0.2.0
 */
import { Decimal } from 'decimal.js'
import * as E from 'fp-ts/lib/Either.js'
import type * as Eq_ from 'fp-ts/lib/Eq.js'
import type * as Monoid_ from 'fp-ts/lib/Monoid.js'
import type * as Ord_ from 'fp-ts/lib/Ord.js'
import type * as t from 'io-ts'
import { decoding, refineNumber, requiredOrType } from '../internal/codec.js'
import { decimalFromNumber } from '../internal/decimal.js'
import { hinted } from '../internal/schemaHint.js'

// 40 significant digits: exact for 10^9 prices x 10^6 quantities x many lines.
const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN })

// `new D(n)` for a finite n, without its trip through a string for prices and amounts.
const ofFinite = decimalFromNumber(D)

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * An exact decimal amount (immutable).
 *
 * @category model
 * @since 0.2.0
 */
export type Money = Decimal

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Zero.
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Money.toString(Money.zero), '0')
 * assert.equal(Money.isPositive(Money.zero), false)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const zero: Money = new D(0)

/**
 * The exact decimal a JSON number denotes (`0.1` is one tenth, not its binary neighbour);
 * Left for NaN and infinities.
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const tenth = Money.fromNumber(0.1)
 * assert.ok(E.isRight(tenth))
 * assert.equal(Money.toString(tenth.right), '0.1')
 * assert.deepEqual(Money.fromNumber(Number.NaN), E.left('must be a finite number'))
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const fromNumber = (n: number): E.Either<string, Money> =>
  Number.isFinite(n) ? E.right(ofFinite(n)) : E.left('must be a finite number')

/**
 * A decimal string such as `"19.99"`; Left when it is not one.
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const price = Money.fromString('19.99')
 * assert.ok(E.isRight(price))
 * assert.equal(Money.toCents(price.right), 1999n)
 * assert.deepEqual(Money.fromString('19,99'), E.left('must be a decimal number'))
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const fromString = (s: string): E.Either<string, Money> =>
  /^-?\d+(\.\d+)?$/.test(s.trim()) ? E.right(new D(s.trim())) : E.left('must be a decimal number')

/**
 * An amount from integer minor units (cents).
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Money.toString(Money.fromCents(1999)), '19.99')
 * assert.equal(Money.toString(Money.fromCents(5n), 2), '0.05')
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const fromCents = (cents: bigint | number): Money => new D(cents.toString()).div(100)

// -------------------------------------------------------------------------------------
// operations (pipe-first: `pipe(price, multiply(quantity))`)
// -------------------------------------------------------------------------------------

/**
 * `a + b`.
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import { pipe } from 'fp-ts/lib/function.js'
 * import assert from 'node:assert/strict'
 *
 * // 0.1 + 0.2 is exactly 0.3 (as doubles it is 0.30000000000000004)
 * const total = pipe(Money.fromCents(10), Money.add(Money.fromCents(20)))
 * assert.equal(Money.toString(total), '0.3')
 * assert.equal(Money.toNumber(total), 0.3)
 * ```
 *
 * @category operations
 * @since 0.2.0
 */
export const add =
  (b: Money) =>
  (a: Money): Money =>
    a.plus(b)

/**
 * `a x factor` (a quantity, or another amount).
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import { pipe } from 'fp-ts/lib/function.js'
 * import assert from 'node:assert/strict'
 *
 * // a line item: unit price x quantity, exactly
 * const line = pipe(Money.fromCents(1999), Money.multiply(3))
 * assert.equal(Money.toString(line), '59.97')
 * ```
 *
 * @category operations
 * @since 0.2.0
 */
export const multiply =
  (factor: number | Money) =>
  (a: Money): Money =>
    a.times(factor)

/**
 * The sum of amounts (zero for none).
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import assert from 'node:assert/strict'
 *
 * const lines = [1999, 500, 1].map((cents) => Money.fromCents(cents))
 * assert.equal(Money.toString(Money.sum(lines)), '25')
 * assert.equal(Money.toString(Money.sum([])), '0')
 * ```
 *
 * @category operations
 * @since 0.2.0
 */
export const sum = (amounts: ReadonlyArray<Money>): Money =>
  amounts.reduce((acc, m) => acc.plus(m), zero)

/**
 * Whether `a` is strictly greater than zero.
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Money.isPositive(Money.fromCents(1)), true)
 * assert.equal(Money.isPositive(Money.zero), false)
 * assert.equal(Money.isPositive(Money.fromCents(-1)), false)
 * ```
 *
 * @category predicates
 * @since 0.2.0
 */
export const isPositive = (a: Money): boolean => a.isPositive() && !a.isZero()

/**
 * The JSON number of an amount (the nearest double to the exact decimal).
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Money.toNumber(Money.fromCents(1999)), 19.99)
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const toNumber = (a: Money): number => a.toNumber()

/**
 * The exact decimal as a string (`"1234.50"` with `fixed`, else the shortest form).
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import assert from 'node:assert/strict'
 *
 * const amount = Money.fromCents(123450)
 * assert.equal(Money.toString(amount), '1234.5')
 * assert.equal(Money.toString(amount, 2), '1234.50')
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const toString = (a: Money, fixed?: number): string =>
  fixed === undefined ? a.toFixed() : a.toFixed(fixed)

/**
 * The amount in integer minor units (cents), rounded half to even.
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Money.toCents(Money.fromCents(1999)), 1999n)
 * // half a cent rounds to the even cent
 * const half = Money.fromString('0.125')
 * assert.ok(E.isRight(half))
 * assert.equal(Money.toCents(half.right), 12n)
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const toCents = (a: Money): bigint => BigInt(a.times(100).toDecimalPlaces(0).toFixed())

// -------------------------------------------------------------------------------------
// instances
// -------------------------------------------------------------------------------------

/**
 * Equality by value (`1.50` equals `1.5`).
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const a = Money.fromString('1.50')
 * const b = Money.fromString('1.5')
 * assert.ok(E.isRight(a) && E.isRight(b))
 * assert.equal(Money.Eq.equals(a.right, b.right), true)
 * ```
 *
 * @category instances
 * @since 0.2.0
 */
export const Eq: Eq_.Eq<Money> = { equals: (a, b) => a.eq(b) }

/**
 * Order by value.
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import * as A from 'fp-ts/lib/ReadonlyArray.js'
 * import assert from 'node:assert/strict'
 *
 * const sorted = A.sort(Money.Ord)([500, 99, 1999].map((c) => Money.fromCents(c)))
 * assert.deepEqual(sorted.map(Money.toCents), [99n, 500n, 1999n])
 * ```
 *
 * @category instances
 * @since 0.2.0
 */
export const Ord: Ord_.Ord<Money> = {
  equals: Eq.equals,
  compare: (a, b) => (a.lt(b) ? -1 : a.gt(b) ? 1 : 0),
}

/**
 * Addition with zero.
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import { concatAll } from 'fp-ts/lib/Monoid.js'
 * import assert from 'node:assert/strict'
 *
 * const total = concatAll(Money.MonoidSum)([Money.fromCents(10), Money.fromCents(20)])
 * assert.equal(Money.toString(total), '0.3')
 * assert.equal(Money.toString(Money.MonoidSum.empty), '0')
 * ```
 *
 * @category instances
 * @since 0.2.0
 */
export const MonoidSum: Monoid_.Monoid<Money> = { concat: (a, b) => a.plus(b), empty: zero }

/**
 * Whether a value is a `Money`.
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Money.isMoney(Money.fromCents(1)), true)
 * assert.equal(Money.isMoney(0.01), false)
 * ```
 *
 * @category refinements
 * @since 0.2.0
 */
export const isMoney = (u: unknown): u is Money => Decimal.isDecimal(u)

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

const FINITE = { code: 'finite' } as const

/**
 * A JSON number decoded as exact `Money`, encoded back to a JSON number.
 *
 * @example
 * ```ts
 * import { Money, MoneyFromNumber } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const decoded = MoneyFromNumber.decode(19.99)
 * assert.ok(E.isRight(decoded))
 * assert.equal(Money.toCents(decoded.right), 1999n)
 * assert.equal(MoneyFromNumber.encode(decoded.right), 19.99)
 * assert.ok(E.isLeft(MoneyFromNumber.decode('19.99')))
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const MoneyFromNumber: t.Type<Money, number, unknown> = hinted(
  decoding(
    'Money',
    isMoney,
    (u) =>
      typeof u === 'number'
        ? Number.isFinite(u)
          ? ofFinite(u)
          : undefined
        : isMoney(u) && u.isFinite()
          ? u
          : undefined,
    (u) => (typeof u === 'number' ? FINITE : requiredOrType(u, 'number')),
    toNumber,
  ),
  { type: 'number' },
)

/**
 * An amount greater than 0 (a charge's `order.amount`, a payment link's `amount`), decoded
 * as `Money`.
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * assert.ok(E.isRight(Money.PositiveMoney.decode(0.01)))
 * assert.ok(E.isLeft(Money.PositiveMoney.decode(0)))
 * assert.ok(E.isLeft(Money.PositiveMoney.decode(-5)))
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const PositiveMoney: t.Type<Money, number, unknown> = refineNumber(
  MoneyFromNumber,
  isPositive,
  (n) => n > 0, // a number's sign is the Decimal's
  { code: 'minimum', minimum: 0, inclusive: false },
  'PositiveMoney',
)
