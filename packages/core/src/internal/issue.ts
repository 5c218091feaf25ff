/**
 * What a broken rule is, as data: a stable `code` and the limits involved (`{ code:
 * 'maxLength', maximum: 255 }`), the one English wording of each code that a field
 * error's `message` carries, and the io-ts errors that carry an issue. A leaf module, so
 * that the codecs can name their failures without pulling in `validate`; `FieldError`
 * re-exports its public part.
 *
 * @since 0.2.0
 */
import type * as t from 'io-ts'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The kind of a value, as a type error names it: the `typeof` of a value, except that
 * `null` and arrays are kinds of their own.
 *
 * @category model
 * @since 0.2.0
 */
export type ValueKind =
  | 'string'
  | 'number'
  | 'boolean'
  | 'object'
  | 'array'
  | 'null'
  | 'undefined'
  | 'bigint'
  | 'symbol'
  | 'function'

/**
 * A literal a field may have to equal (`oneOf`).
 *
 * @category model
 * @since 0.2.0
 */
export type Literal = string | number | boolean

/**
 * One broken rule as data: a stable `code` and the parameters (limits, accepted values,
 * the fields involved) a form needs to say it in its own words. Each code has one
 * English wording (`fieldErrorMessage`); the table of codes is in docs/core/validation.md.
 *
 * @category model
 * @since 0.2.0
 */
export type FieldIssue =
  | { readonly code: 'required' }
  | {
      readonly code: 'type'
      readonly expected: ReadonlyArray<ValueKind>
      readonly received: ValueKind
    }
  | { readonly code: 'oneOf'; readonly values: ReadonlyArray<Literal> }
  | { readonly code: 'maxLength'; readonly maximum: number }
  | { readonly code: 'minItems'; readonly minimum: number }
  | { readonly code: 'minimum'; readonly minimum: number; readonly inclusive: boolean }
  | { readonly code: 'positiveInt' }
  | { readonly code: 'integer' }
  | { readonly code: 'finite' }
  | { readonly code: 'url' }
  | { readonly code: 'dateTime' }
  | { readonly code: 'locale' }
  | { readonly code: 'timeZone' }
  | { readonly code: 'countryCode' }
  | { readonly code: 'digits' }
  | { readonly code: 'digitCount'; readonly minimum: number; readonly maximum: number }
  | { readonly code: 'luhn' }
  | { readonly code: 'expiryMonth' }
  | { readonly code: 'expiryYear' }
  | { readonly code: 'cvv' }
  | { readonly code: 'expired' }
  | { readonly code: 'declined'; readonly reason: string }
  | { readonly code: 'requiredForCountry'; readonly countries: ReadonlyArray<string> }
  | { readonly code: 'nullForStatus'; readonly status: string }
  | { readonly code: 'atLeastOne'; readonly fields: ReadonlyArray<string> }
  | { readonly code: 'exactlyOne'; readonly fields: ReadonlyArray<string> }
  | { readonly code: 'exclusive'; readonly fields: ReadonlyArray<string> }
  | { readonly code: 'notInCatalogue' }
  | { readonly code: 'mismatch'; readonly total: string }
  | { readonly code: 'notFound'; readonly resource: string }
  | { readonly code: 'json' }
  | { readonly code: 'unreadable' }
  | { readonly code: 'invalid' }

/**
 * The stable code of a broken rule (`required`, `luhn`, `maxLength`, ...).
 *
 * @category model
 * @since 0.2.0
 */
export type FieldErrorCode = FieldIssue['code']

/**
 * The issue of one code, with its parameters: `IssueOf<'maxLength'>` is
 * `{ code: 'maxLength'; maximum: number }`.
 *
 * @category model
 * @since 0.2.0
 */
export type IssueOf<C extends FieldErrorCode> = Extract<FieldIssue, { readonly code: C }>

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

// Every code once, in the order of docs/core/validation.md's table; `satisfies` keeps it complete.
const CODES = {
  required: null,
  type: null,
  oneOf: null,
  maxLength: null,
  minItems: null,
  minimum: null,
  positiveInt: null,
  integer: null,
  finite: null,
  url: null,
  dateTime: null,
  locale: null,
  timeZone: null,
  countryCode: null,
  digits: null,
  digitCount: null,
  luhn: null,
  expiryMonth: null,
  expiryYear: null,
  cvv: null,
  expired: null,
  declined: null,
  requiredForCountry: null,
  nullForStatus: null,
  atLeastOne: null,
  exactlyOne: null,
  exclusive: null,
  notInCatalogue: null,
  mismatch: null,
  notFound: null,
  json: null,
  unreadable: null,
  invalid: null,
} as const satisfies Readonly<Record<FieldErrorCode, null>>

/**
 * Every code a field error can carry: the stable list a form translates. A code is never
 * renamed or given another meaning; new ones may be added.
 *
 * @example
 * ```ts
 * import { fieldErrorCodes } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.ok(fieldErrorCodes.includes('required'))
 * assert.ok(fieldErrorCodes.includes('maxLength'))
 * assert.equal(new Set(fieldErrorCodes).size, fieldErrorCodes.length)
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const fieldErrorCodes: ReadonlyArray<FieldErrorCode> = Object.keys(
  CODES,
) as ReadonlyArray<FieldErrorCode>

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/** A kind with its article, as messages write it: `an object`, `null`. */
export const kindInWords = (kind: ValueKind): string =>
  kind === 'null'
    ? 'null'
    : kind === 'undefined'
      ? 'absent'
      : kind === 'object' || kind === 'array'
        ? `an ${kind}`
        : `a ${kind}`

/** The kind of a value (never its content). */
export const kindOf = (u: unknown): ValueKind =>
  u === null ? 'null' : Array.isArray(u) ? 'array' : typeof u

const literalInWords = (value: Literal): string =>
  typeof value === 'string' ? JSON.stringify(value) : String(value)

/**
 * The English message of an issue: the one wording of its code, with its parameters
 * filled in (what a field error's `message` says, after its path).
 *
 * @example
 * ```ts
 * import { fieldErrorMessage } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(fieldErrorMessage({ code: 'required' }), 'is required')
 * assert.equal(
 *   fieldErrorMessage({ code: 'maxLength', maximum: 255 }),
 *   'must be at most 255 characters',
 * )
 * assert.equal(
 *   fieldErrorMessage({ code: 'type', expected: ['number'], received: 'string' }),
 *   'must be a number, got a string',
 * )
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const fieldErrorMessage = (issue: FieldIssue): string => {
  switch (issue.code) {
    case 'required':
      return 'is required'
    case 'type':
      return `must be ${issue.expected.map(kindInWords).join(' or ')}, got ${kindInWords(issue.received)}`
    case 'oneOf':
      // One value is written as JSON (`must be "FAILED"`), so that it reads back exactly.
      return issue.values.length === 1
        ? `must be ${literalInWords(issue.values[0] as Literal)}`
        : `must be one of ${issue.values.join(', ')}`
    case 'maxLength':
      return `must be at most ${issue.maximum} characters`
    case 'minItems':
      return `must have at least ${issue.minimum === 1 ? 'one item' : `${issue.minimum} items`}`
    case 'minimum':
      return `must be greater than ${issue.inclusive ? 'or equal to ' : ''}${issue.minimum}`
    case 'positiveInt':
      return 'must be a positive integer'
    case 'integer':
      return 'must be an integer'
    case 'finite':
      return 'must be a finite number'
    case 'url':
      return 'must be an absolute http(s) URL'
    case 'dateTime':
      return 'must be an ISO 8601 UTC date-time with fractional seconds and Z'
    case 'locale':
      return 'must be a locale of the form language_COUNTRY (e.g. es_CR)'
    case 'timeZone':
      return 'must be an IANA time zone name (e.g. America/Costa_Rica or UTC)'
    case 'countryCode':
      return 'must be an ISO 3166 alpha-2 or alpha-3 code'
    case 'digits':
      return 'must contain only digits (and spaces)'
    case 'digitCount':
      return `must have ${issue.minimum} to ${issue.maximum} digits`
    case 'luhn':
      return 'fails the Luhn check'
    case 'expiryMonth':
      return 'must be two digits from 01 to 12'
    case 'expiryYear':
      return 'must be four digits'
    case 'cvv':
      return 'must be 3 or 4 digits'
    case 'expired':
      return 'the card has expired'
    case 'declined':
      return `the card was declined (${issue.reason})`
    case 'requiredForCountry':
      return `is required when the card issuer is in ${issue.countries.join(' or ')}`
    case 'nullForStatus':
      return `must be null when status is ${issue.status}`
    case 'atLeastOne':
      return `${issue.fields.join(' or ')} is required (give at least one)`
    case 'exactlyOne':
      return `${issue.fields.join(' or ')} is required (give exactly one)`
    case 'exclusive':
      return `must not be given together with ${issue.fields.slice(1).join(' or ')} (give exactly one of ${issue.fields.join(' or ')})`
    case 'notInCatalogue':
      return 'is not a product of the catalogue'
    case 'mismatch':
      return `must equal the line-item total (${issue.total})`
    case 'notFound':
      return `is not a ${issue.resource} of this service`
    case 'json':
      return 'must be JSON text'
    case 'unreadable':
      return 'could not be read (a property threw while it was read)'
    case 'invalid':
      return 'is not valid'
  }
}

// -------------------------------------------------------------------------------------
// io-ts errors that carry their issue
// -------------------------------------------------------------------------------------

/**
 * An io-ts error that carries the issue it reports (its `message` is the issue's
 * wording), so that `validate` gives the code and its parameters without reading words.
 */
export interface IssuedError extends t.ValidationError {
  readonly issue: FieldIssue
}

/** The issue an io-ts error carries, if a core rule made it. */
export const issueOfError = (error: t.ValidationError): FieldIssue | undefined =>
  (error as Partial<IssuedError>).issue

/** An io-ts error of `u` at `c` for `issue`. Built only on failure. */
export const issuedError = (u: unknown, c: t.Context, issue: FieldIssue): IssuedError => ({
  value: u,
  context: c,
  message: fieldErrorMessage(issue),
  issue,
})
