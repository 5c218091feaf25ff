// decimalFromNumber builds, for prices and amounts, the very Decimal the constructor
// builds, without calling it; any other number goes to the constructor.
import { fc, test } from '@fast-check/vitest'
import { Decimal } from 'decimal.js'
import { describe, expect, it } from 'vitest'
import { decimalFromNumber } from '../../src/internal/decimal.js'

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN })

/** `D`, counting the Decimals its constructor makes. */
const counting = (): { readonly C: typeof D; readonly made: () => number } => {
  let made = 0
  const C = new Proxy(D, {
    construct: (target, args: [Decimal.Value]) => {
      made++
      return new target(...args)
    },
  })
  return { C, made: () => made }
}

describe('decimalFromNumber', () => {
  test.prop([fc.integer({ min: -(2 ** 52), max: 2 ** 52 }).map((c) => c / 100)])(
    "a number with at most two decimals: the constructor's Decimal, without the constructor",
    (n) => {
      const { C, made } = counting()
      const ofNumber = decimalFromNumber(C)
      const before = made()
      const x = ofNumber(n)
      // Below 2^45 no constructor call (0 and -0 keep their sign through it).
      if (Math.abs(n) < 2 ** 45 && n !== 0) expect(made()).toBe(before)
      expect(x).toStrictEqual(new C(n))
      expect(x.toString()).toBe(new D(n).toString())
    },
  )

  test.prop([fc.double({ noNaN: true, noDefaultInfinity: true })])(
    "any other finite number: the constructor's",
    (n) => {
      expect(decimalFromNumber(D)(n)).toStrictEqual(new D(n))
    },
  )

  it('falls back to the constructor if decimal.js lays out its fields otherwise', () => {
    // A constructor whose exponent is off by one: the check at load refuses the fast path.
    class Skewed extends D {
      constructor(n: Decimal.Value) {
        super(n)
        ;(this as unknown as { e: number }).e += 1
      }
    }
    const ofNumber = decimalFromNumber(Skewed as unknown as typeof D)
    expect(ofNumber(12.34)).toBeInstanceOf(Skewed)
    expect((ofNumber(12.34) as unknown as { e: number }).e).toBe(2)
  })
})
