/**
 * The one redaction of everything the model prints or throws: problem lines, the story's
 * steps, a report's text, an error's message, stack and `cause`. It is the core's
 * (`redactValue` of a text): every secret in play (credentials, the webhook secret, the
 * access tokens issued, the buyer's card numbers and CVV) and anything shaped like a card
 * number become `[redacted]`.
 *
 * @internal
 * @since 0.2.0
 */
import { redactValue } from '@paykit/core/client'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A text with the secrets in play removed.
 *
 * @internal
 */
type Redact = (text: string) => string

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The redaction of `secrets` (read each time: access tokens are issued as a story runs).
 *
 * @internal
 */
export const redactor =
  (secrets: () => ReadonlyArray<string>): Redact =>
  (text) =>
    redactValue(text, secrets()) as string

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

// A cause chain is followed this deep (a cycle stops it too).
const MAX_CAUSES = 8

const causeOf = (e: unknown): unknown =>
  typeof e === 'object' && e !== null && 'cause' in e ? e.cause : undefined

/**
 * The message of what was thrown (an `Error`'s, or the text of anything else).
 *
 * @internal
 */
export const messageOf = (e: unknown): string => {
  if (e instanceof Error) return e.message
  try {
    return typeof e === 'string' ? e : String(JSON.stringify(e) ?? e)
  } catch {
    return String(e)
  }
}

/**
 * The messages of what was thrown and of its `cause` chain, outermost first.
 *
 * @internal
 */
export const messagesOf = (e: unknown): ReadonlyArray<string> => {
  const out: Array<string> = []
  const seen = new Set<unknown>()
  for (let c = e; c !== undefined && !seen.has(c) && out.length < MAX_CAUSES; c = causeOf(c)) {
    seen.add(c)
    out.push(messageOf(c))
  }
  return out
}

/**
 * A copy of what was thrown that holds no secret: an `Error` of the same name whose
 * message, stack and `cause` chain are redacted (the original is not kept: fast-check and
 * vitest print an error's cause).
 *
 * @internal
 */
export const redactedError = (e: unknown, redact: Redact, depth = 0): Error => {
  const copy = new Error(redact(messageOf(e)))
  if (e instanceof Error) {
    copy.name = redact(e.name)
    if (e.stack !== undefined) copy.stack = redact(e.stack)
  } else copy.stack = `${copy.name}: ${copy.message}`
  const cause = causeOf(e)
  if (cause !== undefined && cause !== e && depth < MAX_CAUSES)
    Object.defineProperty(copy, 'cause', {
      value: redactedError(cause, redact, depth + 1),
      writable: true,
      configurable: true,
    })
  return copy
}
