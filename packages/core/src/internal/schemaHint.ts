/**
 * What a JSON Schema can say of a codec that io-ts's own tags do not show (issue 21): the
 * rule a combinator of the core checks, the pattern its strings match, the alternatives of
 * a union decoded by hand. Recorded where each codec is made, from the constants it checks,
 * so that the OpenAPI generator (`tools/openapi`) reads the limits from the codecs and
 * copies none. Nothing in the core reads it back.
 */
import type * as t from 'io-ts'
import type { FieldIssue } from './issue.js'

/** What a codec accepts, beyond its io-ts tag (every member optional). */
interface SchemaHint {
  /** The JSON type of what it accepts, for a codec with no io-ts tag and no base. */
  readonly type?: 'string' | 'number' | 'null' | 'object'
  /** The rule it checks (`maxLength` 255, `minimum` 0, ...). */
  readonly issue?: FieldIssue
  /** A string it accepts matches this (a superset when the rule is more than a form). */
  readonly pattern?: RegExp
  /** It accepts what exactly one of these accepts. */
  readonly alternatives?: ReadonlyArray<t.Decoder<unknown, unknown>>
  /** A record it accepts gives at least one of these keys. */
  readonly atLeastOne?: ReadonlyArray<string>
  /** In a record it accepts, this key may be null (read as absent). */
  readonly nullAsAbsent?: string
}

const hints = new WeakMap<object, SchemaHint>()

/** Records `hint` for `codec` (merged with what was recorded before); returns `codec`. */
export const hinted = <T extends object>(codec: T, hint: SchemaHint): T => {
  hints.set(codec, { ...hints.get(codec), ...hint })
  return codec
}

/** The hint recorded for `codec`, if any. */
export const schemaHintOf = (codec: object): SchemaHint | undefined => hints.get(codec)
