/**
 * A fast path for decoding valid input: an io-ts codec compiled, once, into a plain
 * function that gives the very value `codec.decode` would give (same members, same key
 * order, the input itself when nothing changes) or {@link FAIL}. It allocates no context,
 * no `Either` and no error: `validate` runs it first and asks `codec.decode` for the
 * errors only when it fails, so messages and paths are io-ts's, unchanged.
 *
 * io-ts's own combinators (`type`, `partial`, `exact`, `intersection`, `array`, `union`,
 * `readonly`, refinements and the primitives) are compiled here with io-ts's semantics;
 * the core's combinators register their fast form with `withFastPath` (`fastDecoder`), the
 * model's records marked `unrolled` find theirs by name in `fastRecords`; any other codec
 * runs its own `validate`.
 *
 * An exact `type` or `partial`, and an intersection of them, decodes a record by one
 * `for...in` walk of its keys (`fastRecord`), which builds the value in io-ts's key order;
 * a record whose keys or members the walk would not read as io-ts does takes io-ts's steps
 * one by one. A fast path registered for a record may read its members by name for the
 * inputs it most often gets and leave the rest to that walk (`structural`).
 */
import * as t from 'io-ts'
import {
  AS_IS_TAGS,
  builderOf,
  type Compile,
  FAIL,
  failed,
  type FastDecoder,
  isUnrolled,
} from './fastDecoder.js'
import {
  formOf,
  nullableDecoder,
  primitiveDecoder,
  primitiveOf,
  refusesAbsent,
} from './fastForm.js'
import { unrolledForms } from './fastRecords.js'
import { exactMerge, exactRecord } from './fastRecord.js'
import { type Branch, MAX_MEMBERS } from './fastSlots.js'
import { walkable } from './ownKeys.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

export { asIs, FAIL, failed, type FastDecoder, runs } from './fastDecoder.js'

// -------------------------------------------------------------------------------------
// registry
// -------------------------------------------------------------------------------------

const compiled = new WeakMap<object, FastDecoder>()

// -------------------------------------------------------------------------------------
// io-ts semantics
// -------------------------------------------------------------------------------------

const hasOwn = Object.prototype.hasOwnProperty
const isRecord = t.UnknownRecord.is

interface Tagged {
  readonly _tag?: string
  readonly type?: t.Decoder<unknown, unknown>
  readonly types?: ReadonlyArray<t.Decoder<unknown, unknown>>
  readonly props?: Readonly<Record<string, t.Decoder<unknown, unknown>>>
  readonly predicate?: (u: unknown) => boolean
}

/** io-ts's `getProps`: the members an `exact` codec keeps. */
const propsOf = (codec: Tagged): Readonly<Record<string, unknown>> | undefined => {
  switch (codec._tag) {
    case 'RefinementType':
    case 'ReadonlyType':
      return codec.type === undefined ? undefined : propsOf(codec.type as Tagged)
    case 'InterfaceType':
    case 'StrictType':
    case 'PartialType':
      return codec.props
    case 'IntersectionType':
      return (codec.types ?? []).reduce<Record<string, unknown>>(
        (props, type) => Object.assign(props, propsOf(type as Tagged)),
        {},
      )
    default:
      return undefined
  }
}

/** io-ts's `stripKeys`: `o` without the keys `props` lacks (`o` itself if it has none). */
const stripKeys = (o: object, props: Readonly<Record<string, unknown>>): object => {
  const keys = Object.getOwnPropertyNames(o)
  let i = 0
  while (i < keys.length && hasOwn.call(props, keys[i] as string)) i++
  if (i === keys.length) return o // nothing to strip: no copy
  const r: Record<string, unknown> = {}
  for (const key of keys) if (hasOwn.call(props, key)) r[key] = (o as Record<string, unknown>)[key]
  return r
}

/** io-ts's `mergeAll`: the results of an intersection's branches as one value. */
const mergeAll = (base: unknown, us: ReadonlyArray<unknown>): unknown => {
  let equal = true
  let primitive = true
  const baseIsNotADictionary = !isRecord(base)
  for (const u of us) {
    if (u !== base) equal = false
    if (isRecord(u)) primitive = false
  }
  if (equal) return base
  if (primitive) return us[us.length - 1]
  const r: Record<string, unknown> = {}
  for (const u of us) {
    const o = u as Record<string, unknown>
    for (const k in o) {
      if (
        !hasOwn.call(r, k) ||
        baseIsNotADictionary ||
        o[k] !== (base as Record<string, unknown>)[k]
      )
        r[k] = o[k]
    }
  }
  return r
}

const interfaceOf = (
  props: Readonly<Record<string, t.Decoder<unknown, unknown>>>,
  partial: boolean,
  compile: Compile,
): FastDecoder => {
  const keys = Object.keys(props)
  const decoders = keys.map((k) => compile(props[k] as t.Decoder<unknown, unknown>))
  const len = keys.length
  return (u) => {
    if (!isRecord(u)) return FAIL
    let a = u as Record<string, unknown>
    for (let i = 0; i < len; i++) {
      const k = keys[i] as string
      const ak = a[k]
      const v = (decoders[i] as FastDecoder)(ak)
      if (failed(v)) {
        // A partial member that is absent and does not decode `undefined` is left out.
        if (!partial || ak !== undefined) return FAIL
      } else if (v !== ak || (!partial && v === undefined && !hasOwn.call(a, k))) {
        if (a === u) a = { ...u }
        a[k] = v
      }
    }
    return a
  }
}

/** io-ts's `array(item)` / `readonlyArray(item)`: the input itself, or a copy with the items that changed. */
const arrayOf =
  (item: FastDecoder): FastDecoder =>
  (u) => {
    if (!Array.isArray(u)) return FAIL
    let as: Array<unknown> = u
    for (let i = 0; i < u.length; i++) {
      const ui: unknown = u[i]
      const v = item(ui)
      if (failed(v)) return FAIL
      if (v !== ui) {
        if (as === u) as = u.slice()
        as[i] = v
      }
    }
    return as
  }

/** The codec's own `validate`, for a codec this module does not know. */
const viaValidate = (codec: t.Decoder<unknown, unknown>): FastDecoder => {
  const context: t.Context = [{ key: '', type: codec, actual: undefined }]
  return (u) => {
    const r = codec.validate(u, context)
    return r._tag === 'Right' ? r.right : FAIL
  }
}

// -------------------------------------------------------------------------------------
// exact records
// -------------------------------------------------------------------------------------

/** The members of `codec` if it is an exact `type` or `partial` that a walk can decode. */
const branchOf = (codec: Tagged): Branch | undefined => {
  const inner = codec.type as Tagged | undefined
  if (codec._tag !== 'ExactType' || inner === undefined || inner.props === undefined) return
  if (inner._tag !== 'InterfaceType' && inner._tag !== 'PartialType') return
  const props = inner.props
  const keys = Object.keys(props)
  if (!walkable(keys)) return
  return {
    keys,
    decoders: keys.map((k) => fastDecoderOf(props[k] as t.Decoder<unknown, unknown>)),
    partial: inner._tag === 'PartialType',
  }
}

/** The members of `codec` if it is an exact `type` or `partial` that a walk can decode. */
export const exactBranchOf = (codec: t.Decoder<unknown, unknown>): Branch | undefined =>
  branchOf(codec as Tagged)

/** Whether `codec` has members of its own (io-ts's `getProps` finds some). */
export const hasMembers = (codec: t.Decoder<unknown, unknown>): boolean =>
  propsOf(codec as Tagged) !== undefined

/**
 * The exact branches of an intersection, if a walk can decode it (no member in two, at
 * most `MAX_MEMBERS` in all), and its other branches, rules that must add no member.
 */
const exactBranchesOf = (
  types: ReadonlyArray<t.Decoder<unknown, unknown>>,
): { exacts: ReadonlyArray<Branch>; rules: ReadonlyArray<FastDecoder> } | undefined => {
  const exacts: Array<Branch> = []
  const rules: Array<FastDecoder> = []
  const keys = new Set<string>()
  for (const type of types) {
    const b = branchOf(type as Tagged)
    if (b === undefined) {
      if (propsOf(type as Tagged) !== undefined) return // a branch with members of its own
      rules.push(fastDecoderOf(type))
      continue
    }
    for (const k of b.keys) {
      if (keys.has(k)) return
      keys.add(k)
    }
    exacts.push(b)
  }
  return exacts.length === 0 || keys.size > MAX_MEMBERS ? undefined : { exacts, rules }
}

const build = (codec: t.Decoder<unknown, unknown>): FastDecoder => {
  const structural = (): FastDecoder => buildStructural(codec)
  const own = builderOf(codec)
  if (own !== undefined) return own(fastDecoderOf, structural)
  return isUnrolled(codec) ? unrolledForms(codec, fastDecoderOf, structural) : structural()
}

/** The fast decoder of `codec` from its io-ts structure, whatever fast path it has. */
const buildStructural = (codec: t.Decoder<unknown, unknown>): FastDecoder => {
  const tagged = codec as Tagged
  const tag = tagged._tag ?? ''
  const primitive = primitiveOf(codec)
  if (primitive !== undefined) return primitiveDecoder(primitive, undefined)
  if (AS_IS_TAGS.has(tag) && typeof (codec as { is?: unknown }).is === 'function') {
    const is = (codec as unknown as { readonly is: t.Is<unknown> }).is
    return (u) => (is(u) ? u : FAIL)
  }
  switch (tag) {
    case 'InterfaceType':
    case 'PartialType':
      if (tagged.props !== undefined)
        return interfaceOf(tagged.props, tag === 'PartialType', fastDecoderOf)
      break
    case 'ExactType': {
      const props = tagged.type === undefined ? undefined : propsOf(tagged.type as Tagged)
      if (tagged.type === undefined || props === undefined) break
      const inner = fastDecoderOf(tagged.type)
      const slow: FastDecoder = (u) => {
        if (!isRecord(u)) return FAIL
        const v = inner(u)
        return failed(v) ? FAIL : stripKeys(v as object, props)
      }
      const branch = branchOf(tagged)
      return refusesAbsent(branch === undefined ? slow : exactRecord(branch, slow))
    }
    case 'IntersectionType': {
      const branches = (tagged.types ?? []).map(fastDecoderOf)
      if (branches.length === 0) break
      const slow: FastDecoder = (u) => {
        const us: Array<unknown> = []
        for (const branch of branches) {
          const v = branch(u)
          if (failed(v)) return FAIL
          us.push(v)
        }
        return mergeAll(u, us)
      }
      const walk = exactBranchesOf(tagged.types ?? [])
      return walk === undefined ? slow : refusesAbsent(exactMerge(walk.exacts, walk.rules, slow))
    }
    case 'ArrayType':
    case 'ReadonlyArrayType':
      if (tagged.type !== undefined) return refusesAbsent(arrayOf(fastDecoderOf(tagged.type)))
      break
    case 'ReadonlyType':
      if (tagged.type !== undefined) return fastDecoderOf(tagged.type)
      break
    case 'UnionType': {
      const branches = (tagged.types ?? []).map(fastDecoderOf)
      if (branches.length === 0) break
      // `nullable(codec)` of a codec with a form that refuses null: its form, null allowed.
      const [first, second] = branches
      if (
        branches.length === 2 &&
        (tagged.types?.[1] as Tagged | undefined)?._tag === 'NullType' &&
        first !== undefined &&
        second !== undefined &&
        formOf(first)?.nil === FAIL
      )
        return nullableDecoder(first)
      // The first branch that decodes gives the value (a tagged union tries only the
      // branch of the tag, which is the only one that can decode).
      return (u) => {
        for (const branch of branches) {
          const v = branch(u)
          if (!failed(v)) return v
        }
        return FAIL
      }
    }
    case 'RefinementType': {
      const predicate = tagged.predicate
      if (tagged.type === undefined || predicate === undefined) break
      const type = primitiveOf(tagged.type)
      if (type !== undefined) return primitiveDecoder(type, predicate)
      const inner = fastDecoderOf(tagged.type)
      return (u) => {
        const v = inner(u)
        return failed(v) || !predicate(v) ? FAIL : v
      }
    }
  }
  return viaValidate(codec)
}

/**
 * The fast decoder of `codec` (compiled once, then cached): the value `codec.decode`
 * gives, or {@link FAIL} when it gives errors.
 */
export const fastDecoderOf = (codec: t.Decoder<unknown, unknown>): FastDecoder => {
  const cached = compiled.get(codec)
  if (cached !== undefined) return cached
  // A recursive codec reaches itself while compiling: it waits for its own compilation.
  const pending: { decoder?: FastDecoder } = {}
  compiled.set(codec, (u) => (pending.decoder as FastDecoder)(u))
  const decoder = build(codec)
  pending.decoder = decoder
  compiled.set(codec, decoder)
  return decoder
}
