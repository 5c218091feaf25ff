// Conformance properties: valid payment links built from the spec's table decode and
// round-trip; broken in exactly one way they fail at exactly that field; client errors
// never carry random secrets or card numbers.
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect } from 'vitest'
import { createClient, validate } from '@paykit/core'
import { transportError, type TransportRequest, type TransportResponse } from '@paykit/core/client'
import { PaymentLinkRequest } from '@paykit/core/codecs'

const money2 = fc.integer({ min: 1, max: 100_000_000_000 }).map((c) => c / 100)
const name = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== '')
const httpUrl = fc.webUrl({ validSchemes: ['http', 'https'] }).filter((u) => u.length <= 512)

const lineItem = fc.oneof(
  fc.record({ sku: name, quantity: fc.integer({ min: 1, max: 1_000_000 }) }),
  fc.record({
    product: fc.record(
      {
        name,
        price: fc.oneof(fc.constant(0), money2),
        imageUrl: httpUrl,
        requiresShipping: fc.boolean(),
      },
      { requiredKeys: ['name', 'price'] },
    ),
    quantity: fc.integer({ min: 1, max: 1_000_000 }),
  }),
)

const validLink = fc
  .record(
    {
      orderReference: fc.string({ maxLength: 255 }),
      orderName: fc.string({ maxLength: 255 }),
      orderDescription: fc.string({ maxLength: 2048 }),
      amount: money2,
      lineItems: fc.array(lineItem, { minLength: 1, maxLength: 5 }),
      successUrl: httpUrl,
      cancelUrl: httpUrl,
      locationCode: fc.string({ maxLength: 10 }),
      metadata: fc.array(fc.record({ name: fc.string(), value: fc.string() }), { maxLength: 3 }),
      expirationMinutes: fc.integer({ min: 1, max: 100_000 }),
    },
    { requiredKeys: [] },
  )
  .filter((r) => r.amount !== undefined || r.lineItems !== undefined)

const paths = (input: unknown): string[] => {
  const r = validate(PaymentLinkRequest)(input)
  return E.isLeft(r) ? [...new Set(r.left.map((e) => e.path))].sort() : []
}

describe('payment link properties', () => {
  test.prop([validLink])(
    'valid by construction: decodes, and decode . encode . decode = decode',
    (input) => {
      const once = validate(PaymentLinkRequest)(input)
      expect(E.isRight(once)).toBe(true)
      if (E.isLeft(once)) return
      const twice = validate(PaymentLinkRequest)(
        JSON.parse(JSON.stringify(PaymentLinkRequest.encode(once.right))),
      )
      expect(E.isRight(twice) && PaymentLinkRequest.encode(twice.right)).toEqual(
        PaymentLinkRequest.encode(once.right),
      )
    },
  )

  const breakers: ReadonlyArray<
    readonly [string, (r: Record<string, unknown>) => Record<string, unknown>]
  > = [
    ['amount', (r) => ({ ...r, amount: 0 })],
    ['orderReference', (r) => ({ ...r, orderReference: 'r'.repeat(256) })],
    ['orderName', (r) => ({ ...r, orderName: 'n'.repeat(256) })],
    ['orderDescription', (r) => ({ ...r, orderDescription: 'd'.repeat(2049) })],
    ['expirationMinutes', (r) => ({ ...r, expirationMinutes: 0 })],
    ['successUrl', (r) => ({ ...r, successUrl: 'mailto:a@b.c' })],
    ['cancelUrl', (r) => ({ ...r, cancelUrl: '/cancel' })],
    ['metadata[0].name', (r) => ({ ...r, metadata: [{ value: 'v' }] })],
    ['lineItems[0].quantity', (r) => ({ ...r, lineItems: [{ sku: 'A', quantity: 0 }] })],
  ]
  test.prop([validLink, fc.constantFrom(...breakers)])(
    'broken in exactly one way: fails at exactly that field',
    (input, [field, breakIt]) => {
      const base = field === 'amount' ? { ...input, lineItems: undefined } : input
      const clean = Object.fromEntries(Object.entries(base).filter(([, v]) => v !== undefined))
      expect(paths(breakIt(clean))).toEqual([field])
    },
  )
})

// Luhn-valid 16-digit numbers, for random cards.
const luhnComplete = (digits15: string): string => {
  let sum = 0
  for (let i = 0; i < 15; i++) {
    let d = Number(digits15[14 - i])
    if (i % 2 === 0) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return digits15 + String((10 - (sum % 10)) % 10)
}
const cardNumber = fc.stringMatching(/^4[0-9]{14}$/).map(luhnComplete)
const secret = fc.stringMatching(/^[A-Za-z0-9_-]{16,40}$/)

describe('client errors never carry secrets (issue 4 property)', () => {
  test.prop([secret, secret, secret, cardNumber, fc.constantFrom(400, 401, 500, 0)], {
    numRuns: 60,
  })(
    'for random credentials, tokens and cards',
    async (clientSecret, apiKey, accessToken, number, status) => {
      const echo = (req: TransportRequest): TransportResponse => ({
        status,
        headers: {},
        body: JSON.stringify({
          title: `echo ${req.body ?? ''} ${JSON.stringify(req.headers)}`,
          status,
          errors: { echo: [req.body ?? '', JSON.stringify(req.headers)] },
        }),
      })
      const client = createClient({
        baseUrl: 'https://api.paykit.test',
        credentials: { clientId: 'c', clientSecret, apiKey },
        sleep: () => Promise.resolve(),
        transport: (req) => () =>
          Promise.resolve(
            req.url.endsWith('/token')
              ? E.right({
                  status: 200,
                  headers: {},
                  body: JSON.stringify({ accessToken, tokenType: 'Bearer', expiresIn: 3600 }),
                })
              : status === 0
                ? E.left(
                    transportError(
                      'reset',
                      `${req.body ?? ''} ${JSON.stringify(req.headers)}`,
                      'maybe',
                    ),
                  )
                : E.right(echo(req)),
          ),
      })
      const card = { number, expirationMonth: '12', expirationYear: '2099', cvv: '123' }
      const results = [
        await client.createPaymentMethod({ card })(),
        await client.charge({ order: { id: 'o', amount: 1 }, cardId: 'pm' })(),
        await client.createPaymentLink({ amount: 1 })(),
      ]
      for (const r of results) {
        expect(E.isLeft(r)).toBe(true)
        const text = E.isLeft(r) ? `${JSON.stringify(r.left)} ${r.left.message}` : ''
        for (const s of [clientSecret, apiKey, accessToken, number]) expect(text).not.toContain(s)
      }
    },
  )
})
