import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import {
  parseSignatureHeader,
  receiveWebhookEvent,
  signWebhook,
  verifyWebhook,
  verifyWebhookEvent,
  WebhookEvent,
} from '../../src/signing/Webhook.js'
import { amountOnlyOrder } from '../fixtures.js'

const secret = 'whsec_test'
const now = new Date('2026-11-22T01:00:00.000Z')
const body = JSON.stringify({ id: 'evt_1', type: 'order.paid' })

const tagOf = (r: E.Either<{ readonly _tag: string }, unknown>): string =>
  E.isLeft(r) ? r.left._tag : 'Right'

describe('signWebhook', () => {
  it('gives t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">', () => {
    // Reference value computed independently: printf '1795309200.{"a":1}' | openssl dgst -sha256 -hmac k
    expect(signWebhook({ secret: 'k', body: '{"a":1}', timestamp: new Date(1795309200_000) })).toBe(
      't=1795309200,v1=c588fc34a4d34c6440e02ed10258f36c4c4a5b20f5fcfe6f75c8e5b93830e26e',
    )
  })
})

describe('verifyWebhook', () => {
  it('accepts its own signature', () => {
    const header = signWebhook({ secret, body, timestamp: now })
    expect(verifyWebhook({ secret, body, header, now })).toEqual(
      E.right(new Date(Math.floor(now.getTime() / 1000) * 1000)),
    )
  })

  it('accepts a Uint8Array body signed as a string', () => {
    const header = signWebhook({ secret, body, timestamp: now })
    const bytes = new TextEncoder().encode(body)
    expect(E.isRight(verifyWebhook({ secret, body: bytes, header, now }))).toBe(true)
  })

  it.each([
    ['missing header', undefined],
    ['empty header', ''],
    ['no timestamp', `v1=${'a'.repeat(64)}`],
    ['no signature', 't=1795309200'],
    ['bad hex', 't=1795309200,v1=xyz'],
    ['two timestamps', `t=1,t=2,v1=${'a'.repeat(64)}`],
    ['garbage', 'hello'],
  ])('refuses a malformed header (%s)', (_, header) => {
    expect(tagOf(verifyWebhook({ secret, body, header, now }))).toBe('MalformedHeader')
  })

  it('refuses a timestamp just outside the tolerance and accepts one at its edge', () => {
    const header = signWebhook({ secret, body, timestamp: now })
    const at = (s: number) => new Date(now.getTime() + s * 1000)
    expect(tagOf(verifyWebhook({ secret, body, header, now: at(300) }))).toBe('Right')
    expect(tagOf(verifyWebhook({ secret, body, header, now: at(301) }))).toBe(
      'TimestampOutsideTolerance',
    )
    expect(tagOf(verifyWebhook({ secret, body, header, now: at(-301) }))).toBe(
      'TimestampOutsideTolerance',
    )
    expect(
      tagOf(verifyWebhook({ secret, body, header, now: at(301), toleranceSeconds: 600 })),
    ).toBe('Right')
  })

  it('accepts any of several v1 signatures (secret rotation)', () => {
    const good = signWebhook({ secret, body, timestamp: now })
    const [t, v1] = good.split(',')
    const header = `${t},v1=${'0'.repeat(64)},${v1}`
    expect(tagOf(verifyWebhook({ secret, body, header, now }))).toBe('Right')
  })

  // A blank secret is refused whatever it signed (fails closed: below), so not one of these.
  const usableSecret = fc.string({ minLength: 1 }).filter((s) => s.trim() !== '')

  test.prop([fc.string(), usableSecret, fc.nat({ max: 2_000_000_000 })])(
    'verifies whatever it signed',
    (b, s, seconds) => {
      const timestamp = new Date(seconds * 1000)
      const header = signWebhook({ secret: s, body: b, timestamp })
      expect(tagOf(verifyWebhook({ secret: s, body: b, header, now: timestamp }))).toBe('Right')
    },
  )

  test.prop([fc.string({ minLength: 1 }), fc.nat(), fc.integer({ min: 0, max: 0xffff })])(
    'refuses a tampered body (any character changed)',
    (b, i, code) => {
      const index = i % b.length
      const tampered = b.slice(0, index) + String.fromCharCode(code) + b.slice(index + 1)
      fc.pre(tampered !== b)
      const header = signWebhook({ secret, body: b, timestamp: now })
      expect(tagOf(verifyWebhook({ secret, body: tampered, header, now }))).toBe(
        'SignatureMismatch',
      )
    },
  )

  test.prop([fc.string(), fc.string({ minLength: 1 })])(
    'refuses a signature made with another secret',
    (b, other) => {
      fc.pre(other !== secret)
      const header = signWebhook({ secret: other, body: b, timestamp: now })
      expect(tagOf(verifyWebhook({ secret, body: b, header, now }))).toBe('SignatureMismatch')
    },
  )

  test.prop([fc.string(), fc.integer({ min: 1, max: 10_000_000 })])(
    'refuses a replay with the timestamp moved (the signature covers t)',
    (b, shift) => {
      const header = signWebhook({ secret, body: b, timestamp: now })
      const t = Math.floor(now.getTime() / 1000)
      const replayed = header.replace(`t=${t}`, `t=${t + shift}`)
      const later = new Date((t + shift) * 1000)
      expect(tagOf(verifyWebhook({ secret, body: b, header: replayed, now: later }))).toBe(
        'SignatureMismatch',
      )
    },
  )

  test.prop([fc.string(), fc.integer({ min: 301, max: 10_000_000 })])(
    'refuses an old delivery replayed later than the tolerance',
    (b, later) => {
      const header = signWebhook({ secret, body: b, timestamp: now })
      const replayAt = new Date(now.getTime() + later * 1000)
      expect(tagOf(verifyWebhook({ secret, body: b, header, now: replayAt }))).toBe(
        'TimestampOutsideTolerance',
      )
    },
  )

  test.prop([fc.string()])('never throws on any header', (header) => {
    expect(() => verifyWebhook({ secret, body, header, now })).not.toThrow()
  })

  it('parses the header parts', () => {
    expect(parseSignatureHeader(`t=12,v1=${'ab'.repeat(32)}`)).toEqual(
      E.right({ timestamp: 12, v1: ['ab'.repeat(32)] }),
    )
  })
})

describe('verifyWebhook fails closed', () => {
  const header = signWebhook({ secret, body, timestamp: now })

  it.each([
    ['empty', ''],
    ['blank', '   '],
  ])('refuses any signature when the secret is %s, saying why', (_, empty) => {
    // Even a header signed with that very (empty) secret.
    const forged = signWebhook({ secret: empty, body, timestamp: now })
    const r = verifyWebhook({ secret: empty, body, header: forged, now })
    expect(tagOf(r)).toBe('SignatureMismatch')
    expect(E.isLeft(r) && r.left.message).toMatch(/no webhook secret is set/)
  })

  it('refuses a missing secret passed by untyped code instead of throwing', () => {
    const r = verifyWebhook({ secret: undefined as unknown as string, body, header, now })
    expect(tagOf(r)).toBe('SignatureMismatch')
  })

  it.each([
    ['an invalid now', { now: new Date(Number.NaN) }],
    ['a NaN tolerance', { toleranceSeconds: Number.NaN }],
    ['an infinite tolerance', { toleranceSeconds: Number.POSITIVE_INFINITY }],
    ['a negative tolerance', { toleranceSeconds: -1 }],
  ])('treats %s as a failed timestamp check, not as no check', (_, extra) => {
    const r = verifyWebhook({ secret, body, header, now, ...extra })
    expect(tagOf(r)).toBe('TimestampOutsideTolerance')
  })

  it('refuses a stale signature even with an infinite tolerance', () => {
    const old = signWebhook({ secret, body, timestamp: new Date(0) })
    const r = verifyWebhook({ secret, body, header: old, now, toleranceSeconds: Infinity })
    expect(tagOf(r)).toBe('TimestampOutsideTolerance')
  })
})

describe('verifyWebhook: the header as Node gives a repeated one (an array)', () => {
  const header = signWebhook({ secret, body, timestamp: now })

  it('uses a single value, or the same value repeated', () => {
    expect(tagOf(verifyWebhook({ secret, body, header: [header], now }))).toBe('Right')
    expect(tagOf(verifyWebhook({ secret, body, header: [header, header], now }))).toBe('Right')
  })

  it('refuses different values, an empty array and non-strings, without throwing', () => {
    const other = signWebhook({ secret: 'other', body, timestamp: now })
    const r = verifyWebhook({ secret, body, header: [other, header], now })
    expect(tagOf(r)).toBe('MalformedHeader')
    expect(E.isLeft(r) && r.left.message).toMatch(/different values/)
    expect(tagOf(verifyWebhook({ secret, body, header: [], now }))).toBe('MalformedHeader')
    const odd = [1, header] as unknown as ReadonlyArray<string>
    expect(tagOf(verifyWebhook({ secret, body, header: odd, now }))).toBe('MalformedHeader')
  })
})

describe('verifyWebhook: the body as a string, a Buffer or a Uint8Array, byte-exact', () => {
  it('verifies a Buffer and a Uint8Array signed over the same bytes', () => {
    const bytes = new TextEncoder().encode(body)
    const header = signWebhook({ secret, body: bytes, timestamp: now })
    expect(tagOf(verifyWebhook({ secret, body: Buffer.from(bytes), header, now }))).toBe('Right')
    expect(tagOf(verifyWebhook({ secret, body: bytes, header, now }))).toBe('Right')
    expect(tagOf(verifyWebhook({ secret, body, header, now }))).toBe('Right')
  })

  it('verifies bytes that are not valid UTF-8 over those exact bytes', () => {
    const bytes = Uint8Array.from([0x7b, 0xff, 0xfe, 0x80, 0x7d])
    const header = signWebhook({ secret, body: bytes, timestamp: now })
    expect(tagOf(verifyWebhook({ secret, body: bytes, header, now }))).toBe('Right')
    // Decoding to text would replace the bad bytes: that text does not verify.
    const lossy = new TextDecoder().decode(bytes)
    expect(tagOf(verifyWebhook({ secret, body: lossy, header, now }))).toBe('SignatureMismatch')
    const changed = Uint8Array.from([0x7b, 0xff, 0xfe, 0x81, 0x7d])
    expect(tagOf(verifyWebhook({ secret, body: changed, header, now }))).toBe('SignatureMismatch')
  })
})

const orderDetails = amountOnlyOrder({ orderStatus: 'PAID' })

describe('WebhookEvent', () => {
  const event = {
    id: 'evt_000001',
    type: 'order.cancelled',
    createdAt: '2026-11-22T01:00:00.000Z',
    data: orderDetails,
  }

  it('decodes an order event', () => {
    expect(E.isRight(WebhookEvent.decode(event))).toBe(true)
  })

  it('refuses an unknown event type, naming type', () => {
    const r = verifyWebhookEvent({
      secret,
      body: JSON.stringify({ ...event, type: 'order.refunded' }),
      header: signWebhook({
        secret,
        body: JSON.stringify({ ...event, type: 'order.refunded' }),
        timestamp: now,
      }),
      now,
    })
    expect(E.isLeft(r) && r.left).toMatch(/^webhook body is not an order event: type/)
  })

  it('verifies and decodes a signed event in one call', () => {
    const raw = JSON.stringify(event)
    const header = signWebhook({ secret, body: raw, timestamp: now })
    const r = verifyWebhookEvent({ secret, body: raw, header, now })
    expect(E.isRight(r) && r.right.type).toBe('order.cancelled')
    expect(E.isLeft(verifyWebhookEvent({ secret, body: raw + ' ', header, now }))).toBe(true)
  })

  it('verifies and decodes the body given as a Buffer or a Uint8Array', () => {
    const bytes = new TextEncoder().encode(JSON.stringify(event))
    const header = signWebhook({ secret, body: bytes, timestamp: now })
    for (const b of [bytes, Buffer.from(bytes)]) {
      const r = verifyWebhookEvent({ secret, body: b, header, now })
      expect(E.isRight(r) && r.right.id).toBe('evt_000001')
    }
  })

  it('reads signed bytes that are not UTF-8 as Buffer#toString does (U+FFFD)', () => {
    const text = JSON.stringify({ ...event, id: 'evt_@' })
    const at = text.indexOf('@')
    const bytes = Buffer.concat([
      Buffer.from(text.slice(0, at)),
      Uint8Array.from([0xff]),
      Buffer.from(text.slice(at + 1)),
    ])
    const header = signWebhook({ secret, body: bytes, timestamp: now })
    const r = verifyWebhookEvent({ secret, body: bytes, header, now })
    expect(E.isRight(r) && r.right.id).toBe('evt_\ufffd')
    const notJson = Uint8Array.from([0x7b, 0xff, 0x7d])
    const signed = signWebhook({ secret, body: notJson, timestamp: now })
    expect(verifyWebhookEvent({ secret, body: notJson, header: signed, now })).toEqual(
      E.left('webhook body is not JSON'),
    )
  })

  it('refuses a body that starts with a byte-order mark as not JSON, as JSON.parse does', () => {
    const bytes = Buffer.concat([
      Uint8Array.from([0xef, 0xbb, 0xbf]),
      Buffer.from(JSON.stringify(event)),
    ])
    const header = signWebhook({ secret, body: bytes, timestamp: now })
    expect(verifyWebhookEvent({ secret, body: bytes, header, now })).toEqual(
      E.left('webhook body is not JSON'),
    )
  })
})

describe('receiveWebhookEvent', () => {
  const event = {
    id: 'evt_000001',
    type: 'order.cancelled',
    createdAt: '2026-11-22T01:00:00.000Z',
    data: orderDetails,
  }
  const raw = JSON.stringify(event)
  const header = signWebhook({ secret, body: raw, timestamp: new Date(now.getTime() - 7000) })

  it('gives the event and its signed time', () => {
    const r = receiveWebhookEvent({ secret, body: Buffer.from(raw), header, now })
    expect(E.isRight(r) && r.right.event.id).toBe('evt_000001')
    expect(E.isRight(r) && r.right.signedAt).toEqual(new Date(now.getTime() - 7000))
  })

  it('tells a refused signature, a body that is not JSON and one that is not an event apart', () => {
    expect(tagOf(receiveWebhookEvent({ secret: 'other', body: raw, header, now }))).toBe(
      'SignatureMismatch',
    )
    expect(tagOf(receiveWebhookEvent({ secret, body: raw, header: 'v1=ab', now }))).toBe(
      'MalformedHeader',
    )
    expect(receiveWebhookEvent({ unsigned: true, body: 'order paid!' })).toEqual(
      E.left({ _tag: 'NotJson', message: 'webhook body is not JSON' }),
    )
    const r = receiveWebhookEvent({ unsigned: true, body: JSON.stringify({ ...event, id: 7 }) })
    expect(E.isLeft(r) && r.left).toMatchObject({
      _tag: 'NotAnEvent',
      message: 'webhook body is not an order event: id: must be a string, got a number',
      errors: [{ path: 'id', message: 'must be a string, got a number' }],
    })
  })

  it('reads nothing of a body whose signature is refused', () => {
    const r = receiveWebhookEvent({ secret, body: 'order paid!', header, now })
    expect(tagOf(r)).toBe('SignatureMismatch')
  })

  it('decodes an unsigned body, raw or already parsed, with no signed time', () => {
    const decoded = WebhookEvent.decode(event)
    expect(E.isRight(decoded)).toBe(true)
    for (const input of [
      { unsigned: true, body: raw },
      { unsigned: true, json: JSON.parse(raw) as unknown },
    ] as const) {
      const r = receiveWebhookEvent(input)
      expect(E.isRight(r) && r.right).toEqual({
        event: E.isRight(decoded) && decoded.right,
        signedAt: undefined,
      })
    }
  })

  it('reads only the verified body of a signed webhook, whatever else it is given', () => {
    const other = { ...event, id: 'evt_forged' }
    const input = { secret, body: raw, header, now, json: other, unsigned: false }
    const r = receiveWebhookEvent(input as Parameters<typeof receiveWebhookEvent>[0])
    expect(E.isRight(r) && r.right.event.id).toBe('evt_000001')
  })

  it('verifies unless unsigned is said: an empty secret still fails closed', () => {
    expect(tagOf(receiveWebhookEvent({ secret: '', body: raw, header, now }))).toBe(
      'SignatureMismatch',
    )
  })
})
