/**
 * A fast path for decoding valid input: an io-ts codec compiled, once, into a plain
 * function that gives the very value `codec.decode` would give (same members, same key
 * order, the input itself when nothing changes) or {@link FAIL}. It allocates no context,
 * no `Either` and no error: `validate` runs it first and asks `codec.decode` for the
 * errors only when it fails, so messages and paths are io-ts's, unchanged.
 *
 * io-ts's own combinators (`type`, `partial`, `exact`, `intersection`, `array`, `union`,
 * `readonly`, refinements and the primitives) are compiled here with io-ts's semantics;
 * the core's combinators register their fast form with {@link withFastPath}; any other
 * codec runs its own `validate`.
 *
 * An exact `type` or `partial`, and an intersection of them, decodes a record made like
 * JSON's (prototype `Object.prototype` or null, no hidden or inherited keys) by one
 * `for...in` walk of its keys, which gives each key's value without a lookup by name and
 * builds the result in io-ts's key order; any other record takes io-ts's steps one by one.
 */
import * as t from 'io-ts'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What a fast decoder returns for input that does not decode. */
export const FAIL: unique symbol = Symbol('FAIL')

/** The value `decode` gives, or `FAIL`. */
export type FastDecoder = (u: unknown) => unknown

/** Builds the fast decoder of a codec from the fast decoders of the codecs it wraps. */
export type FastPathBuilder = (
  compile: (codec: t.Decoder<unknown, unknown>) => FastDecoder,
) => FastDecoder

// -------------------------------------------------------------------------------------
// registry
// -------------------------------------------------------------------------------------

const builders = new WeakMap<object, FastPathBuilder>()
const compiled = new WeakMap<object, FastDecoder>()

/** Records how to decode `codec` fast (a core combinator); returns `codec`. */
export const withFastPath = <T extends object>(codec: T, build: FastPathBuilder): T => {
  builders.set(codec, build)
  return codec
}

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

// Codecs whose `validate` gives the input itself when `is` holds, and fails otherwise.
const AS_IS = new Set([
  'StringType',
  'NumberType',
  'BigIntType',
  'BooleanType',
  'NullType',
  'UndefinedType',
  'VoidType',
  'UnknownType',
  'AnyType',
  'UnknownRecordType',
  'UnknownArrayType',
  'LiteralType',
  'KeyofType',
])

/** The `typeof` of the values io-ts's `string`, `number` or `boolean` accepts, if `codec` is one. */
export const primitiveOf = (
  codec: t.Decoder<unknown, unknown>,
): 'string' | 'number' | 'boolean' | undefined => {
  switch ((codec as Tagged)._tag) {
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
 * The fast decoder of a primitive codec narrowed by `predicate` (a refinement), one
 * closure with the `typeof` check inline.
 */
export const refinedPrimitive = (
  type: 'string' | 'number' | 'boolean',
  predicate: (a: never) => boolean,
): FastDecoder => {
  const p = predicate as (a: unknown) => boolean
  switch (type) {
    case 'string':
      return (u) => (typeof u === 'string' && p(u) ? u : FAIL)
    case 'number':
      return (u) => (typeof u === 'number' && p(u) ? u : FAIL)
    case 'boolean':
      return (u) => (typeof u === 'boolean' && p(u) ? u : FAIL)
  }
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
  compile: (codec: t.Decoder<unknown, unknown>) => FastDecoder,
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
      if (v === FAIL) {
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

const arrayOf =
  (item: FastDecoder): FastDecoder =>
  (u) => {
    if (!Array.isArray(u)) return FAIL
    let as: Array<unknown> = u
    for (let i = 0; i < u.length; i++) {
      const ui: unknown = u[i]
      const v = item(ui)
      if (v === FAIL) return FAIL
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
// plain records
// -------------------------------------------------------------------------------------

/**
 * The members of an `exact(type(...))` or `exact(partial(...))`, compiled for a walk of
 * the input's keys: one `for...in` gives them in order with their values (no lookup of a
 * value by name), a map gives each key's member, and a bit per member finds those absent.
 */
interface Members {
  readonly keys: ReadonlyArray<string>
  readonly decoders: ReadonlyArray<FastDecoder>
  readonly index: ReadonlyMap<string, number>
  readonly partial: boolean
  /** One bit per member. */
  readonly all: number
}

// An integer-like key comes first in an object whatever its place: left to io-ts's order.
const INDEX_LIKE = /^\d+$/

/** The members of `codec` if it is an exact `type` or `partial` that a walk can decode. */
const membersOf = (codec: Tagged): Members | undefined => {
  const inner = codec.type as Tagged | undefined
  if (codec._tag !== 'ExactType' || inner === undefined || inner.props === undefined) return
  if (inner._tag !== 'InterfaceType' && inner._tag !== 'PartialType') return
  const props = inner.props
  const keys = Object.keys(props)
  if (keys.length > 30 || keys.some((k) => INDEX_LIKE.test(k))) return
  return {
    keys,
    decoders: keys.map((k) => fastDecoderOf(props[k] as t.Decoder<unknown, unknown>)),
    index: new Map(keys.map((k, i) => [k, i])),
    partial: inner._tag === 'PartialType',
    all: 2 ** keys.length - 1,
  }
}

/**
 * Whether `u`, a record, is made like JSON's: its prototype is `Object.prototype` or
 * null, so `for...in` visits its own keys only (unless `Object.prototype` was given
 * enumerable keys, which {@link walkedKeys} against its own names then shows).
 */
const isPlain = (u: object): boolean => {
  const prototype = Object.getPrototypeOf(u) as unknown
  return prototype === Object.prototype || prototype === null
}

/** The member of key `k` (-1 for none). */
const memberOf = (m: Members, k: string): number => m.index.get(k) ?? -1

// What the last walk found, set just before it returns and read at once by its caller.
let walkedKeys = 0
let walkedMembers = 0
let walkChanged = false

/**
 * Writes to `r` the members of `m` decoded from the plain record `u`, as io-ts's
 * `type`/`partial` then `exact` would keep them: those `u` has in `u`'s key order, then
 * those it lacks that decode (a default) in the members' order. False when one fails.
 */
const walkInto = (u: Record<string, unknown>, m: Members, r: Record<string, unknown>): boolean => {
  let keys = 0
  let members = 0
  let seen = 0
  let changed = false
  for (const k in u) {
    const i = memberOf(m, k)
    keys++
    if (i < 0) continue
    members++
    seen |= 1 << i
    const ak = u[k]
    let v = (m.decoders[i] as FastDecoder)(ak)
    if (v === FAIL) {
      // A partial member given as `undefined` that does not decode it stays as given.
      if (!m.partial || ak !== undefined) return false
      v = ak
    } else if (v !== ak) changed = true
    r[k] = v
  }
  const absent = seen === m.all ? 0 : setAbsent(m, seen, r)
  if (absent < 0) return false
  walkedKeys = keys
  walkedMembers = members
  walkChanged = changed || absent > 0
  return true
}

/**
 * Writes to `r` the members of `m` not in `seen` that decode `undefined` (defaults), in
 * the members' order: -1 when a required one fails, else how many it wrote.
 */
const setAbsent = (m: Members, seen: number, r: Record<string, unknown>): number => {
  let set = 0
  for (let i = 0; i < m.keys.length; i++) {
    if ((seen & (1 << i)) !== 0) continue
    const v = (m.decoders[i] as FastDecoder)(undefined)
    if (v === FAIL) {
      if (m.partial) continue
      return -1
    }
    // io-ts's `type` sets an absent member even to `undefined`; `partial` does not.
    if (m.partial && v === undefined) continue
    r[m.keys[i] as string] = v
    set++
  }
  return set
}

/** Whether a record's own names are those a walk of it visited (none hidden, none inherited). */
const walkedAll = (u: object): boolean => Object.getOwnPropertyNames(u).length === walkedKeys

/**
 * `exact(type(...))` or `exact(partial(...))` over a plain record by one walk: the input
 * itself when nothing is stripped or changed, else a record of its members. Any other
 * record goes to `slow`, io-ts's steps one by one.
 */
const exactOf =
  (m: Members, slow: FastDecoder): FastDecoder =>
  (u) => {
    if (!isRecord(u)) return FAIL
    if (!isPlain(u)) return slow(u)
    // io-ts's steps: a copy of the input at the first member that changes, then its
    // members only if it has other keys.
    let a = u
    let keys = 0
    let stripped = false
    let seen = 0
    for (const k in u) {
      const i = memberOf(m, k)
      keys++
      if (i < 0) {
        stripped = true
        continue
      }
      seen |= 1 << i
      const ak = u[k]
      const v = (m.decoders[i] as FastDecoder)(ak)
      if (v === FAIL) {
        // A partial member given as `undefined` that does not decode it stays as given.
        if (!m.partial || ak !== undefined) return FAIL
      } else if (v !== ak) {
        if (a === u) a = { ...u }
        a[k] = v
      }
    }
    if (seen !== m.all) {
      for (let i = 0; i < m.keys.length; i++) {
        if ((seen & (1 << i)) !== 0) continue
        const v = (m.decoders[i] as FastDecoder)(undefined)
        if (v === FAIL) {
          if (m.partial) continue
          return FAIL
        }
        // io-ts's `type` sets an absent member even to `undefined`; `partial` does not.
        if (m.partial && v === undefined) continue
        if (a === u) a = { ...u }
        a[m.keys[i] as string] = v
      }
    }
    if (Object.getOwnPropertyNames(u).length !== keys) return slow(u)
    if (!stripped) return a
    const r: Record<string, unknown> = {}
    for (const k in a) if (m.index.has(k)) r[k] = a[k]
    return r
  }

/**
 * An intersection of exact `type`/`partial` branches with members of their own, and of
 * rules whose value adds no member (an empty record), as io-ts merges them: the members
 * of each exact branch in turn, each in the input's key order. Anything else goes to
 * `slow`.
 */
const exactsOf = (
  exacts: ReadonlyArray<Members>,
  rules: ReadonlyArray<FastDecoder>,
  slow: FastDecoder,
): FastDecoder => {
  const pair =
    exacts.length === 2 ? pairOf(exacts[0] as Members, exacts[1] as Members, slow) : undefined
  return (u: unknown): unknown => {
    if (!isRecord(u)) return FAIL
    if (!isPlain(u)) return slow(u)
    for (const rule of rules) {
      const v = rule(u)
      if (v === FAIL) return FAIL
      if (v === u || !isRecord(v)) return slow(u)
      for (const _ in v) return slow(u)
    }
    const r: Record<string, unknown> = {}
    if (pair !== undefined) return pair(u, r, rules.length === 0)
    let asInput = rules.length === 0
    for (const m of exacts) {
      if (!walkInto(u, m, r)) return FAIL
      if (walkChanged || walkedMembers < walkedKeys) asInput = false
    }
    if (!walkedAll(u)) return slow(u)
    // Every branch gave the input itself: io-ts's merge gives it too.
    return asInput ? u : r
  }
}

/**
 * Two exact branches in one walk (a request's required and optional members): the
 * first's members go to `r` as they come, the second's wait for the first's defaults.
 */
const pairOf = (
  first: Members,
  second: Members,
  slow: FastDecoder,
): ((u: Record<string, unknown>, r: Record<string, unknown>, alone: boolean) => unknown) => {
  // key -> branch (bit 5) and member
  const index = new Map<string, number>([
    ...first.keys.map((k, i) => [k, i] as const),
    ...second.keys.map((k, i) => [k, 32 | i] as const),
  ])
  return (u, r, alone) => {
    let keys = 0
    let seenFirst = 0
    let seenSecond = 0
    let later: Array<unknown> | undefined
    for (const k in u) {
      keys++
      const code = index.get(k)
      if (code === undefined) continue
      const m = code < 32 ? first : second
      const i = code & 31
      const ak = u[k]
      let v = (m.decoders[i] as FastDecoder)(ak)
      if (v === FAIL) {
        // A partial member given as `undefined` that does not decode it stays as given.
        if (!m.partial || ak !== undefined) return FAIL
        v = ak
      }
      if (code < 32) {
        seenFirst |= 1 << i
        r[k] = v
      } else {
        seenSecond |= 1 << i
        ;(later ??= []).push(k, v)
      }
    }
    const absentFirst = seenFirst === first.all ? 0 : setAbsent(first, seenFirst, r)
    if (absentFirst < 0) return FAIL
    if (later !== undefined)
      for (let j = 0; j < later.length; j += 2) r[later[j] as string] = later[j + 1]
    const absentSecond = seenSecond === second.all ? 0 : setAbsent(second, seenSecond, r)
    if (absentSecond < 0) return FAIL
    if (Object.getOwnPropertyNames(u).length !== keys) return slow(u)
    // Both branches gave the input itself (it has no key, nothing set): so does the merge.
    return alone && keys === 0 && absentFirst + absentSecond === 0 ? u : r
  }
}

/** The exact branches of an intersection, if a walk can decode it (no member in two). */
const exactBranchesOf = (
  types: ReadonlyArray<t.Decoder<unknown, unknown>>,
): { exacts: ReadonlyArray<Members>; rules: ReadonlyArray<FastDecoder> } | undefined => {
  const exacts: Array<Members> = []
  const rules: Array<FastDecoder> = []
  const keys = new Set<string>()
  for (const type of types) {
    const m = membersOf(type as Tagged)
    if (m === undefined) {
      if (propsOf(type as Tagged) !== undefined) return // a branch with members of its own
      rules.push(fastDecoderOf(type))
      continue
    }
    for (const k of m.keys) {
      if (keys.has(k)) return
      keys.add(k)
    }
    exacts.push(m)
  }
  return exacts.length === 0 ? undefined : { exacts, rules }
}

const build = (codec: t.Decoder<unknown, unknown>): FastDecoder => {
  const own = builders.get(codec)
  if (own !== undefined) return own(fastDecoderOf)
  const tagged = codec as Tagged
  const tag = tagged._tag ?? ''
  const primitive = primitiveOf(codec)
  if (primitive !== undefined) return refinedPrimitive(primitive, () => true)
  if (AS_IS.has(tag) && typeof (codec as { is?: unknown }).is === 'function') {
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
        return v === FAIL ? FAIL : stripKeys(v as object, props)
      }
      const members = membersOf(tagged)
      return members === undefined ? slow : exactOf(members, slow)
    }
    case 'IntersectionType': {
      const branches = (tagged.types ?? []).map(fastDecoderOf)
      if (branches.length === 0) break
      const slow: FastDecoder = (u) => {
        const us: Array<unknown> = []
        for (const branch of branches) {
          const v = branch(u)
          if (v === FAIL) return FAIL
          us.push(v)
        }
        return mergeAll(u, us)
      }
      const walk = exactBranchesOf(tagged.types ?? [])
      return walk === undefined ? slow : exactsOf(walk.exacts, walk.rules, slow)
    }
    case 'ArrayType':
    case 'ReadonlyArrayType':
      if (tagged.type !== undefined) return arrayOf(fastDecoderOf(tagged.type))
      break
    case 'ReadonlyType':
      if (tagged.type !== undefined) return fastDecoderOf(tagged.type)
      break
    case 'UnionType': {
      const branches = (tagged.types ?? []).map(fastDecoderOf)
      if (branches.length === 0) break
      // The first branch that decodes gives the value (a tagged union tries only the
      // branch of the tag, which is the only one that can decode).
      return (u) => {
        for (const branch of branches) {
          const v = branch(u)
          if (v !== FAIL) return v
        }
        return FAIL
      }
    }
    case 'RefinementType': {
      const predicate = tagged.predicate
      if (tagged.type === undefined || predicate === undefined) break
      const type = primitiveOf(tagged.type)
      if (type !== undefined) return refinedPrimitive(type, predicate)
      const inner = fastDecoderOf(tagged.type)
      return (u) => {
        const v = inner(u)
        return v === FAIL || !predicate(v) ? FAIL : v
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
