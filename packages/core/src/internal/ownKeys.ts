/**
 * What io-ts reads of a record, and the checks that a fast path reads the same. io-ts
 * reads each member by name (an own key, hidden or not, or one the record inherits) until
 * a member changes, and the members after it from a copy of the record's own enumerable
 * keys; it strips by own names, and merges the branches of an intersection by `for...in`
 * (which visits inherited enumerable keys). A walk of the record's keys, or a fast path
 * written for a record that reads its members by name, holds for the records these checks
 * accept; any other goes to io-ts's steps.
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

/**
 * Whether a record's own names are `keys`, in that order: none hidden, none other, none
 * of `keys` inherited. Its members read by name are then what io-ts reads, and io-ts
 * strips nothing and gives the record itself when no member changes: a fast path written
 * for an exact record checks this, and leaves any other record to the walk.
 */
export const ownNamesAreKeys = (u: object, keys: ReadonlyArray<string>): boolean => {
  const names = Object.getOwnPropertyNames(u)
  if (names.length !== keys.length) return false
  for (let i = 0; i < keys.length; i++) if (names[i] !== keys[i]) return false
  return true
}

/**
 * Whether a record's own enumerable keys are `keys`, in that order: none other, none of
 * `keys` inherited or hidden. io-ts's copy of the record (made at the first member that
 * changes, and read for the members after it) then holds every member: a fast path
 * written for an exact record whose members change checks this.
 */
export const ownKeysAre = (u: object, keys: ReadonlyArray<string>): boolean => {
  const own = Object.keys(u)
  if (own.length !== keys.length) return false
  for (let i = 0; i < keys.length; i++) if (own[i] !== keys[i]) return false
  return true
}

/**
 * For a fast path written for the intersection of an exact `type` of `required` and an
 * exact `partial` of `optional` (members read by name, the value built at once in member
 * order): the layout of a record whose members read by name are what io-ts reads and
 * merges in member order. Its keys are its own names (none hidden, none inherited through
 * `for...in`, which io-ts's merge would copy), all of them members; those of `required`
 * given come first among them in their order (io-ts adds the defaults of the absent ones
 * after them), and those of `optional` given come in their order (io-ts keeps the input's);
 * a member absent is not inherited either. The bits of the members given, numbered as a
 * walk numbers its slots (`required`, then `optional`), or -1 for any other record.
 */
export const layoutOf = (
  required: ReadonlyArray<string>,
  optional: ReadonlyArray<string>,
): ((u: object) => number) => {
  const all = 2 ** (required.length + optional.length) - 1
  if (!walkable([...required, ...optional])) return () => -1
  return (u) => {
    const names = Object.getOwnPropertyNames(u)
    let next = 0
    let after = 0
    let given = 0
    for (const name of names) {
      if (name === required[next]) {
        given |= 1 << next++
        continue
      }
      let i = after
      while (i < optional.length && optional[i] !== name) i++
      if (i === optional.length) return -1
      given |= 1 << (required.length + i)
      after = i + 1
    }
    let visited = 0
    for (const k in u) if (k !== names[visited++]) return -1
    if (visited !== names.length || !prototypeClean()) return -1
    if (given !== all && !plainPrototype(u)) return -1
    return given
  }
}
