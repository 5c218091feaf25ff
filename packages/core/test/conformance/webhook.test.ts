// Conformance: webhook signatures (docs/service.md#order-events-webhooks): header `t=<unix>,v1=<hex
// HMAC-SHA256 of "t.body">`, checked against node:crypto directly; timestamp tolerance; tampering.
import { createHmac } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { signWebhook, verifyWebhook, verifyWebhookEvent } from '@paykit/core/webhook'
import * as S from './samples.js'

const secret = 'whsec_test_123'
const at = new Date('2026-01-02T03:04:05.000Z')
const unix = Math.floor(at.getTime() / 1000)
const body = JSON.stringify({
  id: 'evt_1',
  type: 'order.paid',
  createdAt: '2026-01-02T03:04:05.000Z',
  data: { ...S.orderDetails, orderStatus: 'PAID' },
})
const hmac = (t: number, b: string, key = secret): string =>
  createHmac('sha256', key).update(`${t}.${b}`).digest('hex')

describe('signWebhook', () => {
  it('is t=<unix>,v1=<hex HMAC-SHA256 of "t.body">', () => {
    expect(signWebhook({ secret, body, timestamp: at })).toBe(`t=${unix},v1=${hmac(unix, body)}`)
  })
  it('signs bytes like the same text', () => {
    expect(signWebhook({ secret, body: new TextEncoder().encode(body), timestamp: at })).toBe(
      `t=${unix},v1=${hmac(unix, body)}`,
    )
  })
})

describe('verifyWebhook', () => {
  const header = `t=${unix},v1=${hmac(unix, body)}`
  it('accepts a header made with node:crypto directly', () => {
    expect(E.isRight(verifyWebhook({ secret, body, header, now: at }))).toBe(true)
  })
  it('accepts within the tolerance (default 300 s) and refuses outside it', () => {
    const plus = (s: number) => new Date(at.getTime() + s * 1000)
    expect(E.isRight(verifyWebhook({ secret, body, header, now: plus(299) }))).toBe(true)
    expect(E.isRight(verifyWebhook({ secret, body, header, now: plus(-299) }))).toBe(true)
    const late = verifyWebhook({ secret, body, header, now: plus(301) })
    expect(E.isLeft(late) && late.left._tag).toBe('TimestampOutsideTolerance')
    const early = verifyWebhook({ secret, body, header, now: plus(-301) })
    expect(E.isLeft(early) && early.left._tag).toBe('TimestampOutsideTolerance')
    expect(
      E.isRight(verifyWebhook({ secret, body, header, now: plus(1000), toleranceSeconds: 1200 })),
    ).toBe(true)
  })
  it('refuses a tampered body, a wrong secret, a re-stamped header', () => {
    const tampered = verifyWebhook({
      secret,
      body: body.replace('PAID', 'CANCELLED'),
      header,
      now: at,
    })
    expect(E.isLeft(tampered) && tampered.left._tag).toBe('SignatureMismatch')
    const wrongKey = verifyWebhook({ secret: 'other', body, header, now: at })
    expect(E.isLeft(wrongKey) && wrongKey.left._tag).toBe('SignatureMismatch')
    const restamped = verifyWebhook({
      secret,
      body,
      header: `t=${unix + 1},v1=${hmac(unix, body)}`,
      now: at,
    })
    expect(E.isLeft(restamped) && restamped.left._tag).toBe('SignatureMismatch')
    const flipped = hmac(unix, body).replace(/^./, (c) => (c === '0' ? '1' : '0'))
    const oneChar = verifyWebhook({ secret, body, header: `t=${unix},v1=${flipped}`, now: at })
    expect(E.isLeft(oneChar) && oneChar.left._tag).toBe('SignatureMismatch')
  })
  it('refuses a missing or malformed header', () => {
    for (const bad of [
      undefined,
      '',
      'garbage',
      `v1=${hmac(unix, body)}`,
      `t=${unix}`,
      `t=abc,v1=${hmac(unix, body)}`,
    ]) {
      const r = verifyWebhook({ secret, body, header: bad, now: at })
      expect(E.isLeft(r)).toBe(true)
    }
  })
  it('verifyWebhookEvent verifies then decodes the event', () => {
    const r = verifyWebhookEvent({ secret, body, header, now: at })
    expect(E.isRight(r) && r.right.type).toBe('order.paid')
    expect(E.isLeft(verifyWebhookEvent({ secret, body: body + ' ', header, now: at }))).toBe(true)
  })
})
