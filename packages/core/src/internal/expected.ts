/**
 * What a codec expects, as the issue of a value it refused without naming a rule (an
 * io-ts type, not a core rule): a type error (`{ code: 'type', expected: ['string'],
 * received: 'number' }`), one of a few literals (`oneOf`), or, when the kind of the value
 * is right and only an unnamed refinement refused it, `invalid`.
 */
import type * as t from 'io-ts'
import { type FieldIssue, kindOf, type Literal, type ValueKind } from './issue.js'

type Decoder = t.Decoder<unknown, unknown>

// Combinators that validate through another codec record it here, so a failure of that
// base (a number where `MaxLength<255>` wants a string) is described by the base.
const bases = new WeakMap<object, Decoder>()

/** Records that `outer` validates its input through `inner`; returns `outer`. */
export const validatesThrough = <T extends object>(outer: T, inner: Decoder): T => {
  bases.set(outer, inner)
  return outer
}

/** The codec that `codec` validates its input through, if a combinator recorded one. */
export const baseOf = (codec: object): Decoder | undefined => bases.get(codec)

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
const KINDS: Readonly<Record<string, ValueKind>> = {
  StringType: 'string',
  NumberType: 'number',
  BigIntType: 'bigint',
  BooleanType: 'boolean',
  NullType: 'null',
  UndefinedType: 'undefined',
  VoidType: 'undefined',
  FunctionType: 'function',
}

/** The kinds of value and the literals a codec accepts. */
interface Expectation {
  readonly kinds: ReadonlyArray<ValueKind>
  readonly values: ReadonlyArray<Literal>
}

const kinds = (...k: ReadonlyArray<ValueKind>): Expectation => ({ kinds: k, values: [] })

/** What `type` accepts, or undefined for a codec this cannot read. */
const expectationOf = (type: Decoder): Expectation | undefined => {
  const base = bases.get(type)
  if (base !== undefined) return expectationOf(base)
  const tagged = type as Tagged
  const tag = tagged._tag ?? ''
  const kind = KINDS[tag]
  if (kind !== undefined) return kinds(kind)
  if (OBJECTS.has(tag)) return kinds('object')
  if (ARRAYS.has(tag)) return kinds('array')
  if (tag === 'LiteralType') return { kinds: [], values: [tagged.value as Literal] }
  if (tag === 'KeyofType') return { kinds: [], values: Object.keys(tagged.keys ?? {}) }
  if (tag === 'UnionType') {
    const all: Array<ValueKind> = []
    const values: Array<Literal> = []
    for (const member of tagged.types ?? []) {
      const e = expectationOf(member)
      if (e === undefined) return undefined
      for (const k of e.kinds) if (!all.includes(k)) all.push(k)
      for (const v of e.values) if (!values.includes(v)) values.push(v)
    }
    return { kinds: all, values }
  }
  if (tagged.type !== undefined) return expectationOf(tagged.type) // refinement, readonly, recursive
  return undefined
}

/**
 * The issue of a value `u` (not undefined) that `type` refused without a rule of the
 * core's: `oneOf` when it accepts literals only, `type` when the value is of another
 * kind than it accepts, `invalid` otherwise (an unnamed refinement, a codec unknown here).
 */
export const issueOfRefused = (type: Decoder | undefined, u: unknown): FieldIssue => {
  const expectation = type === undefined ? undefined : expectationOf(type)
  if (expectation === undefined) return { code: 'invalid' }
  if (expectation.kinds.length === 0) return { code: 'oneOf', values: expectation.values }
  const expected = [...expectation.kinds]
  for (const v of expectation.values) {
    const k = kindOf(v)
    if (!expected.includes(k)) expected.push(k)
  }
  const received = kindOf(u)
  return expected.includes(received) ? { code: 'invalid' } : { code: 'type', expected, received }
}
