/**
 * A cheaper way to the `Decimal` that `new Decimal(n)` builds from a JSON number.
 *
 * decimal.js reads a number through its shortest string (`n.toString()`) and parses the
 * digits back, which costs more than all the rest of decoding a payment link. A number
 * with at most two decimals (prices, amounts, quantities) is built here from integer
 * arithmetic into the very fields decimal.js would set: the same sign, exponent and
 * base-10^7 digit words, so the value is exact and indistinguishable from the constructor's
 * (a check at load compares both, and falls back to the constructor if they ever differ).
 */
import type { Decimal } from 'decimal.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** A `Decimal` constructor (a `Decimal.clone(...)`). */
type DecimalConstructor = new (n: number) => Decimal

/** The fields a `Decimal` holds: sign, base-10 exponent, base-10^7 digit words. */
interface Fields {
  constructor: DecimalConstructor
  s: number
  e: number
  d: Array<number>
}

// -------------------------------------------------------------------------------------
// construction
// -------------------------------------------------------------------------------------

const BASE = 1e7

/**
 * Below 2^45 two doubles are less than 2^-8 apart, so at most one decimal with two places
 * rounds to a given double: the one `n.toString()` gives (no shorter decimal rounds to it).
 */
const LIMIT = 2 ** 45

/** The base-10 exponent of the leading digit of an integer from 1 to 10^7 - 1. */
const exponentOf = (i: number): number =>
  i < 1e3 ? (i < 10 ? 0 : i < 100 ? 1 : 2) : i < 1e5 ? (i < 1e4 ? 3 : 4) : i < 1e6 ? 5 : 6

/**
 * Sets on `x` the fields of a non-zero `|n| < 2^45` with at most two decimals: the words
 * of its integer part and, when it has one, of its fraction (`.25` is the word 2500000),
 * with no trailing zero word. False, leaving `x` alone, for any other number.
 */
const setFields = (x: Fields, n: number): boolean => {
  const a = n < 0 ? -n : n
  if (!(a < LIMIT)) return false
  const cents = Math.round(a * 100)
  if (cents === 0 || cents / 100 !== a) return false
  x.s = n < 0 ? -1 : 1
  const int = Math.floor(cents / 100)
  const fraction = cents - int * 100
  if (int === 0) {
    x.e = fraction >= 10 ? -1 : -2
    x.d = [fraction * 1e5]
    return true
  }
  // int < 2^45 < 10^14: at most two words.
  const hi = Math.floor(int / BASE)
  const lo = int - hi * BASE
  if (hi === 0) {
    x.e = exponentOf(lo)
    x.d = fraction === 0 ? [lo] : [lo, fraction * 1e5]
  } else {
    x.e = 7 + exponentOf(hi)
    x.d = fraction !== 0 ? [hi, lo, fraction * 1e5] : lo !== 0 ? [hi, lo] : [hi]
  }
  return true
}

// Numbers whose fields the check at load compares with the constructor's.
const SAMPLES = [
  0.01, 0.05, 0.1, 0.3, 1, 9.99, 10, 12.34, 100, 1200, 9999999, 1e7, 10000000.5, 10000000.01,
  99999999.99, 123456789012.34, 1e13, 35184372088831.99, -5.5, -0.07,
]

const sameFields = (D: DecimalConstructor, n: number): boolean => {
  const x = new D(n) as unknown as Fields
  const y = { s: 0, e: 0, d: [] } as unknown as Fields
  return (
    setFields(y, n) &&
    x.s === y.s &&
    x.e === y.e &&
    x.d.length === y.d.length &&
    x.d.every((w, i) => w === y.d[i])
  )
}

/**
 * `(n) => new D(n)` for a finite `n`, faster for numbers with at most two decimals below
 * 2^45: an object of `D`'s prototype with the fields the constructor would set, in the
 * constructor's order. Any other number, and every number if decimal.js ever lays its
 * fields out otherwise (checked once, here), goes to the constructor.
 */
export const decimalFromNumber = (D: DecimalConstructor): ((n: number) => Decimal) => {
  if (!SAMPLES.every((n) => sameFields(D, n))) return (n) => new D(n)
  // decimal.js sets the constructor on each instance, then s, e and d: the same here.
  const made = new D(1) as unknown as Fields
  const prototype = Object.getPrototypeOf(made) as object
  const constructor = made.constructor
  return (n) => {
    const x = Object.create(prototype) as Fields
    x.constructor = constructor
    return setFields(x, n) ? (x as unknown as Decimal) : new D(n)
  }
}
