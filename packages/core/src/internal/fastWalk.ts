/**
 * The walk of a record's keys, one for the fast decoder of an intersection of exact
 * records (`fastRecord`) and for the errors' walk (`fastRecordErrors`): one `for...in`
 * gives each key with its value (no lookup of a value by name), its member from the slots
 * (`fastSlots`), and what the value decodes to; the walk notes which members were given,
 * visited and failing, and holds the values for the record it builds.
 */
import { failed } from './fastDecoder.js'
import { decodeAt, type Slots, slotOf } from './fastSlots.js'
import { ownLast, ownNamesAre, plainPrototype } from './ownKeys.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** Where a walk keeps the members it decoded until it builds its value. */
export interface Scratch {
  /** Slot -> decoded value. */
  readonly values: Array<unknown>
  /** Their slots, in the input's order. */
  readonly order: Int32Array
}

/** A scratch for `size` members. */
export const scratchOf = (size: number): Scratch => ({
  values: new Array<unknown>(size).fill(undefined),
  order: new Int32Array(size),
})

/** What a walk found, written when it ends (members as bits of their slots). */
export interface Walked {
  /** How many keys it visited. */
  keys: number
  /** How many values `order` of its scratch holds. */
  count: number
  /** The members it visited. */
  seen: number
  /** The members given, not `undefined`. */
  given: number
  /** The members that fail. */
  failing: number
  /** How many keys are of no member. */
  others: number
}

/** A note of a walk, to write into. */
export const walkedOf = (): Walked => ({
  keys: 0,
  count: 0,
  seen: 0,
  given: 0,
  failing: 0,
  others: 0,
})

// -------------------------------------------------------------------------------------
// walk
// -------------------------------------------------------------------------------------

/**
 * Walks the keys of `u` with the members of `s`: into `w` what it found, into `scratch`
 * the value of each member that decodes (a partial member given as `undefined` that does
 * not decode it stays as given). Whether the walk holds for `u`: the members it did not
 * visit are not hidden or inherited in it, and no key it visited was inherited (else
 * io-ts's steps decide, and the scratch holds values to release).
 */
export const walkKeys = (
  s: Slots,
  u: Record<string, unknown>,
  scratch: Scratch,
  w: Walked,
): boolean => {
  const { values, order } = scratch
  const { size, partial } = s
  let keys = 0
  let last: string | undefined
  let count = 0
  let seen = 0
  let given = 0
  let failing = 0
  let others = 0
  let prev = size
  for (const k in u) {
    keys++
    last = k
    const i = slotOf(s, prev, k)
    if (i < 0) {
      others++
      continue
    }
    prev = i
    const ak = u[k]
    if (ak !== undefined) given |= 1 << i
    let v = decodeAt(s, i, ak)
    seen |= 1 << i
    if (failed(v)) {
      if (!partial[i] || ak !== undefined) {
        failing |= 1 << i
        continue
      }
      v = ak
    }
    values[i] = v
    order[count++] = i
  }
  w.keys = keys
  w.count = count
  w.seen = seen
  w.given = given
  w.failing = failing
  w.others = others
  // A member the walk did not visit may be hidden, or inherited.
  return seen !== s.all ? ownNamesAre(u, keys, last) && plainPrototype(u) : ownLast(u, last)
}

/** Empties the first `count` values of `scratch` (a scratch keeps no value alive). */
export const clearScratch = (scratch: Scratch, count: number): void => {
  for (let j = 0; j < count; j++) scratch.values[scratch.order[j] as number] = undefined
}
