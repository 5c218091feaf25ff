/**
 * `runOperation` (`helpers/items.ts`), the loop every operation of the node runs in, in
 * n8n's real engine (a probe node) over the core's client and the sandbox: items checked
 * before any request, in-flight bounds, input order and pairing, and what Continue On Fail
 * changes. The operation is a payment-link creation validated by the core, as the node's.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PaymentLinkRequest as PaymentLinkRequestType } from '@paykit/core/pure'
import {
  PaymentLinkRequest,
  PaymentLinkResponse,
  validate,
  validationError,
} from '@paykit/core/pure'
import type { Sandbox } from '@paykit/testkit/sandbox'
import type { Operation } from '../../../../nodes/Paykit/v1/helpers/items.js'
import { MAX_CONCURRENCY, runOperation } from '../../../../nodes/Paykit/v1/helpers/items.js'
import { countingProxy, useSandbox } from '../../../support.js'
import { runProbe } from '../../../shared/probe.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

/**
 * A payment-link creation: the item's JSON validated by the core, then sent; its output the
 * link and its order reference.
 */
const createLinks = (
  over: Partial<Operation<PaymentLinkRequestType>> = {},
): Operation<PaymentLinkRequestType> => ({
  concurrent: true,
  toolSafe: true,
  prepare: (ctx, i) =>
    pipe(
      validate(PaymentLinkRequest)(ctx.getInputData()[i]?.json),
      E.mapLeft((errors) => validationError(errors, 'payment link request')),
    ),
  send: (client, request, signal) =>
    pipe(
      client.createValidatedPaymentLink(request, signal === undefined ? {} : { signal }),
      // The link, and the reference it was made for (to tell the items apart).
      TE.map((link): IDataObject => ({
        ...PaymentLinkResponse.encode(link),
        orderReference: request.orderReference ?? null,
      })),
    ),
  ...over,
})

/** The node's Options collection, as the node's operations have it. */
const OPTIONS: INodeProperties = {
  displayName: 'Options',
  name: 'options',
  type: 'collection',
  default: {},
  options: [
    { displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 8 },
    { displayName: 'Request Timeout (Seconds)', name: 'timeout', type: 'number', default: 30 },
  ],
}

/** Runs `operation` over `items` in n8n, against `base` (the sandbox unless given). */
const runOver = (
  operation: Operation<PaymentLinkRequestType>,
  items: ReadonlyArray<IDataObject>,
  {
    options = {},
    continueOnFail = false,
    base = sandbox,
  }: {
    readonly options?: INodeParameters
    readonly continueOnFail?: boolean
    readonly base?: { readonly url: string }
  } = {},
) =>
  runProbe(base, (ctx) => runOperation(ctx, operation), {
    items,
    properties: [OPTIONS],
    parameters: { options },
    settings: continueOnFail ? { continueOnFail: true } : {},
  })

const links = (n: number, prefix: string): ReadonlyArray<IDataObject> =>
  Array.from({ length: n }, (_, i) => ({ amount: i + 1, orderReference: `${prefix}-${String(i)}` }))

const checkouts = () => sandbox.requests().filter((r) => r.path === '/paymentlink/checkout').length

describe('runOperation', () => {
  it('gives one output item per input item, in input order, each paired with its input', async () => {
    // Later items answered first: the output still follows the input.
    sandbox.setLatency(150, { method: 'POST', path: '/paymentlink/checkout', times: 3 })
    try {
      const result = await runOver(createLinks(), links(12, 'order'), {
        options: { concurrency: 6 },
      })
      expect(result.error).toBeUndefined()
      expect(result.items.map((i) => i.json.orderReference)).toEqual(
        links(12, 'order').map((l) => l.orderReference),
      )
      expect(result.items.map((i) => i.pairedItem)).toEqual(
        Array.from({ length: 12 }, (_, i) => ({ item: i })),
      )
    } finally {
      sandbox.clearFaults()
    }
  })

  it('runs at most Concurrency items at once, capped at MAX_CONCURRENCY; one at a time when the operation is not concurrent', async () => {
    const proxy = await countingProxy(sandbox.url)
    sandbox.setLatency(30, { method: 'POST', path: '/paymentlink/checkout' })
    try {
      const maxInFlight = async (
        operation: Operation<PaymentLinkRequestType>,
        options: INodeParameters,
      ) => {
        proxy.reset()
        const result = await runOver(operation, links(24, 'bound'), { options, base: proxy })
        expect(result.error).toBeUndefined()
        return proxy.stats().maxInFlight
      }
      expect(await maxInFlight(createLinks(), { concurrency: 3 })).toBe(3)
      expect(await maxInFlight(createLinks({ concurrent: false }), { concurrency: 3 })).toBe(1)
      expect(MAX_CONCURRENCY).toBeLessThan(1000)
      expect(await maxInFlight(createLinks(), { concurrency: 1000 })).toBeLessThanOrEqual(
        MAX_CONCURRENCY,
      )
    } finally {
      sandbox.clearFaults()
      await proxy.close()
    }
  })

  it('an invalid item fails the run before any request, naming its field and its item', async () => {
    const before = checkouts()
    const result = await runOver(createLinks(), [
      { amount: 5 },
      { amount: 'five', orderReference: 'bad' },
      { amount: 7 },
    ])
    expect(result.error?.message).toContain('amount')
    expect(JSON.stringify(result.error)).toMatch(/"itemIndex":1\b/)
    expect(checkouts()).toBe(before)
  })

  it('with Continue On Fail, an invalid item becomes an error item naming its field; the others are sent', async () => {
    const before = checkouts()
    const result = await runOver(createLinks(), [{ amount: 5 }, { amount: -1 }, { amount: 7 }], {
      continueOnFail: true,
    })
    expect(result.error).toBeUndefined()
    expect(checkouts() - before).toBe(2)
    expect(result.items[0]?.json.orderCode).toBeDefined()
    expect(JSON.stringify(result.items[1]?.json.error)).toContain('amount')
    expect(result.items[1]?.pairedItem).toEqual({ item: 1 })
    expect(result.items[2]?.json.orderCode).toBeDefined()
  })

  it('without Continue On Fail, no item starts after a failure, and the first failure fails the run', async () => {
    sandbox.injectFault(
      { kind: 'status500' },
      { method: 'POST', path: '/paymentlink/checkout', times: 100 },
    )
    try {
      const before = checkouts()
      const result = await runOver(createLinks({ concurrent: false }), links(5, 'stop'))
      expect(result.error).toBeDefined()
      // The first item failed (a creation's outcome is unknown after a 500: not retried).
      expect(checkouts() - before).toBe(1)
    } finally {
      sandbox.clearFaults()
    }
  })

  it('a send that throws fails its own item only, with Continue On Fail; finish runs once all are done', async () => {
    let finished = 0
    const result = await runOver(
      createLinks({
        send: (client, request, signal) =>
          request.orderReference === 'throws'
            ? () => Promise.reject(new Error("n8n's store is down"))
            : createLinks().send(client, request, signal),
        finish: async () => {
          finished++
        },
      }),
      [
        { amount: 1, orderReference: 'ok-1' },
        { amount: 2, orderReference: 'throws' },
        { amount: 3 },
      ],
      { continueOnFail: true },
    )
    expect(result.error).toBeUndefined()
    expect(result.items[0]?.json.orderReference).toBe('ok-1')
    expect(JSON.stringify(result.items[1]?.json)).toContain("n8n's store is down")
    expect(result.items[2]?.json.orderCode).toBeDefined()
    expect(finished).toBe(1)
  })

  it('a card number given in a field of an invalid item appears in no error, only the field', async () => {
    const number = '4111111111111111'
    const result = await runOver(
      createLinks(),
      [
        { amount: number, orderReference: 'card-1' },
        { amount: 1, orderReference: Number(number) },
      ],
      { continueOnFail: true },
    )
    expect(result.items).toHaveLength(2)
    expect(JSON.stringify(result.items[0]?.json.error)).toContain('amount')
    expect(JSON.stringify(result.items[1]?.json.error)).toContain('orderReference')
    expect(JSON.stringify(result.items)).not.toContain(number)
  })
})
