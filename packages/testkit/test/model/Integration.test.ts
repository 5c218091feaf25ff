/**
 * The adapter fits an existing service: the webhook route gets a `Headers` that also reads
 * as a record in any case, the kit registers the buyer's card when told (the adapter
 * gets a payment method id, never the card), `reconcile` is asked for one order or for
 * all, and the integration's own ids are related to the kit's orders.
 */
import * as E from 'fp-ts/lib/Either.js'
import { createClient } from '@paykit/core'
import { describe, expect, it } from 'vitest'
import { fixedCheckout } from '../../examples/checkout/checkoutService.js'
import type {
  MakeIntegration,
  RegisteredCard,
  WebhookHeaders,
} from '../../src/model/Integration.js'
import { checkModel } from '../../src/model/Run.js'
import {
  buyerPaysLink,
  createLink,
  injectFault,
  payOrder,
  reconcile,
  webhook,
} from '../../src/model/Steps.js'
import * as Faults from '../../src/service/Faults.js'

describe('the webhook headers', () => {
  it('are a Headers object that also reads as a record, in any case', async () => {
    const seen: Array<WebhookHeaders> = []
    const report = await checkModel({
      integration: (context) => ({
        ...fixedCheckout(context),
        handleWebhook: async (body, headers) => {
          seen.push(headers)
          return fixedCheckout(context).handleWebhook(body, headers)
        },
      }),
      story: [createLink('o1'), buyerPaysLink('o1'), webhook('deliverNext')],
    })
    expect(report.ok).toBe(true)
    const [headers] = seen
    expect(headers).toBeInstanceOf(Headers)
    const signature = headers?.get('Paykit-Signature')
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
    expect(headers?.['Paykit-Signature']).toBe(signature)
    expect(headers?.['paykit-signature']).toBe(signature)
    expect(headers?.['PAYKIT-SIGNATURE']).toBe(signature)
    expect(headers?.['x-not-sent']).toBeUndefined()
    expect('Content-Type' in (headers ?? {})).toBe(true)
    expect({ ...headers }).toEqual({
      'content-type': 'application/json',
      'paykit-signature': signature,
      'user-agent': 'paykit-sandbox',
    })
    expect([...(headers ?? [])].map(([name]) => name)).toEqual(Object.keys({ ...headers }))
  })
})

describe('card registration by the kit', () => {
  it('hands the adapter a payment method id, never the card', async () => {
    const given: Array<unknown> = []
    const report = await checkModel({
      registerCards: true,
      integration: (context) => {
        const inner = fixedCheckout(context)
        return {
          ...inner,
          // the fixed checkout registers cards itself: here the kit has done it
          payOrder: async (_order, card: RegisteredCard) => void given.push(card),
        }
      },
      story: [payOrder('o1', 'success'), payOrder('o2', 'authentication')],
    })
    expect(report.ok).toBe(true)
    expect(given).toEqual([
      { paymentMethodId: expect.stringMatching(/^\S+$/) },
      { paymentMethodId: expect.stringMatching(/^\S+$/) },
    ])
  })

  it('a registration the network fails is noted, and the adapter is not called', async () => {
    let calls = 0
    const report = await checkModel({
      registerCards: true,
      integration: (context) => ({
        ...fixedCheckout(context),
        payOrder: async () => void calls++,
      }),
      // an invariant of one's own that shows the story at its end
      invariants: [{ name: 'the end', check: ({ quiet }) => (quiet ? 'shown' : undefined) }],
      story: [
        injectFault(Faults.status500, { operation: 'createPaymentMethod', times: 3 }),
        payOrder('o1', 'success'),
      ],
    })
    expect(calls).toBe(0)
    expect(report.story[1]).toMatch(
      /^the buyer pays order o1 with a card that succeeds: the buyer's card was not registered \(".+"\)$/,
    )
  })
})

describe('reconcile', () => {
  it('is asked for one order, or (no reference) for all', async () => {
    const asked: Array<string | undefined> = []
    const report = await checkModel({
      integration: (context) => ({
        ...fixedCheckout(context),
        reconcile: async (reference) => void asked.push(reference),
      }),
      story: [reconcile('o2'), reconcile()],
    })
    expect(report.ok).toBe(true)
    // the two steps, then the "eventually" step's
    expect(asked).toEqual(['o2', undefined, undefined])
  })
})

describe('an adapter that answers the wrong shape', () => {
  it('is told which member and what was expected', async () => {
    const view = await checkModel({
      integration: (context) => ({
        ...fixedCheckout(context),
        view: () => ({ o1: 'PAID' }) as never,
      }),
      story: [reconcile()],
    })
    expect(view.problem).toBe('view(): expected an array of { reference, status, timesPaid }')
    const timesPaid = await checkModel({
      integration: (context) => ({
        ...fixedCheckout(context),
        view: () => [{ reference: 'o1', status: 'PAID', timesPaid: true as never }],
      }),
      story: [reconcile()],
    })
    expect(timesPaid.problem).toBe(
      'view()[0].timesPaid: expected how many times the order was recorded paid (0, 1, ...), got true',
    )
    const amount = await checkModel({
      integration: (context) => ({
        ...fixedCheckout(context),
        view: () => [
          { reference: 'o1', status: 'PENDING', timesPaid: 0, amountPaid: '0' as never },
        ],
      }),
      story: [reconcile()],
    })
    expect(amount.problem).toBe(
      'view()[0].amountPaid: expected the amount recorded paid in decimal major units (19.99), got 0',
    )
    // null is "not given", as undefined
    const none = await checkModel({
      integration: (context) => ({
        ...fixedCheckout(context),
        view: () => [
          { reference: 'o1', status: 'PENDING', timesPaid: 0, amountPaid: null as never },
        ],
      }),
      story: [reconcile()],
    })
    expect(none.ok).toBe(true)
    const answer = await checkModel({
      integration: (context) => ({
        ...fixedCheckout(context),
        handleWebhook: async () => undefined as never,
      }),
      invariants: [{ name: 'the end', check: ({ quiet }) => (quiet ? 'shown' : undefined) }],
      story: [createLink('o1'), buyerPaysLink('o1'), webhook('deliverNext')],
    })
    expect(answer.story[2]).toBe(
      'the oldest pending webhook is delivered: order.paid of o1 (the endpoint answered "undefined", not { status })',
    )
  })
})

describe("the integration's own ids", () => {
  // A subscription service: a card on file, each invoice under its own number; the second
  // invoice is charged by the billing run (its reconcile job) with the first one's card.
  const cardOnFile: MakeIntegration = (context) => {
    const client = createClient(context.clientConfig)
    const invoices: Array<{ number: string; ref: string; amount: number; paid: number }> = []
    let card: string | undefined
    const charge = async (invoice: (typeof invoices)[number]): Promise<void> => {
      if (card === undefined || invoice.paid > 0) return
      const done = await client.charge({
        order: { id: invoice.number, amount: invoice.amount },
        cardId: card,
      })()
      if (E.isRight(done) && done.right.status === 'SUCCEEDED') invoice.paid = 1
    }
    return {
      payOrder: async (order, buyerCard) => {
        const invoice = {
          number: `A-${invoices.length + 1}`,
          ref: order.reference,
          amount: order.amount,
          paid: 0,
        }
        invoices.push(invoice)
        if (card !== undefined) return // the billing run charges it
        const method = await client.createPaymentMethod({ card: buyerCard })()
        if (E.isLeft(method)) return
        card = method.right.id
        await charge(invoice)
      },
      createLink: async () => undefined,
      handleWebhook: async () => ({ status: 200 }),
      reconcile: async () => {
        for (const invoice of invoices) await charge(invoice)
      },
      view: () =>
        invoices.map((i) => ({
          reference: i.number,
          status: i.paid > 0 ? 'PAID' : 'PENDING',
          timesPaid: i.paid,
        })),
      log: () => [],
    }
  }

  it('a charge under a new id in "eventually" counts by its amount, not by a card on file', async () => {
    const report = await checkModel({
      integration: cardOnFile,
      story: [payOrder('o1', 'success'), payOrder('o2', 'success')],
    })
    expect(report.text).toBe('the story held every invariant')
  })

  it("reports name the kit's order and the ids the integration sent for it", async () => {
    const report = await checkModel({
      integration: (context) => ({ ...cardOnFile(context), view: () => [] }),
      story: [payOrder('o1', 'success')],
    })
    expect(report.problem).toBe(
      "order o1 (the integration's A-1) is paid at the service, the integration recorded it as paid 0 times",
    )
  })
})
