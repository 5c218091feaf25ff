// JSON Schema (2020-12, the dialect of OpenAPI 3.1) of an io-ts codec of the core, found by
// walking it: io-ts's own types by their `_tag`, the core's combinators (which have none) by
// the codec they validate through and the hint they recorded where they were made
// (packages/core/src/internal/schemaHint.ts: the rule, the pattern, the alternatives), so
// that every limit comes from the codec itself. A codec this cannot read is an error, not a
// guess: a new combinator records its hint or the generator stops.
import { fieldErrorMessage, type FieldIssue } from '@paykit/core/codecs'
import * as E from 'fp-ts/lib/Either.js'
// The core's introspection is internal: the entry it declares for its tools re-exports the
// modules the codecs were made with, so the WeakMaps are the same.
import { baseOf, schemaHintOf } from '@paykit/core/internal/tools'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** A JSON Schema object, as plain JSON. */
export type Schema = { readonly [keyword: string]: unknown }

/** What the walk needs of an io-ts codec (the root has no io-ts of its own to name it). */
export interface Decoder {
  readonly name: string
  readonly decode: (u: unknown) => E.Either<unknown, unknown>
}

interface Encoder {
  readonly encode: (a: unknown) => unknown
}

/** The codecs written as components (`#/components/schemas/<name>`), by identity. */
export type Components = ReadonlyMap<Decoder, string>

interface Tagged {
  readonly _tag?: string
  readonly name: string
  readonly type?: Decoder
  readonly types?: ReadonlyArray<Decoder>
  readonly props?: Readonly<Record<string, Decoder>>
  readonly value?: unknown
  readonly keys?: Readonly<Record<string, unknown>>
  readonly codomain?: Decoder
}

// -------------------------------------------------------------------------------------
// rules -> keywords
// -------------------------------------------------------------------------------------

const SAFE = { minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }

/**
 * The keywords that say a rule of the core; a rule no keyword can say goes into the
 * `description` in the core's own words.
 */
const keywordsOf = (issue: FieldIssue): Schema => {
  switch (issue.code) {
    case 'maxLength':
      return { maxLength: issue.maximum } // both count code points
    case 'minItems':
      return { minItems: issue.minimum }
    case 'minimum':
      return issue.inclusive ? { minimum: issue.minimum } : { exclusiveMinimum: issue.minimum }
    case 'positiveInt':
      return { type: 'integer', minimum: 1, maximum: SAFE.maximum }
    case 'integer':
      return { type: 'integer', ...SAFE }
    case 'oneOf':
      return { enum: issue.values }
    case 'required': // of a string: not blank (with the pattern \S)
      return { minLength: 1 }
    case 'finite': // JSON has no NaN or Infinity
      return {}
    case 'luhn':
      return { description: 'Must pass the Luhn check.' }
    default:
      return { description: `${sentence(fieldErrorMessage(issue))}.` }
  }
}

const sentence = (s: string): string => `${s.charAt(0).toUpperCase()}${s.slice(1)}`

// -------------------------------------------------------------------------------------
// walk
// -------------------------------------------------------------------------------------

const isObjectSchema = (s: Schema): boolean => s['type'] === 'object'

/** Whether a member of a record may be absent: its codec decodes `undefined` (a default). */
const optional = (codec: Decoder): E.Either<unknown, unknown> => codec.decode(undefined)

const objectOf = (
  props: Readonly<Record<string, Decoder>>,
  all: boolean,
  walk: (c: Decoder) => Schema,
): Schema => {
  const properties: Record<string, Schema> = {}
  const required: Array<string> = []
  for (const [key, codec] of Object.entries(props)) {
    const absent = optional(codec)
    const schema = walk(codec)
    // A default is what the codec decodes an absent member as, written back as JSON. An
    // optional member that takes null (orderDescription) reads absent as null, the spec's
    // default.
    properties[key] =
      all && E.isRight(absent) && absent.right !== undefined
        ? { ...schema, default: (codec as Decoder & Encoder).encode(absent.right) }
        : !all && E.isRight(codec.decode(null))
          ? { ...schema, default: null }
          : schema
    if (all && E.isLeft(absent)) required.push(key)
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
  }
}

/** The members of an intersection of records, merged into one object schema. */
const mergeObjects = (schemas: ReadonlyArray<Schema>): Schema => {
  const properties: Record<string, unknown> = {}
  const required: Array<string> = []
  const rest: Array<Schema> = []
  for (const s of schemas) {
    if (!isObjectSchema(s) || s['$ref'] !== undefined) {
      rest.push(s)
      continue
    }
    const { type: _type, properties: p, required: r, ...more } = s
    Object.assign(properties, p ?? {})
    required.push(...((r as ReadonlyArray<string> | undefined) ?? []))
    if (Object.keys(more).length > 0) rest.push(more)
  }
  const merged: Schema = {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
  }
  const [only] = rest
  // "At least one of these keys" (amount or lineItems) becomes one whole record per key, that
  // key required: a bare `anyOf: [{ required: [amount] }, ...]` beside the members is the
  // same to a validator, but code generators type each bare branch as unknown, and the
  // union of the record with unknown is unknown.
  const alternatives = only === undefined ? undefined : requiredAlternatives(only)
  if (rest.length === 1 && alternatives !== undefined)
    return {
      anyOf: alternatives.map((keys) => ({ ...merged, required: [...required, ...keys] })),
    }
  // Any other rule over the record sits beside its members.
  if (rest.length === 1 && only !== undefined && Object.keys(only).every((k) => !(k in merged)))
    return { ...merged, ...only }
  return rest.length === 0 ? merged : { ...merged, allOf: rest }
}

/** The key lists of `{ anyOf: [{ required: [...] }, ...] }` (and nothing else), if it is that. */
const requiredAlternatives = (s: Schema): ReadonlyArray<ReadonlyArray<string>> | undefined => {
  const branches = s['anyOf']
  if (Object.keys(s).length !== 1 || !Array.isArray(branches)) return undefined
  const keys = branches.map((b: Schema) =>
    Object.keys(b).length === 1 && Array.isArray(b['required'])
      ? (b['required'] as ReadonlyArray<string>)
      : undefined,
  )
  return keys.every((k) => k !== undefined) ? keys : undefined
}

const NULL: Schema = { type: 'null' }

/** `schema` or null. */
const orNull = (schema: Schema): Schema => {
  const type = schema['type']
  if (typeof type === 'string' && schema['$ref'] === undefined && schema['enum'] === undefined)
    return { ...schema, type: [type, 'null'] }
  return { anyOf: [schema, NULL] }
}

/**
 * The JSON Schema of `codec`, with `$ref`s to the components for the codecs listed in
 * `components` (except `codec` itself, which is the component being written).
 */
export const schemaOf = (codec: Decoder, components: Components): Schema => {
  const walk = (c: Decoder): Schema => {
    const name = components.get(c)
    return name === undefined ? shapeOf(c) : { $ref: `#/components/schemas/${name}` }
  }
  const shapeOf = (c: Decoder): Schema => {
    const hint = schemaHintOf(c)
    const base = baseOf(c)
    const tag = (c as unknown as Tagged)._tag
    let schema: Schema =
      hint?.alternatives !== undefined
        ? { oneOf: hint.alternatives.map(walk) }
        : base !== undefined
          ? walk(base)
          : tag !== undefined
            ? tagged(c as unknown as Tagged)
            : hint?.type !== undefined
              ? { type: hint.type }
              : unreadable(c)
    if (hint === undefined) return schema
    if (hint.issue !== undefined) schema = withKeywords(schema, keywordsOf(hint.issue))
    if (hint.pattern !== undefined) schema = { ...schema, pattern: hint.pattern.source }
    if (hint.atLeastOne !== undefined)
      schema = { ...schema, anyOf: hint.atLeastOne.map((k) => ({ required: [k] })) }
    if (hint.nullAsAbsent !== undefined) {
      const properties = schema['properties'] as Record<string, Schema> | undefined
      const key = hint.nullAsAbsent
      const member = properties?.[key]
      if (properties === undefined || member === undefined)
        throw new Error(`${c.name}: no member ${key} to make nullable`)
      schema = { ...schema, properties: { ...properties, [key]: orNull(member) } }
    }
    return schema
  }
  const tagged = (c: Tagged): Schema => {
    switch (c._tag) {
      case 'StringType':
        return { type: 'string' }
      case 'NumberType':
        return { type: 'number' }
      case 'BooleanType':
        return { type: 'boolean' }
      case 'NullType':
        return NULL
      case 'UnknownType':
        return {}
      case 'UnknownRecordType':
        return { type: 'object' }
      case 'LiteralType': // a whole number is an integer (a problem's status 400)
        return {
          type: Number.isInteger(c.value) ? 'integer' : typeof c.value,
          enum: [c.value],
        }
      case 'KeyofType':
        return { type: 'string', enum: Object.keys(c.keys ?? {}) }
      case 'InterfaceType':
        return objectOf(c.props ?? {}, true, walk)
      case 'PartialType':
        return objectOf(c.props ?? {}, false, walk)
      case 'ExactType':
      case 'StrictType':
      case 'ReadonlyType':
      case 'RefinementType': // a predicate no keyword says: the base's schema
        return walk(c.type as Decoder)
      case 'ArrayType':
      case 'ReadonlyArrayType':
        return { type: 'array', items: walk(c.type as Decoder) }
      case 'DictionaryType':
        return { type: 'object', additionalProperties: walk(c.codomain as Decoder) }
      case 'IntersectionType':
        return mergeObjects((c.types ?? []).map(walk))
      case 'UnionType': {
        const members = c.types ?? []
        const others = members.filter((m) => (m as unknown as Tagged)._tag !== 'NullType')
        if (others.length === 1 && members.length === 2) return orNull(walk(others[0] as Decoder))
        return { anyOf: members.map(walk) }
      }
      default:
        return unreadable(c)
    }
  }
  return shapeOf(codec)
}

const unreadable = (c: { readonly name: string }): never => {
  throw new Error(`no schema for the codec ${c.name}: record a hint where it is made`)
}

/** `keywords` over `schema`: a description is added to the one already there. */
const withKeywords = (schema: Schema, keywords: Schema): Schema => {
  const { description, ...rest } = keywords
  const merged = { ...schema, ...rest }
  if (description === undefined) return merged
  const before = schema['description']
  return {
    ...merged,
    description: typeof before === 'string' ? `${before} ${String(description)}` : description,
  }
}
