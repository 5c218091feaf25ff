// Issue 10, load: 10,000 payment links created through the core's client with bounded
// concurrency against the sandbox, every one read back: none lost, none duplicated, totals
// exact. The whole run must fit in a time budget (~20 s is the target on 2 cores).
import * as E from 'fp-ts/lib/Either.js'
import { traverseWithConcurrency, type PaymentLinkRequestInput } from '@paykit/core/client'
import type { OrderDetails, PaymentLinkResponse } from '@paykit/core/codecs'
import { Money } from '@paykit/core/money'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../src/sandbox/index.js'
import { clientFor, sandboxWith } from './support.js'

const LINKS = 10_000
const CONCURRENCY = 32
/** Creation and read-back together, on a loaded 2-core machine (the target is ~20 s). */
const BUDGET_MS = 25_000

const runId = `load-${Date.now().toString(36)}`

/** The i-th request: amount-only, product line items, or both (amount = the exact total). */
const requestOf = (i: number): PaymentLinkRequestInput => {
  const price = Number(((i % 9973) / 100 + 0.01).toFixed(2))
  const items = [
    { product: { name: `Item ${i}`, price }, quantity: (i % 7) + 1 },
    { product: { name: `Extra ${i}`, price: 0.1 }, quantity: 3 },
  ]
  const orderReference = `${runId}-${i}`
  switch (i % 3) {
    case 0:
      return { orderReference, amount: Number((i / 100 + 0.1).toFixed(2)) }
    case 1:
      return { orderReference, lineItems: items }
    default:
      return { orderReference, lineItems: items, amount: Money.toNumber(expectedTotal(items)) }
  }
}

const money = (n: number): Money.Money => {
  const m = Money.fromNumber(n)
  if (E.isLeft(m)) throw new Error(m.left)
  return m.right
}

/** The total a request implies, in exact decimals: its amount, or price x quantity summed. */
function expectedTotal(
  items: ReadonlyArray<{ readonly product: { readonly price: number }; readonly quantity: number }>,
): Money.Money {
  return Money.sum(items.map((it) => Money.multiply(money(it.quantity))(money(it.product.price))))
}

const totalOf = (request: PaymentLinkRequestInput): Money.Money =>
  request.amount !== undefined
    ? money(request.amount)
    : expectedTotal(
        (request.lineItems ?? []).map((it) => ({
          product: { price: 'product' in it ? it.product.price : Number.NaN },
          quantity: it.quantity,
        })),
      )

describe('load: 10,000 payment links, concurrency 32', () => {
  let sandbox: Sandbox
  beforeAll(async () => {
    sandbox = await sandboxWith()
  })
  afterAll(async () => {
    await sandbox.close()
  })

  it(
    'every link is created once and reads back with its reference and exact total',
    async () => {
      const client = clientFor(sandbox, { timeoutMs: 10_000 })
      const budget = AbortSignal.timeout(BUDGET_MS)
      const started = performance.now()
      const requests = Array.from({ length: LINKS }, (_, i) => requestOf(i))

      const created = await traverseWithConcurrency(CONCURRENCY)(requests, (request) =>
        client.createPaymentLink(request, { signal: budget }),
      )()
      const createdMs = performance.now() - started
      const links = created.flatMap((r) => (E.isRight(r) ? [r.right] : []))
      const firstError = created.find(E.isLeft)
      expect(
        links.length,
        `created ${links.length} of ${LINKS} links in ${Math.round(createdMs)} ms` +
          (firstError === undefined ? '' : `; first error: ${firstError.left.message}`),
      ).toBe(LINKS)

      // None duplicated: distinct order codes and ids.
      expect(new Set(links.map((l: PaymentLinkResponse) => l.orderCode)).size).toBe(LINKS)
      expect(new Set(links.map((l: PaymentLinkResponse) => l.orderId)).size).toBe(LINKS)

      const read = await traverseWithConcurrency(CONCURRENCY)(links, (link) =>
        client.getOrder(link.orderCode, { signal: budget }),
      )()
      const totalMs = performance.now() - started
      const orders = read.flatMap((r) => (E.isRight(r) ? [r.right] : []))
      expect(
        orders.length,
        `read back ${orders.length} of ${LINKS} orders; ${Math.round(totalMs)} ms in all`,
      ).toBe(LINKS)

      // None lost: each order is the one its link named, and references map 1:1 to requests.
      const byReference = new Map<string, OrderDetails>()
      orders.forEach((order, i) => {
        expect(order.orderCode).toBe(links[i]?.orderCode)
        expect(order.orderReference).not.toBeNull()
        byReference.set(order.orderReference ?? '', order)
      })
      expect(byReference.size).toBe(LINKS)
      requests.forEach((request, i) => {
        const order = byReference.get(request.orderReference ?? '')
        expect(order, `order for request ${i}`).toBeDefined()
        expect(order?.orderCode).toBe(links[i]?.orderCode)
        const expected = totalOf(request)
        const total = order?.total
        expect(
          total !== undefined && Money.Eq.equals(total, expected),
          `request ${i}: total ${String(total)}, expected ${expected.toString()}`,
        ).toBe(true)
      })
      // No retry made a second link: the sandbox holds exactly these orders.
      expect(Object.keys(sandbox.state().orders).sort()).toEqual(
        links.map((l: PaymentLinkResponse) => l.orderCode).sort(),
      )
      expect(totalMs, `the whole run took ${Math.round(totalMs)} ms`).toBeLessThan(BUDGET_MS)
    },
    BUDGET_MS + 15_000,
  )
})
