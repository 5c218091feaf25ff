/**
 * Field errors: what a rule says about one field of an input, and `validate`, which runs
 * any codec over untrusted input without ever throwing.
 *
 * @since 0.1.0
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import { expectedOf } from '../internal/expected.js'
import { failed, fastDecoderOf } from '../internal/fastDecode.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One broken rule: `path` names the field in the form `lineItems[2].product.price`
 * (`""` for the input as a whole); `message` says what is wrong, never the value itself.
 *
 * @category model
 * @since 0.1.0
 */
export interface FieldError {
  readonly path: string
  readonly message: string
}

/**
 * The `errors` member of the service's 400 problem details: field name -> messages.
 *
 * @category model
 * @since 0.1.0
 */
export type FieldErrorMap = Readonly<Record<string, ReadonlyArray<string>>>

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

const isBranchTag = (tag: unknown): boolean =>
  tag === 'UnionType' || tag === 'IntersectionType' || tag === 'TaggedUnionType'

const WRAPPERS = new Set(['ExactType', 'StrictType', 'ReadonlyType', 'RefinementType'])

/** The codec under `t.exact`, `t.readonly` and refinements, which validate in place. */
const unwrap = (type: t.Decoder<unknown, unknown>): unknown => {
  let current = type as { readonly _tag?: unknown; readonly type?: unknown }
  while (
    typeof current._tag === 'string' &&
    WRAPPERS.has(current._tag) &&
    current.type !== undefined
  ) {
    current = current.type as typeof current
  }
  return current._tag
}

/**
 * Whether a context entry is a union or intersection branch rather than a field: the
 * parent is one (possibly wrapped), or the entry re-validates the very same value under a
 * branch index (a custom combinator around an intersection).
 */
const isBranch = (parent: t.ContextEntry, entry: t.ContextEntry): boolean =>
  isBranchTag(unwrap(parent.type)) ||
  (/^\d+$/.test(entry.key) &&
    !Array.isArray(parent.actual) &&
    Object.is(entry.actual, parent.actual))

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/**
 * The path of an io-ts context in the spec's notation (`lineItems[2].product.price`).
 * Union and intersection branch indexes are not fields, so they are left out.
 *
 * @example
 * ```ts
 * import { pathOf } from '@paykit/core'
 * import * as E from 'fp-ts/lib/Either.js'
 * import * as t from 'io-ts'
 * import assert from 'node:assert/strict'
 *
 * const Order = t.type({ lineItems: t.array(t.type({ quantity: t.number })) })
 * const decoded = Order.decode({ lineItems: [{ quantity: 1 }, { quantity: 'two' }] })
 * assert.ok(E.isLeft(decoded))
 * assert.equal(pathOf(decoded.left[0]!.context), 'lineItems[1].quantity')
 * ```
 *
 * @category destructors
 * @since 0.1.0
 */
export const pathOf = (context: t.Context): string => {
  let path = ''
  for (let i = 1; i < context.length; i++) {
    const parent = context[i - 1]
    const entry = context[i]
    if (parent === undefined || entry === undefined || isBranch(parent, entry)) continue
    const key = entry.key
    if (Array.isArray(parent.actual) && /^\d+$/.test(key)) path += `[${key}]`
    else if (IDENTIFIER.test(key)) path += path === '' ? key : `.${key}`
    else path += `[${JSON.stringify(key)}]`
  }
  return path
}

const describe = (u: unknown): string =>
  u === null
    ? 'null'
    : Array.isArray(u)
      ? 'an array'
      : typeof u === 'object'
        ? 'an object'
        : `a ${typeof u}`

/**
 * The type that defines the field an error is at: the last context entry that is not a
 * union or intersection branch, so every failed branch of `string | null` names the union.
 */
const fieldType = (context: t.Context): t.Decoder<unknown, unknown> | undefined => {
  for (let i = context.length - 1; i > 0; i--) {
    const parent = context[i - 1]
    const entry = context[i]
    if (parent !== undefined && entry !== undefined && !isBranch(parent, entry)) return entry.type
  }
  return context[0]?.type
}

/**
 * The message of one io-ts error: its own message when a rule set one, otherwise one
 * built from the expected type and the kind (never the content) of the value found.
 *
 * @example
 * ```ts
 * import { messageOf } from '@paykit/core'
 * import * as E from 'fp-ts/lib/Either.js'
 * import * as t from 'io-ts'
 * import assert from 'node:assert/strict'
 *
 * const decoded = t.type({ quantity: t.number }).decode({ quantity: 'two' })
 * assert.ok(E.isLeft(decoded))
 * // the kind of value found, never the value itself
 * assert.equal(messageOf(decoded.left[0]!), 'must be a number, got a string')
 * ```
 *
 * @category destructors
 * @since 0.1.0
 */
export const messageOf = (error: t.ValidationError): string => {
  if (error.message !== undefined) return error.message
  if (error.value === undefined) return 'is required'
  const type = fieldType(error.context)
  return `must be ${type === undefined ? 'valid' : expectedOf(type)}, got ${describe(error.value)}`
}

const throughUnion = (context: t.Context): boolean => {
  for (const entry of context)
    if ((entry.type as { readonly _tag?: unknown })._tag === 'UnionType') return true
  return false
}

/** The index of the first path in `sorted` that is not below `key` (binary search). */
const lowerBound = (sorted: ReadonlyArray<string>, key: string): number => {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((sorted[mid] ?? '') < key) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Whether some path lies below `path`. A sorted search keeps this linearithmic: a huge
 * array of broken items must not make `validate` quadratic.
 */
const hasDeeperPath =
  (sorted: ReadonlyArray<string>) =>
  (path: string): boolean =>
    path === ''
      ? sorted.some((p) => p !== '')
      : [`${path}.`, `${path}[`].some((prefix) =>
          (sorted[lowerBound(sorted, prefix)] ?? '').startsWith(prefix),
        )

/**
 * io-ts errors as field errors, one per field and message, in the order found.
 *
 * @example
 * ```ts
 * import { fromValidationErrors } from '@paykit/core'
 * import * as E from 'fp-ts/lib/Either.js'
 * import * as t from 'io-ts'
 * import assert from 'node:assert/strict'
 *
 * const decoded = t.type({ name: t.string, quantity: t.number }).decode({ quantity: 'two' })
 * assert.ok(E.isLeft(decoded))
 * assert.deepEqual(fromValidationErrors(decoded.left), [
 *   { path: 'name', message: 'is required' },
 *   { path: 'quantity', message: 'must be a number, got a string' },
 * ])
 * ```
 *
 * @category destructors
 * @since 0.1.0
 */
export const fromValidationErrors = (errors: t.Errors): ReadonlyArray<FieldError> => {
  const n = errors.length
  const paths: Array<string> = new Array<string>(n)
  const viaUnion: Array<boolean> = new Array<boolean>(n)
  let anyViaUnion = false
  for (let i = 0; i < n; i++) {
    const context = (errors[i] as t.ValidationError).context
    paths[i] = pathOf(context)
    viaUnion[i] = throughUnion(context)
    anyViaUnion ||= viaUnion[i] as boolean
  }
  // Only a union branch needs to know about deeper paths: the sort is skipped otherwise.
  const hasDeeper = anyViaUnion ? hasDeeperPath([...new Set(paths)].sort()) : undefined
  const seen = new Set<string>()
  const out: Array<FieldError> = []
  for (let i = 0; i < n; i++) {
    const path = paths[i] as string
    // A union branch that failed at the field itself says less than one that got deeper.
    if (viaUnion[i] === true && hasDeeper !== undefined && hasDeeper(path)) continue
    const message = messageOf(errors[i] as t.ValidationError)
    const id = `${path}\u0000${message}`
    if (!seen.has(id)) {
      seen.add(id)
      out.push({ path, message })
    }
  }
  return out
}

/**
 * Field errors in the service's 400 shape (`errors`: field name -> messages), so the
 * same words reach an HTTP client, an n8n user and a test. The root is named `$`.
 *
 * @example
 * ```ts
 * import { toErrorMap } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * const map = toErrorMap([
 *   { path: 'card.cvv', message: 'must be 3 or 4 digits' },
 *   { path: '', message: 'must be an object' },
 * ])
 * assert.deepEqual(map, { 'card.cvv': ['must be 3 or 4 digits'], $: ['must be an object'] })
 * ```
 *
 * @category destructors
 * @since 0.1.0
 */
export const toErrorMap = (errors: ReadonlyArray<FieldError>): FieldErrorMap => {
  const map: Record<string, Array<string>> = {}
  for (const { path, message } of errors) {
    const key = path === '' ? '$' : path
    ;(map[key] ??= []).push(message)
  }
  return map
}

/**
 * Field errors from the service's 400 `errors` map (the inverse of `toErrorMap`).
 *
 * @example
 * ```ts
 * import { fromErrorMap, toErrorMap } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * // the `errors` of a 400 problem from the service
 * const errors = fromErrorMap({ amount: ['is required'], $: ['must be an object'] })
 * assert.deepEqual(errors, [
 *   { path: 'amount', message: 'is required' },
 *   { path: '', message: 'must be an object' },
 * ])
 * assert.deepEqual(toErrorMap(errors), { amount: ['is required'], $: ['must be an object'] })
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const fromErrorMap = (map: FieldErrorMap): ReadonlyArray<FieldError> =>
  Object.entries(map).flatMap(([key, messages]) =>
    messages.map((message) => ({ path: key === '$' ? '' : key, message })),
  )

/**
 * One line a person can read: `card.number: fails the Luhn check; amount: is required`.
 *
 * @example
 * ```ts
 * import { formatFieldErrors } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * const line = formatFieldErrors([
 *   { path: 'card.number', message: 'fails the Luhn check' },
 *   { path: 'amount', message: 'is required' },
 * ])
 * assert.equal(line, 'card.number: fails the Luhn check; amount: is required')
 * ```
 *
 * @category destructors
 * @since 0.1.0
 */
export const formatFieldErrors = (errors: ReadonlyArray<FieldError>): string =>
  errors.map(({ path, message }) => (path === '' ? message : `${path}: ${message}`)).join('; ')

// -------------------------------------------------------------------------------------
// validation
// -------------------------------------------------------------------------------------

/**
 * Runs a codec over any input and never throws: a value that throws while it is read
 * (a getter, a proxy) is a root error, not an exception.
 *
 * Valid input takes a fast path compiled once per codec, which gives the value
 * `codec.decode` gives without building io-ts's contexts; only input that fails is
 * decoded again by io-ts, for its errors.
 *
 * @example
 * ```ts
 * import { TokenRequest, validate } from '@paykit/core'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * const check = validate(TokenRequest)
 * assert.deepEqual(
 *   check({ clientId: 'id', clientSecret: 's3cret' }),
 *   E.right({ clientId: 'id', clientSecret: 's3cret' }),
 * )
 * assert.deepEqual(
 *   check({ clientId: 'id' }),
 *   E.left([{ path: 'clientSecret', message: 'is required' }]),
 * )
 * // never throws, even on a value that throws when read
 * const hostile = {
 *   get clientId(): string {
 *     throw new Error('boom')
 *   },
 * }
 * assert.ok(E.isLeft(check(hostile)))
 * ```
 *
 * @category validation
 * @since 0.1.0
 */
export const validate = <A, O, I>(
  codec: t.Type<A, O, I>,
): ((input: I) => E.Either<ReadonlyArray<FieldError>, A>) => {
  const fast = fastDecoderOf(codec as t.Decoder<unknown, unknown>)
  return (input) => {
    try {
      const a = fast(input)
      // `E.right`'s value, built here: no call through the module's namespace.
      if (!failed(a)) return { _tag: 'Right', right: a as A }
      const decoded = codec.decode(input)
      return decoded._tag === 'Right' ? decoded : E.left(fromValidationErrors(decoded.left))
    } catch {
      return E.left([
        { path: '', message: 'could not be read (a property threw while it was read)' },
      ])
    }
  }
}
