/**
 * The endpoint and fault tests both adapters must pass: registered once, run over real
 * HTTP against the sandbox and through nock against the mock.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defaultCredentials, testCards } from '../../src/simulator/TestCards.js'
import * as Faults from '../../src/service/Faults.js'
import type { AuthenticationResult } from '../../src/service/LiveService.js'
import type { SimulatorState } from '../../src/simulator/State.js'
import { adaCard, adaCustomer } from '../samples.js'

/** What a suite needs from an adapter. */
export interface Subject {
  readonly baseUrl: string
  readonly state: () => SimulatorState
  readonly injectFault: (
    fault: Faults.Fault,
    target?: Faults.Target & { readonly times?: number },
  ) => void
  readonly setLatency: (ms: number, target?: Faults.Target & { readonly times?: number }) => void
  readonly completeAuthentication: (id: string, result: AuthenticationResult) => void
  readonly payOrder: (code: string) => void
  readonly cancelOrder: (code: string) => void
  readonly advanceClock: (ms: number) => void
  readonly close: () => Promise<void>
}

/** A card body for `POST /paymentmethods`. */
export const cardBody = (number: string) => ({
  customer: { ...adaCustomer, phoneNumber: '+50688887777' },
  card: { ...adaCard(number), singleUse: false },
})

/** A charge body for `POST /charges`. */
export const chargeBody = (
  orderId: string,
  cardId: string,
  authenticationId: string | null = null,
) => ({
  order: { id: orderId, amount: 25.5, description: 'Two mugs', name: 'Mugs' },
  cardId,
  authenticationId,
})

/** HTTP helpers bound to one base URL. */
export const clientOf = (baseUrl: string) => {
  const post = (path: string, body: unknown, bearer?: string, init: RequestInit = {}) =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...init,
    })
  const get = (path: string, bearer?: string, init: RequestInit = {}) =>
    fetch(path.startsWith('http') ? path : `${baseUrl}${path}`, {
      headers: bearer === undefined ? {} : { authorization: `Bearer ${bearer}` },
      ...init,
    })
  const token = async (): Promise<string> => {
    const res = await post('/token', {
      clientId: defaultCredentials.clientId,
      clientSecret: defaultCredentials.clientSecret,
    })
    expect(res.status).toBe(200)
    return ((await res.json()) as { accessToken: string }).accessToken
  }
  const card = async (bearer: string, number: string): Promise<string> => {
    const res = await post('/paymentmethods', cardBody(number), bearer)
    expect(res.ok).toBe(true)
    return ((await res.json()) as { id: string }).id
  }
  const link = async (body: unknown = { amount: 42.5, orderReference: 'ref-1' }) => {
    const res = await post('/paymentlink/checkout', body, defaultCredentials.apiKey)
    expect(res.status).toBe(200)
    return (await res.json()) as { orderCode: string; orderId: number; paymentLinkUrl: string }
  }
  return { post, get, token, card, link }
}

const expectProblem = async (res: Response, status: number): Promise<Record<string, unknown>> => {
  expect(res.status).toBe(status)
  const body = (await res.json()) as Record<string, unknown>
  expect(body).toMatchObject({ status, title: expect.any(String), type: expect.any(String) })
  return body
}

/** Registers the endpoint and fault tests for one adapter. */
export const describeOverHttp = (name: string, start: () => Promise<Subject>): unknown =>
  describe(name, () => {
    let subject: Subject
    let api: ReturnType<typeof clientOf>
    beforeEach(async () => {
      subject = await start()
      api = clientOf(subject.baseUrl)
    })
    afterEach(async () => {
      await subject.close()
    })

    describe('POST /token', () => {
      it('issues a bearer token for the configured credentials', async () => {
        const res = await api.post('/token', {
          clientId: defaultCredentials.clientId,
          clientSecret: defaultCredentials.clientSecret,
        })
        expect(res.status).toBe(200)
        expect(await res.json()).toEqual({
          accessToken: expect.any(String),
          tokenType: 'Bearer',
          expiresIn: 3600,
        })
      })

      it('refuses a wrong secret with 401 problem details', async () => {
        const res = await api.post('/token', {
          clientId: defaultCredentials.clientId,
          clientSecret: 'wrong',
        })
        await expectProblem(res, 401)
      })
    })

    describe('bearer credentials', () => {
      it.each([
        ['missing', undefined],
        ['unknown', 'not-a-token'],
      ])('a %s bearer gets 401 problem details', async (_label, bearer) => {
        await expectProblem(
          await api.post('/paymentmethods', cardBody(testCards.success.number), bearer),
          401,
        )
      })

      it('an expired token gets 401 after the clock passes expiresIn', async () => {
        const token = await api.token()
        subject.advanceClock(3601 * 1000)
        await expectProblem(
          await api.post('/paymentmethods', cardBody(testCards.success.number), token),
          401,
        )
      })
    })

    describe('POST /paymentmethods', () => {
      it('registers a test card and never echoes its number or CVV', async () => {
        const token = await api.token()
        const res = await api.post('/paymentmethods', cardBody(testCards.successUsa.number), token)
        expect(res.ok).toBe(true)
        const text = await res.text()
        expect(JSON.parse(text)).toMatchObject({
          id: expect.any(String),
          type: 'card',
          bin: { brand: 'VISA', issuerName: 'Sandbox Bank USA', countryCode: 'USA' },
          success: true,
        })
        expect(text).not.toContain(testCards.successUsa.number)
        expect(text).not.toContain('"123"')
      })

      it('refuses a card failing the Luhn check naming card.number', async () => {
        const token = await api.token()
        const res = await api.post('/paymentmethods', cardBody('4242424242424241'), token)
        const body = await expectProblem(res, 400)
        expect(Object.keys(body['errors'] as object)).toContain('card.number')
        expect(JSON.stringify(body)).not.toContain('4242424242424241')
      })
    })

    describe('POST /charges', () => {
      it('succeeds with the success card, then refuses the same order as DUPLICATE_ORDER', async () => {
        const token = await api.token()
        const cardId = await api.card(token, testCards.success.number)
        const res = await api.post('/charges', chargeBody('order-1', cardId), token)
        expect(res.ok).toBe(true)
        expect(await res.json()).toMatchObject({
          status: 'SUCCEEDED',
          error: null,
          authentication: null,
          order: { reference: 'order-1', amount: 25.5, authorizationCode: expect.any(String) },
        })
        const again = await api.post('/charges', chargeBody('order-1', cardId), token)
        expect(await again.json()).toMatchObject({
          status: 'FAILED',
          error: { code: 'DUPLICATE_ORDER' },
        })
      })

      it('fails with FRAUD_PREVENT for the fraud card', async () => {
        const token = await api.token()
        const cardId = await api.card(token, testCards.fraudPrevent.number)
        const res = await api.post('/charges', chargeBody('order-2', cardId), token)
        expect(await res.json()).toMatchObject({
          status: 'FAILED',
          error: { code: 'FRAUD_PREVENT' },
          order: null,
        })
      })

      it('refuses a USA card without billingInfo naming billingInfo', async () => {
        const token = await api.token()
        const cardId = await api.card(token, testCards.successUsa.number)
        const body = await expectProblem(
          await api.post('/charges', chargeBody('order-3', cardId), token),
          400,
        )
        expect(Object.keys(body['errors'] as object)).toContain('billingInfo')
      })

      it('asks for 3DS, serves the frame, and succeeds after ?result=success', async () => {
        const token = await api.token()
        const cardId = await api.card(token, testCards.authentication.number)
        const first = (await (
          await api.post('/charges', chargeBody('order-4', cardId), token)
        ).json()) as {
          status: string
          authentication: { url: string; id: string }
        }
        expect(first.status).toBe('AUTHENTICATION_REQUIRED')
        expect(first.authentication.url.startsWith(subject.baseUrl)).toBe(true)
        const page = await api.get(
          `${first.authentication.url}${first.authentication.url.includes('?') ? '&' : '?'}result=success`,
        )
        expect(page.status).toBe(200)
        expect(page.headers.get('content-type')).toMatch(/^text\/html/)
        const html = await page.text()
        expect(html).toContain('postMessage')
        expect(html).toContain(first.authentication.id)
        const second = await api.post(
          '/charges',
          chargeBody('order-4', cardId, first.authentication.id),
          token,
        )
        expect(await second.json()).toMatchObject({ status: 'SUCCEEDED' })
      })

      it('fails a repeat with an authentication that failed as AUTHENTICATION_FAILED', async () => {
        const token = await api.token()
        const cardId = await api.card(token, testCards.authentication.number)
        const first = (await (
          await api.post('/charges', chargeBody('order-5', cardId), token)
        ).json()) as {
          authentication: { id: string }
        }
        subject.completeAuthentication(first.authentication.id, 'failed')
        const second = await api.post(
          '/charges',
          chargeBody('order-5', cardId, first.authentication.id),
          token,
        )
        expect(await second.json()).toMatchObject({
          status: 'FAILED',
          error: { code: 'AUTHENTICATION_FAILED' },
        })
      })
    })

    describe('payment links', () => {
      it('creates a link, serves its checkout page and reads the order back after paying', async () => {
        const link = await api.link({ amount: 42.5, orderReference: 'ref-1' })
        expect(link).toEqual({
          orderCode: expect.any(String),
          orderId: expect.any(Number),
          paymentLinkUrl: expect.stringContaining(subject.baseUrl),
        })
        const page = await api.get(link.paymentLinkUrl)
        expect(page.status).toBe(200)
        expect(page.headers.get('content-type')).toMatch(/^text\/html/)
        expect(await page.text()).toContain('<form')

        const pending = await api.get(
          `/paymentlink/order/${link.orderCode}`,
          defaultCredentials.apiKey,
        )
        expect(await pending.json()).toMatchObject({
          orderStatus: 'PENDING',
          total: 42.5,
          payment: null,
        })
        subject.payOrder(link.orderCode)
        const paid = await api.get(
          `/paymentlink/order/${link.orderCode}`,
          defaultCredentials.apiKey,
        )
        expect(await paid.json()).toMatchObject({
          orderCode: link.orderCode,
          orderStatus: 'PAID',
          orderReference: 'ref-1',
          payment: { authorizationCode: expect.any(String) },
          store: { currencyCode: 'USD' },
        })
      })

      it('refuses amount 0 naming amount', async () => {
        const res = await api.post(
          '/paymentlink/checkout',
          { amount: 0 },
          defaultCredentials.apiKey,
        )
        const body = await expectProblem(res, 400)
        expect(Object.keys(body['errors'] as object)).toContain('amount')
      })

      it('answers 404 problem details for an unknown order code', async () => {
        await expectProblem(
          await api.get('/paymentlink/order/NOPE', defaultCredentials.apiKey),
          404,
        )
      })

      it('reads a link past expirationMinutes as CANCELLED', async () => {
        const link = await api.link({ amount: 5, expirationMinutes: 1 })
        subject.advanceClock(61 * 1000)
        const res = await api.get(`/paymentlink/order/${link.orderCode}`, defaultCredentials.apiKey)
        expect(await res.json()).toMatchObject({ orderStatus: 'CANCELLED' })
      })
    })

    describe('bad requests', () => {
      it('answers malformed JSON, a wrong content type and an unknown route with 4xx problems, and keeps serving', async () => {
        const token = await api.token()
        const malformed = await api.post('/paymentmethods', '{"card":', token)
        await expectProblem(malformed, 400)
        const wrongType = await fetch(`${subject.baseUrl}/paymentmethods`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain', authorization: `Bearer ${token}` },
          body: 'hello',
        })
        expect(wrongType.status).toBe(415)
        await expectProblem(await api.get('/no/such/route', token), 404)
        expect(
          (
            await api.post('/token', {
              clientId: defaultCredentials.clientId,
              clientSecret: defaultCredentials.clientSecret,
            })
          ).status,
        ).toBe(200)
      })
    })

    describe('faults', () => {
      const setup = async () => {
        const token = await api.token()
        const cardId = await api.card(token, testCards.success.number)
        return { token, cardId }
      }

      it('status500 answers the 7.2 server problem once and records no charge', async () => {
        const { token, cardId } = await setup()
        subject.injectFault({ kind: 'status500' }, { method: 'POST', path: '/charges', times: 1 })
        const res = await api.post('/charges', chargeBody('f-1', cardId), token)
        expect(res.status).toBe(500)
        expect(await res.json()).toEqual({
          type: expect.any(String),
          title: expect.any(String),
          status: 500,
        })
        expect(subject.state().charges).toHaveLength(0)
        const retry = await api.post('/charges', chargeBody('f-1', cardId), token)
        expect(await retry.json()).toMatchObject({ status: 'SUCCEEDED' })
      })

      it('processedThen500 records the charge, then answers the 7.2 server problem', async () => {
        const { token, cardId } = await setup()
        subject.injectFault(Faults.processedThen500, { method: 'POST', path: '/charges', times: 1 })
        const res = await api.post('/charges', chargeBody('f-6', cardId), token)
        expect(res.status).toBe(500)
        expect(await res.json()).toEqual({
          type: expect.stringMatching(/7231.*6\.6\.1/),
          title: expect.any(String),
          status: 500,
        })
        expect(subject.state().charges).toHaveLength(1)
        expect(subject.state().charges[0]).toMatchObject({ orderId: 'f-6', status: 'SUCCEEDED' })
        const again = await api.post('/charges', chargeBody('f-6', cardId), token)
        expect(await again.json()).toMatchObject({ error: { code: 'DUPLICATE_ORDER' } })
      })

      it('offContractBody creates the link, then answers its status with JSON off the contract', async () => {
        subject.injectFault(Faults.offContractBody, { path: '/paymentlink/checkout', times: 1 })
        const res = await api.post(
          '/paymentlink/checkout',
          { amount: 7 },
          defaultCredentials.apiKey,
        )
        expect(res.status).toBe(200)
        expect(res.headers.get('content-type')).toMatch(/json/)
        const body = (await res.json()) as Record<string, unknown>
        expect(body).toEqual({ unexpected: 'a body off the contract' })
        expect(subject.state().counters.order).toBe(1)
      })

      it.each(Faults.failures.map((f) => [f.kind, f] as const))(
        '%s: the link exists afterwards exactly when the fault processes the request',
        async (_, failure) => {
          subject.injectFault(failure, { path: '/paymentlink/checkout', times: 1 })
          const before = subject.state().counters.order
          const answer = await api
            .post('/paymentlink/checkout', { amount: 3 }, defaultCredentials.apiKey, {
              signal: AbortSignal.timeout(500),
            })
            .then(async (res) => [res.status, await res.text()] as const)
            .catch((e: unknown) => e)
          const created = subject.state().counters.order - before
          expect(created).toBe(Faults.processesRequest(failure) ? 1 : 0)
          // Whatever the fault, no usable answer (a 200 with the link's order code) came.
          const usable =
            Array.isArray(answer) && answer[0] === 200 && /"orderCode"/.test(String(answer[1]))
          expect(usable).toBe(false)
        },
      )

      it('malformedBody answers a body that is not JSON', async () => {
        const { token, cardId } = await setup()
        subject.injectFault({ kind: 'malformedBody' }, { path: '/charges' })
        const res = await api.post('/charges', chargeBody('f-2', cardId), token)
        await expect(res.json()).rejects.toThrow()
      })

      it('truncatedBody cuts the answer short', async () => {
        const { token, cardId } = await setup()
        subject.injectFault({ kind: 'truncatedBody' }, { path: '/charges', times: 1 })
        const outcome = api
          .post('/charges', chargeBody('f-3', cardId), token)
          .then((res) => res.text())
          .then((text) => JSON.parse(text) as unknown)
        await expect(outcome).rejects.toThrow()
        expect(subject.state().charges).toHaveLength(1)
      })

      it('connectionReset loses the answer after the charge is recorded', async () => {
        const { token, cardId } = await setup()
        subject.injectFault(
          { kind: 'connectionReset' },
          { method: 'POST', path: '/charges', times: 1 },
        )
        await expect(api.post('/charges', chargeBody('f-4', cardId), token)).rejects.toThrow()
        expect(subject.state().charges).toHaveLength(1)
        expect(subject.state().charges[0]).toMatchObject({ orderId: 'f-4', status: 'SUCCEEDED' })
        const again = await api.post('/charges', chargeBody('f-4', cardId), token)
        expect(await again.json()).toMatchObject({ error: { code: 'DUPLICATE_ORDER' } })
      })

      it('hang never answers, so the client timeout fires; the request was processed', async () => {
        const { token, cardId } = await setup()
        subject.injectFault({ kind: 'hang' }, { path: '/charges', times: 1 })
        const started = Date.now()
        await expect(
          api.post('/charges', chargeBody('f-5', cardId), token, {
            signal: AbortSignal.timeout(300),
          }),
        ).rejects.toThrow(/abort|timeout/i)
        expect(Date.now() - started).toBeGreaterThanOrEqual(250)
        expect(subject.state().charges).toHaveLength(1)
      })

      it('latency delays the answer', async () => {
        subject.setLatency(200, { path: '/token', times: 1 })
        const started = Date.now()
        await api.token()
        expect(Date.now() - started).toBeGreaterThanOrEqual(190)
        const second = Date.now()
        await api.token()
        expect(Date.now() - second).toBeLessThan(190)
      })

      it('a fault for the next N requests hits any endpoint', async () => {
        subject.injectFault({ kind: 'status500' }, { times: 2 })
        expect((await api.get('/paymentlink/order/X', defaultCredentials.apiKey)).status).toBe(500)
        expect((await api.post('/token', {})).status).toBe(500)
        expect((await api.post('/token', {})).status).toBe(400)
      })
    })
  })
