/**
 * The form of a simple fast decoder (a primitive, maybe refined, maybe with a default or
 * null allowed), recorded beside it so that a walk of a record decodes such a member
 * inline instead of calling its decoder: most members of a request are of this kind, and
 * a call through a closure V8 cannot inline costs more than the check itself.
 */
import type * as t from 'io-ts'
import { FAIL, type FastDecoder } from './fastDecoder.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The `typeof` of the values a primitive codec accepts. */
export type Primitive = 'string' | 'number' | 'boolean'

/** The `typeof` of the values io-ts's `string`, `number` or `boolean` accepts, if `codec` is one. */
export const primitiveOf = (codec: t.Decoder<unknown, unknown>): Primitive | undefined => {
  switch ((codec as { readonly _tag?: string })._tag) {
    case 'StringType':
      return 'string'
    case 'NumberType':
      return 'number'
    case 'BooleanType':
      return 'boolean'
    default:
      return undefined
  }
}

/**
 * A check a walk makes inline for a refinement, before any call of its predicate:
 * `maxLength` accepts a string of at most `bound` UTF-16 units (no more code points
 * either), `nonBlank` one whose first character is printable ASCII other than a space,
 * `positiveInt`, a safe integer above zero, decides alone (it is the predicate), and
 * `isoDateTime` accepts a date-time as `toISOString` writes it with fields every month has
 * (see {@link isPlainIsoDateTime}). Anything `maxLength`, `nonBlank` or `isoDateTime` does
 * not accept goes to the predicate.
 */
export type Quick =
  | { readonly check: 'maxLength'; readonly bound: number }
  | { readonly check: 'nonBlank' }
  | { readonly check: 'positiveInt' }
  | { readonly check: 'isoDateTime' }

/** The value of the `width` ASCII digits of `s` at `at`, or -1 if one is not a digit. */
const digitsAt = (s: string, at: number, width: number): number => {
  let n = 0
  for (let i = at; i < at + width; i++) {
    const d = s.charCodeAt(i) - 48
    if (d < 0 || d > 9) return -1
    n = n * 10 + d
  }
  return n
}

/**
 * Whether `s` is a date-time as `toISOString` writes it (`2026-11-24T12:00:00.000Z`) with
 * fields every month has (day <= 28, hour <= 23): then a check of the ISO form and of
 * `Date.parse` holds on any engine, without a regex and `Date.parse` (~2-4 µs under load).
 */
export const isPlainIsoDateTime = (s: string): boolean => {
  if (s.length !== 24) return false
  const month = digitsAt(s, 5, 2)
  const day = digitsAt(s, 8, 2)
  const hour = digitsAt(s, 11, 2)
  const minute = digitsAt(s, 14, 2)
  const second = digitsAt(s, 17, 2)
  return (
    digitsAt(s, 0, 4) >= 0 &&
    digitsAt(s, 20, 3) >= 0 &&
    s.charCodeAt(4) === 45 && // -
    s.charCodeAt(7) === 45 &&
    s.charCodeAt(10) === 84 && // T
    s.charCodeAt(13) === 58 && // :
    s.charCodeAt(16) === 58 &&
    s.charCodeAt(19) === 46 && // .
    s.charCodeAt(23) === 90 && // Z
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= 28 &&
    hour >= 0 &&
    hour <= 23 &&
    minute >= 0 &&
    minute <= 59 &&
    second >= 0 &&
    second <= 59
  )
}

/**
 * What a simple decoder does, in this order: `undefined` gives `absent` (a default, or
 * FAIL), `null` gives `nil` (itself, or FAIL), any other value of type `type` that
 * `predicate` (if any) holds for is itself (`quick` says how to check it inline), and
 * anything else is FAIL.
 */
interface Form {
  readonly type: Primitive
  readonly predicate: ((a: unknown) => boolean) | undefined
  readonly quick: Quick | undefined
  readonly absent: unknown
  readonly nil: unknown
}

// -------------------------------------------------------------------------------------
// registry
// -------------------------------------------------------------------------------------

const forms = new WeakMap<FastDecoder, Form>()

/** Records the form of `decoder`, which must behave as the form says; returns `decoder`. */
const withForm = (decoder: FastDecoder, form: Form): FastDecoder => {
  forms.set(decoder, form)
  return decoder
}

/** The form of `decoder`, if it has one. */
export const formOf = (decoder: FastDecoder): Form | undefined => forms.get(decoder)

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The fast decoder of a primitive codec narrowed by `predicate` (a refinement, if any),
 * one closure with the `typeof` check inline, and its form (`quick`, if given, must
 * agree with `predicate`).
 */
export const primitiveDecoder = (
  type: Primitive,
  predicate: ((a: never) => boolean) | undefined,
  quick?: Quick,
): FastDecoder => {
  const p = predicate as ((a: unknown) => boolean) | undefined
  const form: Form = { type, predicate: p, quick, absent: FAIL, nil: FAIL }
  // `typeof` compared with a literal, and the inline check before any call of `p`.
  switch (type) {
    case 'string': {
      if (p === undefined) return withForm((u) => (typeof u === 'string' ? u : FAIL), form)
      const ok = quickString(quick, p)
      return withForm((u) => (typeof u === 'string' && ok(u) ? u : FAIL), form)
    }
    case 'number':
      if (p === undefined) return withForm((u) => (typeof u === 'number' ? u : FAIL), form)
      if (quick?.check === 'positiveInt')
        return withForm((u) => (typeof u === 'number' && isPositiveInt(u) ? u : FAIL), form)
      return withForm((u) => (typeof u === 'number' && p(u) ? u : FAIL), form)
    case 'boolean':
      if (p === undefined) return withForm((u) => (typeof u === 'boolean' ? u : FAIL), form)
      return withForm((u) => (typeof u === 'boolean' && p(u) ? u : FAIL), form)
  }
}

const isPositiveInt = (n: number): boolean => Number.isSafeInteger(n) && n > 0

/** `p` over strings, with the inline check of `quick` first. */
const quickString = (
  quick: Quick | undefined,
  p: (s: unknown) => boolean,
): ((s: string) => boolean) => {
  switch (quick?.check) {
    case 'maxLength': {
      const bound = quick.bound
      return (s) => s.length <= bound || p(s)
    }
    case 'nonBlank':
      return (s) => {
        const first = s.charCodeAt(0)
        return (first > 32 && first < 127) || p(s)
      }
    case 'isoDateTime':
      return (s) => isPlainIsoDateTime(s) || p(s)
    default:
      return p
  }
}

/** `inner` with `undefined` decoded as `value` (a default), and its form if `inner` has one. */
export const defaultDecoder = (inner: FastDecoder, value: unknown): FastDecoder => {
  const decoder: FastDecoder = (u) => (u === undefined ? value : inner(u))
  const form = formOf(inner)
  return form === undefined ? decoder : withForm(decoder, { ...form, absent: value })
}

/** `inner` with `null` decoded as itself, and its form if `inner` has one. */
export const nullableDecoder = (inner: FastDecoder): FastDecoder => {
  const decoder: FastDecoder = (u) => (u === null ? null : inner(u))
  const form = formOf(inner)
  // `undefined` still goes to `inner`: the form keeps its `absent`.
  return form === undefined ? decoder : withForm(decoder, { ...form, nil: null })
}

// -------------------------------------------------------------------------------------
// decoders that refuse `undefined`
// -------------------------------------------------------------------------------------

const refusingAbsent = new WeakSet<FastDecoder>()

/**
 * Records that `decoder` gives FAIL for `undefined` (it wants an array, a record, a
 * number): a walk then knows an absent member of it fails without calling it. Returns
 * `decoder`.
 */
export const refusesAbsent = (decoder: FastDecoder): FastDecoder => {
  refusingAbsent.add(decoder)
  return decoder
}

/** Whether `decoder` is known to give FAIL for `undefined`. */
export const isRefusingAbsent = (decoder: FastDecoder): boolean => refusingAbsent.has(decoder)

// -------------------------------------------------------------------------------------
// rules of records
// -------------------------------------------------------------------------------------

const oneOfForms = new WeakMap<FastDecoder, ReadonlyArray<string>>()

/**
 * Records that `rule`, a branch of an intersection of records, fails exactly when none of
 * `keys` is given (not `undefined`) and adds no member otherwise: a walk of the record
 * checks it from the keys it visited, without calling it. Returns `rule`.
 */
export const withOneOfForm = (rule: FastDecoder, keys: ReadonlyArray<string>): FastDecoder => {
  oneOfForms.set(rule, keys)
  return rule
}

/** The keys of which `rule` wants one given, if it has that form. */
export const oneOfFormOf = (rule: FastDecoder): ReadonlyArray<string> | undefined =>
  oneOfForms.get(rule)
