import { validate } from '@paykit/core'
import { ChargeRequest, chargeRequestFor as chargeCodecFor } from '@paykit/core/codecs'
import * as fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import {
  chargeRequest,
  chargeRequestForPaymentMethod,
  invalidChargeRequest,
  invalidChargeRequestFor,
} from '../../src/arbitraries/Charge.js'
import { namedFields } from '../../src/arbitraries/Common.js'
import { paymentMethod } from '../../src/arbitraries/PaymentMethod.js'

// Large samples; the default 5 s is short on a loaded machine.
vi.setConfig({ testTimeout: 60_000 })

const sample = <A>(arb: fc.Arbitrary<A>, n = 1000): ReadonlyArray<A> =>
  fc.sample(arb, { numRuns: n, seed: 11 })
const usa = { id: 'pm-usa', bin: { countryCode: 'USA' } }
const canada = { id: 'pm-can', bin: { countryCode: 'CAN' } }
const costaRica = { id: 'pm-cri', bin: { countryCode: 'CRI' } }

const pathsOf = (result: ReturnType<ReturnType<typeof validate>>): ReadonlyArray<string> =>
  result._tag === 'Left' ? [...new Set(result.left.map((e) => e.path))].sort() : []

describe('chargeRequest', () => {
  const requests = sample(chargeRequest())

  it('is accepted by the core ChargeRequest and is plain JSON', () => {
    const v = validate(ChargeRequest)
    for (const r of requests) {
      expect(v(r)._tag).toBe('Right')
      expect(JSON.parse(JSON.stringify(r))).toEqual(r)
    }
  })

  it('generates billingInfo present and absent, with alpha-2 and alpha-3 country codes', () => {
    expect(requests.some((r) => r.billingInfo === undefined)).toBe(true)
    const codes = requests.flatMap((r) => (r.billingInfo ? [r.billingInfo.countryCode] : []))
    expect(codes.some((c) => c.length === 2)).toBe(true)
    expect(codes.some((c) => c.length === 3)).toBe(true)
  })

  it('generates authenticationId absent, null and an id, and the order fields present and absent', () => {
    expect(requests.some((r) => !('authenticationId' in r))).toBe(true)
    expect(requests.some((r) => r.authenticationId === null)).toBe(true)
    expect(requests.some((r) => typeof r.authenticationId === 'string')).toBe(true)
    for (const key of ['description', 'name'] as const) {
      expect(requests.some((r) => key in r.order)).toBe(true)
      expect(requests.some((r) => !(key in r.order))).toBe(true)
    }
  })
})

describe('chargeRequestForPaymentMethod', () => {
  it('always gives billingInfo for USA and CAN issuers, and the payment method id as cardId', () => {
    for (const pm of [usa, canada]) {
      const v = validate(chargeCodecFor(pm))
      for (const r of sample(chargeRequestForPaymentMethod(pm), 300)) {
        expect(r.billingInfo).toBeDefined()
        expect(r.cardId).toBe(pm.id)
        expect(v(r)._tag).toBe('Right')
      }
    }
  })

  it('gives billingInfo present and absent for other issuers', () => {
    const rs = sample(chargeRequestForPaymentMethod(costaRica), 300)
    expect(rs.some((r) => r.billingInfo === undefined)).toBe(true)
    expect(rs.some((r) => r.billingInfo !== undefined)).toBe(true)
  })

  it('is accepted for any payment method the service answers', () => {
    fc.assert(
      fc.property(
        paymentMethod().chain((pm) => fc.tuple(fc.constant(pm), chargeRequestForPaymentMethod(pm))),
        ([pm, r]) => validate(chargeCodecFor(pm))(r)._tag === 'Right',
      ),
      { numRuns: 300 },
    )
  })
})

describe('invalidChargeRequestFor', () => {
  const rules = [
    'body is an object',
    'order is required',
    'order is an object',
    'order.id is a non-empty string',
    'order.amount > 0',
    'order.amount is a finite number',
    'order.description is a string',
    'order.name is a string',
    'cardId is a non-empty string',
    'authenticationId is null or a non-empty string',
    'billingInfo is an object',
    'billingInfo.countryCode is ISO 3166 alpha-2 or alpha-3',
    'billingInfo.stateCode is a non-empty string',
    'billingInfo.zipCode is a non-empty string',
  ]

  it('labels each value with exactly the path the core codec reports (USA, CAN, CRI issuers)', () => {
    for (const pm of [usa, canada, costaRica]) {
      const v = validate(chargeCodecFor(pm))
      for (const record of sample(invalidChargeRequestFor(pm), 2000)) {
        const result = v(record.value)
        expect(result._tag, record.rule).toBe('Left')
        expect(pathsOf(result), record.rule).toEqual([...namedFields(record)].sort())
      }
    }
  })

  it('covers every rule, and a missing billingInfo only for USA and CAN issuers', () => {
    const ruleSet = (pm: typeof usa) =>
      [...new Set(sample(invalidChargeRequestFor(pm), 2000).map((r) => r.rule))].sort()
    const billing = 'billingInfo is required for a USA or CAN card'
    expect(ruleSet(usa)).toEqual([...rules, billing].sort())
    expect(ruleSet(canada)).toEqual([...rules, billing].sort())
    expect(ruleSet(costaRica)).toEqual([...rules].sort())
  })

  it('invalidChargeRequest is refused by ChargeRequest at its label', () => {
    const v = validate(ChargeRequest)
    for (const record of sample(invalidChargeRequest(), 1000)) {
      expect(pathsOf(v(record.value)), record.rule).toEqual([...namedFields(record)].sort())
    }
  })
})
