// Conformance: money is exact (issue 2): decoded amounts are exact decimals, totals are
// exact for prices up to 10^9 with 2 decimals and quantities up to 10^6, checked against
// an integer-cents oracle; amounts encode back to the same JSON numbers.
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { PaymentLinkRequest, lineItemsTotal, noCatalogue } from '@paykit/core/codecs'
import { Money, MoneyFromNumber } from '@paykit/core/money'
import * as S from './samples.js'

const money = (n: number): Money.Money => S.decodeRight(MoneyFromNumber, n)
const centsToNumber = (cents: bigint): number => Number(cents) / 100

describe('exact decimal money', () => {
  it('0.1 + 0.2 is exactly 0.3', () => {
    const total = Money.sum([money(0.1), money(0.2)])
    expect(Money.Eq.equals(total, money(0.3))).toBe(true)
    expect(Money.toNumber(total)).toBe(0.3)
    expect(Money.toCents(total)).toBe(30n)
  })
  it('19.99 x 3 is exactly 59.97', () => {
    const sub = Money.multiply(3)(money(19.99))
    expect(Money.toCents(sub)).toBe(5997n)
    expect(Money.toNumber(sub)).toBe(59.97)
  })
  it('a 10^9 price times a 10^6 quantity is exact', () => {
    const sub = Money.multiply(1_000_000)(money(999_999_999.99))
    expect(Money.toCents(sub)).toBe(99_999_999_999n * 1_000_000n)
  })
  it('line-item totals of a decoded payment link are exact', () => {
    const req = S.decodeRight(PaymentLinkRequest, {
      lineItems: [
        { product: { name: 'A', price: 0.1 }, quantity: 1 },
        { product: { name: 'B', price: 0.2 }, quantity: 1 },
        { product: { name: 'C', price: 19.99 }, quantity: 3 },
      ],
    })
    const total = lineItemsTotal(noCatalogue)(req.lineItems ?? [])
    expect(E.isRight(total) && Money.toCents(total.right)).toBe(6027n)
  })
  it('amounts encode back to the JSON numbers they came from', () => {
    for (const n of [0.1, 0.2, 19.99, 25.5, 999_999_999.99, 1e-2, 40])
      expect(MoneyFromNumber.encode(money(n))).toBe(n)
    const body = PaymentLinkRequest.encode(S.decodeRight(PaymentLinkRequest, { amount: 0.1 }))
    expect(body.amount).toBe(0.1)
  })
  it('non-finite numbers are not money', () => {
    for (const n of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
      expect(S.pathsOf(MoneyFromNumber, n)).toEqual([''])
  })
})

const cents = fc.bigInt({ min: 0n, max: 100_000_000_000n }) // up to 10^9 with 2 decimals
const quantity = fc.integer({ min: 1, max: 1_000_000 })

describe('against an integer-cents oracle', () => {
  test.prop([fc.array(fc.tuple(cents, quantity), { minLength: 1, maxLength: 20 })])(
    'subtotal = price x quantity and total = sum of subtotals, exactly',
    (items) => {
      const req = S.decodeRight(PaymentLinkRequest, {
        lineItems: items.map(([c, q], i) => ({
          product: { name: `P${i}`, price: centsToNumber(c) },
          quantity: q,
        })),
      })
      const total = lineItemsTotal(noCatalogue)(req.lineItems ?? [])
      const oracle = items.reduce((acc, [c, q]) => acc + c * BigInt(q), 0n)
      expect(E.isRight(total) && Money.toCents(total.right)).toBe(oracle)
      for (const [c, q] of items)
        expect(Money.toCents(Money.multiply(q)(money(centsToNumber(c))))).toBe(c * BigInt(q))
    },
  )
  test.prop([cents])('decode . encode . decode = decode for any 2-decimal amount', (c) => {
    const once = money(centsToNumber(c))
    const twice = money(MoneyFromNumber.encode(once))
    expect(Money.Eq.equals(once, twice)).toBe(true)
    expect(Money.toCents(once)).toBe(c)
  })
})
