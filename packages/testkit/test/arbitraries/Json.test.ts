// The core's `Json` over every request the arbitraries generate: decode -> Json.stringify ->
// JSON.parse -> decode gives the same value (amounts as JSON numbers, exact). The core's
// own test covers every response and event codec with fixtures (core cannot import this
// package).
import { validate } from '@paykit/core'
import {
  ChargeRequest,
  PaymentLinkRequest,
  PaymentMethod,
  TokenRequest,
  paymentMethodRequestAt,
} from '@paykit/core/codecs'
import { Json } from '@paykit/core/money'
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as fc from 'fast-check'
import type * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { chargeRequest } from '../../src/arbitraries/Charge.js'
import { paymentLinkRequest } from '../../src/arbitraries/PaymentLink.js'
import { paymentMethod, paymentMethodRequest } from '../../src/arbitraries/PaymentMethod.js'
import { tokenRequest } from '../../src/arbitraries/Token.js'
import { defaultProducts } from '../../src/simulator/TestCards.js'

const now = new Date()

const roundTrip = <A, O>(codec: t.Type<A, O, unknown>, arbitrary: fc.Arbitrary<unknown>) =>
  fc.assert(
    fc.property(arbitrary, (input) => {
      const a = validate(codec)(input)
      if (E.isLeft(a)) throw new Error(JSON.stringify(a.left))
      const text = pipe(a.right, Json.stringify(codec))
      const again = validate(codec)(JSON.parse(text))
      if (E.isLeft(again)) throw new Error(JSON.stringify(again.left))
      expect(pipe(again.right, Json.encode(codec))).toEqual(pipe(a.right, Json.encode(codec)))
      expect(JSON.parse(text)).toEqual(pipe(a.right, Json.encode(codec)))
    }),
    { numRuns: 200 },
  )

describe('Json round trip over the arbitraries', () => {
  it('TokenRequest', () => roundTrip(TokenRequest, tokenRequest()))
  it('PaymentMethodRequest', () =>
    roundTrip(paymentMethodRequestAt(now), paymentMethodRequest({ now })))
  it('PaymentMethod', () => roundTrip(PaymentMethod, paymentMethod()))
  it('ChargeRequest', () => roundTrip(ChargeRequest, chargeRequest()))
  it('PaymentLinkRequest', () =>
    roundTrip(PaymentLinkRequest, paymentLinkRequest({ catalogue: defaultProducts })))
})
