import { validate } from '@paykit/core'
import { PaymentLinkRequest, orderTotal, catalogue, noCatalogue } from '@paykit/core/codecs'
import { Money } from '@paykit/core/money'
import * as fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { namedFields } from '../../src/arbitraries/Common.js'
import {
  invalidPaymentLinkRequest,
  jsonLineItemsTotal,
  orderShapeOf,
  paymentLinkRequest,
} from '../../src/arbitraries/PaymentLink.js'
import type { PaymentLinkRequestInput } from '../../src/arbitraries/PaymentLink.js'
import { defaultProducts } from '../../src/simulator/TestCards.js'

// Large samples; the default 5 s is short on a loaded machine.
vi.setConfig({ testTimeout: 60_000 })

const sample = <A>(arb: fc.Arbitrary<A>, n = 1000): ReadonlyArray<A> =>
  fc.sample(arb, { numRuns: n, seed: 7 })
const v = validate(PaymentLinkRequest)
const sandboxPrices = catalogue(
  new Map(defaultProducts.map((p) => [p.sku, Money.fromCents(Math.round(p.price * 100))])),
)

describe('paymentLinkRequest', () => {
  const requests = sample(paymentLinkRequest(), 1500)
  const has = (p: (r: PaymentLinkRequestInput) => boolean): boolean => requests.some(p)

  it('generates all three order shapes', () => {
    const shapes = new Set(requests.map(orderShapeOf))
    expect([...shapes].sort()).toEqual(['amount', 'both', 'lineItems'])
  })

  it('generates sku and product line items', () => {
    expect(has((r) => (r.lineItems ?? []).some((item) => 'sku' in item))).toBe(true)
    expect(has((r) => (r.lineItems ?? []).some((item) => 'product' in item))).toBe(true)
    expect(
      has((r) => (r.lineItems ?? []).some((i) => 'product' in i && i.product.price === 0)),
    ).toBe(true)
  })

  it('generates every optional field present and absent', () => {
    const keys = [
      'orderReference',
      'orderName',
      'orderDescription',
      'successUrl',
      'cancelUrl',
      'locationCode',
      'metadata',
      'expirationMinutes',
    ] as const
    for (const key of keys) {
      expect(
        has((r) => key in r),
        key,
      ).toBe(true)
      expect(
        has((r) => !(key in r)),
        key,
      ).toBe(true)
    }
    const products = requests.flatMap((r) =>
      (r.lineItems ?? []).flatMap((i) => ('product' in i ? [i.product] : [])),
    )
    for (const key of ['imageUrl', 'requiresShipping'] as const) {
      expect(
        products.some((p) => key in p),
        key,
      ).toBe(true)
      expect(
        products.some((p) => !(key in p)),
        key,
      ).toBe(true)
    }
    expect(has((r) => r.orderDescription === null)).toBe(true)
    expect(has((r) => (r.metadata ?? []).length > 0)).toBe(true)
  })

  it('reaches the limits of spec section 8 exactly (255, 2048, 512)', () => {
    const length = (s: string | null | undefined) => (s == null ? 0 : [...s].length)
    expect(has((r) => length(r.orderReference) === 255)).toBe(true)
    expect(has((r) => length(r.orderName) === 255)).toBe(true)
    expect(has((r) => length(r.orderDescription) === 2048)).toBe(true)
    expect(
      has((r) =>
        (r.lineItems ?? []).some((i) => 'product' in i && length(i.product.imageUrl) === 512),
      ),
    ).toBe(true)
  })

  it('is accepted by the core codec and is plain JSON', () => {
    for (const r of requests) {
      expect(v(r)._tag).toBe('Right')
      expect(JSON.parse(JSON.stringify(r))).toEqual(r)
    }
  })

  it('gives both shapes an amount equal to the exact line-item total (core orderTotal)', () => {
    const both = sample(paymentLinkRequest({ shapes: ['both'] }), 300)
    for (const r of both) {
      const decoded = v(r)
      if (decoded._tag === 'Left') throw new Error('refused')
      expect(orderTotal(noCatalogue)(decoded.right)._tag).toBe('Right')
      expect(jsonLineItemsTotal(r.lineItems ?? [])).toBe(r.amount)
    }
  })

  it('with a catalogue, names only its skus and prices them in the total', () => {
    const options = { catalogue: defaultProducts, shapes: ['both', 'lineItems'] as const }
    const rs = sample(paymentLinkRequest(options), 500)
    const skus = rs.flatMap((r) => (r.lineItems ?? []).flatMap((i) => ('sku' in i ? [i.sku] : [])))
    expect(new Set(skus)).toEqual(new Set(defaultProducts.map((p) => p.sku)))
    for (const r of rs) {
      const decoded = v(r)
      if (decoded._tag === 'Left') throw new Error('refused')
      expect(orderTotal(sandboxPrices)(decoded.right)._tag).toBe('Right')
    }
  })
})

describe('invalidPaymentLinkRequest', () => {
  const records = sample(invalidPaymentLinkRequest(), 4000)

  it('labels each value with exactly the paths the core codec reports', () => {
    for (const record of records) {
      const result = v(record.value)
      expect(result._tag, record.rule).toBe('Left')
      if (result._tag === 'Left') {
        expect([...new Set(result.left.map((e) => e.path))].sort(), record.rule).toEqual(
          [...namedFields(record)].sort(),
        )
      }
    }
  })

  it('covers every rule', () => {
    expect([...new Set(records.map((r) => r.rule))].sort()).toEqual(
      [
        'body is an object',
        'amount or lineItems is given',
        'lineItems is not empty',
        'lineItems is an array',
        'amount > 0',
        'amount is finite',
        'amount is a number',
        'line item is an object',
        'line item has sku or product',
        'line item has not both sku and product',
        'sku is a non-empty string',
        'quantity is a positive integer',
        'quantity is required',
        'product is an object',
        'product.name is a non-empty string',
        'product.name is required',
        'product.price >= 0',
        'product.price is a finite number',
        'product.imageUrl is at most 512 characters',
        'product.imageUrl is a string',
        'product.requiresShipping is a boolean',
        'orderReference is at most 255 characters',
        'orderName is at most 255 characters',
        'orderDescription is at most 2048 characters',
        'orderReference is a string',
        'orderName is a string',
        'orderDescription is a string or null',
        'locationCode is a string',
        'metadata is an array',
        'metadata entry is an object',
        'metadata name is a string',
        'metadata value is a string',
        'expirationMinutes is a positive integer',
        'successUrl is an absolute http(s) URL',
        'cancelUrl is an absolute http(s) URL',
      ].sort(),
    )
  })

  it('labels line-item breaks with their index, as in lineItems[2].product.price', () => {
    const fields = new Set(records.map((r) => r.field))
    expect(fields).toContain('lineItems[0].product.price')
    expect([...fields].some((f) => /^lineItems\[[1-9]\]\.product\.price$/.test(f))).toBe(true)
    expect(fields).toContain('metadata[0].name')
  })

  it('with serviceRules and a catalogue, also breaks the total and the sku, which only the service sees', () => {
    const options = { catalogue: defaultProducts, serviceRules: true }
    const service = sample(invalidPaymentLinkRequest(options), 3000).filter(
      (r) => r.rule === 'amount equals the line-item total' || r.rule === 'sku is in the catalogue',
    )
    expect(new Set(service.map((r) => r.rule)).size).toBe(2)
    for (const record of service) {
      const decoded = v(record.value)
      if (decoded._tag === 'Left') throw new Error(`codec refused ${record.rule}`)
      const total = orderTotal(sandboxPrices)(decoded.right)
      expect(total._tag).toBe('Left')
      if (total._tag === 'Left') expect(total.left.map((e) => e.path)).toEqual([record.field])
    }
  })
})
