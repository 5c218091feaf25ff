/**
 * What every arbitrary of the testkit shares: the labelled invalid record, strings of an
 * exact length, and immutable edits at a field path (to break a valid request in one place).
 *
 * @since 0.2.0
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
 * @since 0.2.0
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
 * @since 0.2.0
 */
export type Key = string | number

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * A path of keys in the core's notation: `['lineItems', 2, 'sku']` -> `lineItems[2].sku`.
 *
 * @example
 * ```ts
 * import { pathOfKeys } from '@paykit/testkit/arbitraries'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(pathOfKeys(['lineItems', 2, 'product', 'price']), 'lineItems[2].product.price')
 * assert.equal(pathOfKeys(['billingInfo', 'zipCode']), 'billingInfo.zipCode')
 * assert.equal(pathOfKeys([]), '') // the body as a whole
 * ```
 *
 * @category destructors
 * @since 0.2.0
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
 * @example
 * ```ts
 * import { namedFields, type Invalid } from '@paykit/testkit/arbitraries'
 * import assert from 'node:assert/strict'
 *
 * const neither: Invalid = {
 *   value: { orderName: 'Mugs' },
 *   field: 'amount',
 *   alsoNames: ['lineItems'],
 *   rule: 'amount or lineItems is given',
 * }
 * assert.deepEqual(namedFields(neither), ['amount', 'lineItems'])
 * assert.deepEqual(namedFields({ value: null, field: '', rule: 'body is an object' }), [''])
 * ```
 *
 * @category destructors
 * @since 0.2.0
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
 * @example
 * ```ts
 * import { Arbitraries, breakAt, setAt } from '@paykit/testkit/arbitraries'
 * import assert from 'node:assert/strict'
 *
 * const body = { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }
 * assert.deepEqual(setAt(body, ['clientSecret'], Arbitraries.removed), { clientId: 'sandbox-client' })
 * const missing = breakAt(body, ['clientId'], Arbitraries.removed, 'clientId is required')
 * assert.deepEqual(missing.value, { clientSecret: 'sandbox-secret' })
 * ```
 *
 * @category constructors
 * @since 0.2.0
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
 * @example
 * ```ts
 * import { setAt } from '@paykit/testkit/arbitraries'
 * import assert from 'node:assert/strict'
 *
 * const charge = { order: { id: 'order-1', amount: 10 }, cardId: 'pm_000001' }
 * assert.deepEqual(setAt(charge, ['order', 'amount'], 0), {
 *   order: { id: 'order-1', amount: 0 },
 *   cardId: 'pm_000001',
 * })
 * assert.deepEqual(setAt(charge, ['billingInfo', 'zipCode'], '10101'), {
 *   ...charge,
 *   billingInfo: { zipCode: '10101' }, // created when absent
 * })
 * assert.equal(charge.order.amount, 10) // the input is not changed
 * ```
 *
 * @category edits
 * @since 0.2.0
 */
export const setAt = (u: unknown, keys: ReadonlyArray<Key>, value: unknown): unknown =>
  edit(u, keys, value)

/**
 * `u` without the field at `keys`.
 *
 * @example
 * ```ts
 * import { removeAt } from '@paykit/testkit/arbitraries'
 * import assert from 'node:assert/strict'
 *
 * const link = {
 *   lineItems: [
 *     { sku: 'MUG-LOGO', quantity: 1 },
 *     { sku: 'COFFEE-1KG', quantity: 2 },
 *   ],
 * }
 * assert.deepEqual(removeAt(link, ['lineItems', 0]), {
 *   lineItems: [{ sku: 'COFFEE-1KG', quantity: 2 }],
 * })
 * assert.deepEqual(removeAt(link, ['lineItems', 1, 'quantity']), {
 *   lineItems: [{ sku: 'MUG-LOGO', quantity: 1 }, { sku: 'COFFEE-1KG' }],
 * })
 * assert.equal(link.lineItems.length, 2) // the input is not changed
 * ```
 *
 * @category edits
 * @since 0.2.0
 */
export const removeAt = (u: unknown, keys: ReadonlyArray<Key>): unknown => edit(u, keys, removed)

/**
 * An invalid record: `base` with the field at `keys` replaced by `value` (or removed when
 * `value` is `removed`).
 *
 * @example
 * ```ts
 * import { breakAt } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { TokenRequest } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * const valid = { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }
 * const invalid = breakAt(valid, ['clientId'], '   ', 'clientId is not empty')
 * assert.equal(invalid.field, 'clientId')
 * assert.deepEqual(invalid.value, { clientId: '   ', clientSecret: 'sandbox-secret' })
 * const result = validate(TokenRequest)(invalid.value)
 * assert.ok(result._tag === 'Left' && result.left.some((e) => e.path === 'clientId'))
 * ```
 *
 * @category constructors
 * @since 0.2.0
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
 * @example
 * ```ts
 * import { Arbitraries } from '@paykit/testkit/arbitraries'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * for (const s of fc.sample(Arbitraries.text(10), 20)) {
 *   assert.ok([...s].length >= 1 && [...s].length <= 10)
 *   assert.notEqual(s.trim(), '')
 * }
 * assert.ok(fc.sample(Arbitraries.text(10, 5), 20).every((s) => s.length >= 5))
 * ```
 *
 * @category leaf arbitraries
 * @since 0.2.0
 */
export const text = (maxLength: number, minLength = 1): fc.Arbitrary<string> =>
  fc
    .string({ unit: letter, minLength: Math.max(1, minLength), maxLength })
    .map((s) => (s.trim() === '' ? `x${s.slice(1)}` : s))

/**
 * A non-blank string of exactly `length` characters (a boundary of spec section 8).
 *
 * @example
 * ```ts
 * import { textOfLength } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * // orderReference may have 255 characters (spec section 8): exactly 255 is accepted.
 * for (const orderReference of fc.sample(textOfLength(255), 5)) {
 *   assert.equal([...orderReference].length, 255)
 *   assert.equal(validate(PaymentLinkRequest)({ amount: 10, orderReference })._tag, 'Right')
 * }
 * ```
 *
 * @category leaf arbitraries
 * @since 0.2.0
 */
export const textOfLength = (length: number): fc.Arbitrary<string> => text(length, length)

/**
 * A string of ASCII letters of exactly `length` characters (one past a limit, for instance).
 *
 * @example
 * ```ts
 * import { asciiOfLength } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * // One past the limit of orderReference (255) is refused, naming the field.
 * for (const orderReference of fc.sample(asciiOfLength(256), 5)) {
 *   assert.match(orderReference, /^[a-z]{256}$/)
 *   const result = validate(PaymentLinkRequest)({ amount: 10, orderReference })
 *   assert.ok(result._tag === 'Left' && result.left[0]?.path === 'orderReference')
 * }
 * ```
 *
 * @category leaf arbitraries
 * @since 0.2.0
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
 * @example
 * ```ts
 * import { Arbitraries } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { TokenRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * fc.assert(
 *   fc.property(Arbitraries.blank, (clientId) => {
 *     assert.equal(clientId.trim(), '')
 *     const result = validate(TokenRequest)({ clientId, clientSecret: 'sandbox-secret' })
 *     assert.ok(result._tag === 'Left' && result.left.some((e) => e.path === 'clientId'))
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category leaf arbitraries
 * @since 0.2.0
 */
export const blank: fc.Arbitrary<string> = fc.constantFrom('', ' ', '   ', '\t', '\n')

/**
 * An absolute http(s) URL of at most `maxLength` characters.
 *
 * @example
 * ```ts
 * import { httpUrl } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * for (const successUrl of fc.sample(httpUrl(200), 10)) {
 *   assert.ok(successUrl.length <= 200)
 *   assert.ok(['http:', 'https:'].includes(new URL(successUrl).protocol))
 *   assert.equal(validate(PaymentLinkRequest)({ amount: 10, successUrl })._tag, 'Right')
 * }
 * ```
 *
 * @category leaf arbitraries
 * @since 0.2.0
 */
export const httpUrl = (maxLength = 512): fc.Arbitrary<string> =>
  fc
    .webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true })
    .filter((u) => u.length <= maxLength)

/**
 * An absolute https URL of exactly `length` characters (at least 30).
 *
 * @example
 * ```ts
 * import { httpUrlOfLength } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * // product.imageUrl may have 512 characters, not 513.
 * const withImage = (imageUrl: string) =>
 *   validate(PaymentLinkRequest)({
 *     lineItems: [{ product: { name: 'Mug', price: 8.5, imageUrl }, quantity: 1 }],
 *   })
 * for (const url of fc.sample(httpUrlOfLength(512), 5)) {
 *   assert.equal(url.length, 512)
 *   assert.equal(withImage(url)._tag, 'Right')
 * }
 * assert.equal(withImage(fc.sample(httpUrlOfLength(513), 1)[0] ?? '')._tag, 'Left')
 * ```
 *
 * @category leaf arbitraries
 * @since 0.2.0
 */
export const httpUrlOfLength = (length: number): fc.Arbitrary<string> =>
  fc
    .constantFrom('https://cdn.example.com/img/', 'http://shop.example.org/p/')
    .chain((prefix) => asciiOfLength(length - prefix.length).map((path) => `${prefix}${path}`))

/**
 * A value of a JSON type other than string (for "must be a string" rules).
 *
 * @example
 * ```ts
 * import { notAString } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { TokenRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * fc.assert(
 *   fc.property(notAString, (clientId) => {
 *     assert.notEqual(typeof clientId, 'string')
 *     const result = validate(TokenRequest)({ clientId, clientSecret: 'sandbox-secret' })
 *     assert.ok(result._tag === 'Left' && result.left.some((e) => e.path === 'clientId'))
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category leaf arbitraries
 * @since 0.2.0
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
 * @example
 * ```ts
 * import { notANumber } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * fc.assert(
 *   fc.property(notANumber, (amount) => {
 *     assert.notEqual(typeof amount, 'number')
 *     const result = validate(PaymentLinkRequest)({ amount })
 *     assert.ok(result._tag === 'Left' && result.left.some((e) => e.path === 'amount'))
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category leaf arbitraries
 * @since 0.2.0
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
 * @example
 * ```ts
 * import { notAnObject } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { TokenRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * fc.assert(
 *   fc.property(notAnObject, (body) => {
 *     const result = validate(TokenRequest)(body)
 *     assert.ok(result._tag === 'Left' && result.left.some((e) => e.path === '')) // the whole body
 *   }),
 *   { numRuns: 20 },
 * )
 * ```
 *
 * @category leaf arbitraries
 * @since 0.2.0
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
 * @example
 * ```ts
 * import { Arbitraries } from '@paykit/testkit/arbitraries'
 * import { Money } from '@paykit/core/money'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * // From 0.01 to 1000.00, at most two decimals, each exact as Money.
 * for (const a of fc.sample(Arbitraries.amount(1, 100_000), 20)) {
 *   assert.ok(a >= 0.01 && a <= 1000)
 *   const money = Money.fromNumber(a)
 *   assert.ok(money._tag === 'Right' && Money.toNumber(money.right) === a)
 *   assert.equal(Math.round(a * 100) / 100, a)
 * }
 * ```
 *
 * @category leaf arbitraries
 * @since 0.2.0
 */
export const amount = (minCents: number, maxCents: number): fc.Arbitrary<number> =>
  fc.integer({ min: minCents, max: maxCents }).map((cents) => cents / 100)

/**
 * A UTC date and time as the service writes it (`createdAt`, `created`): ISO 8601 with
 * milliseconds and a trailing `Z`, from `min` to `max` (2020 to 2035 by default).
 *
 * @example
 * ```ts
 * import { isoDateTime } from '@paykit/testkit/arbitraries'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * for (const at of fc.sample(isoDateTime(), 20)) {
 *   assert.match(at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
 *   assert.equal(new Date(at).toISOString(), at)
 * }
 * ```
 *
 * @category leaf arbitraries
 * @since 0.2.0
 */
export const isoDateTime = (
  min: Date = new Date('2020-01-01T00:00:00.000Z'),
  max: Date = new Date('2035-12-31T23:59:59.999Z'),
): fc.Arbitrary<string> =>
  fc.integer({ min: min.getTime(), max: max.getTime() }).map((ms) => new Date(ms).toISOString())
