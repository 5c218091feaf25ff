/**
 * Webhook signatures, for servers: the `Paykit-Signature` header, HMAC-SHA256 over
 * `"<t>.<body>"`. The sandbox signs and the n8n trigger verifies with this one module.
 * It is the core's only use of `node:crypto`, so it is an entry of its own,
 * `@paykit/core/webhook`, that `@paykit/core` and `@paykit/core/pure` do not reach: they
 * bundle for a browser. That entry also re-exports the event codec and the header
 * constants (`signing/WebhookEvent.ts`), so a receiver imports from one place.
 *
 * @since 0.2.0
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import { type FieldError, formatFieldErrors, validate } from '../model/FieldError.js'
import {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  WEBHOOK_SIGNATURE_HEADER,
  WebhookEvent,
} from './WebhookEvent.js'

// -------------------------------------------------------------------------------------
// the event and its header (pure; also exported by `@paykit/core`)
// -------------------------------------------------------------------------------------
export * from './WebhookEvent.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Why a webhook was refused: its header is not `t=<unix>,v1=<hex>`, its timestamp is
 * further from `now` than the tolerance (a replay or a skewed clock), or no signature
 * matches the body.
 *
 * @category model
 * @since 0.2.0
 */
export type WebhookVerificationError =
  | { readonly _tag: 'MalformedHeader'; readonly message: string }
  | { readonly _tag: 'TimestampOutsideTolerance'; readonly message: string }
  | { readonly _tag: 'SignatureMismatch'; readonly message: string }

// -------------------------------------------------------------------------------------
// signing
// -------------------------------------------------------------------------------------

const unixSeconds = (d: Date): number => Math.floor(d.getTime() / 1000)

const hmacHex = (secret: string, timestamp: number, body: WebhookBody): string =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')

/**
 * The `Paykit-Signature` header value for a body sent at `timestamp`:
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`.
 *
 * @example
 * ```ts
 * import { signWebhook } from '@paykit/core/webhook'
 * import { createHmac } from 'node:crypto'
 * import assert from 'node:assert/strict'
 *
 * const body = '{"id":"evt_1"}'
 * const header = signWebhook({
 *   secret: 'test-secret',
 *   body,
 *   timestamp: new Date('2026-11-24T12:00:00Z'),
 * })
 * // t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">
 * const hmac = createHmac('sha256', 'test-secret').update(`1795521600.${body}`).digest('hex')
 * assert.equal(header, `t=1795521600,v1=${hmac}`)
 * ```
 *
 * @category signing
 * @since 0.2.0
 */
export const signWebhook = (input: {
  readonly secret: string
  readonly body: string | Uint8Array
  readonly timestamp: Date
}): string => {
  const ts = unixSeconds(input.timestamp)
  return `t=${ts},v1=${hmacHex(input.secret, ts, input.body)}`
}

const HEADER_PART = /^([a-z0-9]+)=(.*)$/
const HEX_SHA256 = /^[0-9a-f]{64}$/

/**
 * The timestamp and the `v1` signatures of a header; Left when it is not
 * `t=<unix>,v1=<64 hex>` (more `v1` entries allowed, for secret rotation).
 *
 * @example
 * ```ts
 * import { parseSignatureHeader } from '@paykit/core/webhook'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const v1 = 'ab'.repeat(32)
 * assert.deepEqual(
 *   parseSignatureHeader(`t=1795521600,v1=${v1}`),
 *   E.right({ timestamp: 1795521600, v1: [v1] }),
 * )
 * const bad = parseSignatureHeader('sha256=abc')
 * assert.ok(E.isLeft(bad))
 * assert.equal(bad.left._tag, 'MalformedHeader')
 * ```
 *
 * @category signing
 * @since 0.2.0
 */
export const parseSignatureHeader = (
  header: string,
): E.Either<
  WebhookVerificationError,
  { readonly timestamp: number; readonly v1: ReadonlyArray<string> }
> => {
  const malformed = (message: string): E.Either<WebhookVerificationError, never> =>
    E.left({ _tag: 'MalformedHeader', message })
  let timestamp: number | undefined
  const v1: Array<string> = []
  for (const part of header.split(',')) {
    const m = HEADER_PART.exec(part.trim())
    if (m === null) return malformed('signature header must be t=<unix>,v1=<hex>')
    const [, key, value = ''] = m
    if (key === 't') {
      if (!/^\d{1,15}$/.test(value) || timestamp !== undefined)
        return malformed('signature header must have one t=<unix seconds>')
      timestamp = Number(value)
    } else if (key === 'v1') {
      if (!HEX_SHA256.test(value)) return malformed('v1 must be 64 lower-case hex digits')
      v1.push(value)
    }
  }
  if (timestamp === undefined) return malformed('signature header has no t=<unix seconds>')
  if (v1.length === 0) return malformed('signature header has no v1=<hex> signature')
  return E.right({ timestamp, v1 })
}

/**
 * A webhook body as received: the text, or its raw bytes (a `Buffer` is a `Uint8Array`).
 * The signature covers the exact bytes, so bytes that are not valid UTF-8 still verify.
 *
 * @category model
 * @since 0.2.0
 */
export type WebhookBody = string | Uint8Array

/**
 * The signature header as a server gives it: absent, one value, or (Node, for a header
 * sent more than once) an array of values.
 *
 * @category model
 * @since 0.2.0
 */
export type WebhookSignatureHeader = string | ReadonlyArray<string> | undefined

/**
 * What `verifyWebhook` checks: the shared `secret`, the raw `body`, the signature
 * `header`, the receiver's clock and the tolerance in seconds (default 300).
 *
 * @category model
 * @since 0.2.0
 */
export interface WebhookVerificationInput {
  readonly secret: string
  readonly body: WebhookBody
  readonly header: WebhookSignatureHeader
  readonly now: Date
  readonly toleranceSeconds?: number
}

const missingHeader: WebhookVerificationError = {
  _tag: 'MalformedHeader',
  message: `missing ${WEBHOOK_SIGNATURE_HEADER} header`,
}

/** One header value: an array (a repeated header) must hold a single distinct value. */
const headerValue = (header: unknown): E.Either<WebhookVerificationError, string | undefined> => {
  if (header === undefined || typeof header === 'string') return E.right(header)
  if (!Array.isArray(header) || !header.every((h): h is string => typeof h === 'string'))
    return E.left({
      _tag: 'MalformedHeader',
      message: `${WEBHOOK_SIGNATURE_HEADER} header must be a string`,
    })
  const distinct = [...new Set(header.map((h) => h.trim()))]
  if (distinct.length > 1)
    return E.left({
      _tag: 'MalformedHeader',
      message: `${WEBHOOK_SIGNATURE_HEADER} header was sent ${distinct.length} times with different values`,
    })
  return E.right(distinct[0])
}

/** Constant time over every `v1` (no early exit on the first match). */
const anyMatches = (v1: ReadonlyArray<string>, expected: Buffer): boolean => {
  let matches = false
  for (const sig of v1) matches = timingSafeEqual(Buffer.from(sig, 'hex'), expected) || matches
  return matches
}

/**
 * Checks a webhook: a secret is set, the header parses, its timestamp is within
 * `toleranceSeconds` (default 300) of `now` either way, and one `v1` signature equals
 * the HMAC of `"<t>.<body>"` over the body's exact bytes (compared in constant time).
 * Right carries the signed time. Pass the raw body exactly as received (a string or its
 * bytes): re-serialised JSON does not verify.
 *
 * Fails closed: an empty (or blank) secret is a `SignatureMismatch` (a missing secret
 * setting must not let anyone sign), an invalid `now` or a tolerance that is not a finite
 * number >= 0 is a `TimestampOutsideTolerance`, and a header sent several times with
 * different values is a `MalformedHeader` (the same value repeated is read once).
 *
 * @example
 * ```ts
 * import { signWebhook, verifyWebhook } from '@paykit/core/webhook'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const body = '{"id":"evt_1","type":"order.paid"}' // the raw body, as received
 * const now = new Date('2026-11-24T12:00:00Z')
 * const header = signWebhook({ secret: 'test-secret', body, timestamp: now })
 * assert.deepEqual(verifyWebhook({ secret: 'test-secret', body, header, now }), E.right(now))
 * const tampered = verifyWebhook({
 *   secret: 'test-secret',
 *   body: body.replace('paid', 'cancelled'),
 *   header,
 *   now,
 * })
 * assert.ok(E.isLeft(tampered) && tampered.left._tag === 'SignatureMismatch')
 * ```
 *
 * @category signing
 * @since 0.2.0
 */
export const verifyWebhook = (
  input: WebhookVerificationInput,
): E.Either<WebhookVerificationError, Date> => {
  if (typeof input.secret !== 'string' || input.secret.trim() === '')
    return E.left({
      _tag: 'SignatureMismatch',
      message: 'no webhook secret is set: no signature can be verified',
    })
  const header = headerValue(input.header)
  if (E.isLeft(header)) return header
  if (header.right === undefined || header.right.trim() === '') return E.left(missingHeader)
  const parsed = parseSignatureHeader(header.right)
  if (E.isLeft(parsed)) return parsed
  const { timestamp, v1 } = parsed.right
  const tolerance = input.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS
  if (!Number.isFinite(tolerance) || tolerance < 0)
    return E.left({
      _tag: 'TimestampOutsideTolerance',
      message: 'the tolerance must be a finite number of seconds >= 0',
    })
  const nowMs = input.now instanceof Date ? input.now.getTime() : Number.NaN
  if (!Number.isFinite(nowMs))
    return E.left({
      _tag: 'TimestampOutsideTolerance',
      message: 'the current time is not a valid date: the timestamp cannot be checked',
    })
  if (Math.abs(Math.floor(nowMs / 1000) - timestamp) > tolerance)
    return E.left({
      _tag: 'TimestampOutsideTolerance',
      message: `signature timestamp is more than ${tolerance} s from now`,
    })
  const expected = Buffer.from(hmacHex(input.secret, timestamp, input.body), 'hex')
  return anyMatches(v1, expected)
    ? E.right(new Date(timestamp * 1000))
    : E.left({ _tag: 'SignatureMismatch', message: 'signature does not match the body' })
}

/**
 * A webhook received with no secret to check it: nothing is verified, so confirm the event
 * another way (read its order back from the service). `body` is the raw body; `json` a body
 * a framework has already parsed, for when the raw bytes are gone.
 *
 * @category model
 * @since 0.2.0
 */
export type UnsignedWebhookInput =
  | { readonly unsigned: true; readonly body: WebhookBody }
  | { readonly unsigned: true; readonly json: unknown }

/**
 * Why `receiveWebhookEvent` refused a webhook: a `WebhookVerificationError`, a body that
 * is not JSON, or a body that is not an order event (its field errors). `message` names
 * no secret, no header and no value of the body.
 *
 * @category model
 * @since 0.2.0
 */
export type WebhookReceiveError =
  | WebhookVerificationError
  | { readonly _tag: 'NotJson'; readonly message: string }
  | {
      readonly _tag: 'NotAnEvent'
      readonly message: string
      readonly errors: ReadonlyArray<FieldError>
    }

/**
 * A received event and the time its signature was made (`undefined` when unsigned).
 *
 * @category model
 * @since 0.2.0
 */
export interface WebhookReception {
  readonly event: WebhookEvent
  readonly signedAt: Date | undefined
}

// Bytes read as n8n and Node's Buffer#toString read them: a sequence that is not UTF-8
// becomes U+FFFD, a byte-order mark stays (so JSON.parse refuses it); the signature was
// checked over the exact bytes before.
const textOf = (body: WebhookBody): string =>
  typeof body === 'string'
    ? body
    : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')

const parseJson = (body: WebhookBody): E.Either<WebhookReceiveError, unknown> => {
  try {
    return E.right(JSON.parse(textOf(body)))
  } catch {
    return E.left({ _tag: 'NotJson', message: 'webhook body is not JSON' })
  }
}

/**
 * Receives one webhook: verifies it (as `verifyWebhook`) unless it is explicitly
 * `unsigned`, then parses its body once and decodes it as a `WebhookEvent`. Nothing of an
 * unverified body is read. Right carries the event and its signed time.
 *
 * @example
 * ```ts
 * import { receiveWebhookEvent, signWebhook } from '@paykit/core/webhook'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const body = '{"id":"evt_1","type":"order.paid"}'
 * const now = new Date('2026-11-24T12:00:00Z')
 * const header = signWebhook({ secret: 'test-secret', body, timestamp: now })
 * const forged = receiveWebhookEvent({ secret: 'other', body, header, now })
 * assert.ok(E.isLeft(forged) && forged.left._tag === 'SignatureMismatch')
 * const partial = receiveWebhookEvent({ secret: 'test-secret', body, header, now })
 * assert.ok(E.isLeft(partial) && partial.left._tag === 'NotAnEvent') // no createdAt, no data
 * const notJson = receiveWebhookEvent({ unsigned: true, body: 'order paid!' })
 * assert.deepEqual(notJson, E.left({ _tag: 'NotJson', message: 'webhook body is not JSON' }))
 * ```
 *
 * @category signing
 * @since 0.2.0
 */
export const receiveWebhookEvent = (
  input: WebhookVerificationInput | UnsignedWebhookInput,
): E.Either<WebhookReceiveError, WebhookReception> => {
  let json: E.Either<WebhookReceiveError, unknown>
  let signedAt: Date | undefined
  if ('unsigned' in input && input.unsigned === true) {
    json = 'json' in input ? E.right(input.json) : parseJson(input.body)
  } else {
    // Only the verified bytes are read, whatever else an untyped caller passed.
    const signed = input as WebhookVerificationInput
    const verified = verifyWebhook(signed)
    if (E.isLeft(verified)) return verified
    signedAt = verified.right
    json = parseJson(signed.body)
  }
  if (E.isLeft(json)) return json
  const decoded = validate(WebhookEvent)(json.right)
  if (E.isLeft(decoded))
    return E.left({
      _tag: 'NotAnEvent',
      message: `webhook body is not an order event: ${formatFieldErrors(decoded.left)}`,
      errors: decoded.left,
    })
  return E.right({ event: decoded.right, signedAt })
}

/**
 * Verifies a webhook (as `verifyWebhook`, the body as a string or its exact bytes) and
 * decodes its body as a `WebhookEvent`: `receiveWebhookEvent` with the event only and the
 * reason as text (a verification failure, a body that is not JSON, or its field errors).
 *
 * @example
 * ```ts
 * import { Money } from '@paykit/core/money'
 * import { signWebhook, verifyWebhookEvent } from '@paykit/core/webhook'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const created = '2026-11-24T12:00:00.000Z'
 * const zero = { shippingAmount: 0, discountAmount: 0, surchargeAmount: 0 }
 * const store = {
 *   name: 'Shop',
 *   countryCode: 'CRI',
 *   currencyCode: 'USD',
 *   currencySymbol: '$',
 *   locale: 'es_CR',
 *   timezone: 'America/Costa_Rica',
 * }
 * const data = {
 *   orderId: 1,
 *   orderCode: 'ord-abc',
 *   orderReference: null,
 *   name: 'Mugs',
 *   description: null,
 *   lineItems: [],
 *   orderStatus: 'CANCELLED',
 *   subtotal: 17,
 *   totalDetails: zero,
 *   total: 17,
 *   metadata: [],
 *   paymentLinkUrl: 'https://pay.example.com/l/ord-abc',
 *   successUrl: null,
 *   cancelUrl: null,
 *   store,
 *   payment: null,
 *   created,
 * }
 * const body = JSON.stringify({ id: 'evt_1', type: 'order.cancelled', createdAt: created, data })
 * const now = new Date(created)
 * const header = signWebhook({ secret: 'test-secret', body, timestamp: now })
 * const event = verifyWebhookEvent({ secret: 'test-secret', body: Buffer.from(body), header, now })
 * assert.ok(E.isRight(event))
 * assert.equal(event.right.data.orderStatus, 'CANCELLED')
 * assert.equal(Money.toString(event.right.data.total), '17')
 * assert.deepEqual(
 *   verifyWebhookEvent({ secret: '', body, header, now }),
 *   E.left('no webhook secret is set: no signature can be verified'),
 * )
 * ```
 *
 * @category signing
 * @since 0.2.0
 */
export const verifyWebhookEvent = (
  input: WebhookVerificationInput,
): E.Either<string, WebhookEvent> =>
  E.bimap(
    (e: WebhookReceiveError) => e.message,
    (r: WebhookReception) => r.event,
  )(receiveWebhookEvent(input))
