// docs/service.md#amount-with-lineitems: with both amount and lineItems given, amount must
// equal the line-item total (400 naming amount otherwise). The core's rules and the sandbox
// over HTTP agree on the same inputs: `paymentLinkRequestFor(catalogue)` with the sandbox's
// catalogue for every request, and `checkAmountAgainst(noCatalogue)` where the request alone
// decides (one-time products only).
import { validate } from '@paykit/core'
import type { PaymentLinkRequestInput } from '@paykit/core/client'
import {
  PaymentLinkRequest,
  catalogue,
  checkAmountAgainst,
  noCatalogue,
  paymentLinkRequestFor,
} from '@paykit/core/codecs'
import { Money } from '@paykit/core/money'
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paymentLinkRequest } from '../../src/arbitraries/PaymentLink.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/startSandbox.js'
import { defaultCredentials, defaultProducts } from '../../src/simulator/TestCards.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await startSandbox({ expirySweepMs: 0 })
})
afterAll(() => sandbox.close())

const prices = catalogue(
  new Map(defaultProducts.map((p) => [p.sku, Money.fromCents(Math.round(p.price * 100))])),
)
const coreWithCatalogue = validate(paymentLinkRequestFor(prices))
const coreAlone = (body: unknown) =>
  pipe(body, validate(PaymentLinkRequest), E.chain(checkAmountAgainst(noCatalogue)))

/** What the sandbox answers: Right, or Left with the 400's field names. */
const sandboxSays = async (body: unknown): Promise<E.Either<ReadonlyArray<string>, number>> => {
  const send = () =>
    fetch(`${sandbox.url}/paymentlink/checkout`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${defaultCredentials.apiKey}`,
      },
      body: JSON.stringify(body),
    })
  // A kept-alive socket the server closed while idle is reset on reuse: send once more.
  const res = await send().catch(send)
  const json = (await res.json()) as { readonly errors?: Readonly<Record<string, unknown>> }
  if (res.status === 200) return E.right(res.status)
  expect(res.status).toBe(400)
  return E.left(Object.keys(json.errors ?? {}))
}

const pathsOf = <A>(r: E.Either<ReadonlyArray<{ readonly path: string }>, A>) =>
  E.mapLeft((es: ReadonlyArray<{ readonly path: string }>) => es.map((e) => e.path))(r)

/** A request with both amount and lineItems, its amount moved by `cents` (0: unchanged). */
const both = (products: 'products' | 'mixed') =>
  fc
    .tuple(
      paymentLinkRequest({
        shapes: ['both'],
        maxLineItems: 4,
        ...(products === 'mixed' ? { catalogue: defaultProducts } : {}),
      }),
      fc.oneof(fc.constant(0), fc.integer({ min: -500, max: 500 })),
    )
    .map(([request, cents]): readonly [PaymentLinkRequestInput, number] => {
      const total = Money.fromNumber(request.amount ?? 0)
      const amount = E.isRight(total) ? Money.add(Money.fromCents(cents))(total.right) : Money.zero
      return [{ ...request, amount: Money.toNumber(amount) }, cents] as const
    })
    .filter(([request]) => (request.amount ?? 0) > 0)

describe('amount with lineItems: the core and the sandbox agree (HTTP)', () => {
  it('the worked cases: equal is accepted, different is a 400 naming amount', async () => {
    const mug = { sku: 'MUG-LOGO', quantity: 2 } // 8.50 each
    const tee = { product: { name: 'Tee', price: 0.1 }, quantity: 3 }
    const cases: ReadonlyArray<readonly [unknown, E.Either<ReadonlyArray<string>, unknown>]> = [
      [{ amount: 17, lineItems: [mug] }, E.right(200)],
      [{ amount: 17.3, lineItems: [mug, tee] }, E.right(200)],
      [{ amount: 0.3, lineItems: [tee] }, E.right(200)],
      [{ amount: 17.01, lineItems: [mug] }, E.left(['amount'])],
      [{ amount: 0.31, lineItems: [tee] }, E.left(['amount'])],
    ]
    for (const [body, expected] of cases) {
      expect(await sandboxSays(body)).toEqual(expected)
      expect(E.isRight(pathsOf(coreWithCatalogue(body)))).toBe(E.isRight(expected))
      expect(pathsOf(coreWithCatalogue(body))).toEqual(
        E.isRight(expected) ? expect.anything() : expected,
      )
    }
  })

  it('skus and products: paymentLinkRequestFor(catalogue) answers as the sandbox does', async () => {
    await fc.assert(
      fc.asyncProperty(both('mixed'), async ([body, cents]) => {
        const service = await sandboxSays(body)
        const core = pathsOf(coreWithCatalogue(body))
        expect(E.isRight(service)).toBe(cents === 0)
        expect(E.isRight(core)).toBe(cents === 0)
        if (E.isLeft(service)) expect(core).toEqual(E.left(service.left))
      }),
      { numRuns: 60, seed: 9 },
    )
  })

  it('one-time products only: the core alone (checkAmountAgainst(noCatalogue)) answers as the sandbox does', async () => {
    await fc.assert(
      fc.asyncProperty(both('products'), async ([body, cents]) => {
        const service = await sandboxSays(body)
        const core = pathsOf(coreAlone(body))
        expect(E.isRight(service)).toBe(cents === 0)
        expect(E.isRight(core)).toBe(cents === 0)
        if (E.isLeft(service)) expect(core).toEqual(E.left(['amount']))
        if (E.isLeft(service)) expect(service.left).toEqual(['amount'])
      }),
      { numRuns: 60, seed: 11 },
    )
  })
})
