/**
 * What Paykit Trigger answers to one delivery, decided without n8n: verify the signature
 * (when a secret is set) with the core's `verifyWebhook` over the raw body bytes, decode
 * the body with the core's `WebhookEvent` codec, then filter by event type. Replays and
 * confirmation with the service are the caller's (`replay.ts`, `confirm.ts`).
 *
 * Answers are problem details (`type`, `title`, `status`, `detail`; `errors` on 400) whose
 * `detail` is the core's short reason: it never repeats the secret, the signature header
 * or a value of the body.
 */
import {
  WebhookEvent,
  formatFieldErrors,
  validate,
  validationProblem,
  type FieldError,
} from '@paykit/core/pure'
import { verifyWebhook } from '@paykit/core/webhook'
import type { IDataObject } from 'n8n-workflow'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** One request as the trigger sees it. */
export interface Delivery {
  /** The body exactly as received; signatures are computed over these bytes. */
  readonly rawBody: Uint8Array | undefined
  /** n8n's parsed body, used only when the raw bytes are unavailable and nothing is signed. */
  readonly parsedBody: unknown
  /** The `Paykit-Signature` header. */
  readonly signature: string | undefined
}

/** The node's settings for one request. */
export interface Settings {
  /** The signing secret; `undefined` (or empty) accepts unsigned events. */
  readonly secret: string | undefined
  readonly toleranceSeconds: number
  /** The event types to emit. */
  readonly events: ReadonlyArray<string>
  readonly now: Date
}

/** An answer that emits nothing: its status and JSON body. */
export interface Reply {
  readonly _tag: 'Reply'
  readonly status: number
  readonly body: IDataObject
}

/** What to do: emit the event (JSON as the service sent it), or answer and emit nothing. */
export type Reception =
  | {
      readonly _tag: 'Emit'
      readonly event: WebhookEvent
      readonly signedAt: Date | undefined
    }
  | Reply

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const UNAUTHORIZED_TYPE = 'https://tools.ietf.org/html/rfc7235#section-3.1'

const reply = (status: number, body: IDataObject): Reply => ({ _tag: 'Reply', status, body })

/** 401 problem details with the core's reason (it names no secret and no signature). */
export const unauthorized = (reason: string): Reply =>
  reply(401, {
    type: UNAUTHORIZED_TYPE,
    title: 'Unauthorized',
    status: 401,
    detail: `webhook signature rejected: ${reason}`,
  })

/** Problem details of another refusal (`detail` says why; no value of the body). */
export const refused = (status: number, title: string, detail: string): Reply =>
  reply(status, { type: 'about:blank', title, status, detail })

/** 400 problem details naming the fields, as the service's own 400 does. */
export const badRequest = (detail: string, errors: ReadonlyArray<FieldError>): Reply =>
  reply(400, { ...validationProblem(errors), detail } as unknown as IDataObject)

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

const parseJson = (
  delivery: Delivery,
): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  if (delivery.rawBody === undefined) return { ok: true, value: delivery.parsedBody }
  try {
    return { ok: true, value: JSON.parse(Buffer.from(delivery.rawBody).toString('utf8')) }
  } catch {
    return { ok: false }
  }
}

/**
 * The answer to one delivery. With a non-empty secret the signature is checked first
 * (nothing of an unauthenticated body is read); then the body must be JSON and an order
 * event; an event of a type not in `settings.events` gets 200 and is not emitted.
 */
export const receive = (delivery: Delivery, settings: Settings): Reception => {
  let signedAt: Date | undefined
  if (settings.secret !== undefined && settings.secret !== '') {
    if (delivery.rawBody === undefined)
      return unauthorized('the raw request body is unavailable, so it cannot be verified')
    const verified = verifyWebhook({
      secret: settings.secret,
      body: delivery.rawBody,
      header: delivery.signature,
      now: settings.now,
      toleranceSeconds: settings.toleranceSeconds,
    })
    if (verified._tag === 'Left') return unauthorized(verified.left.message)
    signedAt = verified.right
  }
  const json = parseJson(delivery)
  if (!json.ok)
    return badRequest('webhook body is not JSON', [{ path: '', message: 'must be JSON' }])
  const decoded = validate(WebhookEvent)(json.value)
  if (decoded._tag === 'Left')
    return badRequest(
      `webhook body is not an order event: ${formatFieldErrors(decoded.left)}`,
      decoded.left,
    )
  const event = decoded.right
  if (!settings.events.includes(event.type))
    return reply(200, { received: true, ignored: true, reason: `${event.type} is not selected` })
  return { _tag: 'Emit', event, signedAt }
}
