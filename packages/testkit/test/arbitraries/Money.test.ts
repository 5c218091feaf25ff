/**
 * Amounts that break arithmetic: whole cents, exact as the core's Money, drawn toward the
 * values whose binary floating point goes wrong; line items with their exact total.
 */
import { Money } from '@paykit/core/money'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { lineItemsTotal, trickyAmount, trickyLineItems } from '../../src/arbitraries/Money.js'

const cents = (n: number): bigint => {
  const money = Money.fromNumber(n)
  if (money._tag === 'Left') throw new Error(money.left)
  return Money.toCents(money.right)
}

describe('trickyAmount', () => {
  it('draws whole cents above 0, a quarter or more off in binary, large totals too', () => {
    const amounts = fc.sample(trickyAmount(), { numRuns: 2000, seed: 3 })
    for (const a of amounts) {
      expect(a).toBeGreaterThan(0)
      expect(Number(cents(a)) / 100).toBe(a)
    }
    const off = amounts.filter((a) => Math.floor(a * 100) !== Number(cents(a)))
    expect(off.length).toBeGreaterThan(amounts.length / 4)
    expect(amounts.some((a) => a > 21_474_836.47)).toBe(true)
  })
})

describe('trickyLineItems', () => {
  it('draws 1 to 4 items, quantities of 1 or more, an exact total that floats miss', () => {
    const drawn = fc.sample(trickyLineItems(), { numRuns: 500, seed: 3 })
    let floatsMiss = 0
    for (const items of drawn) {
      expect(items.length).toBeGreaterThanOrEqual(1)
      expect(items.length).toBeLessThanOrEqual(4)
      const exact = items.reduce((sum, i) => sum + cents(i.price) * BigInt(i.quantity), 0n)
      expect(cents(lineItemsTotal(items))).toBe(exact)
      const float = items.reduce((sum, i) => sum + i.price * i.quantity, 0)
      if (Math.floor(float * 100) !== Number(exact)) floatsMiss++
    }
    expect(floatsMiss).toBeGreaterThan(drawn.length / 5)
  })
})
