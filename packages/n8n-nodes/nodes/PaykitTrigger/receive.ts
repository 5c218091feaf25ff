/**
 * What Paykit Trigger answers to one delivery, decided without n8n: the core's
 * `receiveWebhookEvent` verifies the signature over the raw body bytes (when a secret is
 * set), parses the body once and decodes it; then the event type is filtered. Replays and
 * confirmation with the service are the caller's (`replay.ts`, `confirm.ts`).
 *
 * Answers are problem details (`type`, `title`, `status`, `detail`; `errors` on 400) whose
 * `detail` is the core's short reason: it never repeats the secret, the signature header
 * or a value of the body.
 */
import { validationProblem, type FieldError } from '@paykit/core/pure'
import { receiveWebhookEvent, type WebhookEvent } from '@paykit/core/webhook'
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
interface Settings {
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
type Reception =
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
const unauthorized = (reason: string): Reply =>
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
const badRequest = (detail: string, errors: ReadonlyArray<FieldError>): Reply =>
  reply(400, { ...validationProblem(errors), detail } as unknown as IDataObject)

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/**
 * The answer to one delivery. With a non-empty secret the signature is checked first
 * (nothing of an unauthenticated body is read); then the body must be JSON and an order
 * event; an event of a type not in `settings.events` gets 200 and is not emitted.
 */
export const receive = (delivery: Delivery, settings: Settings): Reception => {
  const { secret, now, toleranceSeconds } = settings
  const { rawBody, signature: header } = delivery
  const signed = secret !== undefined && secret !== ''
  const input = !signed
    ? rawBody === undefined
      ? ({ unsigned: true, json: delivery.parsedBody } as const)
      : ({ unsigned: true, body: rawBody } as const)
    : rawBody === undefined
      ? undefined
      : { secret, body: rawBody, header, now, toleranceSeconds }
  if (input === undefined)
    return unauthorized('the raw request body is unavailable, so it cannot be verified')
  const received = receiveWebhookEvent(input)
  if (received._tag === 'Left') {
    const refusal = received.left
    switch (refusal._tag) {
      case 'NotJson':
        return badRequest(refusal.message, [{ path: '', message: 'must be JSON' }])
      case 'NotAnEvent':
        return badRequest(refusal.message, refusal.errors)
      default:
        return unauthorized(refusal.message)
    }
  }
  const { event, signedAt } = received.right
  if (!settings.events.includes(event.type))
    return reply(200, { received: true, ignored: true, reason: `${event.type} is not selected` })
  return { _tag: 'Emit', event, signedAt }
}
