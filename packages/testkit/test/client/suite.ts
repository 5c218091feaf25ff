/**
 * The client's integration tests, registered once and run against both fakes: the nock
 * mock (in process) and the sandbox (real HTTP on 127.0.0.1). The client is the public
 * `@paykit/core` one with its fetch transport; only the fake differs.
 */
import * as E from 'fp-ts/lib/Either.js'
import {
  createClient,
  validate,
  type Client,
  type ClientConfig,
  type PaykitError,
} from '@paykit/core'
import { traverseWithConcurrency } from '@paykit/core/client'
import { FrameMessage, type FrameMessage as FrameMessageType } from '@paykit/core/machines'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type * as Faults from '../../src/service/Faults.js'
import type { AuthenticationResult } from '../../src/service/LiveService.js'
import type { LoggedRequest } from '../../src/service/RequestLog.js'
import { defaultCredentials, testCards } from '../../src/simulator/TestCards.js'
import { adaCard, adaCustomer } from '../samples.js'

/** What the suite needs from a fake service. */
export interface Fake {
  readonly baseUrl: string
  readonly requests: () => ReadonlyArray<LoggedRequest>
  readonly injectFault: (
    fault: Faults.Fault,
    target?: Faults.Target & { readonly times?: number },
  ) => void
  readonly completeAuthentication: (id: string, result: AuthenticationResult) => void
  readonly payOrder: (code: string) => void
  readonly cancelOrder: (code: string) => void
  readonly finalizeOrder: (code: string) => void
  readonly advanceClock: (ms: number) => void
  readonly close: () => Promise<void>
}

/** Client id and secret without an API key: payment links then use the access token. */
const tokenOnly = {
  clientId: defaultCredentials.clientId,
  clientSecret: defaultCredentials.clientSecret,
}

const card = (number: string) => ({ customer: adaCustomer, card: adaCard(number) })

let orderSeq = 0
const chargeOf = (cardId: string, amount = 25.5) => ({
  order: { id: `order-${Date.now()}-${++orderSeq}`, amount, name: 'Mugs' },
  cardId,
})

const billingInfo = { countryCode: 'US', stateCode: 'CA', zipCode: '94105' }

const right = <A>(r: E.Either<PaykitError, A>): A => {
  if (E.isLeft(r)) throw new Error(`expected a Right, got ${r.left._tag}: ${r.left.message}`)
  return r.right
}
const left = (r: E.Either<PaykitError, unknown>): PaykitError => {
  if (E.isRight(r)) throw new Error(`expected a Left, got ${JSON.stringify(r.right)}`)
  return r.left
}

/** The frame message the 3DS frame posts once `result` is recorded for `id`. */
const frameFor = (id: string, orderId: string, amount: number, ok: boolean): FrameMessageType => {
  const decoded = validate(FrameMessage)({
    MessageType: ok ? 'authentication.complete' : 'authentication.failed',
    Status: ok ? 'SUCCESS' : 'FAILED',
    AuthenticationId: id,
    OrderId: orderId,
    OrderAmount: amount,
  })
  if (E.isLeft(decoded)) throw new Error('bad frame message fixture')
  return decoded.right
}

/** Registers the suite; `start` makes a fresh fake for each test. */
export const describeClientAgainst = (name: string, start: () => Promise<Fake>): void => {
  describe(`client against ${name}`, () => {
    let fake: Fake
    const unhandled: Array<unknown> = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)

    beforeEach(async () => {
      unhandled.length = 0
      process.on('unhandledRejection', onUnhandled)
      fake = await start()
    })
    afterEach(async () => {
      await fake.close()
      process.off('unhandledRejection', onUnhandled)
      expect(unhandled).toEqual([])
    })

    const clientOf = (over: Partial<ClientConfig> = {}): Client =>
      createClient({
        baseUrl: fake.baseUrl,
        credentials: defaultCredentials,
        timeoutMs: 5_000,
        retry: { baseDelayMs: 5, maxDelayMs: 20 },
        ...over,
      })
    /** A fault target path under the fake's base path (`/v1/charges` for the nock mock). */
    const at = (path: string) => `${new URL(fake.baseUrl).pathname.replace(/\/+$/, '')}${path}`
    const count = (method: string, path: string) =>
      fake.requests().filter((r) => r.method === method && r.path.endsWith(path)).length
    const newCard = async (c: Client, number: string) =>
      right(await c.createPaymentMethod(card(number))())

    // ------------------------------------------------------------------ endpoints

    it('gets a token, registers every test card with its BIN', async () => {
      const c = clientOf()
      expect(right(await c.getToken()())).toEqual(expect.any(String))
      for (const t of Object.values(testCards)) {
        const pm = await newCard(c, t.number)
        expect(pm.bin).toEqual({
          brand: t.brand,
          issuerName: t.issuerName,
          countryCode: t.countryCode,
        })
      }
      expect(count('POST', '/token')).toBe(1)
    })

    it('charges: SUCCEEDED, FAILED FRAUD_PREVENT, FAILED CARD_DECLINED, DUPLICATE_ORDER', async () => {
      const c = clientOf()
      const ok = await newCard(c, testCards.success.number)
      const request = chargeOf(ok.id)
      const paid = right(await c.charge(request, { paymentMethod: ok })())
      expect(paid.status === 'SUCCEEDED' && paid.order.reference).toBe(request.order.id)
      const again = right(await c.charge(request)())
      expect(again.status === 'FAILED' && again.error.code).toBe('DUPLICATE_ORDER')
      for (const [number, code] of [
        [testCards.fraudPrevent.number, 'FRAUD_PREVENT'],
        [testCards.declined.number, 'CARD_DECLINED'],
      ] as const) {
        const pm = await newCard(c, number)
        const r = right(await c.charge(chargeOf(pm.id))())
        expect(r.status === 'FAILED' && r.error.code).toBe(code)
      }
    })

    it('refuses a USA charge without billingInfo before sending; sends it with billingInfo', async () => {
      const c = clientOf()
      const usa = await newCard(c, testCards.successUsa.number)
      const before = count('POST', '/charges')
      const e = left(await c.charge(chargeOf(usa.id), { paymentMethod: usa })())
      expect(e._tag === 'ValidationError' && e.fieldErrors.map((f) => f.path)).toEqual([
        'billingInfo',
      ])
      expect(count('POST', '/charges')).toBe(before)
      const r = right(
        await c.charge({ ...chargeOf(usa.id), billingInfo }, { paymentMethod: usa })(),
      )
      expect(r.status).toBe('SUCCEEDED')
    })

    it("the service's 400 for a USA charge without billingInfo is an HttpError naming it", async () => {
      const c = clientOf()
      const usa = await newCard(c, testCards.successUsa.number)
      const e = left(await c.charge(chargeOf(usa.id))()) // no paymentMethod: no local rule
      expect(e).toMatchObject({ _tag: 'HttpError', status: 400 })
      expect(e._tag === 'HttpError' && Object.keys(e.problem?.errors ?? {})).toContain(
        'billingInfo',
      )
    })

    it('refuses a card failing the Luhn check without sending it', async () => {
      const c = clientOf()
      const e = left(await c.createPaymentMethod(card('4242424242424241'))())
      expect(e._tag === 'ValidationError' && e.fieldErrors[0]?.path).toBe('card.number')
      expect(fake.requests()).toHaveLength(0)
    })

    // ------------------------------------------------------------------ 3DS

    it('chargeWith3ds: completes after the frame reports SUCCESS and charges again once', async () => {
      const c = clientOf()
      const pm = await newCard(c, testCards.authentication.number)
      const request = chargeOf(pm.id, 12)
      const seen: Array<string> = []
      const end = right(
        await c.chargeWith3ds(request, (url, id) => async () => {
          seen.push(url)
          fake.completeAuthentication(id, 'success')
          return E.right(frameFor(id, request.order.id, 12, true))
        })(),
      )
      expect(end._tag).toBe('Succeeded')
      expect(seen).toHaveLength(1)
      expect(seen[0]).toMatch(/^http/)
      expect(count('POST', '/charges')).toBe(2)
    })

    it('chargeWith3ds: a failed authentication is not charged again', async () => {
      const c = clientOf()
      const pm = await newCard(c, testCards.authentication.number)
      const request = chargeOf(pm.id, 12)
      const end = right(
        await c.chargeWith3ds(request, (_url, id) => async () => {
          fake.completeAuthentication(id, 'failed')
          return E.right(frameFor(id, request.order.id, 12, false))
        })(),
      )
      expect(end._tag).toBe('AuthenticationFailed')
      expect(count('POST', '/charges')).toBe(1)
    })

    it('chargeWith3ds: an expired authentication ends as AuthenticationFailed EXPIRED', async () => {
      const c = clientOf()
      const pm = await newCard(c, testCards.authentication.number)
      const request = chargeOf(pm.id, 12)
      const end = right(
        await c.chargeWith3ds(request, (_url, id) => async () => {
          fake.completeAuthentication(id, 'expired')
          const message = validate(FrameMessage)({
            MessageType: 'authentication.failed',
            Status: 'EXPIRED',
            AuthenticationId: id,
            OrderId: request.order.id,
            OrderAmount: 12,
          })
          if (E.isLeft(message)) throw new Error('bad fixture')
          return E.right(message.right)
        })(),
      )
      expect(end._tag === 'AuthenticationFailed' && end.status).toBe('EXPIRED')
      expect(count('POST', '/charges')).toBe(1)
    })

    it('chargeWith3ds: a forged SUCCESS message does not fool the service', async () => {
      const c = clientOf()
      const pm = await newCard(c, testCards.authentication.number)
      const request = chargeOf(pm.id, 12)
      const end = right(
        await c.chargeWith3ds(
          request,
          (_url, id) => async () => E.right(frameFor(id, request.order.id, 12, true)),
        )(),
      )
      // The authentication was never completed at the service: the retry is refused.
      expect(end._tag === 'Failed' && end.error.code).toBe('AUTHENTICATION_FAILED')
    })

    // ------------------------------------------------------------------ payment links

    it('creates a payment link (API key), reads it, waits until it is PAID', async () => {
      const c = clientOf()
      const link = right(await c.createPaymentLink({ amount: 40, orderReference: 'ref-1' })())
      expect(link.paymentLinkUrl).toMatch(/^http/)
      const order = right(await c.getOrder(link.orderCode)())
      expect(order.orderStatus).toBe('PENDING')
      expect(order.total.toString()).toBe('40')
      expect(count('POST', '/token')).toBe(0)
      setTimeout(() => fake.payOrder(link.orderCode), 30)
      const paid = right(
        await c.waitForOrderStatus(link.orderCode, ['PAID'], { timeoutMs: 3000, intervalMs: 10 })(),
      )
      expect(paid.orderStatus).toBe('PAID')
      expect(paid.payment).not.toBeNull()
      fake.finalizeOrder(link.orderCode)
      const finalized = right(
        await c.waitForOrderStatus(link.orderCode, ['FINALIZED'], {
          timeoutMs: 1000,
          intervalMs: 10,
        })(),
      )
      expect(finalized.orderStatus).toBe('FINALIZED')
    })

    it('uses the access token for payment links without an API key; line items', async () => {
      const c = clientOf({ credentials: tokenOnly })
      const link = right(
        await c.createPaymentLink({
          lineItems: [{ product: { name: 'Mug', price: 12.5 }, quantity: 2 }],
        })(),
      )
      const order = right(await c.getOrder(link.orderCode)())
      expect(order.total.toString()).toBe('25')
      expect(count('POST', '/token')).toBe(1)
    })

    it('a cancelled order ends the wait for PAID or CANCELLED; another status times out', async () => {
      const c = clientOf()
      const link = right(await c.createPaymentLink({ amount: 5 })())
      const waited = await c.waitForOrderStatus(link.orderCode, ['PAID'], {
        timeoutMs: 60,
        intervalMs: 10,
      })()
      expect(left(waited)).toMatchObject({ _tag: 'Timeout', timeoutMs: 60 })
      fake.cancelOrder(link.orderCode)
      const cancelled = right(
        await c.waitForOrderStatus(link.orderCode, ['PAID', 'CANCELLED'], {
          timeoutMs: 1000,
          intervalMs: 10,
        })(),
      )
      expect(cancelled.orderStatus).toBe('CANCELLED')
    })

    it("the service's 400 keeps its errors map; an unknown order is a 404", async () => {
      const c = clientOf()
      const e = left(
        await c.createPaymentLink({
          amount: 99,
          lineItems: [{ product: { name: 'Mug', price: 10 }, quantity: 1 }],
        })(),
      )
      expect(e).toMatchObject({ _tag: 'HttpError', status: 400 })
      expect(e._tag === 'HttpError' && Object.keys(e.problem?.errors ?? {})).toContain('amount')
      expect(left(await c.getOrder('NO-SUCH-ORDER')())).toMatchObject({
        _tag: 'HttpError',
        status: 404,
      })
    })

    it('many links with bounded concurrency: a failed one loses none of the created ones', async () => {
      const c = clientOf()
      fake.injectFault(
        { kind: 'status500' },
        { method: 'POST', path: at('/paymentlink/checkout'), times: 1 },
      )
      const amounts = [10, 20, -1, 30, 40, 50]
      const results = await traverseWithConcurrency(3)(amounts, (amount) =>
        c.createPaymentLink({ amount }),
      )()
      expect(results).toHaveLength(amounts.length)
      expect(results[2]?._tag === 'Left' && results[2].left._tag).toBe('ValidationError')
      const failed = results.filter((r) => r._tag === 'Left' && r.left._tag === 'HttpError')
      expect(failed).toHaveLength(1)
      for (const [i, r] of results.entries()) {
        if (r._tag === 'Left') continue
        const order = right(await c.getOrder(r.right.orderCode)())
        expect(order.total.toString()).toBe(String(amounts[i]))
      }
    })

    // ------------------------------------------------------------------ tokens

    it('shares one token request among concurrent calls (counted at the service)', async () => {
      const c = clientOf({ credentials: tokenOnly })
      const link = right(await c.createPaymentLink({ amount: 5 })())
      const c2 = clientOf({ credentials: tokenOnly })
      const results = await Promise.all(
        Array.from({ length: 12 }, () => c2.getOrder(link.orderCode)()),
      )
      expect(results.every((r) => r._tag === 'Right')).toBe(true)
      expect(count('POST', '/token')).toBe(2) // one per client
    })

    it('refreshes an expired token once on 401 and repeats the call (a charge too)', async () => {
      const c = clientOf()
      const pm = await newCard(c, testCards.success.number)
      fake.advanceClock(3601 * 1000) // the service's token expired; the client's cache does not know
      const r = right(await c.charge(chargeOf(pm.id))())
      expect(r.status).toBe('SUCCEEDED')
      expect(count('POST', '/token')).toBe(2)
      expect(count('POST', '/charges')).toBe(2)
    })

    it('wrong client secret or API key: Unauthorized naming the credential', async () => {
      const c = clientOf({
        credentials: { ...defaultCredentials, clientSecret: 'wrong-secret', apiKey: 'wrong-key' },
      })
      const t = left(await c.getToken()())
      expect(t).toMatchObject({ _tag: 'Unauthorized', credential: 'clientCredentials' })
      expect(JSON.stringify(t)).not.toContain('wrong-secret')
      const k = left(await c.createPaymentLink({ amount: 5 })())
      expect(k).toMatchObject({ _tag: 'Unauthorized', credential: 'apiKey' })
      expect(JSON.stringify(k)).not.toContain('wrong-key')
    })

    // ------------------------------------------------------------------ faults

    it('a charge whose connection drops after sending is not repeated: outcome unknown', async () => {
      const c = clientOf()
      const pm = await newCard(c, testCards.success.number)
      fake.injectFault(
        { kind: 'connectionReset' },
        { method: 'POST', path: at('/charges'), times: 1 },
      )
      const e = left(await c.charge(chargeOf(pm.id))())
      expect(e).toMatchObject({ _tag: 'NetworkError', sent: 'maybe', outcomeUnknown: true })
      expect(e.message).toMatch(/Send the same charge again with the same order id/)
      expect(count('POST', '/charges')).toBe(1)
    })

    it('a charge that hangs times out, once, outcome unknown', async () => {
      const c = clientOf({ timeoutMs: 300 })
      const pm = await newCard(c, testCards.success.number)
      fake.injectFault({ kind: 'hang' }, { method: 'POST', path: at('/charges'), times: 1 })
      const e = left(await c.charge(chargeOf(pm.id))())
      expect(e).toMatchObject({ _tag: 'Timeout', timeoutMs: 300, outcomeUnknown: true })
      expect(count('POST', '/charges')).toBe(1)
    })

    it('a GET that hangs or drops once is retried and succeeds', async () => {
      const c = clientOf({ timeoutMs: 300 })
      const link = right(await c.createPaymentLink({ amount: 5 })())
      fake.injectFault({ kind: 'hang' }, { method: 'GET', times: 1 })
      fake.injectFault({ kind: 'connectionReset' }, { method: 'GET', times: 1 })
      right(await c.getOrder(link.orderCode)())
      expect(count('GET', `/paymentlink/order/${link.orderCode}`)).toBe(3)
    })

    it('a 500 on a GET is retried up to the bound; on a charge it is not', async () => {
      const c = clientOf({ retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 10 } })
      const link = right(await c.createPaymentLink({ amount: 5 })())
      fake.injectFault({ kind: 'status500' }, { method: 'GET', times: 2 })
      right(await c.getOrder(link.orderCode)())
      fake.injectFault({ kind: 'status500' }, { method: 'GET' })
      const e = left(await c.getOrder(link.orderCode)())
      expect(e).toMatchObject({ _tag: 'HttpError', status: 500 })
      const pm = await newCard(c, testCards.success.number)
      fake.injectFault({ kind: 'status500' }, { method: 'POST', path: at('/charges') })
      const before = fake.requests().length
      const h = left(await c.charge(chargeOf(pm.id))())
      expect(h).toMatchObject({ _tag: 'HttpError', status: 500 })
      expect(h.message).toMatch(/outcome is unknown/)
      expect(
        fake
          .requests()
          .slice(before)
          .filter((r) => r.path.endsWith('/charges')),
      ).toHaveLength(1)
    })

    it('malformed JSON is a DecodeError; a truncated body on a GET is retried', async () => {
      const c = clientOf()
      const link = right(await c.createPaymentLink({ amount: 5 })())
      fake.injectFault({ kind: 'malformedBody' }, { method: 'GET', times: 1 })
      expect(left(await c.getOrder(link.orderCode)())).toMatchObject({
        _tag: 'DecodeError',
        fieldErrors: [{ path: '', message: 'is not valid JSON' }],
      })
      fake.injectFault({ kind: 'truncatedBody' }, { method: 'GET', times: 1 })
      right(await c.getOrder(link.orderCode)())
    })

    it('a malformed charge answer is a DecodeError that says the outcome is unknown', async () => {
      const c = clientOf()
      const pm = await newCard(c, testCards.success.number)
      fake.injectFault(
        { kind: 'malformedBody' },
        { method: 'POST', path: at('/charges'), times: 1 },
      )
      const e = left(await c.charge(chargeOf(pm.id))())
      expect(e._tag).toBe('DecodeError')
      expect(e.message).toMatch(/outcome is unknown/)
      expect(count('POST', '/charges')).toBe(1)
    })

    it('no record given to onExchange holds the secret, API key, token, card number or CVV', async () => {
      const records: Array<unknown> = []
      const c = clientOf({ onExchange: (x) => records.push(x) })
      const token = right(await c.getToken()())
      const pm = await newCard(c, testCards.success.number)
      right(await c.charge(chargeOf(pm.id))())
      right(await c.createPaymentLink({ amount: 5 })())
      const log = JSON.stringify(records)
      for (const secret of [
        defaultCredentials.clientSecret,
        defaultCredentials.apiKey,
        token,
        testCards.success.number,
        '"123"',
      ])
        expect(log).not.toContain(secret)
      expect(records).toHaveLength(4)
    })
  })
}

// ------------------------------------------------------------------ the scenario table

/**
 * One scenario of the table every fake runs (test/client/scenarios.test.ts): what the
 * client gets, written short (`ok ...` for a Right, the error's tag and what it names for
 * a Left), so that the three fakes' columns compare as text.
 */
export interface Scenario {
  readonly name: string
  readonly expected: string
  readonly run: (fake: Fake, client: Client) => Promise<string>
}

const outcome = <A>(r: E.Either<PaykitError, A>, ok: (a: A) => string): string => {
  if (E.isRight(r)) return `ok ${ok(r.right)}`
  const e = r.left
  switch (e._tag) {
    case 'ValidationError':
      return `ValidationError ${e.fieldErrors.map((f) => f.path).join(',')}`
    case 'HttpError':
      return `HttpError ${e.status}${e.outcomeUnknown ? ' outcomeUnknown' : ''}`
    case 'Unauthorized':
      return `Unauthorized ${e.credential}`
    default:
      return `${e._tag}${e.outcomeUnknown ? ' outcomeUnknown' : ''}`
  }
}

const chargeResult = (r: {
  readonly status: string
  readonly error?: { readonly code: string } | null
}): string => (r.error == null ? r.status : `${r.status} ${r.error.code}`)

/** The scenarios, each with the result every fake must give. */
export const scenarios: ReadonlyArray<Scenario> = [
  {
    name: 'token',
    expected: 'ok Bearer token',
    run: async (_f, c) =>
      outcome(await c.getToken()(), (t) => (t.length > 0 ? 'Bearer token' : '')),
  },
  {
    name: 'card saved',
    expected: 'ok VISA CRI',
    run: async (_f, c) =>
      outcome(
        await c.createPaymentMethod(card(testCards.success.number))(),
        (pm) => `${pm.bin.brand} ${pm.bin.countryCode}`,
      ),
  },
  {
    name: 'card refused naming the field',
    expected: 'ValidationError card.number',
    run: async (_f, c) =>
      outcome(await c.createPaymentMethod(card('4242424242424241'))(), () => 'saved'),
  },
  ...(
    [
      ['charge SUCCESS', testCards.success.number, 'ok SUCCEEDED'],
      ['charge 3DS', testCards.authentication.number, 'ok AUTHENTICATION_REQUIRED'],
      ['charge declined', testCards.declined.number, 'ok FAILED CARD_DECLINED'],
    ] as const
  ).map(([name, number, expected]): Scenario => ({
    name,
    expected,
    run: async (_f, c) => {
      const pm = right(await c.createPaymentMethod(card(number))())
      return outcome(await c.charge(chargeOf(pm.id))(), chargeResult)
    },
  })),
  {
    name: 'duplicate order',
    expected: 'ok FAILED DUPLICATE_ORDER',
    run: async (_f, c) => {
      const pm = right(await c.createPaymentMethod(card(testCards.success.number))())
      const request = chargeOf(pm.id)
      right(await c.charge(request)())
      return outcome(await c.charge(request)(), chargeResult)
    },
  },
  {
    name: 'link created + order read back',
    expected: 'ok PENDING 40 ref-7',
    run: async (_f, c) => {
      const link = right(await c.createPaymentLink({ amount: 40, orderReference: 'ref-7' })())
      return outcome(
        await c.getOrder(link.orderCode)(),
        (o) => `${o.orderStatus} ${o.total.toString()} ${o.orderReference}`,
      )
    },
  },
  {
    name: 'link expired',
    expected: 'ok CANCELLED',
    run: async (f, c) => {
      const link = right(await c.createPaymentLink({ amount: 5, expirationMinutes: 1 })())
      f.advanceClock(61_000)
      return outcome(await c.getOrder(link.orderCode)(), (o) => o.orderStatus)
    },
  },
  {
    name: 'fault 500 on a link',
    expected: 'HttpError 500 outcomeUnknown',
    run: async (f, c) => {
      const path = `${new URL(f.baseUrl).pathname.replace(/\/+$/, '')}/paymentlink/checkout`
      f.injectFault({ kind: 'status500' }, { method: 'POST', path, times: 1 })
      return outcome(await c.createPaymentLink({ amount: 5 })(), (l) => l.orderCode)
    },
  },
  {
    name: 'processed-then-500 charge',
    expected: 'HttpError 500 outcomeUnknown; charge recorded',
    run: async (f, c) => {
      const pm = right(await c.createPaymentMethod(card(testCards.success.number))())
      const path = `${new URL(f.baseUrl).pathname.replace(/\/+$/, '')}/charges`
      f.injectFault({ kind: 'processedThen500' }, { method: 'POST', path, times: 1 })
      const request = chargeOf(pm.id)
      const first = outcome(await c.charge(request)(), chargeResult)
      // The same charge again: the service says it already has it.
      const again = outcome(await c.charge(request)(), chargeResult)
      return `${first}; ${again === 'ok FAILED DUPLICATE_ORDER' ? 'charge recorded' : again}`
    },
  },
  {
    name: '401 wrong secret',
    expected: 'Unauthorized clientCredentials',
    run: async (f) => {
      const wrong = createClient({
        baseUrl: f.baseUrl,
        credentials: { ...tokenOnly, clientSecret: 'wrong-secret' },
      })
      return outcome(await wrong.getToken()(), () => 'token')
    },
  },
]
