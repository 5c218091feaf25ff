/**
 * Field errors: what a rule says about one field of an input, and `validate`, which runs
 * any codec over untrusted input without ever throwing.
 *
 * A field error is `{ path, message, code, ...params }`: `path` names the field, `message`
 * says what is wrong in English (one wording per code), and `code` with its parameters
 * (`{ code: 'maxLength', maximum: 255 }`) says it as data, for a form that words it
 * itself (`fieldErrorCodes` lists the codes; `messages` in `Messages` words them for a
 * buyer).
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import { contextPath, rootSite, siteTypeOf } from '../internal/errorSite.js'
import { failed, fastDecoderOf, runs } from '../internal/fastDecode.js'
import { collectorOf } from '../internal/fastErrors.js'
import {
  fieldErrorsOf,
  type Found,
  foundOf,
  issueOfValidationError,
  placed,
} from '../internal/fieldErrors.js'
import {
  type FieldIssue,
  fieldErrorMessage,
  kindInWords,
  type Literal,
  type ValueKind,
} from '../internal/issue.js'

// -------------------------------------------------------------------------------------
// codes
// -------------------------------------------------------------------------------------

export {
  type FieldErrorCode,
  fieldErrorCodes,
  fieldErrorMessage,
  type FieldIssue,
  type IssueOf,
  type Literal,
  type ValueKind,
} from '../internal/issue.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Where a field error is and what it says: `path` names the field in the form
 * `lineItems[2].product.price` (`""` for the input as a whole); `message` says what is
 * wrong, never the value itself.
 *
 * @category model
 * @since 0.2.0
 */
export interface FieldErrorLocation {
  readonly path: string
  readonly message: string
}

/**
 * A field error with its code and the code's parameters, as every function of the core
 * gives it: `{ path: 'orderName', message: 'must be at most 255 characters', code:
 * 'maxLength', maximum: 255 }`. Narrow on `code` to read the parameters.
 *
 * @category model
 * @since 0.2.0
 */
export type CodedFieldError = FieldErrorLocation & FieldIssue

/**
 * One broken rule: a `CodedFieldError`, or, so that errors written by hand as
 * `{ path, message }` keep type-checking, one without a code (`issueOf` reads its code
 * from its message). Every field error the core makes carries its code.
 *
 * @category model
 * @since 0.2.0
 */
export type FieldError = CodedFieldError | (FieldErrorLocation & { readonly code?: undefined })

/**
 * The `errors` member of the service's 400 problem details: field name -> messages.
 *
 * @category model
 * @since 0.2.0
 */
export type FieldErrorMap = Readonly<Record<string, ReadonlyArray<string>>>

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A field error at `path` for `issue`, its message the issue's wording: how code outside
 * a codec (a service, a form handler) reports a broken rule in the core's words.
 *
 * @example
 * ```ts
 * import { fieldError, formatFieldErrors } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * const error = fieldError('orderName', { code: 'maxLength', maximum: 255 })
 * assert.deepEqual(error, {
 *   path: 'orderName',
 *   message: 'must be at most 255 characters',
 *   code: 'maxLength',
 *   maximum: 255,
 * })
 * assert.equal(formatFieldErrors([error]), 'orderName: must be at most 255 characters')
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const fieldError = (path: string, issue: FieldIssue): CodedFieldError =>
  placed(path, fieldErrorMessage(issue), issue)

// -------------------------------------------------------------------------------------
// reading codes back from messages
// -------------------------------------------------------------------------------------

// The codes without parameters, by their one message.
const CONSTANT_ISSUES: ReadonlyMap<string, FieldIssue> = new Map(
  (
    [
      'required',
      'positiveInt',
      'integer',
      'finite',
      'url',
      'dateTime',
      'locale',
      'timeZone',
      'countryCode',
      'digits',
      'luhn',
      'expiryMonth',
      'expiryYear',
      'cvv',
      'expired',
      'notInCatalogue',
      'json',
      'unreadable',
    ] as const
  ).map((code) => [fieldErrorMessage({ code }), { code }]),
)

const KINDS: ReadonlyMap<string, ValueKind> = new Map(
  (
    [
      'string',
      'number',
      'boolean',
      'object',
      'array',
      'null',
      'undefined',
      'bigint',
      'symbol',
      'function',
    ] as const
  ).map((kind) => [kindInWords(kind), kind]),
)

const kindsOf = (words: string): ReadonlyArray<ValueKind> | undefined => {
  const kinds = words.split(' or ').map((w) => KINDS.get(w))
  return kinds.every((k) => k !== undefined) ? (kinds as ReadonlyArray<ValueKind>) : undefined
}

const literalOf = (text: string): Literal | undefined => {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? value
      : undefined
  } catch {
    return undefined
  }
}

type Reader = (match: RegExpExecArray) => FieldIssue | undefined

// The messages with parameters: a pattern and how to read the parameters from it.
const READERS: ReadonlyArray<readonly [RegExp, Reader]> = [
  [
    /^must be (.+), got (.+)$/,
    ([, expected = '', received = '']) => {
      const e = kindsOf(expected)
      const r = kindsOf(received)
      return e === undefined || r?.length !== 1
        ? undefined
        : { code: 'type', expected: e, received: r[0] as ValueKind }
    },
  ],
  [/^must be one of (.+)$/, ([, values = '']) => ({ code: 'oneOf', values: values.split(', ') })],
  [
    /^must be (.+)$/,
    ([, value = '']) => {
      const literal = literalOf(value)
      return literal === undefined ? undefined : { code: 'oneOf', values: [literal] }
    },
  ],
  [/^must be at most (\d+) characters$/, ([, n]) => ({ code: 'maxLength', maximum: Number(n) })],
  [
    /^must have at least (?:one item|(\d+) items)$/,
    ([, n]) => ({ code: 'minItems', minimum: n === undefined ? 1 : Number(n) }),
  ],
  [
    /^must be greater than (or equal to )?(.+)$/,
    ([, inclusive, n]) => ({
      code: 'minimum',
      minimum: Number(n),
      inclusive: inclusive !== undefined,
    }),
  ],
  [
    /^must have (\d+) to (\d+) digits$/,
    ([, min, max]) => ({ code: 'digitCount', minimum: Number(min), maximum: Number(max) }),
  ],
  [/^the card was declined \((.*)\)$/, ([, reason = '']) => ({ code: 'declined', reason })],
  [
    /^is required when the card issuer is in (.+)$/,
    ([, countries = '']) => ({ code: 'requiredForCountry', countries: countries.split(' or ') }),
  ],
  [/^must be null when status is (.+)$/, ([, status = '']) => ({ code: 'nullForStatus', status })],
  [
    /^(.+) is required \(give at least one\)$/,
    ([, fields = '']) => ({ code: 'atLeastOne', fields: fields.split(' or ') }),
  ],
  [
    /^(.+) is required \(give exactly one\)$/,
    ([, fields = '']) => ({ code: 'exactlyOne', fields: fields.split(' or ') }),
  ],
  [
    /^must not be given together with .+ \(give exactly one of (.+)\)$/,
    ([, fields = '']) => ({ code: 'exclusive', fields: fields.split(' or ') }),
  ],
  [/^must equal the line-item total \((.+)\)$/, ([, total = '']) => ({ code: 'mismatch', total })],
  [/^is not a (.+) of this service$/, ([, resource = '']) => ({ code: 'notFound', resource })],
]

const INVALID: FieldIssue = { code: 'invalid' }

/**
 * The issue whose wording `message` is; `invalid` for a message that no code words
 * exactly so (another service's own words).
 */
const issueOfMessage = (message: string): FieldIssue => {
  const constant = CONSTANT_ISSUES.get(message)
  if (constant !== undefined) return constant
  for (const [pattern, read] of READERS) {
    const match = pattern.exec(message)
    const issue = match === null ? undefined : read(match)
    // Only a reading that words the message exactly so is the message's issue.
    if (issue !== undefined && fieldErrorMessage(issue) === message) return issue
  }
  return INVALID
}

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * The path of an io-ts context in the spec's notation (`lineItems[2].product.price`).
 * Union and intersection branch indexes are not fields, so they are left out.
 *
 * @example
 * ```ts
 * import { pathOf } from '@paykit/core/codecs'
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
 * @since 0.2.0
 */
export const pathOf = (context: t.Context): string => contextPath(context)

/**
 * The message of one io-ts error: its own message when a rule set one, otherwise the
 * wording of its issue, built from the expected type and the kind (never the content)
 * of the value found.
 *
 * @example
 * ```ts
 * import { messageOf } from '@paykit/core/codecs'
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
 * @since 0.2.0
 */
export const messageOf = (error: t.ValidationError): string =>
  error.message ?? fieldErrorMessage(issueOfValidationError(error))

/**
 * io-ts errors as field errors, one per field and message, in the order found, each
 * with its code.
 *
 * @example
 * ```ts
 * import { fromValidationErrors } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import * as t from 'io-ts'
 * import assert from 'node:assert/strict'
 *
 * const decoded = t.type({ name: t.string, quantity: t.number }).decode({ quantity: 'two' })
 * assert.ok(E.isLeft(decoded))
 * assert.deepEqual(fromValidationErrors(decoded.left), [
 *   { path: 'name', message: 'is required', code: 'required' },
 *   {
 *     path: 'quantity',
 *     message: 'must be a number, got a string',
 *     code: 'type',
 *     expected: ['number'],
 *     received: 'string',
 *   },
 * ])
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const fromValidationErrors = (errors: t.Errors): ReadonlyArray<CodedFieldError> =>
  fieldErrorsOf(errors.map(foundOf))

/**
 * Field errors in the service's 400 shape (`errors`: field name -> messages), so the
 * same words reach an HTTP client, an n8n user and a test. The root is named `$`.
 *
 * @example
 * ```ts
 * import { fieldError, toErrorMap } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * const map = toErrorMap([
 *   fieldError('card.cvv', { code: 'cvv' }),
 *   fieldError('', { code: 'json' }),
 * ])
 * assert.deepEqual(map, { 'card.cvv': ['must be 3 or 4 digits'], $: ['must be JSON text'] })
 * ```
 *
 * @category destructors
 * @since 0.2.0
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
 * The code and parameters of any field error: its own when it carries a code, else read
 * from its message (a message in the core's words gives the code that words it so, any
 * other `invalid`).
 *
 * @example
 * ```ts
 * import { issueOf } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(issueOf({ path: 'orderName', message: 'must be at most 255 characters' }), {
 *   code: 'maxLength',
 *   maximum: 255,
 * })
 * assert.deepEqual(issueOf({ path: 'email', message: 'looks odd' }), { code: 'invalid' })
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const issueOf = (error: FieldError): FieldIssue => {
  if (error.code === undefined) return issueOfMessage(error.message)
  const { path: _path, message: _message, ...issue } = error
  return issue
}

/**
 * Field errors from the service's 400 `errors` map (the inverse of `toErrorMap`), each
 * with the code its message words (`invalid` for words that are not the core's).
 *
 * @example
 * ```ts
 * import { fromErrorMap, toErrorMap } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * // the `errors` of a 400 problem from the service
 * const errors = fromErrorMap({ amount: ['is required'], $: ['must be JSON text'] })
 * assert.deepEqual(errors, [
 *   { path: 'amount', message: 'is required', code: 'required' },
 *   { path: '', message: 'must be JSON text', code: 'json' },
 * ])
 * assert.deepEqual(toErrorMap(errors), { amount: ['is required'], $: ['must be JSON text'] })
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const fromErrorMap = (map: FieldErrorMap): ReadonlyArray<CodedFieldError> =>
  Object.entries(map).flatMap(([key, messages]) =>
    messages.map((message) => ({
      path: key === '$' ? '' : key,
      message,
      ...issueOfMessage(message),
    })),
  )

/**
 * One line a person can read: `card.number: fails the Luhn check; amount: is required`.
 *
 * @example
 * ```ts
 * import { formatFieldErrors } from '@paykit/core/codecs'
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
 * @since 0.2.0
 */
export const formatFieldErrors = (errors: ReadonlyArray<FieldError>): string =>
  errors.map(({ path, message }) => (path === '' ? message : `${path}: ${message}`)).join('; ')

// -------------------------------------------------------------------------------------
// validation
// -------------------------------------------------------------------------------------

const UNREADABLE: FieldIssue = { code: 'unreadable' }

/**
 * Runs a codec over any input and never throws: a value that throws while it is read
 * (a getter, a proxy) is a root error, not an exception.
 *
 * Valid input takes a fast path compiled once per codec, which gives the value
 * `codec.decode` gives without building io-ts's contexts; input that fails goes to a
 * collector compiled once per codec, which finds the errors io-ts would report, placed
 * and worded as `fromValidationErrors` does (a codec it does not know runs its own
 * `validate`).
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { TokenRequest } from '@paykit/core/codecs'
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
 *   E.left([{ path: 'clientSecret', message: 'is required', code: 'required' }]),
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
 * @since 0.2.0
 */
export const validate = <A, O, I>(
  codec: t.Type<A, O, I>,
): ((input: I) => E.Either<ReadonlyArray<CodedFieldError>, A>) => {
  const decoder = codec as t.Decoder<unknown, unknown>
  const fast = fastDecoderOf(decoder)
  const collect = collectorOf(decoder)
  const root = siteTypeOf(decoder)
  return (input) => {
    try {
      // Notes of failed walks from an earlier call may be of records changed since.
      runs.current++
      const a = fast(input)
      // `E.right`'s and `E.left`'s values, built here: no call through the module's namespace.
      if (!failed(a)) return { _tag: 'Right', right: a as A }
      const found: Array<Found> = []
      collect(input, rootSite(root, input), found, true)
      if (found.length > 0) return { _tag: 'Left', left: fieldErrorsOf(found) }
      // A collector that finds nothing where the fast path failed: io-ts decides.
      const decoded = codec.decode(input)
      return decoded._tag === 'Right' ? decoded : E.left(fromValidationErrors(decoded.left))
    } catch {
      return E.left([fieldError('', UNREADABLE)])
    }
  }
}
