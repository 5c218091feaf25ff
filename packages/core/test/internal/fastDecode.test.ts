// The fast path of `validate` must give exactly what `codec.decode` gives: the same value
// (members, key order, the input itself when nothing changes) for valid input, and FAIL
// exactly when io-ts reports errors.
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import type { Decimal } from 'decimal.js'
import * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { FrameMessage } from '../../src/machines/Authentication.js'
import { ChargeRequest, ChargeResponse, chargeRequestFor } from '../../src/model/Charge.js'
import {
  MaxLengthString,
  NonEmptyString,
  nullOr,
  PositiveInt,
  withDefault,
} from '../../src/internal/codec.js'
import { FAIL, fastDecoderOf } from '../../src/internal/fastDecode.js'
import { OrderDetails } from '../../src/model/Order.js'
import {
  fieldErrorCodes,
  fieldErrorMessage,
  fromValidationErrors,
  issueOf,
  validate,
  type CodedFieldError,
} from '../../src/model/FieldError.js'
import * as Money from '../../src/model/Money.js'
import {
  LineItem,
  Metadata,
  PaymentLinkRequest,
  PaymentLinkResponse,
  Price,
  Product,
  ProductLineItem,
  SkuLineItem,
} from '../../src/model/PaymentLink.js'
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
  ['LineItem', LineItem],
  ['SkuLineItem', SkuLineItem],
  ['ProductLineItem', ProductLineItem],
  ['Product', Product],
  ['Metadata', Metadata],
  ['Price', Price],
  ['MoneyFromNumber', Money.MoneyFromNumber],
  ['PositiveMoney', Money.PositiveMoney],
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

/**
 * `validate` (the fast path, then io-ts for the errors) gives what io-ts's `decode` gives,
 * codes included; every error has a code of the list, worded as its code says (a rule of
 * the core's never words a message another way).
 */
const validatesAsDecode = (codec: t.Decoder<unknown, unknown>, u: unknown): void => {
  const decoded = codec.decode(u)
  const validated = validate(codec as t.Type<unknown, unknown, unknown>)(u)
  expect(validated).toStrictEqual(
    E.isLeft(decoded) ? E.left(fromValidationErrors(decoded.left)) : decoded,
  )
  if (E.isRight(validated)) return
  for (const e of validated.left as ReadonlyArray<CodedFieldError>) {
    expect(fieldErrorCodes).toContain(e.code)
    expect(e.message).toBe(fieldErrorMessage(issueOf(e)))
  }
}

describe('validate agrees with decode on values, errors and codes', () => {
  it.each(codecs)('%s, on every sample', (_, codec) => {
    for (const u of samples) validatesAsDecode(codec, u)
  })

  test.prop([fc.nat(), fc.nat()])('on samples with one member changed at any depth', (i, j) => {
    const [, codec] = codecs[i % codecs.length] as readonly [string, t.Decoder<unknown, unknown>]
    const sample = samples[j % samples.length]
    fc.assert(
      fc.property(mutated(sample), (u) => validatesAsDecode(codec, u)),
      { numRuns: 20 },
    )
  })

  test.prop([fc.anything()])('on any value', (u) => {
    for (const [, codec] of codecs) validatesAsDecode(codec, u)
  })
})

// -------------------------------------------------------------------------------------
// payment-link requests: every shape a JSON body can take
// -------------------------------------------------------------------------------------

const nonBlank = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim().length > 0)
const text = fc.string({ maxLength: 12 })
// Amounts as clients send them (cents) and any double, exact or not.
const amount = fc.oneof(
  fc.integer({ min: 0, max: 10_000_000_000 }).map((c) => c / 100),
  fc.double({ min: 0, max: 1e16, noNaN: true }),
)
const url = fc.oneof(
  fc.webUrl(),
  fc.constantFrom('http://a.b/c?d=1#e', 'https://xn--bcher-kva.example/'),
)

const skuItem = fc.record({ sku: nonBlank, quantity: fc.integer({ min: 1, max: 1000 }) })
const product = fc.record(
  {
    name: nonBlank,
    price: amount,
    requiresShipping: fc.boolean(),
    imageUrl: fc.string({ maxLength: 520 }),
  },
  { requiredKeys: ['name', 'price'] },
)
const productItem = fc.record({ product, quantity: fc.integer({ min: 1, max: 1000 }) })

const request = fc.record(
  {
    orderName: fc.string({ maxLength: 260 }),
    expirationMinutes: fc.integer({ min: 0, max: 100_000 }),
    orderReference: text,
    orderDescription: fc.option(text, { nil: null }),
    amount,
    lineItems: fc.array(fc.oneof(skuItem, productItem), { maxLength: 4 }),
    successUrl: url,
    cancelUrl: url,
    locationCode: text,
    metadata: fc.array(fc.record({ name: text, value: text }), { maxLength: 3 }),
  },
  { requiredKeys: [] },
)

/**
 * `value` with every object's keys in another order, and some with an unknown key or a
 * member given as `undefined` (deterministic in `seed`).
 */
const reshaped = (value: unknown, seed: number): unknown => {
  let state = seed | 1
  const next = (): number => {
    state = (state * 1103515245 + 12345) & 0x7fffffff
    return state
  }
  const go = (u: unknown): unknown => {
    if (Array.isArray(u)) return u.map(go)
    if (u === null || typeof u !== 'object' || Money.isMoney(u)) return u
    const entries = Object.entries(u).map(([k, v]) => [k, go(v)] as const)
    for (let i = entries.length - 1; i > 0; i--) {
      const j = next() % (i + 1)
      ;[entries[i], entries[j]] = [
        entries[j] as (typeof entries)[number],
        entries[i] as (typeof entries)[number],
      ]
    }
    const r: Record<string, unknown> = Object.fromEntries(entries)
    const roll = next() % 8
    if (roll === 0) r['extra'] = next() % 2 === 0 ? 'x' : { nested: true }
    if (roll === 1) r['orderReference'] = undefined
    if (roll === 2) r['quantity'] = undefined
    return r
  }
  return go(value)
}

// The constructor Money's decimals are made by (a clone of Decimal with its own settings).
const MoneyDecimal = Money.zero.constructor as typeof Decimal

describe('fastDecoderOf agrees with decode on payment-link requests', () => {
  const parts: ReadonlyArray<readonly [string, t.Decoder<unknown, unknown>]> = [
    ['PaymentLinkRequest', PaymentLinkRequest],
    ['LineItem', LineItem],
    ['Product', Product],
  ]

  test.prop([request, fc.integer()])('valid and invalid requests in any key order', (r, seed) => {
    const u = reshaped(r, seed)
    agrees(PaymentLinkRequest, u)
    agrees(PaymentLinkRequest, JSON.parse(JSON.stringify(u)) as unknown)
  })

  // The unrolled form reads a request given in member order; any other goes to the walk.
  test.prop([
    request,
    fc.array(fc.nat(), { maxLength: 3 }),
    fc.constantFrom('plain', 'undefined', 'hidden', 'inherited', 'nullPrototype', 'swapped'),
  ])(
    'requests in member order: members given as undefined in place, hidden, inherited, on a null prototype, or the required ones swapped',
    (r, picks, shape) => {
      const keys = Object.keys(r)
      const picked = picks
        .map((i) => keys[i % Math.max(1, keys.length)])
        .filter((k) => k !== undefined)
      let u: Record<string, unknown> = { ...r }
      if (shape === 'undefined') for (const k of picked) u[k] = undefined
      if (shape === 'hidden')
        for (const k of picked) Object.defineProperty(u, k, { enumerable: false, value: u[k] })
      if (shape === 'inherited' && picked[0] !== undefined) {
        const { [picked[0]]: member, ...own } = u
        u = Object.assign(Object.create({ [picked[0]]: member }) as object, own)
      }
      if (shape === 'nullPrototype') u = Object.assign(Object.create(null) as object, u)
      if (shape === 'swapped') {
        const { expirationMinutes, ...rest } = u
        u = { expirationMinutes, ...rest }
      }
      agrees(PaymentLinkRequest, u)
      if (shape !== 'hidden' && shape !== 'inherited')
        agrees(PaymentLinkRequest, JSON.parse(JSON.stringify(u)) as unknown)
    },
  )

  test.prop([request, fc.integer()])('their line items and products', (r, seed) => {
    const u = reshaped(r, seed) as { readonly lineItems?: ReadonlyArray<unknown> }
    for (const item of u.lineItems ?? []) {
      for (const [, codec] of parts) agrees(codec, item)
      agrees(Product, (item as { readonly product?: unknown }).product)
    }
  })

  test.prop([request.chain((r) => mutated(r))])('requests with one member changed', (u) => {
    agrees(PaymentLinkRequest, u)
  })

  test.prop([request, fc.integer()])(
    "validate gives the fast value, and io-ts's errors and codes, as decode does",
    (r, seed) => {
      validatesAsDecode(PaymentLinkRequest, reshaped(r, seed))
    },
  )

  test.prop([request.chain((r) => mutated(r))])(
    'validate gives the codes decode gives on requests with one member changed',
    (u) => {
      validatesAsDecode(PaymentLinkRequest, u)
    },
  )

  test.prop([fc.double(), fc.integer({ min: -1e12, max: 1e12 })])(
    "amounts: the Decimal decode builds is the constructor's, field for field",
    (n, cents) => {
      for (const x of [n, cents / 100]) {
        agrees(Money.MoneyFromNumber, x)
        const decoded = Money.MoneyFromNumber.decode(x)
        if (E.isRight(decoded)) expect(decoded.right).toStrictEqual(new MoneyDecimal(x))
      }
    },
  )
})

// -------------------------------------------------------------------------------------
// records that are not made like JSON's: io-ts's steps, one by one
// -------------------------------------------------------------------------------------

/** A record with a prototype of its own. */
class Body {
  readonly kind = 'body'
}

describe('fastDecoderOf agrees with decode on records not made like JSON', () => {
  const item = { sku: 'A-1', quantity: 2 }
  const product = { name: 'Mug', price: 12.5 }
  const body = { orderName: 'o', amount: 10, lineItems: [item] }
  const shapes: ReadonlyArray<readonly [string, () => unknown]> = [
    ['a null prototype', () => Object.assign(Object.create(null) as object, body)],
    ['a class instance', () => Object.assign(new Body(), body)],
    ['inherited members', () => Object.create(body) as unknown],
    [
      'a hidden member',
      () => Object.defineProperty({ ...body }, 'orderName', { value: 'p', enumerable: false }),
    ],
    ['a hidden extra key', () => Object.defineProperty({ ...item }, 'x', { value: 1 })],
    ['a symbol key', () => ({ ...product, [Symbol('s')]: 1 })],
    ['a symbol key, nothing to copy', () => ({ ...item, [Symbol('s')]: 1 })],
    ['an own __proto__ key', () => JSON.parse('{"sku":"A","quantity":1,"__proto__":{"x":1}}')],
    ['an integer-like key', () => ({ ...body, 7: 'seven' })],
    ['a member given as undefined', () => ({ ...body, orderReference: undefined })],
    ['a default given as undefined', () => ({ ...body, orderName: undefined })],
    ['an empty object', () => ({})],
  ]
  const targets: ReadonlyArray<t.Decoder<unknown, unknown>> = [
    PaymentLinkRequest,
    LineItem,
    SkuLineItem,
    Product,
    Metadata,
  ] as unknown as ReadonlyArray<t.Decoder<unknown, unknown>>

  it.each(shapes)('%s', (_, make) => {
    for (const codec of targets) agrees(codec, make())
  })

  it('an Object.prototype given enumerable keys', () => {
    const proto = Object.prototype as Record<string, unknown>
    try {
      proto['quantity'] = 3
      proto['amount'] = 5
      for (const codec of targets)
        for (const u of [{ sku: 'A' }, { orderName: 'o' }, { ...item, x: 1 }, body])
          agrees(codec, u)
    } finally {
      delete proto['quantity']
      delete proto['amount']
    }
  })

  it('io-ts combinators around the walk: exact type, partial, rules and merges', () => {
    const codecs: ReadonlyArray<t.Decoder<unknown, unknown>> = [
      t.exact(t.type({ a: t.string, d: t.union([t.undefined, t.number]) })),
      t.exact(t.partial({ a: t.string, u: t.union([t.undefined, t.literal(1)]) })),
      t.intersection([t.exact(t.type({ a: t.string })), t.exact(t.partial({ b: t.number }))]),
      t.intersection([t.exact(t.partial({ a: t.string })), t.exact(t.partial({ b: t.number }))]),
      t.intersection([t.exact(t.type({ a: t.string })), t.type({ b: t.number })]),
      t.intersection([t.exact(t.type({ a: t.string })), t.exact(t.type({ a: t.string }))]),
      t.intersection([t.exact(t.type({ a: t.string })), t.unknown]),
      t.intersection([t.exact(t.type({ a: t.string })), t.UnknownRecord]),
      t.exact(t.type({ 1: t.string, a: t.string })),
    ] as unknown as ReadonlyArray<t.Decoder<unknown, unknown>>
    const inputs: ReadonlyArray<unknown> = [
      {},
      { a: 'x' },
      { a: 'x', b: 1 },
      { b: 1, a: 'x' },
      { a: 'x', d: undefined },
      { a: 'x', u: undefined },
      { a: 'x', extra: 1 },
      { 1: 'one', a: 'x' },
      { a: 1 },
      Object.create(null) as unknown,
      [],
      'x',
    ]
    for (const codec of codecs) for (const u of inputs) agrees(codec, u)
  })
})

// -------------------------------------------------------------------------------------
// what a walk checks, and the forms it decodes inline
// -------------------------------------------------------------------------------------

/** A class whose getter is named like a member: io-ts reads it, `for...in` does not. */
class WithGetter {
  readonly quantity = 2
  get sku(): string {
    return 'FROM-GETTER'
  }
}

describe('fastDecoderOf agrees with decode on what a walk must check', () => {
  const exacts: ReadonlyArray<t.Decoder<unknown, unknown>> = [
    SkuLineItem,
    Metadata,
    Product,
    ProductLineItem,
    PaymentLinkRequest,
    t.exact(t.type({ sku: t.string, quantity: t.number })),
    t.exact(t.partial({ sku: t.string, quantity: t.number })),
    t.intersection([
      t.exact(t.type({ sku: t.string })),
      t.exact(t.partial({ quantity: t.number })),
    ]),
  ] as unknown as ReadonlyArray<t.Decoder<unknown, unknown>>
  const hidden = (o: object, key: string, value: unknown): object =>
    Object.defineProperty({ ...o }, key, { value, enumerable: false })
  const shapes: ReadonlyArray<readonly [string, () => unknown]> = [
    ['a getter of a class named like a member', () => new WithGetter()],
    [
      'a getter of a class, and the member given',
      () => Object.defineProperty(new WithGetter(), 'sku', { value: 'A', enumerable: true }),
    ],
    ['an inherited enumerable member', () => Object.create({ sku: 'A' }) as unknown],
    [
      'an inherited enumerable member after own ones',
      () => Object.assign(Object.create({ quantity: 1 }) as object, { sku: 'A' }),
    ],
    [
      'an inherited enumerable key, nothing else inherited',
      () => Object.assign(Object.create({ x: 1 }) as object, { sku: 'A', quantity: 1 }),
    ],
    ['a hidden member worth undefined', () => hidden({ sku: 'A' }, 'quantity', undefined)],
    ['a hidden member', () => hidden({ sku: 'A' }, 'quantity', 3)],
    ['a hidden key and an inherited one', () => hidden(Object.create({ y: 1 }) as object, 'x', 1)],
    [
      'one hidden key, one inherited, members given',
      () => {
        const o = Object.assign(Object.create({ y: 1 }) as object, { sku: 'A', quantity: 1 })
        return Object.defineProperty(o, 'x', { value: 1, enumerable: false })
      },
    ],
    [
      'an inherited member, and a hidden key',
      () =>
        Object.defineProperty(
          Object.assign(Object.create({ quantity: 1 }) as object, { sku: 'A' }),
          'x',
          { value: 1, enumerable: false },
        ),
    ],
    [
      'an inherited member and an inherited key',
      () => Object.assign(Object.create({ quantity: 1, x: 1 }) as object, { sku: 'A' }),
    ],
    [
      'a null prototype',
      () => Object.assign(Object.create(null) as object, { sku: 'A', quantity: 1 }),
    ],
  ]

  it.each(shapes)('%s', (_, make) => {
    for (const codec of exacts) agrees(codec, make())
  })

  it('an Object.prototype given enumerable keys, under a null-prototype record', () => {
    const proto = Object.prototype as Record<string, unknown>
    try {
      proto['polluted'] = 1
      const make = (): unknown =>
        Object.assign(Object.create(null) as object, { sku: 'A', quantity: 1, orderName: 'o' })
      for (const codec of exacts) agrees(codec, make())
    } finally {
      delete proto['polluted']
    }
  })

  it('members that change, inherited in another order', () => {
    const codec = t.exact(
      t.type({ a: Money.MoneyFromNumber, b: Money.MoneyFromNumber }),
    ) as unknown as t.Decoder<unknown, unknown>
    agrees(codec, Object.create({ b: 1, a: 2 }) as unknown)
    agrees(codec, Object.assign(Object.create({ b: 1 }) as object, { a: 2 }))
  })

  it('members named like keys of Object.prototype', () => {
    const codecs = [
      t.exact(t.partial({ constructor: t.unknown, toString: t.unknown, a: t.string })),
      t.intersection([
        t.exact(t.type({ a: t.string })),
        t.exact(t.partial({ valueOf: t.unknown, hasOwnProperty: t.unknown })),
      ]),
    ] as unknown as ReadonlyArray<t.Decoder<unknown, unknown>>
    for (const codec of codecs)
      for (const u of [{ a: 'x' }, { a: 'x', constructor: 1 }, { a: 'x', valueOf: 2 }, {}])
        agrees(codec, u)
  })

  it('the same intersection nested in itself (a recursive codec)', () => {
    interface Node {
      readonly name: string
      readonly children?: ReadonlyArray<Node>
    }
    const Node: t.Type<Node> = t.recursion('Node', () =>
      t.intersection([
        t.exact(t.type({ name: t.string })),
        t.exact(t.partial({ children: t.readonlyArray(Node) })),
      ]),
    )
    const tree = {
      children: [
        { name: 'b', x: 1 },
        { children: [{ name: 'd' }], name: 'c' },
      ],
      name: 'a',
    }
    agrees(Node as unknown as t.Decoder<unknown, unknown>, tree)
    agrees(Node as unknown as t.Decoder<unknown, unknown>, { name: 'a', children: [{}] })
  })

  it('a walk that threw leaves the next ones right', () => {
    const throwing = {
      orderName: 'o',
      get amount(): number {
        throw new Error('boom')
      },
    }
    expect(() => fastDecoderOf(PaymentLinkRequest)(throwing)).toThrow('boom')
    for (const u of samples) agrees(PaymentLinkRequest, u)
  })

  it('a merged record is a plain record', () => {
    const decoded = fastDecoderOf(PaymentLinkRequest)(S.paymentLinkFromAmount)
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype)
    expect((decoded as object).constructor).toBe(Object)
    expect({ ...(decoded as object) }).toStrictEqual(decoded)
  })
})

describe('fastDecoderOf agrees with decode on the forms a walk decodes inline', () => {
  const members = {
    name: MaxLengthString(3),
    sku: NonEmptyString,
    quantity: PositiveInt,
    label: withDefault(MaxLengthString(3), 'abc'),
    note: nullOr(MaxLengthString(3)),
    flag: withDefault(t.boolean, false),
    plain: t.string,
  }
  const codecs = [
    t.exact(t.partial(members)),
    t.exact(t.type(members)),
    t.intersection([t.exact(t.type({ id: t.number })), t.exact(t.partial(members))]),
  ] as unknown as ReadonlyArray<t.Decoder<unknown, unknown>>
  const value = fc.oneof(
    fc.constantFrom(undefined, null, 0, -1, 1, 1.5, 2 ** 53, true, '', ' ', '\u00a0x', 'x'),
    fc.string({ unit: 'binary', maxLength: 5 }),
    fc.integer(),
  )
  const record = fc.dictionary(fc.constantFrom('id', 'extra', ...Object.keys(members)), value, {
    maxKeys: 9,
  })

  test.prop([record])('members of every form, any value', (u) => {
    for (const codec of codecs) agrees(codec, u)
  })

  test.prop([value])('the decoders of the forms on their own', (u) => {
    for (const codec of Object.values(members)) agrees(codec as t.Decoder<unknown, unknown>, u)
  })

  test.prop([record])('amount or lineItems given, or given as undefined', (u) => {
    const request = { ...u, amount: u['amount'] ?? undefined, lineItems: u['lineItems'] }
    agrees(PaymentLinkRequest, request)
  })
})

describe('fastDecoderOf agrees with decode on the fast paths of the payment-link records', () => {
  /** A product read through getters of its class: io-ts reads them, they are not its own. */
  class Gifted {
    get name(): string {
      return 'Gift wrap'
    }
    get price(): number {
      return 2.5
    }
  }
  const hidden = (o: object, key: string, value: unknown): object =>
    Object.defineProperty(o, key, { value, enumerable: false })
  const product = { name: 'Mug', price: 12.5 }
  const products: ReadonlyArray<unknown> = [
    product,
    { ...product, requiresShipping: true },
    { ...product, imageUrl: 'https://img.example.com/m.png' },
    { ...product, imageUrl: 'https://img.example.com/m.png', requiresShipping: false },
    { ...product, requiresShipping: false, imageUrl: 'https://img.example.com/m.png' },
    { price: 12.5, name: 'Mug' },
    { name: 'Mug', requiresShipping: true, price: 12.5 },
    { imageUrl: 'i', name: 'Mug', price: 12.5 },
    { ...product, requiresShipping: undefined },
    { ...product, imageUrl: undefined },
    { ...product, imageUrl: 5 },
    { ...product, extra: 1 },
    { ...product, 7: 'seven' },
    { name: 'Mug' },
    {},
    hidden({ ...product }, 'requiresShipping', true),
    hidden({ ...product }, 'imageUrl', 'i'),
    hidden({ name: 'Mug' }, 'price', 12.5),
    Object.assign(Object.create({ imageUrl: 5 }) as object, product),
    Object.assign(Object.create({ requiresShipping: 'yes' }) as object, product),
    Object.assign(Object.create(null) as object, product),
    new Gifted(),
    Object.assign(new Gifted(), { requiresShipping: true }),
  ]
  const items: ReadonlyArray<unknown> = [
    { product, quantity: 1 },
    { quantity: 1, product },
    { product, quantity: 1, extra: 1 },
    hidden({ product }, 'quantity', 1),
    hidden({ quantity: 1 }, 'product', product),
    Object.assign(Object.create({ quantity: 1 }) as object, { product }),
    { sku: 'A', quantity: 1 },
    { quantity: 1, sku: 'A' },
    { sku: 'A', quantity: 1, product: undefined },
    hidden({ sku: 'A' }, 'quantity', 1),
    hidden({ sku: 'A', quantity: 1 }, 'x', 1),
    Object.assign(Object.create({ quantity: 1 }) as object, { sku: 'A' }),
    Object.assign(new WithGetter(), { quantity: 1 }),
  ]
  const entries: ReadonlyArray<unknown> = [
    { name: 'k', value: 'v' },
    { value: 'v', name: 'k' },
    { name: 'k', value: 'v', extra: 1 },
    hidden({ name: 'k' }, 'value', 'v'),
    hidden({ name: 'k', value: 'v' }, 'x', 1),
    Object.assign(Object.create({ value: 'v' }) as object, { name: 'k' }),
    { name: 'k', value: 1 },
  ]

  it.each([
    ['Product', Product, products],
    ['ProductLineItem', ProductLineItem, items],
    ['SkuLineItem', SkuLineItem, items],
    ['LineItem', LineItem, items],
    ['Metadata', Metadata, entries],
  ] as const)('%s', (_, codec, inputs) => {
    for (const u of inputs) agrees(codec as unknown as t.Decoder<unknown, unknown>, u)
  })

  it('a product under an Object.prototype given enumerable keys', () => {
    const proto = Object.prototype as Record<string, unknown>
    try {
      proto['polluted'] = 1
      for (const u of [product, Object.assign(Object.create(null) as object, product)])
        agrees(Product as unknown as t.Decoder<unknown, unknown>, u)
    } finally {
      delete proto['polluted']
    }
  })
})

describe('fastDecoderOf agrees with decode on records of any make', () => {
  const keys = [
    'sku',
    'quantity',
    'product',
    'name',
    'price',
    'requiresShipping',
    'imageUrl',
    'value',
    'orderName',
    'amount',
    'lineItems',
    'x',
  ]
  const member = fc.oneof(
    fc.constantFrom(undefined, null, 'A', '', 1, 2.5, -1, true, 'https://a.b/c'),
    fc.constant({ name: 'Mug', price: 1 }),
    fc.constant([{ sku: 'A', quantity: 1 }]),
  )
  /** Where a key goes: the record's own enumerable keys, its hidden ones, its prototype's. */
  const placed = fc.array(fc.tuple(fc.constantFrom(...keys), member, fc.nat({ max: 5 })), {
    maxLength: 7,
  })
  const made = fc.tuple(placed, fc.nat({ max: 3 })).map(([entries, make]) => {
    const proto: Record<string, unknown> = {}
    const hiddenProto: Record<string, unknown> = {}
    const prototype =
      make === 0 ? Object.prototype : make === 1 ? null : Object.create(Object.prototype)
    const u: Record<string, unknown> = Object.create(prototype) as Record<string, unknown>
    for (const [k, v, where] of entries) {
      const own = { value: v, writable: true, configurable: true }
      if (where <= 2) Object.defineProperty(u, k, { ...own, enumerable: true })
      else if (where === 3) Object.defineProperty(u, k, { ...own, enumerable: false })
      else if (where === 4) proto[k] = v
      else hiddenProto[k] = v
    }
    if (prototype !== null && prototype !== Object.prototype) {
      Object.assign(prototype as object, proto)
      for (const [k, v] of Object.entries(hiddenProto))
        Object.defineProperty(prototype as object, k, { value: v, enumerable: false })
    }
    return u
  })
  const targets = [
    PaymentLinkRequest,
    LineItem,
    SkuLineItem,
    ProductLineItem,
    Product,
    Metadata,
  ] as unknown as ReadonlyArray<t.Decoder<unknown, unknown>>

  test.prop([made], { numRuns: 500 })('own, hidden and inherited members', (u) => {
    for (const codec of targets) agrees(codec, u)
  })
})
