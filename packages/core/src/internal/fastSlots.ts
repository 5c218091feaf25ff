/**
 * The members of exact records as a walk decodes them: slots (one per member, its key,
 * its decoder and its form), which member a key is (a guess checked by one comparison),
 * and what a member decodes a value to, inline when its decoder has a form (see
 * `fastForm`): most members of a request are strings and numbers, whose check costs less
 * than a call through a closure V8 cannot inline.
 */
import { FAIL, type FastDecoder } from './fastDecoder.js'
import {
  formOf,
  isPlainIsoDateTime,
  isRefusingAbsent,
  type Primitive,
  type Quick,
} from './fastForm.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The members of an exact `type` or `partial`, their decoders compiled. */
export interface Branch {
  readonly keys: ReadonlyArray<string>
  readonly decoders: ReadonlyArray<FastDecoder>
  readonly partial: boolean
}

/** The most members a walk handles (one bit each in an int). */
export const MAX_MEMBERS = 30

/**
 * The members of one or more branches as slots (branch after branch, each in its
 * members' order), for a walk: what it needs of each, in arrays indexed by slot.
 */
export interface Slots {
  readonly size: number
  /** Every slot, as bits. */
  readonly all: number
  /** Slot -> key. */
  readonly names: ReadonlyArray<string>
  readonly decoders: ReadonlyArray<FastDecoder>
  /** Slot -> the kind of its decoder's form (`STRING`...), or `CALL` to call the decoder. */
  readonly kinds: Uint8Array
  /** Slot -> its form's predicate, inline check and bound, absent value and null value. */
  readonly predicates: ReadonlyArray<((a: unknown) => boolean) | undefined>
  readonly quick: Uint8Array
  readonly bounds: Float64Array
  readonly absents: ReadonlyArray<unknown>
  /** Slot -> whether `absents` holds what it decodes `undefined` to (no call needed). */
  readonly absentKnown: Uint8Array
  readonly nils: ReadonlyArray<unknown>
  /** Slot -> whether its branch is a `partial`. */
  readonly partial: ReadonlyArray<boolean>
  /** Slot -> its branch. */
  readonly branch: Uint8Array
  /** Key -> slot, when the guess is wrong. */
  readonly index: ReadonlyMap<string, number>
  /**
   * Slot -> the slot whose key followed its key last time; `next[size]`: the first key's.
   * Only strings are compared with a key (no sentinel), so V8 compares them by address.
   */
  readonly next: Int32Array
}

/** The kind of a member whose decoder has no form: the walk calls it. */
export const CALL = 0

// The kinds of member a walk decodes inline, by its form.
const STRING = 1
const NUMBER = 2
const BOOLEAN = 3
const KINDS: Readonly<Record<Primitive, number>> = {
  string: STRING,
  number: NUMBER,
  boolean: BOOLEAN,
}

// The checks a walk makes inline for a refinement (see `Quick`), or none.
const NONE = 0
const MAX_LENGTH = 1
const NON_BLANK = 2
const POSITIVE_INT = 3
const ISO_DATE_TIME = 4
const QUICK: Readonly<Record<Quick['check'], number>> = {
  maxLength: MAX_LENGTH,
  nonBlank: NON_BLANK,
  positiveInt: POSITIVE_INT,
  isoDateTime: ISO_DATE_TIME,
}

/** The slots of the members of `branches`, their forms read once. */
export const slotsOf = (branches: ReadonlyArray<Branch>): Slots => {
  const names: Array<string> = []
  const decoders: Array<FastDecoder> = []
  const partial: Array<boolean> = []
  const branch: Array<number> = []
  branches.forEach((b, i) =>
    b.keys.forEach((k, j) => {
      names.push(k)
      decoders.push(b.decoders[j] as FastDecoder)
      partial.push(b.partial)
      branch.push(i)
    }),
  )
  const forms = decoders.map(formOf)
  return {
    size: names.length,
    all: 2 ** names.length - 1,
    names,
    decoders,
    kinds: Uint8Array.from(forms, (f) => (f === undefined ? CALL : KINDS[f.type])),
    predicates: forms.map((f) => f?.predicate),
    quick: Uint8Array.from(forms, (f) => (f?.quick === undefined ? NONE : QUICK[f.quick.check])),
    bounds: Float64Array.from(forms, (f) => (f?.quick?.check === 'maxLength' ? f.quick.bound : 0)),
    absents: forms.map((f) => (f === undefined ? FAIL : f.absent)),
    absentKnown: Uint8Array.from(forms, (f, i) =>
      f !== undefined || isRefusingAbsent(decoders[i] as FastDecoder) ? 1 : 0,
    ),
    nils: forms.map((f) => f?.nil),
    partial,
    branch: Uint8Array.from(branch),
    index: new Map(names.map((k, i) => [k, i])),
    // A guess is only ever checked: the first one may be any member.
    next: new Int32Array(names.length + 1),
  }
}

// -------------------------------------------------------------------------------------
// decoding
// -------------------------------------------------------------------------------------

/**
 * Whether the form of slot `i`, of kind `kind` (not `CALL`), accepts `u`, a value neither
 * `undefined` nor `null`: as itself, the only value it can give for such a value.
 */
export const accepts = (s: Slots, i: number, kind: number, u: unknown): boolean => {
  // `typeof` compared with a literal is a check of the value's map, not a call.
  if (
    kind === STRING
      ? typeof u !== 'string'
      : kind === NUMBER
        ? typeof u !== 'number'
        : typeof u !== 'boolean'
  )
    return false
  const predicate = s.predicates[i]
  if (predicate === undefined) return true
  switch (s.quick[i]) {
    case MAX_LENGTH:
      if ((u as string).length <= (s.bounds[i] as number)) return true
      break
    case NON_BLANK: {
      const first = (u as string).charCodeAt(0)
      if (first > 32 && first < 127) return true
      break
    }
    case POSITIVE_INT:
      return Number.isSafeInteger(u) && (u as number) > 0
    case ISO_DATE_TIME:
      if (isPlainIsoDateTime(u as string)) return true
      break
  }
  return predicate(u)
}

/** What the member of slot `i`, absent, decodes to (`undefined`): no call when it is known. */
export const absentAt = (s: Slots, i: number): unknown =>
  s.absentKnown[i] === 1 ? s.absents[i] : (s.decoders[i] as FastDecoder)(undefined)

/** What the member of slot `i` decodes `u` to: its form's answer, inline, else its decoder's. */
export const decodeAt = (s: Slots, i: number, u: unknown): unknown => {
  const kind = s.kinds[i] as number
  if (kind === CALL) return (s.decoders[i] as FastDecoder)(u)
  if (u === undefined) return s.absents[i]
  if (u === null) return s.nils[i]
  return accepts(s, i, kind, u) ? u : FAIL
}

/** The slot of key `k`, visited after slot `prev` (-1 for a key of no member). */
export const slotOf = (s: Slots, prev: number, k: string): number => {
  const guess = s.next[prev] as number
  if (s.names[guess] === k) return guess
  const slot = s.index.get(k)
  if (slot === undefined) return -1
  s.next[prev] = slot
  return slot
}

/**
 * Whether `v`, what the member of slot `i` decoded `u` to, is another value. A form gives
 * back its input but for `undefined` (its default): no comparison of two values of any
 * type (a call to V8's generic one) for those.
 */
export const changed = (s: Slots, i: number, u: unknown, v: unknown): boolean =>
  s.kinds[i] === CALL ? v !== u : u === undefined && v !== undefined
