/**
 * What every arbitrary of the testkit shares: the labelled invalid record, strings of an
 * exact length, and immutable edits at a field path (to break a valid request in one place).
 *
 * @since 0.1.0
 */
import * as fc from 'fast-check'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A request broken in exactly one way, labelled with the field it breaks (the core's path
 * notation, `lineItems[2].product.price`; `""` for the body as a whole) and the rule (in
 * words, `price >= 0`). `alsoNames` lists other fields a refusal must name too, for the one
 * rule that concerns two fields (neither `amount` nor `lineItems`).
 *
 * @category model
 * @since 0.1.0
 */
export interface Invalid {
  readonly value: unknown
  readonly field: string
  readonly rule: string
  readonly alsoNames?: ReadonlyArray<string>
}

/**
 * A key of a path: an object key or an array index.
 *
 * @category model
 * @since 0.1.0
 */
export type Key = string | number

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * A path of keys in the core's notation: `['lineItems', 2, 'sku']` -> `lineItems[2].sku`.
 *
 * @category destructors
 * @since 0.1.0
 */
export const pathOfKeys = (keys: ReadonlyArray<Key>): string =>
  keys.reduce<string>(
    (path, key) =>
      typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`,
    '',
  )

/**
 * Every field an invalid record says a refusal must name (`field`, then `alsoNames`).
 *
 * @category destructors
 * @since 0.1.0
 */
export const namedFields = (invalid: Invalid): ReadonlyArray<string> => [
  invalid.field,
  ...(invalid.alsoNames ?? []),
]

// -------------------------------------------------------------------------------------
// edits (immutable; the input is never changed)
// -------------------------------------------------------------------------------------

/**
 * Marker for `breakAt` and `setAt`: remove the field instead of setting it.
 *
 * @category constructors
 * @since 0.1.0
 */
export const removed: unique symbol = Symbol('removed')

const edit = (u: unknown, keys: ReadonlyArray<Key>, value: unknown): unknown => {
  const [key, ...rest] = keys
  if (key === undefined) return value
  if (Array.isArray(u)) {
    const copy: Array<unknown> = [...(u as ReadonlyArray<unknown>)]
    const next = edit(copy[key as number], rest, value)
    if (next === removed) copy.splice(key as number, 1)
    else copy[key as number] = next
    return copy
  }
  const record: Readonly<Record<string, unknown>> =
    typeof u === 'object' && u !== null ? (u as Readonly<Record<string, unknown>>) : {}
  const next = edit(record[key], rest, value)
  const others = Object.entries(record).filter(([k]) => k !== String(key))
  return Object.fromEntries(next === removed ? others : [...others, [String(key), next]])
}

/**
 * `u` with the field at `keys` set to `value` (created when absent; removed when `value`
 * is `removed`).
 *
 * @category edits
 * @since 0.1.0
 */
export const setAt = (u: unknown, keys: ReadonlyArray<Key>, value: unknown): unknown =>
  edit(u, keys, value)

/**
 * `u` without the field at `keys`.
 *
 * @category edits
 * @since 0.1.0
 */
export const removeAt = (u: unknown, keys: ReadonlyArray<Key>): unknown => edit(u, keys, removed)

/**
 * An invalid record: `base` with the field at `keys` replaced by `value` (or removed when
 * `value` is `removed`).
 *
 * @category constructors
 * @since 0.1.0
 */
export const breakAt = (
  base: unknown,
  keys: ReadonlyArray<Key>,
  value: unknown,
  rule: string,
): Invalid => ({
  value: edit(base, keys, value),
  field: pathOfKeys(keys),
  rule,
})

// -------------------------------------------------------------------------------------
// leaf arbitraries
// -------------------------------------------------------------------------------------

// Characters of the Basic Multilingual Plane only, so that a length counted in code points
// (the core) and one counted in UTF-16 units (`.length` elsewhere) agree at a boundary.
const LETTERS = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  ...' -_.,:;/#()',
  ...'áéíóúñüçÁÉÍÓÚÑ€£¥漢字日本한국',
]

const letter = fc.constantFrom(...LETTERS)

/**
 * A string with at least one non-blank character, of `minLength`..`maxLength` characters
 * (code points of the Basic Multilingual Plane).
 *
 * @category leaf arbitraries
 * @since 0.1.0
 */
export const text = (maxLength: number, minLength = 1): fc.Arbitrary<string> =>
  fc
    .string({ unit: letter, minLength: Math.max(1, minLength), maxLength })
    .map((s) => (s.trim() === '' ? `x${s.slice(1)}` : s))

/**
 * A non-blank string of exactly `length` characters (a boundary of spec section 8).
 *
 * @category leaf arbitraries
 * @since 0.1.0
 */
export const textOfLength = (length: number): fc.Arbitrary<string> => text(length, length)

/**
 * A string of ASCII letters of exactly `length` characters (one past a limit, for instance).
 *
 * @category leaf arbitraries
 * @since 0.1.0
 */
export const asciiOfLength = (length: number): fc.Arbitrary<string> =>
  fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'),
    minLength: length,
    maxLength: length,
  })

/**
 * A blank string: empty or white space only.
 *
 * @category leaf arbitraries
 * @since 0.1.0
 */
export const blank: fc.Arbitrary<string> = fc.constantFrom('', ' ', '   ', '\t', '\n')

/**
 * An absolute http(s) URL of at most `maxLength` characters.
 *
 * @category leaf arbitraries
 * @since 0.1.0
 */
export const httpUrl = (maxLength = 512): fc.Arbitrary<string> =>
  fc
    .webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true })
    .filter((u) => u.length <= maxLength)

/**
 * An absolute https URL of exactly `length` characters (at least 30).
 *
 * @category leaf arbitraries
 * @since 0.1.0
 */
export const httpUrlOfLength = (length: number): fc.Arbitrary<string> =>
  fc
    .constantFrom('https://cdn.example.com/img/', 'http://shop.example.org/p/')
    .chain((prefix) => asciiOfLength(length - prefix.length).map((path) => `${prefix}${path}`))

/**
 * A value of a JSON type other than string (for "must be a string" rules).
 *
 * @category leaf arbitraries
 * @since 0.1.0
 */
export const notAString: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
)

/**
 * A value of a JSON type other than number (for "must be a number" rules).
 *
 * @category leaf arbitraries
 * @since 0.1.0
 */
export const notANumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('10', '', 'abc'),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
)

/**
 * A body that is not a JSON object (null, an array, a string, a number).
 *
 * @category leaf arbitraries
 * @since 0.1.0
 */
export const notAnObject: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.constant([]),
  fc.string(),
  fc.integer(),
  fc.boolean(),
)

/**
 * An amount as a caller sends it: a JSON number with at most two decimals, from
 * `minCents` to `maxCents` (in cents).
 *
 * @category leaf arbitraries
 * @since 0.1.0
 */
export const amount = (minCents: number, maxCents: number): fc.Arbitrary<number> =>
  fc.integer({ min: minCents, max: maxCents }).map((cents) => cents / 100)
