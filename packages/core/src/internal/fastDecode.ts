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

const build = (codec: t.Decoder<unknown, unknown>): FastDecoder => {
  const own = builders.get(codec)
  if (own !== undefined) return own(fastDecoderOf)
  const tagged = codec as Tagged
  const tag = tagged._tag ?? ''
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
      return (u) => {
        if (!isRecord(u)) return FAIL
        const v = inner(u)
        return v === FAIL ? FAIL : stripKeys(v as object, props)
      }
    }
    case 'IntersectionType': {
      const branches = (tagged.types ?? []).map(fastDecoderOf)
      if (branches.length === 0) break
      return (u) => {
        const us: Array<unknown> = []
        for (const branch of branches) {
          const v = branch(u)
          if (v === FAIL) return FAIL
          us.push(v)
        }
        return mergeAll(u, us)
      }
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
