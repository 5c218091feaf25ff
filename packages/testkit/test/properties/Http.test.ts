// @paykit-test own-worker: nock's interceptors
import * as E from 'fp-ts/lib/Either.js'
import { createClient, validate } from '@paykit/core'
import { PaymentLinkRequest, PaymentMethodRequest } from '@paykit/core/codecs'
import * as fc from 'fast-check'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { mockPaymentService } from '../../src/nock/mockPaymentService.js'
import { countRequests } from '../../src/service/RequestAssertions.js'
import { defaultCredentials } from '../../src/simulator/TestCards.js'
import {
  invalidPaymentMethodRequest,
  paymentMethodRequest,
} from '../../src/arbitraries/PaymentMethod.js'
import type { RefusesBeforeSendingOptions, Send, SendOutcome } from '../../src/properties/Http.js'
import { refusesBeforeSending, sendsValid, suiteInputs } from '../../src/properties/Http.js'
import { describeRefusesBeforeSending } from '../../src/vitest/index.js'

vi.setConfig({ testTimeout: 60_000 })

// A small integration: it validates with the core, then sends over a transport that
// counts requests (a real wrapper would call the service there).
const wrapper =
  (check: (input: unknown) => ReturnType<ReturnType<typeof validate>>): Send =>
  async (input) => {
    let requestsSent = 0
    const transport = async (body: string): Promise<number> => {
      requestsSent += 1
      return Promise.resolve(body.length)
    }
    const result = check(input)
    if (result._tag === 'Left') return { requestsSent, fieldErrors: result.left }
    await transport(JSON.stringify(input))
    return { requestsSent }
  }

describeRefusesBeforeSending({ send: wrapper(validate(PaymentLinkRequest)) })
describeRefusesBeforeSending({
  name: 'refuses invalid cards before sending',
  send: wrapper(validate(PaymentMethodRequest)),
  valid: paymentMethodRequest(),
  invalid: invalidPaymentMethodRequest(),
})

const fails = async <Ts extends [unknown]>(property: fc.IAsyncProperty<Ts>): Promise<boolean> =>
  (await fc.check(property, { numRuns: 200, seed: 5 })).failed

describe('refusesBeforeSending fails', () => {
  it('for an integration that sends first and reports the service answer after', async () => {
    const late: Send = async (input) => {
      const outcome = await wrapper(validate(PaymentLinkRequest))(input)
      return { ...outcome, requestsSent: 1 }
    }
    expect(await fails(refusesBeforeSending(late))).toBe(true)
  })

  it('for an integration that refuses without naming the field', async () => {
    const vague: Send = async (input) => {
      const outcome = await wrapper(validate(PaymentLinkRequest))(input)
      return outcome.fieldErrors === undefined
        ? outcome
        : { requestsSent: 0, fieldErrors: [{ path: '', message: 'invalid request' }] }
    }
    expect(await fails(refusesBeforeSending(vague))).toBe(true)
  })
})

describe('sendsValid fails', () => {
  it('for an integration that refuses a valid request (a stricter rule than the spec)', async () => {
    const strict: Send = async (input) =>
      typeof input === 'object' && input !== null && 'orderDescription' in input
        ? { requestsSent: 0, fieldErrors: [{ path: 'orderDescription', message: 'no' }] }
        : wrapper(validate(PaymentLinkRequest))(input)
    expect(await fails(sendsValid(strict))).toBe(true)
    expect(await fails(sendsValid(wrapper(validate(PaymentLinkRequest))))).toBe(false)
  })
})

// ------------------------------------------------------------------ an integration's own input

/** The shop's cart line: its own domain type, not a payment-link body. */
interface CartLine {
  readonly sku: string
  readonly qty: number
  readonly priceCents: number
}

const baseUrl = 'https://shop-links.paykit.test'
const mock = mockPaymentService({ baseUrl })
afterAll(() => mock.restore())
const client = createClient({ baseUrl, credentials: defaultCredentials })
const linksSent = (): number =>
  countRequests(mock, { method: 'POST', path: '/paymentlink/checkout' })

/** The shop's function under test: a payment link for one cart line, validated by the core client. */
const payLink = async (line: CartLine): Promise<SendOutcome> => {
  mock.reset()
  const result = await client.createPaymentLink({
    lineItems: [{ product: { name: line.sku, price: line.priceCents / 100 }, quantity: line.qty }],
  })()
  return {
    requestsSent: linksSent(),
    ...(E.isLeft(result) && result.left._tag === 'ValidationError'
      ? { fieldErrors: result.left.fieldErrors }
      : {}),
  }
}

/** A broken version: it posts the body first and reads the service's refusal after. */
const payLinkSendingFirst = async (line: CartLine): Promise<SendOutcome> => {
  mock.reset()
  const body = {
    lineItems: [{ product: { name: line.sku, price: line.priceCents / 100 }, quantity: line.qty }],
  }
  const res = await fetch(`${baseUrl}/paymentlink/checkout`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${defaultCredentials.apiKey}`,
    },
    body: JSON.stringify(body),
  })
  const answer = (await res.json()) as { errors?: Record<string, ReadonlyArray<string>> }
  const fieldErrors = Object.entries(answer.errors ?? {}).map(([path, [message = '']]) => ({
    path,
    message,
  }))
  return { requestsSent: linksSent(), ...(res.status === 400 ? { fieldErrors } : {}) }
}

/** A body the cart line can hold: exactly one one-time product; a price in whole cents. */
const toCartLine = (body: unknown): CartLine | undefined => {
  const items = (body as { lineItems?: unknown } | null)?.lineItems
  if (!Array.isArray(items) || items.length !== 1) return undefined
  const item = items[0] as {
    product?: { name?: unknown; price?: unknown }
    quantity?: unknown
  } | null
  const { name, price } = item?.product ?? {}
  if (typeof name !== 'string' || typeof price !== 'number' || typeof item?.quantity !== 'number')
    return undefined
  const priceCents = Math.round(price * 100)
  return priceCents / 100 === price ? { sku: name, qty: item.quantity, priceCents } : undefined
}

const cartFields = [
  'lineItems[0].product.name',
  'lineItems[0].product.price',
  'lineItems[0].quantity',
]
const cartOptions: RefusesBeforeSendingOptions<CartLine> = {
  name: 'a shop function taking its own CartLine',
  send: payLink,
  map: toCartLine,
  covers: (field) => cartFields.includes(field),
  arbitrary: { shapes: ['lineItems'], maxLineItems: 1 },
  numRuns: 60,
}
describeRefusesBeforeSending(cartOptions)

describe('describeRefusesBeforeSending with a mapping', () => {
  it('sends the integration its own input, each invalid one broken at a field it holds', () => {
    const { valid, invalid } = suiteInputs(cartOptions)
    const fields = new Set<string>()
    for (const record of fc.sample(invalid, { numRuns: 120, seed: 4 })) {
      expect(Object.keys(record.value as object).sort()).toEqual(['priceCents', 'qty', 'sku'])
      fields.add(record.field)
    }
    expect([...fields].sort()).toEqual(cartFields)
    for (const line of fc.sample(valid, 50))
      expect(Number.isSafeInteger(line.priceCents)).toBe(true)
  })

  it('catches an integration that sends before validating (the refusal named, but after a request)', async () => {
    const { invalid } = suiteInputs({ ...cartOptions, send: payLinkSendingFirst })
    const result = await fc.check(refusesBeforeSending(payLinkSendingFirst, invalid), {
      numRuns: 50,
      seed: 9,
    })
    expect(result.failed).toBe(true)
    expect(String(result.errorInstance)).toMatch(
      /an invalid request \(lineItems\[0\]\..+\) was sent 1 time\(s\)/,
    )
    // The same inputs pass the shop's real function.
    expect(
      (await fc.check(refusesBeforeSending(payLink, invalid), { numRuns: 50, seed: 9 })).failed,
    ).toBe(false)
  })

  it('keeps the old call: without map, the bodies go to send as they are', () => {
    const { valid, invalid } = suiteInputs({ send: async () => ({ requestsSent: 1 }) })
    for (const body of fc.sample(valid, 20))
      expect(validate(PaymentLinkRequest)(body)._tag).toBe('Right')
    for (const { value } of fc.sample(invalid, 20))
      expect(validate(PaymentLinkRequest)(value)._tag).toBe('Left')
  })
})
