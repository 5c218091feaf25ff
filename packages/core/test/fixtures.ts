/**
 * Fixtures shared by the core's unit tests: decoding a sample, Money-aware equality, and the order details
 * the sandbox answers (its store, docs/service.md#the-store-and-the-checkout-page;
 * optional fields null when not given).
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import { validate } from '../src/model/FieldError.js'
import * as Money from '../src/model/Money.js'

type Json = Record<string, unknown>

/** `u` decoded with `codec`; throws with the field errors when it does not decode. */
export const decoded = <A, O>(codec: t.Type<A, O, unknown>, u: unknown): A => {
  const r = validate(codec)(u)
  if (E.isLeft(r)) throw new Error(JSON.stringify(r.left))
  return r.right
}

/** Deep equality that compares `Money` by value (`1.50` equals `1.5`). */
export const same = (a: unknown, b: unknown): boolean => {
  if (Money.isMoney(a) || Money.isMoney(b))
    return Money.isMoney(a) && Money.isMoney(b) && Money.Eq.equals(a, b)
  if (Array.isArray(a) || Array.isArray(b))
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((x, i) => same(x, b[i]))
    )
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a)
    const kb = Object.keys(b)
    return ka.length === kb.length && ka.every((k) => same((a as Json)[k], (b as Json)[k]))
  }
  return Object.is(a, b)
}

/** The sandbox store (docs/service.md#the-store-and-the-checkout-page), as orders carry it. */
export const sandboxStore = {
  name: 'Paykit Sandbox Store',
  countryCode: 'CRI',
  currencyCode: 'USD',
  currencySymbol: '$',
  locale: 'es_CR',
  timezone: 'America/Costa_Rica',
}

/** Order details (spec 2.8) of an amount-only link created with no optional field. */
export const amountOnlyOrder = (over: Json = {}): Json => ({
  orderId: 1001,
  orderCode: 'OC00001001',
  orderReference: null,
  name: 'PaymentLink Order',
  description: null,
  lineItems: [],
  orderStatus: 'PENDING',
  subtotal: 10,
  totalDetails: { shippingAmount: 0, discountAmount: 0, surchargeAmount: 0 },
  total: 10,
  metadata: [],
  paymentLinkUrl: 'http://127.0.0.1:4010/pay/OC00001001',
  successUrl: null,
  cancelUrl: null,
  store: sandboxStore,
  payment: null,
  created: '2026-11-22T01:00:00.000Z',
  ...over,
})
