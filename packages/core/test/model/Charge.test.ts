import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import {
  ChargeRequest,
  ChargeResponse,
  chargeRequestFor,
  requiresBillingInfo,
} from '../../src/model/Charge.js'
import { validate } from '../../src/model/FieldError.js'

const paths = (r: E.Either<ReadonlyArray<{ path: string }>, unknown>): ReadonlyArray<string> =>
  E.isLeft(r) ? r.left.map((e) => e.path) : []

const roundTrips = <A, O>(codec: t.Type<A, O, unknown>, input: unknown): void => {
  const once = validate(codec)(input)
  expect(E.isRight(once)).toBe(true)
  if (E.isRight(once)) expect(validate(codec)(codec.encode(once.right))).toEqual(once)
}

const nonBlank = fc.string({ minLength: 1 }).filter((s) => s.trim().length > 0)
const positiveAmount = fc.integer({ min: 1, max: 100_000_000_000 }).map((cents) => cents / 100)
const createdAt = fc
  .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString())

// -------------------------------------------------------------------------------------
// request
// -------------------------------------------------------------------------------------

const sampleRequest = {
  order: { id: 'ORD-1001', amount: 25.5, description: 'Two coffees', name: 'Coffee order' },
  cardId: 'pm_8f3a',
  authenticationId: null,
  billingInfo: { countryCode: 'USA', stateCode: 'CA', zipCode: '94105' },
}

const { billingInfo: _billing, ...withoutBilling } = sampleRequest

const validChargeRequest = fc.record(
  {
    order: fc.record(
      { id: nonBlank, amount: positiveAmount, description: fc.string(), name: fc.string() },
      { requiredKeys: ['id', 'amount'] },
    ),
    cardId: nonBlank,
    authenticationId: fc.option(nonBlank, { nil: null }),
    billingInfo: fc.record({
      countryCode: fc.stringMatching(/^[A-Z]{2,3}$/),
      stateCode: nonBlank,
      zipCode: nonBlank,
    }),
  },
  { requiredKeys: ['order', 'cardId'] },
)

describe('ChargeRequest', () => {
  it('decodes the spec sample shape and encodes it back to the same JSON', () => {
    const r = validate(ChargeRequest)(sampleRequest)
    expect(E.isRight(r)).toBe(true)
    if (E.isRight(r)) {
      expect(r.right.order.amount.toFixed()).toBe('25.5')
      expect(ChargeRequest.encode(r.right)).toEqual(sampleRequest)
    }
  })

  it('reads an absent authenticationId as null and strips unknown fields', () => {
    const r = validate(ChargeRequest)({
      order: { id: 'o', amount: 1, secret: 'x' },
      cardId: 'pm',
      extra: true,
    })
    expect(E.map(ChargeRequest.encode)(r)).toEqual(
      E.right({ order: { id: 'o', amount: 1 }, cardId: 'pm', authenticationId: null }),
    )
  })

  it('decodes billingInfo.countryCode upper-case, alpha-2 or alpha-3', () => {
    const r = validate(ChargeRequest)({
      ...sampleRequest,
      billingInfo: { countryCode: 'us', stateCode: 'NY', zipCode: '10001' },
    })
    expect(E.map((a: ChargeRequest) => a.billingInfo?.countryCode)(r)).toEqual(E.right('US'))
  })

  it.each<[string, Record<string, unknown>, string]>([
    ['order.amount 0', { order: { id: 'o', amount: 0 } }, 'order.amount'],
    ['order.amount negative', { order: { id: 'o', amount: -5 } }, 'order.amount'],
    ['order.amount a string', { order: { id: 'o', amount: '5' } }, 'order.amount'],
    ['order.id missing', { order: { amount: 5 } }, 'order.id'],
    ['order.id blank', { order: { id: ' ', amount: 5 } }, 'order.id'],
    [
      'order.description a number',
      { order: { id: 'o', amount: 5, description: 1 } },
      'order.description',
    ],
    ['order missing', { order: undefined }, 'order'],
    ['cardId empty', { cardId: '' }, 'cardId'],
    ['authenticationId empty', { authenticationId: '' }, 'authenticationId'],
    ['authenticationId a number', { authenticationId: 5 }, 'authenticationId'],
    [
      'billingInfo.countryCode of four letters',
      { billingInfo: { countryCode: 'USAA', stateCode: 'CA', zipCode: '1' } },
      'billingInfo.countryCode',
    ],
    [
      'billingInfo.countryCode digits',
      { billingInfo: { countryCode: '84', stateCode: 'CA', zipCode: '1' } },
      'billingInfo.countryCode',
    ],
    [
      'billingInfo.stateCode empty',
      { billingInfo: { countryCode: 'US', stateCode: '', zipCode: '1' } },
      'billingInfo.stateCode',
    ],
    [
      'billingInfo.zipCode missing',
      { billingInfo: { countryCode: 'US', stateCode: 'CA' } },
      'billingInfo.zipCode',
    ],
    ['billingInfo a string', { billingInfo: 'US' }, 'billingInfo'],
  ])('refuses %s naming that field only', (_, patch, path) => {
    expect(paths(validate(ChargeRequest)({ ...sampleRequest, ...patch }))).toEqual([path])
  })

  it('refuses an amount that is not greater than 0 with a readable message', () => {
    expect(validate(ChargeRequest)({ ...sampleRequest, order: { id: 'o', amount: 0 } })).toEqual(
      E.left([
        {
          path: 'order.amount',
          message: 'must be greater than 0',
          code: 'minimum',
          minimum: 0,
          inclusive: false,
        },
      ]),
    )
  })

  it('does not require billingInfo without the issuer rule', () => {
    expect(E.isRight(validate(ChargeRequest)(withoutBilling))).toBe(true)
  })

  it('reads billingInfo null as absent (JSON clients send null for an unused field)', () => {
    expect(validate(ChargeRequest)({ ...withoutBilling, billingInfo: null })).toEqual(
      validate(ChargeRequest)(withoutBilling),
    )
    expect(
      E.isRight(
        validate(chargeRequestFor({ bin: { countryCode: 'CRI' } }))({
          ...withoutBilling,
          billingInfo: null,
        }),
      ),
    ).toBe(true)
    expect(
      paths(
        validate(chargeRequestFor({ bin: { countryCode: 'USA' } }))({
          ...withoutBilling,
          billingInfo: null,
        }),
      ),
    ).toEqual(['billingInfo'])
  })

  test.prop([validChargeRequest])('valid requests decode Right', (req) => {
    expect(E.isRight(validate(ChargeRequest)(req))).toBe(true)
  })

  test.prop([validChargeRequest])('decode . encode . decode = decode', (req) =>
    roundTrips(ChargeRequest, req),
  )

  test.prop([fc.anything()])('validate never throws; every Left names a path', (u) => {
    const r = validate(ChargeRequest)(u)
    if (E.isLeft(r)) for (const e of r.left) expect(typeof e.path).toBe('string')
  })
})

describe('chargeRequestFor (billingInfo rule)', () => {
  const pm = (countryCode: string) => ({ bin: { countryCode } })

  it.each(['USA', 'CAN', 'usa'])('requires billingInfo for a card issued in %s', (country) => {
    expect(validate(chargeRequestFor(pm(country)))(withoutBilling)).toEqual(
      E.left([
        {
          path: 'billingInfo',
          message: 'is required when the card issuer is in USA or CAN',
          code: 'requiredForCountry',
          countries: ['USA', 'CAN'],
        },
      ]),
    )
    expect(E.isRight(validate(chargeRequestFor(pm(country)))(sampleRequest))).toBe(true)
  })

  it.each(['CRI', 'MEX', 'US', 'CA'])('does not require it for %s', (country) => {
    expect(E.isRight(validate(chargeRequestFor(pm(country)))(withoutBilling))).toBe(true)
  })

  it('names billingInfo together with another broken field', () => {
    expect(paths(validate(chargeRequestFor(pm('USA')))({ ...withoutBilling, cardId: '' }))).toEqual(
      ['cardId', 'billingInfo'],
    )
  })

  it('still checks the fields of a given billingInfo', () => {
    expect(
      paths(
        validate(chargeRequestFor(pm('CAN')))({
          ...sampleRequest,
          billingInfo: { countryCode: 'CA', stateCode: 'ON', zipCode: '' },
        }),
      ),
    ).toEqual(['billingInfo.zipCode'])
  })

  it('requiresBillingInfo reads bin.countryCode', () => {
    expect(requiresBillingInfo(pm('USA'))).toBe(true)
    expect(requiresBillingInfo(pm('CAN'))).toBe(true)
    expect(requiresBillingInfo(pm('CRI'))).toBe(false)
  })

  test.prop([validChargeRequest, fc.constantFrom('USA', 'CAN')])(
    'a valid request with billingInfo passes the rule and round-trips',
    (req, country) => {
      roundTrips(chargeRequestFor(pm(country)), { ...req, billingInfo: sampleRequest.billingInfo })
    },
  )
})

// -------------------------------------------------------------------------------------
// response
// -------------------------------------------------------------------------------------

const failed = {
  status: 'FAILED',
  message: 'Charge under review',
  error: { code: 'FRAUD_PREVENT', message: 'The charge is under review' },
  authentication: null,
  order: null,
  createdAt: '2026-11-22T00:10:00.123Z',
}

const succeeded = {
  status: 'SUCCEEDED',
  message: 'Charge succeeded',
  error: null,
  authentication: null,
  order: {
    id: 'ch_123',
    reference: 'ORD-1001',
    amount: 25.5,
    currency: 'USD',
    authorizationCode: 'A1B2C3',
  },
  createdAt: '2026-11-22T00:10:00.123Z',
}

const authenticationRequired = {
  status: 'AUTHENTICATION_REQUIRED',
  message: 'Authentication required',
  error: null,
  authentication: { url: 'https://sandbox.example/3ds/auth_1', id: 'auth_1' },
  order: null,
  createdAt: '2026-11-22T00:10:00.123456Z',
}

const samples = {
  FAILED: failed,
  SUCCEEDED: succeeded,
  AUTHENTICATION_REQUIRED: authenticationRequired,
}
const nonNull = {
  FAILED: 'error',
  SUCCEEDED: 'order',
  AUTHENTICATION_REQUIRED: 'authentication',
} as const
const nullable = ['error', 'authentication', 'order'] as const
/** A well-formed non-null value of each nullable field (from the status that has it). */
const filled = {
  error: failed.error,
  authentication: authenticationRequired.authentication,
  order: succeeded.order,
}
type Status = keyof typeof samples

const validResponse = fc.oneof(
  fc.record({
    status: fc.constant('FAILED'),
    message: fc.string(),
    error: fc.record({ code: fc.string(), message: fc.string() }),
    authentication: fc.constant(null),
    order: fc.constant(null),
    createdAt,
  }),
  fc.record({
    status: fc.constant('SUCCEEDED'),
    message: fc.string(),
    error: fc.constant(null),
    authentication: fc.constant(null),
    order: fc.record({
      id: fc.string(),
      reference: fc.string(),
      amount: positiveAmount,
      currency: fc.string(),
      authorizationCode: fc.string(),
    }),
    createdAt,
  }),
  fc.record({
    status: fc.constant('AUTHENTICATION_REQUIRED'),
    message: fc.string(),
    error: fc.constant(null),
    authentication: fc.record({
      url: fc.webUrl(),
      id: nonBlank,
    }),
    order: fc.constant(null),
    createdAt,
  }),
)

describe('ChargeResponse', () => {
  it.each(Object.entries(samples))('decodes the spec shape of %s', (status, sample) => {
    const r = validate(ChargeResponse)(sample)
    expect(E.map((a: ChargeResponse) => a.status)(r)).toEqual(E.right(status))
    expect(E.map(ChargeResponse.encode)(r)).toEqual(E.right(sample))
  })

  it('tolerates unknown fields', () => {
    expect(E.isRight(validate(ChargeResponse)({ ...succeeded, livemode: false }))).toBe(true)
  })

  const nullCases = (Object.keys(samples) as Array<Status>).flatMap((status) =>
    nullable.filter((field) => field !== nonNull[status]).map((field) => [status, field] as const),
  )

  it.each(nullCases)('with %s, a non-null %s fails naming that field', (status, field) => {
    expect(validate(ChargeResponse)({ ...samples[status], [field]: filled[field] })).toEqual(
      E.left([
        {
          path: field,
          message: `must be null when status is ${status}`,
          code: 'nullForStatus',
          status,
        },
      ]),
    )
  })

  it.each(nullCases)('with %s, an absent %s fails naming that field', (status, field) => {
    const { [field]: _, ...rest } = samples[status]
    expect(paths(validate(ChargeResponse)(rest))).toEqual([field])
  })

  it.each(Object.entries(nonNull))(
    'with %s, a null %s fails naming that field',
    (status, field) => {
      expect(
        paths(validate(ChargeResponse)({ ...samples[status as Status], [field]: null })),
      ).toEqual([field])
    },
  )

  it('names the broken inner field of a non-null object', () => {
    expect(
      paths(validate(ChargeResponse)({ ...succeeded, order: { ...succeeded.order, amount: 'x' } })),
    ).toEqual(['order.amount'])
    expect(
      paths(
        validate(ChargeResponse)({
          ...authenticationRequired,
          authentication: { url: 'javascript:alert(1)', id: 'a' },
        }),
      ),
    ).toEqual(['authentication.url'])
    expect(paths(validate(ChargeResponse)({ ...failed, error: { code: 'X' } }))).toEqual([
      'error.message',
    ])
  })

  it('refuses an unknown or missing status at status', () => {
    expect(validate(ChargeResponse)({ ...failed, status: 'PENDING' })).toEqual(
      E.left([
        {
          path: 'status',
          message: 'must be one of FAILED, SUCCEEDED, AUTHENTICATION_REQUIRED',
          code: 'oneOf',
          values: ['FAILED', 'SUCCEEDED', 'AUTHENTICATION_REQUIRED'],
        },
      ]),
    )
    const { status: _, ...noStatus } = failed
    expect(validate(ChargeResponse)(noStatus)).toEqual(
      E.left([{ path: 'status', message: 'is required', code: 'required' }]),
    )
  })

  it.each(['2026-11-22T00:10:00Z', '2026-11-22T00:10:00.123+00:00', '2026-11-22', 'yesterday'])(
    'refuses createdAt %s',
    (at) => {
      expect(paths(validate(ChargeResponse)({ ...failed, createdAt: at }))).toEqual(['createdAt'])
    },
  )

  it('refuses a non-object at the root', () => {
    expect(paths(validate(ChargeResponse)([]))).toEqual([''])
    expect(paths(validate(ChargeResponse)('SUCCEEDED'))).toEqual([''])
  })

  test.prop([validResponse])('valid responses decode Right', (res) => {
    expect(E.isRight(validate(ChargeResponse)(res))).toBe(true)
  })

  test.prop([validResponse])('decode . encode . decode = decode', (res) =>
    roundTrips(ChargeResponse, res),
  )

  test.prop([validResponse, fc.constantFrom(...nullable)])(
    'setting a null field of the status to a value fails naming only that field',
    (res, field) => {
      fc.pre(res[field] === null)
      const broken = { ...res, [field]: { code: 'X', message: 'Y' } }
      expect(paths(validate(ChargeResponse)(broken))).toEqual([field])
    },
  )

  test.prop([
    fc.oneof(
      fc.anything(),
      fc.json().map((s) => JSON.parse(s) as unknown),
    ),
  ])('validate never throws; every Left names a path', (u) => {
    const r = validate(ChargeResponse)(u)
    if (E.isLeft(r)) for (const e of r.left) expect(typeof e.path).toBe('string')
  })
})

describe('hostile inputs', () => {
  const cyclic: Record<string, unknown> = { cardId: 'pm' }
  cyclic['order'] = cyclic
  const throwing = Object.defineProperty({ cardId: 'pm' }, 'order', {
    enumerable: true,
    get() {
      throw new Error('boom')
    },
  })
  const inputs: ReadonlyArray<[string, unknown]> = [
    ['a cyclic object', cyclic],
    ['a throwing getter', throwing],
    ['a bigint amount', { order: { id: 'o', amount: 10n }, cardId: 'pm' }],
    ['a bigint', 10n],
    ['a symbol', Symbol('x')],
    ['a function', () => 1],
  ]

  it.each(inputs)('ChargeRequest and ChargeResponse never throw on %s', (_, u) => {
    for (const codec of [ChargeRequest, chargeRequestFor({ bin: { countryCode: 'USA' } })]) {
      const r = validate(codec)(u)
      expect(E.isLeft(r)).toBe(true)
    }
    expect(E.isLeft(validate(ChargeResponse)(u))).toBe(true)
  })

  it('names order.amount for a bigint amount', () => {
    expect(
      paths(validate(ChargeRequest)({ order: { id: 'o', amount: 10n }, cardId: 'pm' })),
    ).toEqual(['order.amount'])
  })
})
