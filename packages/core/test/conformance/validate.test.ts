// Conformance: `validate` never throws, on any input (issue 2), and a Left always names
// a path; valid frozen input decodes.
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { validate } from '@paykit/core'
import * as S from './samples.js'

const codecs: ReadonlyArray<readonly [string, t.Type<unknown, unknown, unknown>]> = (
  [
    ['TokenRequest', S.TokenRequest],
    ['AccessToken', S.AccessToken],
    ['PaymentMethodRequest', S.PaymentMethodRequest],
    ['PaymentMethod', S.PaymentMethod],
    ['ChargeRequest', S.ChargeRequest],
    ['chargeRequestFor(USA)', S.chargeRequestFor(S.paymentMethod('USA'))],
    ['ChargeResponse', S.ChargeResponse],
    ['FrameMessage', S.FrameMessage],
    ['PaymentLinkRequest', S.PaymentLinkRequest],
    ['PaymentLinkResponse', S.PaymentLinkResponse],
    ['OrderDetails', S.OrderDetails],
    ['ValidationProblem', S.ValidationProblem],
    ['ServerProblem', S.ServerProblem],
  ] as const
).map(([n, c]) => [n, c as unknown as t.Type<unknown, unknown, unknown>] as const)

/** validate never throws; a Left is a non-empty array of {path: string, message: string}. */
const wellBehaved = (c: t.Type<unknown, unknown, unknown>, input: unknown): void => {
  let r: E.Either<ReadonlyArray<{ path: string; message: string }>, unknown> | undefined
  expect(() => {
    r = validate(c)(input)
  }).not.toThrow()
  if (r && E.isLeft(r)) {
    expect(r.left.length).toBeGreaterThan(0)
    const shaped = r.left.every((e) => typeof e.path === 'string' && typeof e.message === 'string')
    expect(shaped).toBe(true)
  }
}

const hostile = (): ReadonlyArray<readonly [string, () => unknown]> => [
  [
    'a cyclic object',
    () => {
      const o: Record<string, unknown> = { amount: 1 }
      o['self'] = o
      o['lineItems'] = [o]
      o['card'] = o
      o['order'] = o
      return o
    },
  ],
  [
    'a cyclic array',
    () => {
      const a: unknown[] = []
      a.push(a)
      return { lineItems: a, metadata: a, amount: 1 }
    },
  ],
  [
    'throwing getters',
    () => {
      const boom = (): never => {
        throw new Error('getter exploded')
      }
      const o = {}
      for (const k of [
        'amount',
        'lineItems',
        'card',
        'order',
        'status',
        'orderName',
        'accessToken',
        'clientId',
        'MessageType',
        'orderId',
        'type',
        'id',
      ])
        Object.defineProperty(o, k, { get: boom, enumerable: true })
      return o
    },
  ],
  [
    'bigints',
    () => ({
      amount: 10n,
      expirationMinutes: 5n,
      order: { id: 'a', amount: 1n },
      orderId: 1n,
      status: 400n,
      expiresIn: 1n,
    }),
  ],
  ['a bare bigint', () => 12345678901234567890n],
  [
    'a Proxy that throws on every trap',
    () =>
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('trap')
          },
          has: () => {
            throw new Error('trap')
          },
          ownKeys: () => {
            throw new Error('trap')
          },
          getOwnPropertyDescriptor: () => {
            throw new Error('trap')
          },
          getPrototypeOf: () => {
            throw new Error('trap')
          },
        },
      ),
  ],
  [
    'a Proxy inside a valid-looking value',
    () => ({
      amount: 1,
      lineItems: new Proxy([], {
        get: () => {
          throw new Error('trap')
        },
      }),
    }),
  ],
  [
    'symbols as values and keys',
    () => ({ amount: Symbol('a'), [Symbol('k')]: 1, orderName: Symbol.iterator }),
  ],
  ['a bare symbol', () => Symbol('x')],
  ['a function', () => () => 1],
  ['a Date', () => new Date()],
  ['an object without prototype', () => Object.create(null) as unknown],
  [
    'a frozen deep object',
    () =>
      Object.freeze({
        amount: 1,
        lineItems: Object.freeze([Object.freeze({ sku: 'A', quantity: 1 })]),
      }),
  ],
  ['a huge array', () => ({ lineItems: Array.from({ length: 20_000 }, () => ({ quantity: 0 })) })],
  ['a sparse array', () => ({ lineItems: new Array(50) })],
  ['a huge string', () => ({ amount: 1, orderName: 'x'.repeat(5_000_000) })],
  [
    'deep nesting',
    () => {
      let o: unknown = {}
      for (let i = 0; i < 10_000; i++) o = { lineItems: [o], card: o, order: o }
      return o
    },
  ],
]

describe('validate never throws on hostile input', () => {
  for (const [name, make] of hostile())
    it.each(codecs)(`${name} -> %s`, (_n, c) => {
      wellBehaved(c, make())
    })
})

describe('validate never throws on arbitrary values', () => {
  test.prop(
    [
      fc.anything({
        withBigInt: true,
        withMap: true,
        withSet: true,
        withTypedArray: true,
        withSparseArray: true,
        withNullPrototype: true,
        withBoxedValues: true,
      }),
    ],
    { numRuns: 300 },
  )('fc.anything() through every codec', (input) => {
    for (const [, c] of codecs) wellBehaved(c, input)
  })
  test.prop([fc.json()], { numRuns: 200 })('fc.json() through every codec', (json) => {
    for (const [, c] of codecs) wellBehaved(c, JSON.parse(json))
  })
})

describe('huge input stays fast (no quadratic error handling)', () => {
  it('20 000 broken order line items are reported within seconds', () => {
    const lineItems = Array.from({ length: 20_000 }, () => ({ sku: 1, imageUrl: 2, quantity: -1 }))
    const started = Date.now()
    const errors = S.decodeLeft(S.OrderDetails, { ...S.orderDetails, lineItems })
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(errors.some((e) => e.path === 'lineItems[19999].sku')).toBe(true)
    expect(errors.some((e) => e.path === 'lineItems[19999].imageUrl')).toBe(true)
  })
})

describe('frozen valid input decodes (defaults do not mutate the input)', () => {
  it('payment link with defaults to apply', () => {
    const input = Object.freeze({
      amount: 5,
      lineItems: Object.freeze([
        Object.freeze({ product: Object.freeze({ name: 'A', price: 1 }), quantity: 1 }),
      ]),
    })
    const r = S.decodeRight(S.PaymentLinkRequest, input)
    expect(r.orderName).toBe('PaymentLink Order')
    expect(input).not.toHaveProperty('orderName')
  })
  it('every sample, deeply frozen', () => {
    const deepFreeze = <A>(a: A): A => {
      if (a && typeof a === 'object') {
        for (const v of Object.values(a)) deepFreeze(v)
        Object.freeze(a)
      }
      return a
    }
    S.decodeRight(S.ChargeResponse, deepFreeze(structuredClone(S.chargeSucceeded)))
    S.decodeRight(S.OrderDetails, deepFreeze(structuredClone(S.orderDetails)))
    S.decodeRight(S.PaymentMethodRequest, deepFreeze(structuredClone(S.paymentMethodRequest)))
    S.decodeRight(
      S.chargeRequestFor(S.paymentMethod('USA')),
      deepFreeze({ ...structuredClone(S.chargeRequest), billingInfo: { ...S.billingInfo } }),
    )
  })
  it('a huge valid array decodes', () => {
    const lineItems = Array.from({ length: 100_000 }, (_, i) => ({ sku: `S${i}`, quantity: 1 }))
    expect(S.decodeRight(S.PaymentLinkRequest, { lineItems }).lineItems?.length).toBe(100_000)
  })
})
