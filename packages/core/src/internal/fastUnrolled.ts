/**
 * What the generated fast forms (`fastForms.generated`, written by
 * `scripts/fastForms.ts` from the model's codecs) take from the codec they decode: its
 * members' decoders, checked to be the members the form was generated for, and the
 * conditions under which a form holds (else the record's walk decodes it). A form reads a
 * record as JSON gives it, its members by name, each in a block of its own: a store by a
 * key held in a variable is what the walk spends its time on (BENCHMARKS.md, the runs of
 * 2 Dec), and only generated code stores by name without `eval`.
 */
import type * as t from 'io-ts'
import {
  type Compile,
  FAIL,
  failed,
  type FastDecoder,
  membersOf,
  runs,
  type WalkMemo,
  walkMemoOf,
} from './fastDecoder.js'
import { formOf, oneOfFormOf } from './fastForm.js'
import { layoutOf } from './ownKeys.js'

type Decoder = t.Decoder<unknown, unknown>

// -------------------------------------------------------------------------------------
// members
// -------------------------------------------------------------------------------------

/** The decoders of `keys`, the members of `codec` (a `type` or `partial`, maybe exact). */
export const decodersOf = (
  codec: Decoder,
  keys: ReadonlyArray<string>,
  compile: Compile,
): ReadonlyArray<FastDecoder> => {
  const props = membersOf(codec, keys)
  return keys.map((k) => compile(props[k] as Decoder))
}

/**
 * Whether a member of these decoders may decode a value to another: one without a form
 * (see `fastForm`), or whose form gives a default for `undefined`.
 */
export const mayChange = (decoders: ReadonlyArray<FastDecoder>): boolean =>
  decoders.some((decode) => {
    const form = formOf(decode)
    return form === undefined || !failed(form.absent)
  })

/**
 * The parts of an intersection of an exact `type` of `required`, an exact `partial` of
 * `optional` and rules "one of these members given" (`oneOf`), for a form that reads its
 * members by name and builds the merged value at once in member order.
 */
export interface Merged {
  readonly required: ReadonlyArray<FastDecoder>
  readonly optional: ReadonlyArray<FastDecoder>
  /** The layout of a record the form reads (see `layoutOf`), or -1. */
  readonly layout: (u: object) => number
  /** The walk's note of a failed record, which the errors' walk reads. */
  readonly memo: WalkMemo
}

/**
 * The parts of `codec` if its form holds: these branches and these rules, a walk that
 * notes its failures, and no optional member with a default (which io-ts's `partial`
 * adds when absent). Else `undefined`, and the walk decodes every record.
 */
export const mergedOf = (
  codec: Decoder,
  required: ReadonlyArray<string>,
  optional: ReadonlyArray<string>,
  oneOf: ReadonlyArray<ReadonlyArray<string>>,
  compile: Compile,
  walk: FastDecoder,
): Merged | undefined => {
  const types = (codec as unknown as { readonly types: ReadonlyArray<Decoder> }).types
  const memo = walkMemoOf(walk)
  if (memo === undefined || types.length !== 2 + oneOf.length) return undefined
  for (let i = 0; i < oneOf.length; i++)
    if (oneOfFormOf(compile(types[2 + i] as Decoder))?.join() !== oneOf[i]?.join()) return undefined
  const decoders = decodersOf(types[1] as Decoder, optional, compile)
  if (decoders.some((decode) => !failed(decode(undefined)))) return undefined
  return {
    required: decodersOf(types[0] as Decoder, required, compile),
    optional: decoders,
    layout: layoutOf(required, optional),
    memo,
  }
}

// -------------------------------------------------------------------------------------
// values
// -------------------------------------------------------------------------------------

/**
 * An optional member given: its decoded value, or FAIL. One given as `undefined` that does
 * not decode it stays `undefined`, as io-ts's `partial` leaves it.
 */
export const givenValue = (decode: FastDecoder, raw: unknown): unknown => {
  const v = decode(raw)
  return failed(v) && raw === undefined ? undefined : v
}

/**
 * io-ts's copy of a record, `Object.assign({}, u)`, as a spread (V8 clones a JSON object
 * at once: an order decoded 2.7x slower with `Object.assign`), the same copy but for an
 * own `__proto__` key, which `Object.assign` sets as the copy's prototype.
 */
export const copyOf = (u: Record<string, unknown>): Record<string, unknown> =>
  Object.hasOwn(u, '__proto__') ? Object.assign({}, u) : { ...u }

/**
 * Gives FAIL, noting in `memo` what a walk of `u` notes when it fails (the members given
 * and those that fail, in the walk's slots), for the errors' walk.
 */
export const failedWith = (
  memo: WalkMemo,
  u: object,
  seen: number,
  failing: number,
): typeof FAIL => {
  memo.record = u
  memo.run = runs.current
  memo.seen = seen
  memo.failing = failing
  memo.others = false
  return FAIL
}
