// Issue 10, webhooks: `verifyWebhook` / `verifyWebhookEvent` of the core reject a forged
// signature, a tampered body, a stale or future timestamp, a missing header and a header
// repeated with two different values; an empty secret never verifies; and both stay pure
// (same inputs, same output; never a throw). A real delivery from the sandbox verifies.
import * as fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { signWebhook, verifyWebhook, verifyWebhookEvent } from '@paykit/core/webhook'
import { describe, expect, it } from 'vitest'
import {
  startWebhookReceiver,
  type CapturedWebhook,
} from '../../src/sandbox/startWebhookReceiver.js'
import { sandboxWith } from './support.js'

const secret = 'whsec_ZZ5mQ2rT8vX1'
const body = JSON.stringify({
  id: 'evt_1',
  type: 'order.paid',
  createdAt: '2026-01-01T00:00:00.000Z',
})
const now = new Date('2026-05-01T12:00:00.000Z')
const at = (secondsFromNow: number) => new Date(now.getTime() + secondsFromNow * 1000)
const signedAt = (secondsFromNow: number, s = secret, b: string | Uint8Array = body) =>
  signWebhook({ secret: s, body: b, timestamp: at(secondsFromNow) })

/** A header as Node gives it for a header sent twice (an array), whatever the declared type. */
const repeated = (...values: ReadonlyArray<string>): string => values as unknown as string

type Input = Parameters<typeof verifyWebhook>[0]

/** Calls `f` twice on `input`: it must not throw, and must answer the same both times. */
const pure = <A>(f: (input: Input) => A, input: Input): A => {
  const first = f(input)
  expect(f(input)).toEqual(first)
  return first
}

const refused = (input: Input): void => {
  expect(E.isLeft(pure(verifyWebhook, input)), JSON.stringify(input.header)).toBe(true)
  expect(
    E.isLeft(pure(verifyWebhookEvent, input as Parameters<typeof verifyWebhookEvent>[0])),
  ).toBe(true)
}

describe('verifyWebhook: what it accepts (so that each refusal below is about its case)', () => {
  it('a signature made now, and one 299 s old or ahead, with the right secret and body', () => {
    for (const s of [0, -299, 299])
      expect(E.isRight(pure(verifyWebhook, { secret, body, header: signedAt(s), now }))).toBe(true)
  })

  it('the same body as bytes', () => {
    const bytes = new TextEncoder().encode(body)
    expect(
      E.isRight(
        pure(verifyWebhook, { secret, body: bytes, header: signedAt(0, secret, bytes), now }),
      ),
    ).toBe(true)
  })
})

describe('verifyWebhook refuses', () => {
  it('a forged signature: random hex, another secret, a signature of another body', () => {
    const t = Math.floor(now.getTime() / 1000)
    refused({ secret, body, header: `t=${t},v1=${'ab'.repeat(32)}`, now })
    refused({ secret, body, header: signedAt(0, 'whsec_other'), now })
    refused({ secret, body, header: signedAt(0, secret, `${body} `), now })
    refused({
      secret,
      body,
      header: signedAt(0).replace(/v1=./, (m) => (m.endsWith('0') ? 'v1=1' : 'v1=0')),
      now,
    })
  })

  it('a tampered body (one character changed, added or removed)', () => {
    const header = signedAt(0)
    refused({ secret, body: body.replace('order.paid', 'order.pain'), header, now })
    refused({ secret, body: `${body}\n`, header, now })
    refused({ secret, body: body.slice(1), header, now })
  })

  it('a stale or a future timestamp (more than the tolerance either way)', () => {
    refused({ secret, body, header: signedAt(-301), now })
    refused({ secret, body, header: signedAt(301), now })
    refused({ secret, body, header: signedAt(-86_400 * 365), now })
    refused({ secret, body, header: signedAt(-10), now, toleranceSeconds: 5 })
    // A tolerance that is not a number must not let a stale signature through.
    refused({ secret, body, header: signedAt(-3_600), now, toleranceSeconds: Number.NaN })
  })

  it('a missing or empty header', () => {
    refused({ secret, body, header: undefined, now })
    refused({ secret, body, header: '', now })
    refused({ secret, body, header: '   ', now })
  })

  it('a header repeated with two different values (an array), even when one is valid', () => {
    refused({ secret, body, header: repeated(signedAt(0), signedAt(-1, 'whsec_other')), now })
    refused({ secret, body, header: repeated(signedAt(0), `t=1,v1=${'0'.repeat(64)}`), now })
    // Node's comma-joined form of the same repetition.
    refused({ secret, body, header: `${signedAt(0)}, ${signedAt(-1, 'whsec_other')}`, now })
  })

  it('an empty secret never verifies, even a signature made with the empty secret', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: -200, max: 200 }), (b, s) => {
        refused({
          secret: '',
          body: b,
          header: signWebhook({ secret: '', body: b, timestamp: at(s) }),
          now,
        })
        refused({ secret: '', body: b, header: signedAt(s, secret, b), now })
      }),
      { numRuns: 300 },
    )
  })
})

describe('verifyWebhook and verifyWebhookEvent are pure and total', () => {
  const header = fc.oneof(
    fc.constant(undefined),
    fc.string(),
    fc.integer({ min: -400, max: 400 }).map((s) => signedAt(s)),
    fc
      .array(fc.oneof(fc.string(), fc.constant(signedAt(0))), { maxLength: 3 })
      .map((a) => repeated(...a)),
    fc.anything().map((u) => u as string),
  )
  const input = fc.record({
    secret: fc.oneof(fc.constant(secret), fc.constant(''), fc.string()),
    body: fc.oneof(fc.constant(body), fc.string(), fc.uint8Array({ maxLength: 64 })),
    header,
    now: fc.oneof(fc.constant(now), fc.date({ noInvalidDate: false })),
    toleranceSeconds: fc.oneof(fc.constant(undefined), fc.double()),
  })

  it('never throws; the same input gives the same answer', () => {
    fc.assert(
      fc.property(input, (i) => {
        const { toleranceSeconds, ...rest } = i
        const args = (
          toleranceSeconds === undefined ? rest : { ...rest, toleranceSeconds }
        ) as Input
        const verified = pure(verifyWebhook, args)
        expect(E.isLeft(verified) || E.isRight(verified)).toBe(true)
        const event = pure(verifyWebhookEvent, args as Parameters<typeof verifyWebhookEvent>[0])
        expect(E.isLeft(event) || E.isRight(event)).toBe(true)
      }),
      { numRuns: 2_000 },
    )
  })
})

describe('a real delivery from the sandbox', () => {
  it('verifies with the shared secret and decodes; tampered or re-signed with another secret it does not', async () => {
    const receiver = await startWebhookReceiver({ path: '/hook', answer: () => 200 })
    const received = receiver.received
    const sandbox = await sandboxWith({
      webhookUrl: receiver.url,
      webhookSecret: secret,
    })
    try {
      const link = await fetch(`${sandbox.url}/paymentlink/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sandbox-api-key' },
        body: JSON.stringify({ amount: 5 }),
      })
      const { orderCode } = (await link.json()) as { orderCode: string }
      sandbox.payOrder(orderCode)
      await sandbox.webhooksIdle()
      expect(received).toHaveLength(1)
      const delivery = received[0] as CapturedWebhook
      const header = delivery.headers['paykit-signature'] as string
      const event = pure(verifyWebhookEvent, {
        secret,
        body: delivery.body,
        header,
        now: new Date(),
      })
      expect(E.isRight(event) && event.right.data.orderCode).toBe(orderCode)
      refused({ secret, body: delivery.body.replace('PAID', 'CANCELLED'), header, now: new Date() })
      refused({ secret: 'whsec_other', body: delivery.body, header, now: new Date() })
      refused({ secret, body: delivery.body, header, now: new Date(Date.now() + 600_000) })
    } finally {
      await sandbox.close()
      await receiver.close()
    }
  })
})
