import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import {
  fieldError,
  fieldErrorCodes,
  fieldErrorMessage,
  formatFieldErrors,
  fromErrorMap,
  issueOf,
  pathOf,
  toErrorMap,
  validate,
  type CodedFieldError,
  type FieldError,
  type FieldErrorCode,
  type FieldIssue,
  type ValueKind,
} from '../../src/model/FieldError.js'
import {
  IsoDateTime,
  NonEmptyString,
  PositiveInt,
  withRule,
  failureAt,
} from '../../src/internal/codec.js'
import {
  ChargeRequest,
  ChargeResponse,
  CountryCode,
  chargeRequestFor,
} from '../../src/model/Charge.js'
import * as Json from '../../src/model/Json.js'
import * as Money from '../../src/model/Money.js'
import { Locale, TimeZone } from '../../src/model/Order.js'
import {
  LineItem,
  PaymentLinkRequest,
  PaymentLinkResponse,
  catalogue,
  paymentLinkRequestFor,
} from '../../src/model/PaymentLink.js'
import {
  CardNumber,
  Cvv,
  ExpirationMonth,
  ExpirationYear,
  cardAt,
} from '../../src/model/PaymentMethod.js'
import { TokenRequest } from '../../src/model/Token.js'
import * as S from '../conformance/samples.js'

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
      {
        path: '',
        message: 'must be an object, got a number',
        code: 'type',
        expected: ['object'],
        received: 'number',
      },
    ])
  })

  it('says a missing field is required, and never echoes a value', () => {
    const secret = '4242424242424242'
    const errors = lefts(validate(t.type({ a: t.string, b: t.number }))({ b: secret }))
    expect(errors).toEqual([
      { path: 'a', message: 'is required', code: 'required' },
      {
        path: 'b',
        message: 'must be a number, got a string',
        code: 'type',
        expected: ['number'],
        received: 'string',
      },
    ])
    expect(JSON.stringify(errors)).not.toContain(secret)
  })

  it('gives one message for a union that failed in every branch at the field', () => {
    const Nullable = t.type({ description: t.union([t.string, t.null]) })
    expect(lefts(validate(Nullable)({ description: 3 }))).toEqual([
      {
        path: 'description',
        message: 'must be a string or null, got a number',
        code: 'type',
        expected: ['string', 'null'],
        received: 'number',
      },
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
      {
        path: 'name',
        message: 'must be a string, got null',
        code: 'type',
        expected: ['string'],
        received: 'null',
      },
      {
        path: 'status',
        message: 'must be one of PAID, PENDING',
        code: 'oneOf',
        values: ['PAID', 'PENDING'],
      },
    ])
    const Literal = t.type({ status: t.literal(400) })
    expect(lefts(validate(Literal)({ status: 500 }))).toEqual([
      { path: 'status', message: 'must be 400', code: 'oneOf', values: [400] },
    ])
  })

  it("keeps another codec's own message under the code invalid", () => {
    const Own = new t.Type<string, string, unknown>(
      'Own',
      t.string.is,
      (u, c) => (u === 'ok' ? t.success(u) : t.failure(u, c, 'is not ok')),
      t.identity,
    )
    expect(lefts(validate(t.type({ a: Own }))({ a: 'no' }))).toEqual([
      { path: 'a', message: 'is not ok', code: 'invalid' },
    ])
    // an io-ts refinement names no rule: the value has the right kind, so it is invalid
    const Positive = t.refinement(t.number, (n) => n > 0)
    expect(lefts(validate(t.type({ n: Positive }))({ n: -1 }))).toEqual([
      { path: 'n', message: 'is not valid', code: 'invalid' },
    ])
  })

  it('places a cross-field rule at the field it concerns', () => {
    const Rule = withRule(t.type({ a: t.number, b: t.number }), (v, u, c) =>
      v.a > v.b ? [failureAt(u, c, ['b'], { code: 'minimum', minimum: v.a, inclusive: true })] : [],
    )
    expect(lefts(validate(Rule)({ a: 2, b: 1 }))).toEqual([
      {
        path: 'b',
        message: 'must be greater than or equal to 2',
        code: 'minimum',
        minimum: 2,
        inclusive: true,
      },
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
  ])('never throws, and every error has a path string, a message and a code', (input) => {
    const result = validate(Doc)(input)
    for (const e of lefts(result)) {
      expect(typeof e.path).toBe('string')
      expect(e.message.length).toBeGreaterThan(0)
      expect(fieldErrorCodes).toContain(e.code)
    }
  })
})

describe('fieldError', () => {
  test.prop([fc.constantFrom('', 'amount', 'lineItems[0].sku'), issue])(
    "writes the path, the message, then the issue's members in its order",
    (path, i) => {
      const e = fieldError(path, i)
      expect(JSON.stringify(e)).toBe(JSON.stringify({ path, message: fieldErrorMessage(i), ...i }))
    },
  )

  it('has an issue of every code to check against', () => {
    const codes = new Set(fc.sample(issue, 5_000).map((i) => i.code))
    expect([...fieldErrorCodes].filter((c) => !codes.has(c))).toEqual([])
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
    const back = fromErrorMap(toErrorMap(errors)).map(({ path, message }) => ({ path, message }))
    expect([...back].sort(byKey)).toEqual([...errors].sort(byKey))
  })

  test.prop([fc.array(fc.tuple(fc.constantFrom('', 'amount', 'card.number'), issue))])(
    'fromErrorMap gives back the codes of errors in the core words',
    (located) => {
      const errors = located.map(([path, i]) => fieldError(path, i))
      const back = fromErrorMap(toErrorMap(errors))
      expect([...back].sort(byKey)).toEqual([...errors].sort(byKey))
    },
  )

  it('reads a message in other words as invalid, keeping it', () => {
    expect(fromErrorMap({ email: ['looks odd'], amount: ['must be > 0'] })).toEqual([
      { path: 'email', message: 'looks odd', code: 'invalid' },
      { path: 'amount', message: 'must be > 0', code: 'invalid' },
    ])
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
        fieldError('card.number', { code: 'luhn' }),
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

// -------------------------------------------------------------------------------------
// codes
// -------------------------------------------------------------------------------------

const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,11}$/)
const kind: fc.Arbitrary<ValueKind> = fc.constantFrom(
  'string',
  'number',
  'boolean',
  'object',
  'array',
  'null',
  'undefined',
  'bigint',
  'symbol',
  'function',
)
const count = fc.integer({ min: 0, max: 100_000 })
const fields = fc.uniqueArray(word, { minLength: 2, maxLength: 3 })

/** Any issue with parameters as the core's rules give them. */
const issue: fc.Arbitrary<FieldIssue> = fc.oneof(
  fc.constantFrom(
    ...(
      [
        'required',
        'positiveInt',
        'integer',
        'finite',
        'url',
        'dateTime',
        'locale',
        'timeZone',
        'countryCode',
        'digits',
        'luhn',
        'expiryMonth',
        'expiryYear',
        'cvv',
        'expired',
        'notInCatalogue',
        'json',
        'unreadable',
        'invalid',
      ] as const
    ).map((code) => ({ code })),
  ),
  fc.record({
    code: fc.constant('type' as const),
    expected: fc.uniqueArray(kind, { minLength: 1, maxLength: 3 }),
    received: kind,
  }),
  fc.record({
    code: fc.constant('oneOf' as const),
    values: fc.oneof(
      fc.uniqueArray(word, { minLength: 2, maxLength: 4 }),
      fc.oneof(fc.string(), fc.integer(), fc.boolean()).map((v) => [v]),
    ),
  }),
  fc.record({ code: fc.constant('maxLength' as const), maximum: count }),
  fc.record({ code: fc.constant('minItems' as const), minimum: count.map((n) => n + 1) }),
  fc.record({
    code: fc.constant('minimum' as const),
    // -0 is written as 0
    minimum: fc
      .oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))
      .map((n) => n + 0),
    inclusive: fc.boolean(),
  }),
  fc.record({ code: fc.constant('digitCount' as const), minimum: count, maximum: count }),
  fc.record({ code: fc.constant('declined' as const), reason: word }),
  fc.record({ code: fc.constant('requiredForCountry' as const), countries: fields }),
  fc.record({ code: fc.constant('nullForStatus' as const), status: word }),
  fc.record({ code: fc.constant('atLeastOne' as const), fields }),
  fc.record({ code: fc.constant('exactlyOne' as const), fields }),
  fc.record({ code: fc.constant('exclusive' as const), fields }),
  fc.record({
    code: fc.constant('mismatch' as const),
    total: fc.integer({ min: 0, max: 10 ** 9 }).map((c) => Money.toString(Money.fromCents(c))),
  }),
  fc.record({
    code: fc.constant('notFound' as const),
    resource: fc.constantFrom('payment method', 'order'),
  }),
)

const FUTURE = String(new Date().getUTCFullYear() + 2)
const card = {
  number: '4242424242424242',
  expirationMonth: '12',
  expirationYear: FUTURE,
  cvv: '123',
}
const hostile = Object.defineProperty({}, 'clientId', {
  enumerable: true,
  get: () => {
    throw new Error('boom')
  },
})
const check = <A, O>(codec: t.Type<A, O, unknown>, u: unknown): ReadonlyArray<FieldError> =>
  lefts(validate(codec)(u))

// Each rule of the core, the input that breaks it, and the error it gives (the code,
// its parameters and the code's one wording). A code a service gives (not a codec) is
// made with `fieldError`, as the sandbox does.
const rules: ReadonlyArray<readonly [string, () => ReadonlyArray<FieldError>, CodedFieldError]> = [
  [
    'a missing field',
    () => check(TokenRequest, { clientId: 'id' }),
    { path: 'clientSecret', message: 'is required', code: 'required' },
  ],
  [
    'an empty field',
    () => check(TokenRequest, { clientId: ' ', clientSecret: 's' }),
    { path: 'clientId', message: 'is required', code: 'required' },
  ],
  [
    'an amount given as a string',
    () => check(ChargeRequest, { order: { id: 'o', amount: '25.50' }, cardId: 'pm' }),
    {
      path: 'order.amount',
      message: 'must be a number, got a string',
      code: 'type',
      expected: ['number'],
      received: 'string',
    },
  ],
  [
    'a quantity given as a string (the same wording as an amount)',
    () => check(PaymentLinkRequest, { lineItems: [{ sku: 'A', quantity: '2' }] }),
    {
      path: 'lineItems[0].quantity',
      message: 'must be a number, got a string',
      code: 'type',
      expected: ['number'],
      received: 'string',
    },
  ],
  [
    'a request that is not an object',
    () => check(ChargeRequest, []),
    {
      path: '',
      message: 'must be an object, got an array',
      code: 'type',
      expected: ['object'],
      received: 'array',
    },
  ],
  [
    'a status not of the list',
    () => check(ChargeResponse, { ...S.chargeFailed, status: 'PENDING' }),
    {
      path: 'status',
      message: 'must be one of FAILED, SUCCEEDED, AUTHENTICATION_REQUIRED',
      code: 'oneOf',
      values: ['FAILED', 'SUCCEEDED', 'AUTHENTICATION_REQUIRED'],
    },
  ],
  [
    'a name too long',
    () => check(PaymentLinkRequest, { amount: 1, orderName: 'x'.repeat(256) }),
    {
      path: 'orderName',
      message: 'must be at most 255 characters',
      code: 'maxLength',
      maximum: 255,
    },
  ],
  [
    'no line item',
    () => check(PaymentLinkRequest, { lineItems: [] }),
    { path: 'lineItems', message: 'must have at least one item', code: 'minItems', minimum: 1 },
  ],
  [
    'an amount of 0',
    () => check(PaymentLinkRequest, { amount: 0 }),
    {
      path: 'amount',
      message: 'must be greater than 0',
      code: 'minimum',
      minimum: 0,
      inclusive: false,
    },
  ],
  [
    'a negative price',
    () =>
      check(PaymentLinkRequest, {
        lineItems: [{ product: { name: 'p', price: -1 }, quantity: 1 }],
      }),
    {
      path: 'lineItems[0].product.price',
      message: 'must be greater than or equal to 0',
      code: 'minimum',
      minimum: 0,
      inclusive: true,
    },
  ],
  [
    'a quantity of 0',
    () => check(PaymentLinkRequest, { lineItems: [{ sku: 'A', quantity: 0 }] }),
    { path: 'lineItems[0].quantity', message: 'must be a positive integer', code: 'positiveInt' },
  ],
  [
    'an order id with a fraction',
    () => check(PaymentLinkResponse, { ...S.paymentLinkResponse, orderId: 1.5 }),
    { path: 'orderId', message: 'must be an integer', code: 'integer' },
  ],
  [
    'an amount that is not finite',
    () => check(Money.MoneyFromNumber, Number.POSITIVE_INFINITY),
    { path: '', message: 'must be a finite number', code: 'finite' },
  ],
  [
    'a relative URL',
    () => check(PaymentLinkRequest, { amount: 1, successUrl: '/thanks' }),
    { path: 'successUrl', message: 'must be an absolute http(s) URL', code: 'url' },
  ],
  [
    'a date without time',
    () => check(IsoDateTime, '2026-11-24'),
    {
      path: '',
      message: 'must be an ISO 8601 UTC date-time with fractional seconds and Z',
      code: 'dateTime',
    },
  ],
  [
    'a locale with a hyphen',
    () => check(Locale, 'es-CR'),
    {
      path: '',
      message: 'must be a locale of the form language_COUNTRY (e.g. es_CR)',
      code: 'locale',
    },
  ],
  [
    'an offset for a time zone',
    () => check(TimeZone, '-06:00'),
    {
      path: '',
      message: 'must be an IANA time zone name (e.g. America/Costa_Rica or UTC)',
      code: 'timeZone',
    },
  ],
  [
    'a country name',
    () => check(CountryCode, 'Costa Rica'),
    { path: '', message: 'must be an ISO 3166 alpha-2 or alpha-3 code', code: 'countryCode' },
  ],
  [
    'a card number with dashes',
    () => check(CardNumber, '4242-4242-4242-4242'),
    { path: '', message: 'must contain only digits (and spaces)', code: 'digits' },
  ],
  [
    'a short card number',
    () => check(CardNumber, '4242 4242'),
    {
      path: '',
      message: 'must have 12 to 19 digits',
      code: 'digitCount',
      minimum: 12,
      maximum: 19,
    },
  ],
  [
    'a card number off by one',
    () => check(CardNumber, '4242424242424241'),
    { path: '', message: 'fails the Luhn check', code: 'luhn' },
  ],
  [
    'month 13',
    () => check(ExpirationMonth, '13'),
    { path: '', message: 'must be two digits from 01 to 12', code: 'expiryMonth' },
  ],
  [
    'a two-digit year',
    () => check(ExpirationYear, '30'),
    { path: '', message: 'must be four digits', code: 'expiryYear' },
  ],
  [
    'a two-digit CVV',
    () => check(Cvv, '12'),
    { path: '', message: 'must be 3 or 4 digits', code: 'cvv' },
  ],
  [
    'a card of last year',
    () => check(cardAt(new Date(`${FUTURE}-01-01T00:00:00Z`)), { ...card, expirationYear: '2020' }),
    { path: 'expirationYear', message: 'the card has expired', code: 'expired' },
  ],
  [
    'a declined card (a service rule)',
    () => [fieldError('card', { code: 'declined', reason: 'CARD_DECLINED' })],
    {
      path: 'card',
      message: 'the card was declined (CARD_DECLINED)',
      code: 'declined',
      reason: 'CARD_DECLINED',
    },
  ],
  [
    'a USA card without billingInfo',
    () => check(chargeRequestFor(S.paymentMethod('USA')), S.chargeRequest),
    {
      path: 'billingInfo',
      message: 'is required when the card issuer is in USA or CAN',
      code: 'requiredForCountry',
      countries: ['USA', 'CAN'],
    },
  ],
  [
    'an error in a SUCCEEDED charge',
    () => check(ChargeResponse, { ...S.chargeSucceeded, error: S.chargeFailed.error }),
    {
      path: 'error',
      message: 'must be null when status is SUCCEEDED',
      code: 'nullForStatus',
      status: 'SUCCEEDED',
    },
  ],
  [
    'neither amount nor lineItems',
    () => check(PaymentLinkRequest, {}).slice(0, 1),
    {
      path: 'amount',
      message: 'amount or lineItems is required (give at least one)',
      code: 'atLeastOne',
      fields: ['amount', 'lineItems'],
    },
  ],
  [
    'neither sku nor product',
    () => check(LineItem, { quantity: 1 }).slice(0, 1),
    {
      path: 'sku',
      message: 'sku or product is required (give exactly one)',
      code: 'exactlyOne',
      fields: ['sku', 'product'],
    },
  ],
  [
    'both sku and product',
    () => check(LineItem, { sku: 'A', product: { name: 'p', price: 1 }, quantity: 1 }),
    {
      path: 'sku',
      message: 'must not be given together with product (give exactly one of sku or product)',
      code: 'exclusive',
      fields: ['sku', 'product'],
    },
  ],
  [
    'an unknown sku',
    () =>
      check(paymentLinkRequestFor(catalogue(new Map())), {
        lineItems: [{ sku: 'A', quantity: 1 }],
      }),
    {
      path: 'lineItems[0].sku',
      message: 'is not a product of the catalogue',
      code: 'notInCatalogue',
    },
  ],
  [
    'an amount that is not the total',
    () =>
      check(paymentLinkRequestFor(catalogue(new Map([['A', Money.fromCents(850)]]))), {
        amount: 20,
        lineItems: [{ sku: 'A', quantity: 2 }],
      }),
    {
      path: 'amount',
      message: 'must equal the line-item total (17)',
      code: 'mismatch',
      total: '17',
    },
  ],
  [
    'an unknown payment method (a service rule)',
    () => [fieldError('cardId', { code: 'notFound', resource: 'payment method' })],
    {
      path: 'cardId',
      message: 'is not a payment method of this service',
      code: 'notFound',
      resource: 'payment method',
    },
  ],
  [
    'text that is not JSON',
    () => lefts(Json.parse(TokenRequest)('{"clientId":')),
    { path: '', message: 'must be JSON text', code: 'json' },
  ],
  [
    'a property that throws',
    () => check(TokenRequest, hostile),
    {
      path: '',
      message: 'could not be read (a property threw while it was read)',
      code: 'unreadable',
    },
  ],
  [
    "another codec's own failure",
    () =>
      check(
        t.refinement(t.number, (n) => n > 0),
        0,
      ),
    { path: '', message: 'is not valid', code: 'invalid' },
  ],
]

describe('codes', () => {
  it.each(rules)('%s gives its code, parameters and wording', (_, errors, expected) => {
    expect(errors()).toEqual([expected])
  })

  it('every code is given by a rule above', () => {
    const given = new Set(rules.map(([, , e]) => e.code))
    expect([...fieldErrorCodes].filter((c) => !given.has(c))).toEqual([])
  })

  it('lists each code once', () => {
    expect(new Set(fieldErrorCodes).size).toBe(fieldErrorCodes.length)
  })

  test.prop([issue])('a message reads back as the issue that words it', (i) => {
    expect(issueOf({ path: 'x', message: fieldErrorMessage(i) })).toEqual(i)
  })

  test.prop([issue])('fieldError words the issue and keeps it', (i) => {
    const error = fieldError('a.b', i)
    expect(error.message).toBe(fieldErrorMessage(i))
    expect(issueOf(error)).toEqual(i)
  })

  test.prop([fc.string()])('any other message reads back as invalid, or words its issue', (m) => {
    const read = issueOf({ path: '', message: m })
    if (read.code !== 'invalid') expect(fieldErrorMessage(read)).toBe(m)
  })

  it('the type says which codes have which parameters', () => {
    const e: FieldError = fieldError('orderName', { code: 'maxLength', maximum: 255 })
    const limit = e.code === 'maxLength' ? e.maximum : undefined
    expect(limit).toBe(255)
    const codes: ReadonlyArray<FieldErrorCode> = fieldErrorCodes
    expect(codes).toContain('maxLength')
  })
})

const byKey = (a: FieldError, b: FieldError): number =>
  `${a.path}\u0000${a.message}` < `${b.path}\u0000${b.message}` ? -1 : 1
