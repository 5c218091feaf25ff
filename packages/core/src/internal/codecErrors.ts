/**
 * The collectors of the core's combinators (`codec`), each taking the steps of the
 * combinator's `validate`: a wrapped codec's errors at the same site, the combinator's own
 * issue there, or a rule's errors below it. `codec` registers them with `withCollector`.
 */
import * as t from 'io-ts'
import { type CollectorBuilder, issuedAt } from './collector.js'
import { childSite, contextOf, keyKindOf, retyped, siteTypeOf } from './errorSite.js'
import { failed } from './fastDecoder.js'
import { foundOf } from './fieldErrors.js'
import type { FieldIssue } from './issue.js'

type Decoder = t.Decoder<unknown, unknown>

const isRecord = t.UnknownRecord.is

// The type of a field a rule names below a record (as `failureAt`'s context entry).
const UNKNOWN = siteTypeOf(t.unknown)

// -------------------------------------------------------------------------------------
// wrappers
// -------------------------------------------------------------------------------------

/** `refine`: the codec's errors, else the issue when the predicate fails. */
export const refineErrors =
  (codec: Decoder, predicate: (a: never) => boolean, issue: FieldIssue): CollectorBuilder =>
  (collect, decode) => {
    const inner = collect(codec)
    const value = decode(codec)
    const p = predicate as (a: unknown) => boolean
    // The codec's errors first: a value it refuses is not decoded again, and one it
    // accepts in a refused value broke the predicate.
    return (u, site, found, refused) => {
      const before = found.length
      inner(u, site, found)
      if (found.length === before && (refused === true || !p(value(u))))
        found.push(issuedAt(site, issue))
    }
  }

/** `withDefault`: nothing for an absent value, else the codec's errors. */
export const defaultErrors =
  (codec: Decoder): CollectorBuilder =>
  (collect) => {
    const inner = collect(codec)
    return (u, site, found, refused) => {
      if (u !== undefined) inner(u, site, found, refused)
    }
  }

/** `nullOr`: nothing for null, else the codec's errors. */
export const nullOrErrors =
  (codec: Decoder): CollectorBuilder =>
  (collect) => {
    const inner = collect(codec)
    return (u, site, found, refused) => {
      if (u !== null) inner(u, site, found, refused)
    }
  }

/** `nullAsAbsent`: the codec's errors, of the record without `key` when it is null. */
export const nullAsAbsentErrors =
  (codec: Decoder, key: string): CollectorBuilder =>
  (collect) => {
    const inner = collect(codec)
    return (u, site, found) => {
      if (!isRecord(u) || u[key] !== null) inner(u, site, found)
      else {
        const { [key]: _null, ...rest } = u
        inner(rest, site, found)
      }
    }
  }

/**
 * `exactStruct`: a type error for a non-record, else the exact record's errors with the
 * intersection presented as the value's type.
 */
export const structErrors =
  (exact: Decoder, inner: Decoder, notRecord: (u: unknown) => FieldIssue): CollectorBuilder =>
  (collect) => {
    const collectExact = collect(exact)
    const innerAt = siteTypeOf(inner)
    return (u, site, found) => {
      if (!isRecord(u)) found.push(issuedAt(site, notRecord(u)))
      else collectExact(u, retyped(site, innerAt), found)
    }
  }

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/** `withRule`: the codec's errors, else the rule's, over the decoded value. */
export const ruleErrors =
  <A>(
    codec: Decoder,
    rule: (a: A, u: unknown, c: t.Context) => ReadonlyArray<t.ValidationError>,
  ): CollectorBuilder =>
  (collect, decode) => {
    const inner = collect(codec)
    const value = decode(codec)
    return (u, site, found) => {
      const a = value(u)
      if (failed(a)) inner(u, site, found)
      else for (const error of rule(a as A, u, contextOf(site))) found.push(foundOf(error))
    }
  }

/** `withInputRule`: the codec's errors, then the rule's over the input. */
export const inputRuleErrors =
  (
    codec: Decoder,
    rule: (u: unknown, c: t.Context) => ReadonlyArray<t.ValidationError>,
  ): CollectorBuilder =>
  (collect) => {
    const inner = collect(codec)
    return (u, site, found) => {
      inner(u, site, found)
      for (const error of rule(u, contextOf(site))) found.push(foundOf(error))
    }
  }

/**
 * `atLeastOneOf`: for a record giving none of `keys`, the issue at each of them (a field
 * below the record, as `failureAt` places it).
 */
export const atLeastOneErrors =
  (keys: ReadonlyArray<string>, issue: FieldIssue): CollectorBuilder =>
  () => {
    const kinds = keys.map(keyKindOf)
    return (u, site, found) => {
      if (!isRecord(u) || keys.some((k) => u[k] !== undefined)) return
      keys.forEach((k, i) =>
        found.push(issuedAt(childSite(site, k, UNKNOWN, u[k], kinds[i]), issue)),
      )
    }
  }

// -------------------------------------------------------------------------------------
// leaves
// -------------------------------------------------------------------------------------

/** A codec that fails with one issue at its site: `issueOf(u)` for a value it `refuses`. */
export const leafErrors =
  (refuses: (u: unknown) => boolean, issueOf: (u: unknown) => FieldIssue): CollectorBuilder =>
  () =>
  (u, site, found) => {
    if (refuses(u)) found.push(issuedAt(site, issueOf(u)))
  }

/**
 * How `chosenByKey` refuses a record that gives neither or both of its two keys: `neither`
 * at each key and then the errors of `rest` (what the two shapes share) over the record,
 * or `both` at the first key and then the second key's codec's errors.
 */
export interface NotExactlyOne {
  readonly neither: FieldIssue
  readonly rest: Decoder
  readonly both: FieldIssue
}

/**
 * `chosenByKey`: for a record giving exactly one of the two keys, the errors of that key's
 * codec at the same site; for one giving neither or both, `notOne`'s issues at the keys
 * (fields below the record, as `failureAt` places them) and then the errors of the
 * codec it names; anything else, the codec's own `validate`.
 */
export const chosenErrors =
  (
    first: readonly [string, Decoder],
    second: readonly [string, Decoder],
    notOne: NotExactlyOne,
  ): CollectorBuilder =>
  (collect, _, own) => {
    const [firstKey, firstCodec] = first
    const [secondKey, secondCodec] = second
    const firstErrors = collect(firstCodec)
    const secondErrors = collect(secondCodec)
    const restErrors = collect(notOne.rest)
    const [firstKind, secondKind] = [keyKindOf(firstKey), keyKindOf(secondKey)]
    return (u, site, found) => {
      if (!isRecord(u)) return own(u, site, found)
      const hasFirst = u[firstKey] !== undefined
      if (hasFirst !== (u[secondKey] !== undefined)) {
        if (hasFirst) firstErrors(u, site, found)
        else secondErrors(u, site, found)
        return
      }
      const atFirst = childSite(site, firstKey, UNKNOWN, u[firstKey], firstKind)
      if (hasFirst) {
        found.push(issuedAt(atFirst, notOne.both))
        return secondErrors(u, site, found)
      }
      found.push(issuedAt(atFirst, notOne.neither))
      const atSecond = childSite(site, secondKey, UNKNOWN, u[secondKey], secondKind)
      found.push(issuedAt(atSecond, notOne.neither))
      restErrors(u, site, found)
    }
  }
