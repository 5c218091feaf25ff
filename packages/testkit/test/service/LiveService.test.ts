import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Faults from '../../src/service/Faults.js'
import { makeLiveService, type ServiceEvent } from '../../src/service/LiveService.js'
import type { SimRequest } from '../../src/simulator/Http.js'
import { defaultCredentials } from '../../src/simulator/TestCards.js'

const BASE = 'http://sandbox.test'
const json = (method: string, path: string, body: unknown, bearer?: string): SimRequest => ({
  method,
  path,
  headers: {
    'content-type': 'application/json',
    ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
  },
  body: JSON.stringify(body),
})
const tokenRequest = json('POST', '/token', {
  clientId: defaultCredentials.clientId,
  clientSecret: defaultCredentials.clientSecret,
})
const linkRequest = json('POST', '/paymentlink/checkout', { amount: 10 }, defaultCredentials.apiKey)

describe('makeLiveService', () => {
  it('threads the state from one exchange to the next', () => {
    const service = makeLiveService({ baseUrl: BASE })
    const token = (
      JSON.parse(service.exchange(tokenRequest).response.body) as { accessToken: string }
    ).accessToken
    expect(Object.keys(service.state().tokens)).toEqual([token])
  })

  it('tells listeners only the events a change adds', () => {
    const service = makeLiveService({ baseUrl: BASE })
    const seen: Array<ReadonlyArray<ServiceEvent>> = []
    const unsubscribe = service.onEvents((events) => seen.push(events))
    const codes = [1, 2].map(
      () =>
        (JSON.parse(service.exchange(linkRequest).response.body) as { orderCode: string })
          .orderCode,
    )
    expect(seen).toEqual([])
    expect(service.payOrder(codes[0] ?? '')).toEqual(E.right(undefined))
    expect(service.cancelOrder(codes[1] ?? '')).toEqual(E.right(undefined))
    expect(seen.map((batch) => batch.map((e) => e.type))).toEqual([
      ['order.paid'],
      ['order.cancelled'],
    ])
    unsubscribe()
    expect(service.finalizeOrder(codes[0] ?? '')).toEqual(E.right(undefined))
    expect(seen).toHaveLength(2)
    expect(service.events()).toHaveLength(3)
  })

  it('reports refused moves as Left with the reason', () => {
    const service = makeLiveService({ baseUrl: BASE })
    expect(E.isLeft(service.payOrder('NOPE'))).toBe(true)
    expect(E.isLeft(service.completeAuthentication('nope', 'success'))).toBe(true)
  })

  it('does not run the simulator for status500 and runs it for a reset connection', () => {
    const service = makeLiveService({ baseUrl: BASE })
    service.injectFault(Faults.status500, { times: 1 })
    expect(service.exchange(tokenRequest).response.status).toBe(500)
    expect(service.state().tokens).toEqual({})
    service.injectFault(Faults.connectionReset, { times: 1 })
    const { decision } = service.exchange(tokenRequest)
    expect(decision.failure).toEqual(Faults.connectionReset)
    expect(Object.keys(service.state().tokens)).toHaveLength(1)
    expect(service.requests().map((r) => [r.status, r.fault])).toEqual([
      [500, 'status500'],
      [undefined, 'connectionReset'],
    ])
  })

  it('spoils the body for malformedBody and keeps the status', () => {
    const service = makeLiveService({ baseUrl: BASE })
    service.injectFault(Faults.malformedBody)
    const { response } = service.exchange(tokenRequest)
    expect(response.status).toBe(200)
    expect(() => JSON.parse(response.body) as unknown).toThrow()
  })

  it('uses the given wall clock, plus the advanced offset', () => {
    let now = new Date('2030-01-01T00:00:00.000Z')
    const service = makeLiveService({ baseUrl: BASE, now: () => now })
    const token = (
      JSON.parse(service.exchange(tokenRequest).response.body) as { accessToken: string }
    ).accessToken
    const card = json('POST', '/paymentmethods', {}, token)
    expect(service.exchange(card).response.status).not.toBe(401)
    now = new Date('2030-01-01T00:59:00.000Z')
    service.advanceClock(2 * 60 * 1000)
    expect(service.exchange(card).response.status).toBe(401)
  })

  it('reset forgets state, faults and log', () => {
    const service = makeLiveService({ baseUrl: BASE })
    service.exchange(tokenRequest)
    service.injectFault(Faults.hang)
    service.reset()
    expect(service.requests()).toEqual([])
    expect(service.faults()).toEqual(Faults.empty)
    expect(service.state().tokens).toEqual({})
  })
})

describe('events handed to listeners', () => {
  it('every event of a step reaches the listeners, even more than eventLogSize at once', () => {
    const service = makeLiveService({ baseUrl: 'http://sandbox.test', eventLogSize: 2 })
    const received: Array<string> = []
    service.onEvents((events) => received.push(...events.map((e) => e.data.orderCode)))
    const codes = [1, 2, 3, 4, 5].map(
      () =>
        JSON.parse(
          service.exchange({
            method: 'POST',
            path: '/paymentlink/checkout',
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${defaultCredentials.apiKey}`,
            },
            body: JSON.stringify({ amount: 3, expirationMinutes: 1 }),
          }).response.body,
        ).orderCode as string,
    )
    service.advanceClock(2 * 60_000)
    service.advanceClock(0)
    expect(received).toEqual(codes)
    expect(service.events().map((e) => e.data.orderCode)).toEqual(codes.slice(3))
  })
})
