/**
 * What a codec expects, in words a person reads in a field error (`a string`, `an object`,
 * `one of PENDING, PAID`), rather than an io-ts type name (`MaxLength<255>`).
 */
import type * as t from 'io-ts'

type Decoder = t.Decoder<unknown, unknown>

// Combinators that validate through another codec record it here, so a failure of that
// base (a number where `MaxLength<255>` wants a string) is described by the base.
const bases = new WeakMap<object, Decoder>()

/** Records that `outer` validates its input through `inner`; returns `outer`. */
export const validatesThrough = <T extends object>(outer: T, inner: Decoder): T => {
  bases.set(outer, inner)
  return outer
}

interface Tagged {
  readonly _tag?: string
  readonly type?: Decoder
  readonly types?: ReadonlyArray<Decoder>
  readonly value?: unknown
  readonly keys?: Readonly<Record<string, unknown>>
}

const OBJECTS = new Set([
  'UnknownRecordType',
  'InterfaceType',
  'PartialType',
  'StrictType',
  'ExactType',
  'DictionaryType',
  'IntersectionType',
])
const ARRAYS = new Set(['UnknownArrayType', 'ArrayType', 'ReadonlyArrayType', 'TupleType'])
const SIMPLE: Readonly<Record<string, string>> = {
  StringType: 'a string',
  NumberType: 'a number',
  BigIntType: 'a bigint',
  BooleanType: 'a boolean',
  NullType: 'null',
  UndefinedType: 'absent',
  VoidType: 'absent',
  FunctionType: 'a function',
}

/** The kind of value `type` accepts, in words. */
export const expectedOf = (type: Decoder): string => {
  const base = bases.get(type)
  if (base !== undefined) return expectedOf(base)
  const tagged = type as Tagged
  const tag = tagged._tag ?? ''
  const simple = SIMPLE[tag]
  if (simple !== undefined) return simple
  if (OBJECTS.has(tag)) return 'an object'
  if (ARRAYS.has(tag)) return 'an array'
  if (tag === 'LiteralType') return JSON.stringify(tagged.value)
  if (tag === 'KeyofType') return `one of ${Object.keys(tagged.keys ?? {}).join(', ')}`
  if (tag === 'UnionType') return [...new Set((tagged.types ?? []).map(expectedOf))].join(' or ')
  if (tagged.type !== undefined) return expectedOf(tagged.type) // refinement, readonly, recursive
  return type.name
}
