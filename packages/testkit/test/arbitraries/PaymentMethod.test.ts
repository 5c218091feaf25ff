import { validate } from '@paykit/core'
import { luhn, paymentMethodRequestAt } from '@paykit/core/codecs'
import * as fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import {
  cardNumber,
  cardSecretsOf,
  futureExpiry,
  invalidPaymentMethodRequest,
  nonLuhnCardNumber,
  paymentMethod,
  paymentMethodRequest,
} from '../../src/arbitraries/PaymentMethod.js'
import { testCardTable } from '../../src/simulator/TestCards.js'

// Large samples; the default 5 s is short on a loaded machine.
vi.setConfig({ testTimeout: 60_000 })

const now = new Date('2026-11-22T12:00:00.000Z')
const sample = <A>(arb: fc.Arbitrary<A>, n = 2000): ReadonlyArray<A> =>
  fc.sample(arb, { numRuns: n, seed: 42 })

describe('card numbers', () => {
  it('pass the core Luhn check once spaces are removed, and include every test card', () => {
    const numbers = sample(cardNumber(), 3000)
    for (const n of numbers) expect(luhn(n.replace(/ /g, ''))).toBe(true)
    for (const card of testCardTable) expect(numbers).toContain(card.number)
    expect(numbers.some((n) => n.includes(' '))).toBe(true)
    const lengths = new Set(numbers.map((n) => n.replace(/ /g, '').length))
    expect([...lengths].sort((a, b) => a - b)).toEqual([12, 13, 14, 15, 16, 17, 18, 19])
  })

  it('nonLuhnCardNumber always fails the core Luhn check', () => {
    for (const n of sample(nonLuhnCardNumber())) expect(luhn(n)).toBe(false)
  })
})

describe('futureExpiry', () => {
  it('gives the current month of now and later months, never an earlier one', () => {
    const expiries = sample(futureExpiry(now))
    expect(expiries).toContainEqual({ month: '11', year: '2026' })
    expect(expiries.some((e) => Number(e.year) >= 2030)).toBe(true)
    for (const { month, year } of expiries) {
      expect(month).toMatch(/^(0[1-9]|1[0-2])$/)
      expect(year).toMatch(/^\d{4}$/)
      expect(Number(year) * 12 + Number(month)).toBeGreaterThanOrEqual(2026 * 12 + 11)
    }
  })
})

describe('paymentMethodRequest', () => {
  it('generates customer and the optional card fields both present and absent', () => {
    const requests = sample(paymentMethodRequest({ now }))
    const has = (p: (r: (typeof requests)[number]) => boolean) => requests.some(p)
    expect(has((r) => r.customer === undefined)).toBe(true)
    expect(has((r) => r.customer !== undefined && Object.keys(r.customer).length === 4)).toBe(true)
    expect(has((r) => r.customer !== undefined && Object.keys(r.customer).length === 0)).toBe(true)
    expect(has((r) => 'cardHolder' in r.card)).toBe(true)
    expect(has((r) => !('cardHolder' in r.card))).toBe(true)
    expect(has((r) => 'singleUse' in r.card)).toBe(true)
    expect(has((r) => !('singleUse' in r.card))).toBe(true)
    expect(has((r) => r.card.cvv.length === 3)).toBe(true)
    expect(has((r) => r.card.cvv.length === 4)).toBe(true)
  })

  it('is plain JSON (survives a JSON round trip unchanged)', () => {
    for (const r of sample(paymentMethodRequest({ now }), 200)) {
      expect(JSON.parse(JSON.stringify(r))).toEqual(r)
    }
  })
})

describe('invalidPaymentMethodRequest', () => {
  const v = validate(paymentMethodRequestAt(now))

  it('labels each value with the exact path the core codec reports, and only that path', () => {
    for (const record of sample(invalidPaymentMethodRequest({ now }), 3000)) {
      const result = v(record.value)
      expect(result._tag, record.rule).toBe('Left')
      if (result._tag === 'Left') {
        expect(
          result.left.map((e) => e.path),
          record.rule,
        ).toEqual([record.field])
        for (const secret of cardSecretsOf(record.value)) {
          for (const e of result.left) expect(e.message).not.toContain(secret)
        }
      }
    }
  })

  it('covers every rule', () => {
    const rules = new Set(sample(invalidPaymentMethodRequest({ now }), 3000).map((r) => r.rule))
    expect([...rules].sort()).toEqual(
      [
        'body is an object',
        'card is required',
        'card is an object',
        'card.number is required',
        'card.number is a string',
        'card.number passes the Luhn check',
        'card.number has 12 to 19 digits',
        'card.number is digits only',
        'card.expirationMonth is required',
        'card.expirationMonth is two digits 01-12',
        'card.expirationMonth is not in the past',
        'card.expirationYear is required',
        'card.expirationYear is four digits',
        'card.expirationYear is not in the past',
        'card.cvv is required',
        'card.cvv is 3 or 4 digits',
        'card.cardHolder is a string',
        'card.singleUse is a boolean',
        'customer is an object',
        'customer.id is a string',
        'customer.name is a string',
        'customer.email is a string',
        'customer.phoneNumber is a string',
      ].sort(),
    )
  })

  it('has no past-month case in January (no earlier month of the year exists)', () => {
    const january = new Date('2027-01-15T00:00:00.000Z')
    const rules = sample(invalidPaymentMethodRequest({ now: january }), 1000).map((r) => r.rule)
    expect(rules).not.toContain('card.expirationMonth is not in the past')
  })
})

describe('paymentMethod', () => {
  it('gives issuers of the USA, Canada and elsewhere', () => {
    const countries = new Set(sample(paymentMethod()).map((pm) => pm.bin.countryCode))
    expect(countries).toContain('USA')
    expect(countries).toContain('CAN')
    expect(countries).toContain('CRI')
  })
})
