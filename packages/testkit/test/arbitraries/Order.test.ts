import { validate } from '@paykit/core'
import { OrderDetails, orderStatuses } from '@paykit/core/codecs'
import { Money } from '@paykit/core/money'
import * as fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { orderDetails, orderLineItem } from '../../src/arbitraries/Order.js'

vi.setConfig({ testTimeout: 60_000 })

const decoded = (json: unknown) => {
  const order = validate(OrderDetails)(json)
  if (order._tag === 'Left') throw new Error(JSON.stringify(order.left))
  return order.right
}

describe('orderLineItem', () => {
  it('has subTotal = price x quantity and promoPrice = price, exactly', () => {
    fc.assert(
      fc.property(orderLineItem(), (item) => {
        const price = Money.fromNumber(item.price)
        expect(
          price._tag === 'Right' && Money.multiply(item.quantity)(price.right).toNumber(),
        ).toBe(item.subTotal)
        expect(item.promoPrice).toBe(item.price)
      }),
    )
  })
})

describe('orderDetails', () => {
  it('adds up: subtotal = sum of the items (when any), total = subtotal + shipping + surcharge - discount >= 0', () => {
    fc.assert(
      fc.property(orderDetails(), (json) => {
        const order = decoded(json)
        if (order.lineItems.length > 0)
          expect(
            Money.Eq.equals(order.subtotal, Money.sum(order.lineItems.map((i) => i.subTotal))),
          ).toBe(true)
        const { shippingAmount, surchargeAmount, discountAmount } = order.totalDetails
        const total = Money.sum([order.subtotal, shippingAmount, surchargeAmount]).minus(
          discountAmount,
        )
        expect(Money.Eq.equals(order.total, total)).toBe(true)
        expect(order.total.isNegative()).toBe(false)
        expect(order.subtotal.isPositive()).toBe(true)
      }),
      { numRuns: 500 },
    )
  })

  it('draws every status of the spec and no other, payment set exactly when paid', () => {
    const seen = new Set<string>()
    for (const json of fc.sample(orderDetails(), { numRuns: 400, seed: 19 })) {
      seen.add(json.orderStatus)
      expect(json.payment !== null).toBe(
        json.orderStatus === 'PAID' || json.orderStatus === 'FINALIZED',
      )
    }
    expect([...seen].sort()).toEqual([...orderStatuses].sort())
  })

  it('keeps to the statuses asked for, and the link on the base URL asked for', () => {
    for (const json of fc.sample(
      orderDetails({ statuses: ['CANCELLED'], baseUrl: 'https://pay.example' }),
      50,
    )) {
      expect(json.orderStatus).toBe('CANCELLED')
      expect(json.paymentLinkUrl).toBe(`https://pay.example/pay/${json.orderCode}`)
    }
    expect(() => orderDetails({ statuses: [] })).toThrow(RangeError)
  })

  it('gives the extras (shipping, surcharge, discount) as 0, as the sandbox does, and not 0', () => {
    const zero = fc
      .sample(orderDetails(), { numRuns: 200, seed: 7 })
      .map((o) => o.totalDetails.shippingAmount === 0 && o.totalDetails.discountAmount === 0)
    expect(zero).toContain(true)
    expect(zero).toContain(false)
  })
})
