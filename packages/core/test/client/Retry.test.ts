import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import type { RequestKind } from '../../src/client/Retry.js'
import {
  decide,
  defaultRetryPolicy,
  delayMs,
  failure,
  isRetryable,
  noRetry,
  response,
} from '../../src/client/Retry.js'
import { transportError } from '../../src/client/Transport.js'

const kinds: ReadonlyArray<RequestKind> = [
  'token',
  'read',
  'paymentMethod',
  'paymentLink',
  'charge',
]
const maybeSent = [
  failure(transportError('reset')),
  failure(transportError('timeout')),
  failure(transportError('body')),
]

describe('Retry', () => {
  it('never repeats a charge that may have been sent, not even when the caller opts in', () => {
    for (const outcome of [...maybeSent, response(500), response(503)]) {
      expect(isRetryable('charge')(outcome)).toBe(false)
      expect(isRetryable('charge', true)(outcome)).toBe(false)
    }
  })

  it('repeats any request that was not sent (refused, DNS)', () => {
    for (const kind of kinds) {
      expect(isRetryable(kind)(failure(transportError('refused')))).toBe(true)
      expect(isRetryable(kind)(failure(transportError('dns')))).toBe(true)
    }
  })

  it('repeats token and GET requests on network errors and 5xx', () => {
    for (const kind of ['token', 'read'] as const)
      for (const outcome of [...maybeSent, response(500), response(502), response(599)])
        expect(isRetryable(kind)(outcome)).toBe(true)
  })

  it('by default never repeats a request that changes state and may have been processed', () => {
    const statefulKinds = ['paymentMethod', 'paymentLink', 'charge'] as const
    for (const kind of statefulKinds)
      for (const outcome of [...maybeSent, response(500), response(503), response(599)]) {
        expect(isRetryable(kind)(outcome)).toBe(false)
        expect(decide(defaultRetryPolicy, kind)(1, outcome)).toEqual({ _tag: 'Stop' })
      }
  })

  it('repeats a payment link that may have been sent only when the caller opts in', () => {
    for (const outcome of [...maybeSent, response(500)]) {
      expect(isRetryable('paymentLink')(outcome)).toBe(false)
      expect(isRetryable('paymentLink', true)(outcome)).toBe(true)
    }
  })

  it('never repeats a cancelled request, a 2xx or a 4xx', () => {
    for (const kind of kinds) {
      expect(isRetryable(kind, true)(failure(transportError('aborted')))).toBe(false)
      for (const status of [200, 201, 400, 401, 404, 429])
        expect(isRetryable(kind, true)(response(status))).toBe(false)
    }
  })

  it('stops at maxAttempts', () => {
    const d = decide({ ...defaultRetryPolicy, maxAttempts: 3 }, 'read')
    expect(d(1, response(500))._tag).toBe('Retry')
    expect(d(2, response(500))._tag).toBe('Retry')
    expect(d(3, response(500))._tag).toBe('Stop')
    expect(decide(noRetry, 'read')(1, response(500))._tag).toBe('Stop')
  })

  it('backs off exponentially up to the cap, with equal jitter', () => {
    const p = { maxAttempts: 10, baseDelayMs: 100, maxDelayMs: 1000, factor: 2 }
    expect([1, 2, 3, 4, 5].map((n) => delayMs(p)(n, 1))).toEqual([100, 200, 400, 800, 1000])
    expect(delayMs(p)(1, 0)).toBe(50)
  })

  test.prop([fc.integer({ min: 1, max: 50 }), fc.double({ min: 0, max: 1, noNaN: true })])(
    'every delay is within [cap/2, cap] and never above maxDelayMs',
    (retry, random) => {
      const d = delayMs(defaultRetryPolicy)(retry, random)
      expect(d).toBeGreaterThanOrEqual(0)
      expect(d).toBeLessThanOrEqual(defaultRetryPolicy.maxDelayMs)
    },
  )
})
