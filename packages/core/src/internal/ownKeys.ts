/**
 * What io-ts reads of a record, and the checks that a fast path reads the same. io-ts
 * reads each member by name (an own key, hidden or not, or one the record inherits) until
 * a member changes, and the members after it from a copy of the record's own enumerable
 * keys; it strips by own names, and merges the branches of an intersection by `for...in`
 * (which visits inherited enumerable keys). A walk of the record's keys holds for the
 * records these checks accept; any other goes to io-ts's steps.
 */
import { MAX_MEMBERS } from './fastSlots.js'

// -------------------------------------------------------------------------------------
// records
// -------------------------------------------------------------------------------------

/** Whether `u` is a record: an object, not an array (io-ts's `UnknownRecord`). */
export const isRecord = (u: unknown): u is Record<string, unknown> =>
  u !== null && typeof u === 'object' && !Array.isArray(u)

/** `Object.prototype.hasOwnProperty`, to call on any record. */
export const hasOwn = Object.prototype.hasOwnProperty

/**
 * Whether a record's own names are the `keys` keys a walk of it visited, `last` the last:
 * none hidden, none inherited. (`for...in` visits own keys in the order of own names,
 * then inherited ones, which no own name, even a hidden one, shadows: a count that hides
 * one inherited key behind one hidden key still ends on the inherited one.)
 */
export const ownNamesAre = (u: object, keys: number, last: string | undefined): boolean => {
  const names = Object.getOwnPropertyNames(u)
  return names.length === keys && names[keys - 1] === last
}

/** Whether the last key a walk visited, if any, is the record's own: none was inherited. */
export const ownLast = (u: object, last: string | undefined): boolean =>
  last === undefined || hasOwn.call(u, last)

/**
 * Whether a record's prototype is `Object.prototype` or null, so a member it lacks reads
 * as `undefined` (see `walkable`), as a getter of a class would not.
 */
export const plainPrototype = (u: object): boolean => {
  const prototype = Object.getPrototypeOf(u) as unknown
  return prototype === Object.prototype || prototype === null
}

// A record `for...in` visits nothing of but the enumerable keys of `Object.prototype`.
const PROBE: object = Object.freeze({})

/** Whether `Object.prototype` has no enumerable key (io-ts's merge copies any it has). */
export const prototypeClean = (): boolean => {
  for (const _ in PROBE) return false
  return true
}

/**
 * Whether a walk can decode the members `keys`: none named like an integer (which comes
 * first in a record whatever its place), or like a key of `Object.prototype` (which a
 * record it lacks would still read, as io-ts does).
 */
export const walkable = (keys: ReadonlyArray<string>): boolean =>
  keys.length <= MAX_MEMBERS && keys.every((k) => !/^\d+$/.test(k) && !(k in Object.prototype))
