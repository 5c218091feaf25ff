// The fast path of `validate` must give exactly what `codec.decode` gives: the same value
// (members, key order, the input itself when nothing changes) for valid input, and FAIL
// exactly when io-ts reports errors.
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { FrameMessage } from '../../src/machines/Authentication.js'
import { ChargeRequest, ChargeResponse, chargeRequestFor } from '../../src/model/Charge.js'
import { FAIL, fastDecoderOf } from '../../src/internal/fastDecode.js'
import { OrderDetails } from '../../src/model/Order.js'
import { PaymentLinkRequest, PaymentLinkResponse } from '../../src/model/PaymentLink.js'
import { PaymentMethod, PaymentMethodRequest } from '../../src/model/PaymentMethod.js'
import { AccessToken, TokenRequest } from '../../src/model/Token.js'
import { WebhookEvent } from '../../src/signing/Webhook.js'
import * as S from '../conformance/samples.js'

const codecs: ReadonlyArray<readonly [string, t.Decoder<unknown, unknown>]> = [
  ['TokenRequest', TokenRequest],
  ['AccessToken', AccessToken],
  ['PaymentMethodRequest', PaymentMethodRequest],
  ['PaymentMethod', PaymentMethod],
  ['ChargeRequest', ChargeRequest],
  ['chargeRequestFor', chargeRequestFor(S.paymentMethod('USA') as never)],
  ['ChargeResponse', ChargeResponse],
  ['FrameMessage', FrameMessage],
  ['PaymentLinkRequest', PaymentLinkRequest],
  ['PaymentLinkResponse', PaymentLinkResponse],
  ['OrderDetails', OrderDetails],
  ['WebhookEvent', WebhookEvent],
] as unknown as ReadonlyArray<readonly [string, t.Decoder<unknown, unknown>]>

const samples: ReadonlyArray<unknown> = [
  S.tokenRequest,
  S.accessToken,
  S.paymentMethodRequest,
  S.paymentMethod(),
  S.chargeRequest,
  { ...S.chargeRequest, billingInfo: S.billingInfo },
  S.chargeFailed,
  S.chargeSucceeded,
  S.chargeAuthRequired,
  S.frameMessage(),
  S.paymentLinkFromAmount,
  S.paymentLinkFromLineItems,
  { ...S.paymentLinkFromLineItems, extra: 1, orderDescription: null },
  S.paymentLinkResponse,
  S.orderDetails,
  { id: 'evt_1', type: 'order.paid', createdAt: S.createdAt, data: S.orderDetails },
]

/** The same value as io-ts's, member for member and in the same key order. */
const agrees = (codec: t.Decoder<unknown, unknown>, u: unknown): void => {
  const fast = fastDecoderOf(codec)(u)
  const slow = codec.decode(u)
  if (E.isLeft(slow)) {
    expect(fast).toBe(FAIL)
    return
  }
  expect(fast).not.toBe(FAIL)
  expect(fast).toStrictEqual(slow.right)
  expect(JSON.stringify(fast)).toBe(JSON.stringify(slow.right))
  // The input itself when io-ts gives the input itself (nothing stripped or defaulted).
  expect(fast === u).toBe(slow.right === u)
}

/** A sample with one member changed, removed or added, at any depth. */
const mutated = (value: unknown): fc.Arbitrary<unknown> => {
  if (value === null || typeof value !== 'object')
    return fc.oneof(fc.constant(value), fc.jsonValue())
  const entries = Object.entries(value as Record<string, unknown>)
  if (entries.length === 0) return fc.constant(value)
  return fc.nat({ max: entries.length - 1 }).chain((i) => {
    const [key, member] = entries[i] as [string, unknown]
    return fc
      .oneof(
        mutated(member).map((m) => ({ [key]: m })),
        fc.constant({ [key]: undefined }),
        fc.constant({ [key]: null }),
        fc.jsonValue().map((j) => ({ [key]: j })),
        fc.jsonValue().map((j) => ({ [`x${key}`]: j })),
      )
      .map((patch) =>
        Array.isArray(value)
          ? Object.assign([...value], patch)
          : { ...(value as Record<string, unknown>), ...patch },
      )
  })
}

describe('fastDecoderOf agrees with decode', () => {
  it.each(codecs)('%s, on every sample', (_, codec) => {
    for (const u of samples) agrees(codec, u)
  })

  test.prop([fc.nat(), fc.nat()])('on samples with one member changed at any depth', (i, j) => {
    const [, codec] = codecs[i % codecs.length] as readonly [string, t.Decoder<unknown, unknown>]
    const sample = samples[j % samples.length]
    fc.assert(
      fc.property(mutated(sample), (u) => agrees(codec, u)),
      { numRuns: 20 },
    )
  })

  test.prop([fc.anything()])('on any value', (u) => {
    for (const [, codec] of codecs) agrees(codec, u)
  })

  it('keeps io-ts semantics of its own combinators', () => {
    const codec = t.intersection([
      t.exact(t.type({ a: t.string, n: t.union([t.number, t.null]) })),
      t.exact(t.partial({ b: t.readonlyArray(t.literal('x')), k: t.keyof({ p: null }) })),
      t.type({ r: t.refinement(t.number, (n) => n > 0) }),
    ])
    for (const u of [
      { a: 'a', n: null, r: 1 },
      { a: 'a', n: 1, r: 1, b: ['x'], k: 'p', extra: true },
      { a: 'a', n: 1, r: 0 },
      { a: 'a', n: 1, r: 1, b: ['y'] },
      { a: 'a', n: 1, r: 1, b: undefined },
      [],
      null,
    ])
      agrees(codec, u)
  })
})
