import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import {
  formatFieldErrors,
  fromErrorMap,
  pathOf,
  toErrorMap,
  validate,
  type FieldError,
} from '../../src/model/FieldError.js'
import { NonEmptyString, PositiveInt, withRule, failureAt } from '../../src/internal/codec.js'

const Item = t.type({ sku: t.string, product: t.type({ price: PositiveInt }) })
const Doc = t.type({
  lineItems: t.array(Item),
  metadata: t.union([t.undefined, t.array(t.type({ name: NonEmptyString }))]),
})

const lefts = <A>(e: E.Either<ReadonlyArray<FieldError>, A>): ReadonlyArray<FieldError> =>
  E.isLeft(e) ? e.left : []

describe('validate', () => {
  it('names nested fields in the spec notation', () => {
    const errors = lefts(
      validate(Doc)({
        lineItems: [
          { sku: 'a', product: { price: 1 } },
          { sku: 'b', product: { price: 2 } },
          { sku: 'c', product: { price: -1 } },
        ],
        metadata: [{ name: '' }],
      }),
    )
    expect(errors.map((e) => e.path)).toEqual(['lineItems[2].product.price', 'metadata[0].name'])
    expect(errors[0]?.message).toBe('must be a positive integer')
  })

  it('names the root with the empty path', () => {
    expect(lefts(validate(Doc)(42))).toEqual([
      { path: '', message: 'must be an object, got a number' },
    ])
  })

  it('says a missing field is required, and never echoes a value', () => {
    const secret = '4242424242424242'
    const errors = lefts(validate(t.type({ a: t.string, b: t.number }))({ b: secret }))
    expect(errors).toEqual([
      { path: 'a', message: 'is required' },
      { path: 'b', message: 'must be a number, got a string' },
    ])
    expect(JSON.stringify(errors)).not.toContain(secret)
  })

  it('gives one message for a union that failed in every branch at the field', () => {
    const Nullable = t.type({ description: t.union([t.string, t.null]) })
    expect(lefts(validate(Nullable)({ description: 3 }))).toEqual([
      { path: 'description', message: 'must be a string or null, got a number' },
    ])
  })

  it('leaves out intersection branches, also when wrapped in t.exact or a rule', () => {
    const Both = t.intersection([t.type({ a: t.string }), t.partial({ b: PositiveInt })])
    const Wrapped = withRule(t.exact(Both), () => [])
    for (const codec of [Both, t.exact(Both), Wrapped]) {
      expect(lefts(validate(codec)({ a: 1, b: 0 })).map((e) => e.path)).toEqual(['a', 'b'])
    }
  })

  it('describes the expected value in words, not by codec name', () => {
    const Bounded = t.type({ name: NonEmptyString, status: t.keyof({ PAID: null, PENDING: null }) })
    expect(lefts(validate(Bounded)({ name: null, status: 3 }))).toEqual([
      { path: 'name', message: 'must be a string, got null' },
      { path: 'status', message: 'must be one of PAID, PENDING, got a number' },
    ])
  })

  it('places a cross-field rule at the field it concerns', () => {
    const Rule = withRule(t.type({ a: t.number, b: t.number }), (v, u, c) =>
      v.a > v.b ? [failureAt(u, c, ['b'], 'must be at least a')] : [],
    )
    expect(lefts(validate(Rule)({ a: 2, b: 1 }))).toEqual([
      { path: 'b', message: 'must be at least a' },
    ])
  })

  it('turns a throwing getter into a root error instead of an exception', () => {
    const input = Object.defineProperty({}, 'lineItems', {
      enumerable: true,
      get: () => {
        throw new Error('boom')
      },
    })
    expect(lefts(validate(Doc)(input))[0]?.path).toBe('')
  })

  it('accepts cyclic input without looping', () => {
    const cyclic: Record<string, unknown> = { lineItems: [] }
    cyclic['self'] = cyclic
    expect(E.isRight(validate(Doc)(cyclic))).toBe(true)
  })

  test.prop([
    fc.anything({ withBigInt: true, withMap: true, withSet: true, withTypedArray: true }),
  ])('never throws, and every error has a path string and a message', (input) => {
    const result = validate(Doc)(input)
    for (const e of lefts(result)) {
      expect(typeof e.path).toBe('string')
      expect(e.message.length).toBeGreaterThan(0)
    }
  })
})

describe('error maps', () => {
  test.prop([
    fc.array(
      fc.record({
        path: fc.constantFrom('', 'amount', 'lineItems[0].sku', 'card.number'),
        message: fc.string({ minLength: 1 }),
      }),
    ),
  ])('fromErrorMap inverts toErrorMap up to grouping by field', (errors) => {
    const back = fromErrorMap(toErrorMap(errors))
    expect([...back].sort(byKey)).toEqual([...errors].sort(byKey))
  })

  it('groups messages by field and names the root $', () => {
    expect(
      toErrorMap([
        { path: 'amount', message: 'is required' },
        { path: 'amount', message: 'must be > 0' },
        { path: '', message: 'x' },
      ]),
    ).toEqual({ amount: ['is required', 'must be > 0'], $: ['x'] })
  })

  it('formats for a person', () => {
    expect(
      formatFieldErrors([
        { path: 'card.number', message: 'fails the Luhn check' },
        { path: '', message: 'must be an object' },
      ]),
    ).toBe('card.number: fails the Luhn check; must be an object')
  })
})

describe('pathOf', () => {
  it('quotes keys that are not identifiers', () => {
    expect(
      pathOf([
        { key: '', type: t.unknown, actual: {} },
        { key: 'a b', type: t.unknown, actual: 1 },
      ]),
    ).toBe('["a b"]')
  })
})

const byKey = (a: FieldError, b: FieldError): number =>
  `${a.path}\u0000${a.message}` < `${b.path}\u0000${b.message}` ? -1 : 1
