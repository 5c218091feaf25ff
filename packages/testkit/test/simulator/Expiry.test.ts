import { describe, expect, it } from 'vitest'
import { advanceClock, eventsOf, handle } from '../../src/simulator/Simulator.js'
import { eventCountOf, eventsSince, initialState } from '../../src/simulator/State.js'
import { defaultCredentials } from '../../src/simulator/TestCards.js'
import { bearer, request, session, t0 } from './support.js'

const apiKey = bearer(defaultCredentials.apiKey)
const minute = 60_000

const create = (s: ReturnType<typeof session>, expirationMinutes: number): string =>
  s.send(request('POST', '/paymentlink/checkout', { amount: 5, expirationMinutes }, apiKey)).json()
    .orderCode

const read = (s: ReturnType<typeof session>, code: string) =>
  s.send(request('GET', `/paymentlink/order/${code}`, undefined, apiKey))

describe('expiry through the time index', () => {
  it('emits order.cancelled exactly once per expired link, in order-id order, however often it runs', () => {
    const s = session()
    const late = create(s, 30)
    const early = create(s, 10)
    const kept = create(s, 120)
    s.state = advanceClock(s.state, 31 * minute, t0)
    for (let i = 0; i < 5; i++) s.state = advanceClock(s.state, 0, t0)
    read(s, late)
    const events = eventsOf(s.state)
    expect(events.map((e) => [e.type, e.data.orderCode])).toEqual([
      ['order.cancelled', late],
      ['order.cancelled', early],
    ])
    expect(read(s, kept).json().orderStatus).toBe('PENDING')
  })

  it('drops an order retentionSeconds past its expiry (GET is then 404); an unexpired one stays', () => {
    const s = session({ retentionSeconds: 3600 })
    const short = create(s, 10)
    const long = create(s, 24 * 60)
    s.state = advanceClock(s.state, 10 * minute + 3600_000 - 1, t0)
    expect(read(s, short).json().orderStatus).toBe('CANCELLED')
    s.state = advanceClock(s.state, 1, t0)
    expect(read(s, short).status).toBe(404)
    expect(read(s, long).json().orderStatus).toBe('PENDING')
    expect(Object.keys(s.state.orders)).toEqual([long])
  })

  it('a clock jump past expiry and retention at once cancels (one event) and drops the order', () => {
    const s = session({ retentionSeconds: 60 })
    const code = create(s, 1)
    s.state = advanceClock(s.state, 365 * 24 * 60 * minute, t0)
    expect(read(s, code).status).toBe(404)
    expect(eventsOf(s.state).map((e) => e.type)).toEqual(['order.cancelled'])
  })

  it('drops an expired token after the retention window: 401 "expired" before, "not valid" after', () => {
    const s = session({ tokenLifetimeSeconds: 60, retentionSeconds: 60 })
    const token = s.token()
    const get = () => s.send(request('GET', '/paymentlink/order/OC1', undefined, bearer(token)))
    s.state = advanceClock(s.state, 60_000, t0)
    expect(get().json().detail).toMatch(/expired/)
    s.state = advanceClock(s.state, 60_000, t0)
    expect(get().json().detail).toMatch(/not valid|neither/)
    expect(Object.keys(s.state.tokens)).toEqual([])
  })

  it('keeps the last eventLogSize events, and every event of the latest step for the adapters', () => {
    const s = session({ eventLogSize: 2, retentionSeconds: 60 })
    const codes = [1, 2, 3, 4, 5].map(() => create(s, 1))
    const before = eventCountOf(s.state)
    s.state = advanceClock(s.state, 2 * minute, t0)
    expect(eventsSince(s.state, before).map((e) => e.data.orderCode)).toEqual(codes)
    expect(eventsOf(s.state).map((e) => e.data.orderCode)).toEqual(codes.slice(3))
    s.state = advanceClock(s.state, 0, t0)
    expect(eventsOf(s.state).map((e) => e.data.orderCode)).toEqual(codes.slice(3))
    expect(eventCountOf(s.state)).toBe(5)
  })

  it('an older state is untouched by later requests (structural sharing, no mutation)', () => {
    const state0 = initialState({ baseUrl: 'http://sandbox.test' })
    const [s1, r1] = handle(
      state0,
      request('POST', '/paymentlink/checkout', { amount: 1 }, apiKey),
      t0,
    )
    const code = JSON.parse(r1.body).orderCode as string
    const snapshot = JSON.stringify(s1)
    const [s2] = handle(s1, request('POST', '/paymentlink/checkout', { amount: 2 }, apiKey), t0)
    const s3 = advanceClock(s2, 3 * 24 * 60 * minute, t0)
    expect(JSON.stringify(s1)).toBe(snapshot)
    expect(Object.keys(s1.orders)).toEqual([code])
    expect(Object.keys(s2.orders)).toHaveLength(2)
    expect(Object.keys(s3.orders)).toHaveLength(0)
    expect(eventsOf(s1)).toEqual([])
    expect(eventsOf(s3)).toHaveLength(2)
  })
})
