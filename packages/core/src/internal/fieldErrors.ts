/**
 * Field errors from what a validation found: one `Found` per error (where, whether through a
 * union, the issue and its message), from an io-ts error or straight from a collector
 * (`fastErrors`), and the list `validate` gives, one per field and message in the order
 * found. Both ways of finding errors end here, so they give the same list.
 */
import type * as t from 'io-ts'
import { contextPath, fieldTypeOf, throughUnion } from './errorSite.js'
import { issueOfRefused } from './expected.js'
import { type FieldIssue, fieldErrorMessage, issueOfError } from './issue.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** One error as found: its path, whether a union is on the way to it, its issue and message. */
export interface Found {
  readonly path: string
  readonly viaUnion: boolean
  readonly issue: FieldIssue
  readonly message: string
}

/** A field error as `validate` gives it (`CodedFieldError`). */
export type FieldErrorOf = { readonly path: string; readonly message: string } & FieldIssue

// -------------------------------------------------------------------------------------
// from io-ts errors
// -------------------------------------------------------------------------------------

const REQUIRED: FieldIssue = { code: 'required' }

/**
 * The issue of one io-ts error: the one a core rule attached; for an error of another
 * codec, `required` when the value is absent, a type error or `oneOf` from the type
 * expected (read from the codec, never from the value's content), and `invalid` for
 * anything else (its own message is kept).
 */
export const issueOfValidationError = (error: t.ValidationError): FieldIssue => {
  const issue = issueOfError(error)
  if (issue !== undefined) return issue
  if (error.message !== undefined) return { code: 'invalid' }
  if (error.value === undefined) return REQUIRED
  return issueOfRefused(fieldTypeOf(error.context), error.value)
}

/** What an io-ts error says, placed by its context. */
export const foundOf = (error: t.ValidationError): Found => {
  const issue = issueOfValidationError(error)
  return {
    path: contextPath(error.context),
    viaUnion: throughUnion(error.context),
    issue,
    message: error.message ?? fieldErrorMessage(issue),
  }
}

// -------------------------------------------------------------------------------------
// the list
// -------------------------------------------------------------------------------------

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
 * The field error at `path` with `message` for `issue`: its members written out per code,
 * in `FieldIssue`'s order. (A spread of the issue after `path` and `message` goes through
 * V8's generic copy, which cost more than the rest of the list: 120 of 240 ns for one
 * error.)
 */
export const placed = (path: string, message: string, issue: FieldIssue): FieldErrorOf => {
  switch (issue.code) {
    case 'type':
      return { path, message, code: issue.code, expected: issue.expected, received: issue.received }
    case 'oneOf':
      return { path, message, code: issue.code, values: issue.values }
    case 'maxLength':
      return { path, message, code: issue.code, maximum: issue.maximum }
    case 'minItems':
      return { path, message, code: issue.code, minimum: issue.minimum }
    case 'minimum':
      return { path, message, code: issue.code, minimum: issue.minimum, inclusive: issue.inclusive }
    case 'digitCount':
      return { path, message, code: issue.code, minimum: issue.minimum, maximum: issue.maximum }
    case 'declined':
      return { path, message, code: issue.code, reason: issue.reason }
    case 'requiredForCountry':
      return { path, message, code: issue.code, countries: issue.countries }
    case 'nullForStatus':
      return { path, message, code: issue.code, status: issue.status }
    case 'atLeastOne':
    case 'exactlyOne':
    case 'exclusive':
      return { path, message, code: issue.code, fields: issue.fields }
    case 'mismatch':
      return { path, message, code: issue.code, total: issue.total }
    case 'notFound':
      return { path, message, code: issue.code, resource: issue.resource }
    case 'required':
    case 'positiveInt':
    case 'integer':
    case 'finite':
    case 'url':
    case 'dateTime':
    case 'locale':
    case 'timeZone':
    case 'countryCode':
    case 'digits':
    case 'luhn':
    case 'expiryMonth':
    case 'expiryYear':
    case 'cvv':
    case 'expired':
    case 'notInCatalogue':
    case 'json':
    case 'unreadable':
    case 'invalid':
      return { path, message, code: issue.code }
    default:
      // A code of no `FieldIssue` (from untyped code): every member it has.
      issue satisfies never
      return { path, message, ...(issue as FieldIssue) }
  }
}

/** Whether `out` has an error at `path` with `message`. */
const has = (out: ReadonlyArray<FieldErrorOf>, path: string, message: string): boolean => {
  for (const e of out) if (e.path === path && e.message === message) return true
  return false
}

// Up to this many errors, a repeat is found by comparing with those kept (no key strings).
const FEW = 8

/**
 * The field errors of what was found, in its order: one per field and message, each with
 * its code; an error of a union branch at a field that a deeper error names is left out
 * (it says less).
 */
export const fieldErrorsOf = (found: ReadonlyArray<Found>): Array<FieldErrorOf> => {
  const n = found.length
  // One error is kept whatever it is: no deeper one names its field, none repeats it.
  if (n === 1) {
    const { path, message, issue } = found[0] as Found
    return [placed(path, message, issue)]
  }
  let anyViaUnion = false
  for (let i = 0; i < n; i++) anyViaUnion ||= (found[i] as Found).viaUnion
  // Only a union branch needs to know about deeper paths: the sort is skipped otherwise.
  const hasDeeper = anyViaUnion
    ? hasDeeperPath([...new Set(found.map((f) => f.path))].sort())
    : undefined
  const seen = n > FEW ? new Set<string>() : undefined
  const out: Array<FieldErrorOf> = []
  for (let i = 0; i < n; i++) {
    const { path, viaUnion, issue, message } = found[i] as Found
    if (viaUnion && hasDeeper !== undefined && hasDeeper(path)) continue
    if (seen === undefined) {
      if (has(out, path, message)) continue
    } else {
      const id = `${path}\u0000${message}`
      if (seen.has(id)) continue
      seen.add(id)
    }
    out.push(placed(path, message, issue))
  }
  return out
}
