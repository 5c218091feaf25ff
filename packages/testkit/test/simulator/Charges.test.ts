import { ChargeResponse } from '@paykit/core/codecs'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { advanceClock, completeAuthentication } from '../../src/simulator/Simulator.js'
import { testCards } from '../../src/simulator/TestCards.js'
import { at, baseUrl, bearer, request, session, t0 } from './support.js'

const billingInfo = { countryCode: 'US', stateCode: 'CA', zipCode: '94105' }

const setup = (number: string = testCards.success.number) => {
  const s = session()
  const tok = s.token()
  const cardId = s.paymentMethod(tok, number)
  const charge = (body: Record<string, unknown> = {}, when?: Date) =>
    s.send(
      request(
        'POST',
        '/charges',
        { order: { id: 'order-1', amount: 25.5, name: 'Mug' }, cardId, ...body },
        bearer(tok),
      ),
      when,
    )
  return { s, tok, cardId, charge }
}

const decodes = (body: unknown) => expect(E.isRight(ChargeResponse.decode(body))).toBe(true)

describe('POST /charges outcomes by test card', () => {
  it('SUCCEEDED: order id, reference, amount, currency USD, authorization code, createdAt of the clock', () => {
    const { charge } = setup()
    const r = charge({}, at(1234))
    expect(r.status).toBe(200)
    const body = r.json()
    decodes(body)
    expect(body).toEqual({
      status: 'SUCCEEDED',
      message: expect.any(String),
      error: null,
      authentication: null,
      order: {
        id: expect.any(String),
        reference: 'order-1',
        amount: 25.5,
        currency: 'USD',
        authorizationCode: expect.stringMatching(/^\d{6}$/),
      },
      createdAt: '2026-11-22T01:00:01.234Z',
    })
  })

  it.each([
    [testCards.fraudPrevent.number, 'FRAUD_PREVENT'],
    [testCards.declined.number, 'CARD_DECLINED'],
  ])('FAILED for %s with code %s', (number, code) => {
    const body = setup(number).charge().json()
    decodes(body)
    expect(body).toMatchObject({
      status: 'FAILED',
      error: { code, message: expect.any(String) },
      authentication: null,
      order: null,
    })
  })

  it('a second charge of an order that succeeded is FAILED DUPLICATE_ORDER', () => {
    const { charge } = setup()
    expect(charge().json().status).toBe('SUCCEEDED')
    expect(charge().json()).toMatchObject({ status: 'FAILED', error: { code: 'DUPLICATE_ORDER' } })
    expect(charge({ order: { id: 'order-2', amount: 1 } }).json().status).toBe('SUCCEEDED')
  })

  it('a failed order can be charged again', () => {
    const { s, tok, charge } = setup(testCards.declined.number)
    expect(charge().json().status).toBe('FAILED')
    const good = s.paymentMethod(tok)
    expect(charge({ cardId: good }).json().status).toBe('SUCCEEDED')
  })
})

describe('billingInfo rule', () => {
  it.each([
    ['USA', testCards.successUsa.number],
    ['CAN', testCards.successCanada.number],
    ['USA (3DS)', testCards.authenticationUsa.number],
  ])('400 naming billingInfo for a %s card without it', (_, number) => {
    const { charge } = setup(number)
    const r = charge()
    expect(r.status).toBe(400)
    expect(r.json()).toMatchObject({ status: 400, errors: { billingInfo: expect.any(Array) } })
    expect(charge({ billingInfo }).status).toBe(200)
  })

  it('billingInfo is optional for a CRI card', () => {
    expect(setup().charge().json().status).toBe('SUCCEEDED')
  })

  it('400 naming the billingInfo field that breaks a rule', () => {
    const r = setup(testCards.successUsa.number).charge({
      billingInfo: { ...billingInfo, zipCode: '' },
    })
    expect(Object.keys(r.json().errors)).toEqual(['billingInfo.zipCode'])
  })
})

describe('request validation', () => {
  it.each([
    ['order.amount', { order: { id: 'o', amount: 0 } }],
    ['order.amount', { order: { id: 'o', amount: -1 } }],
    ['order.id', { order: { amount: 5 } }],
    ['cardId', { cardId: '' }],
    ['cardId', { cardId: 'pm_unknown' }],
  ])('400 naming %s', (field, body) => {
    const r = setup().charge(body)
    expect(r.status).toBe(400)
    expect(Object.keys(r.json().errors)).toContain(field)
  })

  it('a refused charge is not recorded', () => {
    const { s, charge } = setup()
    charge({ order: { id: 'o', amount: 0 } })
    expect(s.state.charges).toEqual([])
  })
})

describe('3DS', () => {
  const start = () => {
    const ctx = setup(testCards.authentication.number)
    const body = ctx.charge().json()
    return { ...ctx, body, id: body.authentication.id as string }
  }

  it('AUTHENTICATION_REQUIRED gives the frame URL on the base URL and an id', () => {
    const { body, id } = start()
    decodes(body)
    expect(body).toMatchObject({
      status: 'AUTHENTICATION_REQUIRED',
      error: null,
      order: null,
      authentication: { url: `${baseUrl}/3ds/${id}`, id },
    })
  })

  it('repeating with a SUCCESS authentication succeeds', () => {
    const { s, id, charge } = start()
    s.state = E.getOrElseW(() => s.state)(completeAuthentication(s.state, id, 'success', t0))
    const r = charge({ authenticationId: id }).json()
    expect(r.status).toBe('SUCCEEDED')
    expect(r.order.reference).toBe('order-1')
  })

  it('the frame URL with ?result=success records it (automation without a browser)', () => {
    const { s, body, charge } = start()
    const path = new URL(body.authentication.url).pathname
    expect(s.send(request('GET', `${path}?result=success`)).status).toBe(200)
    expect(charge({ authenticationId: body.authentication.id }).json().status).toBe('SUCCEEDED')
  })

  it.each(['failed', 'error', 'expired'] as const)(
    'repeating with a %s authentication is FAILED AUTHENTICATION_FAILED',
    (result) => {
      const { s, id, charge } = start()
      s.state = E.getOrElseW(() => s.state)(completeAuthentication(s.state, id, result, t0))
      expect(charge({ authenticationId: id }).json()).toMatchObject({
        status: 'FAILED',
        error: { code: 'AUTHENTICATION_FAILED' },
      })
    },
  )

  it('a pending or unknown authentication is FAILED AUTHENTICATION_FAILED', () => {
    const { id, charge } = start()
    expect(charge({ authenticationId: id }).json().error.code).toBe('AUTHENTICATION_FAILED')
    expect(charge({ authenticationId: 'auth_nope' }).json().error.code).toBe(
      'AUTHENTICATION_FAILED',
    )
  })

  it('an authentication is bound to its order id, card and amount', () => {
    const { s, tok, id, charge } = start()
    s.state = E.getOrElseW(() => s.state)(completeAuthentication(s.state, id, 'success', t0))
    const other = s.paymentMethod(tok, testCards.authentication.number)
    const failedWith = (body: Record<string, unknown>) =>
      charge({ authenticationId: id, ...body }).json().error?.code
    expect(failedWith({ order: { id: 'order-2', amount: 25.5 } })).toBe('AUTHENTICATION_FAILED')
    expect(failedWith({ cardId: other })).toBe('AUTHENTICATION_FAILED')
    expect(failedWith({ order: { id: 'order-1', amount: 99 } })).toBe('AUTHENTICATION_FAILED')
    expect(charge({ authenticationId: id }).json().status).toBe('SUCCEEDED')
  })

  it('an authentication not completed within 10 minutes of the clock expires', () => {
    const { s, id, charge } = start()
    s.state = advanceClock(s.state, 10 * 60 * 1000, t0)
    expect(s.state.authentications[id]?.status).toBe('EXPIRED')
    expect(E.isLeft(completeAuthentication(s.state, id, 'success', t0))).toBe(true)
    expect(charge({ authenticationId: id }).json().error.code).toBe('AUTHENTICATION_FAILED')
  })

  it('a result is recorded once', () => {
    const { s, id } = start()
    s.state = E.getOrElseW(() => s.state)(completeAuthentication(s.state, id, 'failed', t0))
    expect(completeAuthentication(s.state, id, 'success', t0)).toEqual(
      E.left(expect.stringContaining('FAILED')),
    )
  })
})
