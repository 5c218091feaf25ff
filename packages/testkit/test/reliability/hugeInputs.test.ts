// Issue 10, fuzz (huge and deep inputs): 10 MB strings, 100,000 line items and values
// nested 100,000 deep. `validate` answers an Either naming the field, in bounded time,
// without a stack overflow (which `validate` would only report as a root error).
import * as E from 'fp-ts/lib/Either.js'
import { validate, type FieldError } from '@paykit/core'
import {
  ChargeRequest,
  PaymentLinkRequest,
  PaymentMethodRequest,
  TokenRequest,
} from '@paykit/core/codecs'
import { FrameMessage } from '@paykit/core/machines'
import { describe, expect, it } from 'vitest'
import { setAt, type Key } from '../../src/arbitraries/index.js'
import { cardOf, deepArray, deepObject, fieldPaths, generalPath, timed } from './support.js'

const TEN_MB = 'x'.repeat(10 * 1024 * 1024)
const DEPTH = 100_000
const LINE_ITEMS = 100_000
/** Time one validation of a huge input may take (generous for a loaded 2-core machine). */
const BOUND_MS = 5_000

const keysOf = (path: string): ReadonlyArray<Key> =>
  path.split('.').flatMap((segment) => {
    const m = /^([^[]+)((?:\[\d+\])*)$/.exec(segment)
    const indexes = [...(m?.[2] ?? '').matchAll(/\[(\d+)\]/g)].map((i) => Number(i[1]))
    return [m?.[1] ?? segment, ...indexes]
  })

const validRequests = {
  PaymentLinkRequest: {
    orderReference: 'inv-77',
    orderName: 'Mugs',
    orderDescription: 'Two mugs',
    amount: 10,
    lineItems: [
      {
        product: { name: 'Mug', price: 5, imageUrl: 'https://img.example.com/mug.png' },
        quantity: 2,
      },
      { sku: 'MUG-LOGO', quantity: 1 },
    ],
    successUrl: 'https://shop.example.com/ok',
    cancelUrl: 'https://shop.example.com/cancel',
    locationCode: 'main',
    metadata: [{ name: 'channel', value: 'web' }],
    expirationMinutes: 60,
  },
  PaymentMethodRequest: {
    customer: { id: 'c1', name: 'Ada', email: 'ada@example.com', phoneNumber: '+50670000000' },
    card: { ...cardOf('4242424242424242'), singleUse: false },
  },
  ChargeRequest: {
    order: { id: 'o-1', amount: 25.5, description: 'Coffee', name: 'Order' },
    cardId: 'pm_000001',
    authenticationId: null,
    billingInfo: { countryCode: 'US', stateCode: 'CA', zipCode: '94105' },
  },
  TokenRequest: { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' },
  FrameMessage: {
    MessageType: 'authentication.complete',
    Status: 'SUCCESS',
    AuthenticationId: 'auth_000001',
    OrderId: 'o-1',
    OrderAmount: 25.5,
  },
} as const

type Check = (input: unknown) => E.Either<ReadonlyArray<FieldError>, unknown>

const checks: Readonly<Record<keyof typeof validRequests, Check>> = {
  PaymentLinkRequest: validate(PaymentLinkRequest),
  PaymentMethodRequest: validate(PaymentMethodRequest),
  ChargeRequest: validate(ChargeRequest),
  TokenRequest: validate(TokenRequest),
  FrameMessage: validate(FrameMessage),
}

type CodecName = keyof typeof checks

/** The string fields of each valid request (index 0 for array items), and whether a 10 MB value breaks a stated rule. */
const stringFields: ReadonlyArray<readonly [CodecName, string, boolean]> = [
  ['PaymentLinkRequest', 'orderReference', true],
  ['PaymentLinkRequest', 'orderName', true],
  ['PaymentLinkRequest', 'orderDescription', true],
  ['PaymentLinkRequest', 'lineItems[0].product.name', false],
  ['PaymentLinkRequest', 'lineItems[0].product.imageUrl', true],
  ['PaymentLinkRequest', 'lineItems[1].sku', false],
  ['PaymentLinkRequest', 'successUrl', false],
  ['PaymentLinkRequest', 'cancelUrl', false],
  ['PaymentLinkRequest', 'locationCode', false],
  ['PaymentLinkRequest', 'metadata[0].name', false],
  ['PaymentLinkRequest', 'metadata[0].value', false],
  ['PaymentMethodRequest', 'customer.id', false],
  ['PaymentMethodRequest', 'customer.name', false],
  ['PaymentMethodRequest', 'customer.email', false],
  ['PaymentMethodRequest', 'customer.phoneNumber', false],
  ['PaymentMethodRequest', 'card.number', true],
  ['PaymentMethodRequest', 'card.expirationMonth', true],
  ['PaymentMethodRequest', 'card.expirationYear', true],
  ['PaymentMethodRequest', 'card.cvv', true],
  ['PaymentMethodRequest', 'card.cardHolder', false],
  ['ChargeRequest', 'order.id', false],
  ['ChargeRequest', 'order.description', false],
  ['ChargeRequest', 'order.name', false],
  ['ChargeRequest', 'cardId', false],
  ['ChargeRequest', 'billingInfo.countryCode', true],
  ['ChargeRequest', 'billingInfo.stateCode', false],
  ['ChargeRequest', 'billingInfo.zipCode', false],
  ['TokenRequest', 'clientId', false],
  ['TokenRequest', 'clientSecret', false],
  ['FrameMessage', 'MessageType', true],
  ['FrameMessage', 'Status', true],
  ['FrameMessage', 'AuthenticationId', false],
  ['FrameMessage', 'OrderId', false],
]

const pathsOf = (r: E.Either<ReadonlyArray<FieldError>, unknown>): ReadonlyArray<string> =>
  E.isLeft(r) ? r.left.map((e) => e.path) : []

/** Every field error is at `field` or below it. */
const expectAtOrBelow = (r: E.Either<ReadonlyArray<FieldError>, unknown>, field: string): void => {
  expect(E.isLeft(r), `a Left at ${field}`).toBe(true)
  for (const path of pathsOf(r))
    expect(
      path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`),
      `error at ${JSON.stringify(path)}, expected ${field} or below`,
    ).toBe(true)
}

describe('huge and deep inputs: an Either naming the field, in bounded time', () => {
  it.each(Object.keys(checks) as ReadonlyArray<CodecName>)(
    'the valid %s of this file is a Right (so each case below breaks only its field)',
    (name) => {
      expect(E.isRight(checks[name](validRequests[name]))).toBe(true)
    },
  )

  it.each(stringFields)(
    '%s with a 10 MB string at %s: an Either at that field, fast, message without the value',
    async (name, path, limited) => {
      const input = setAt(validRequests[name], keysOf(path), TEN_MB)
      const [r, ms] = await timed(async () => checks[name](input))
      expect(ms).toBeLessThan(BOUND_MS)
      expect(E.isLeft(r) || E.isRight(r)).toBe(true)
      if (limited) expect(E.isLeft(r), `${path} has a stated limit`).toBe(true)
      if (E.isLeft(r)) {
        expect(pathsOf(r)).toEqual([path])
        for (const e of r.left) expect(e.message.length).toBeLessThan(500)
      }
    },
  )

  it.each(Object.keys(checks) as ReadonlyArray<CodecName>)(
    '%s of a 10 MB string (not an object): a Left at the root',
    (name) => {
      const r = checks[name](TEN_MB)
      expect(pathsOf(r)).toEqual([''])
    },
  )

  const lineItems = (n: number, quantity: (i: number) => number) =>
    Array.from({ length: n }, (_, i) => ({
      product: { name: `item ${i}`, price: 0.01 },
      quantity: quantity(i),
    }))

  it('100,000 valid line items: a Right with every item, in bounded time', async () => {
    const input = { amount: 1000, lineItems: lineItems(LINE_ITEMS, () => 1) }
    const [r, ms] = await timed(async () => validate(PaymentLinkRequest)(input))
    expect(ms).toBeLessThan(BOUND_MS)
    expect(E.isRight(r) && r.right.lineItems?.length).toBe(LINE_ITEMS)
  }, 30_000)

  it('100,000 line items, the last one broken: a Left naming exactly lineItems[99999].quantity', async () => {
    const input = { lineItems: lineItems(LINE_ITEMS, (i) => (i === LINE_ITEMS - 1 ? 0 : 1)) }
    const [r, ms] = await timed(async () => checks.PaymentLinkRequest(input))
    expect(ms).toBeLessThan(BOUND_MS)
    expect(pathsOf(r)).toEqual([`lineItems[${LINE_ITEMS - 1}].quantity`])
  }, 30_000)

  it('100,000 broken line items: one error per item, at its quantity, in bounded time (not quadratic)', async () => {
    const input = { lineItems: lineItems(LINE_ITEMS, () => 0) }
    const [r, ms] = await timed(async () => checks.PaymentLinkRequest(input))
    expect(ms).toBeLessThan(BOUND_MS)
    const paths = pathsOf(r)
    expect(paths).toHaveLength(LINE_ITEMS)
    expect(new Set(paths.map(generalPath))).toEqual(new Set(['lineItems[].quantity']))
  }, 30_000)

  it.each(Object.keys(checks) as ReadonlyArray<CodecName>)(
    '%s of a value nested 100,000 deep: a Left (at the root for an array, at its fields for an object), no stack overflow',
    async (name) => {
      for (const deep of [deepArray(DEPTH), deepObject(DEPTH)]) {
        const [r, ms] = await timed(async () => checks[name](deep))
        expect(ms).toBeLessThan(BOUND_MS)
        expect(E.isLeft(r)).toBe(true)
        // A plain object is judged by its fields (all missing); an array is not an object.
        const allowed = new Set<string>(fieldPaths[name])
        for (const path of pathsOf(r))
          expect(path === '' ? Array.isArray(deep) : allowed.has(generalPath(path))).toBe(true)
        if (Array.isArray(deep)) expect(pathsOf(r)).toEqual([''])
      }
    },
    30_000,
  )

  const deepFields: ReadonlyArray<readonly [CodecName, string]> = [
    ['PaymentLinkRequest', 'orderReference'],
    ['PaymentLinkRequest', 'amount'],
    ['PaymentLinkRequest', 'lineItems'],
    ['PaymentLinkRequest', 'lineItems[0].product'],
    ['PaymentLinkRequest', 'lineItems[0].product.price'],
    ['PaymentLinkRequest', 'metadata'],
    ['PaymentMethodRequest', 'card'],
    ['PaymentMethodRequest', 'card.number'],
    ['ChargeRequest', 'order'],
    ['ChargeRequest', 'order.amount'],
    ['ChargeRequest', 'billingInfo'],
    ['TokenRequest', 'clientSecret'],
    ['FrameMessage', 'OrderAmount'],
  ]

  it.each(deepFields)(
    '%s with a value nested 100,000 deep at %s: a Left at that field (or below), no stack overflow',
    async (name, path) => {
      for (const deep of [deepArray(DEPTH), deepObject(DEPTH)]) {
        const input = setAt(validRequests[name], keysOf(path), deep)
        const [r, ms] = await timed(async () => checks[name](input))
        expect(ms).toBeLessThan(BOUND_MS)
        expectAtOrBelow(r, path)
        const allowed = new Set<string>(fieldPaths[name])
        for (const p of pathsOf(r)) expect(allowed.has(generalPath(p)), p).toBe(true)
      }
    },
    30_000,
  )
})
