/**
 * Exact records decoded by one walk of the input's keys: an `exact(type(...))` or
 * `exact(partial(...))`, and an intersection of them (a request's required and optional
 * members), with io-ts's semantics and key order.
 *
 * One `for...in` gives each key with its value (no lookup of a value by name); which
 * member a key is, and what its value decodes to, come from the members' slots
 * (`fastSlots`). The walk holds for a record whose keys it visits are its own and whose
 * members it does not visit are not in it (`ownKeys`): it checks what its value depends
 * on at the least cost (the record's own names, its prototype, or whether its last key is
 * its own), and leaves any other record to `slow`, io-ts's steps one by one.
 */
import { FAIL, failed, type FastDecoder, runs, type WalkMemo, withWalkMemo } from './fastDecoder.js'
import { oneOfFormOf } from './fastForm.js'
import {
  absentAt,
  accepts,
  type Branch,
  CALL,
  changed,
  decodeAt,
  type Slots,
  slotOf,
  slotsOf,
} from './fastSlots.js'
import {
  hasOwn,
  isRecord,
  ownLast,
  ownNamesAre,
  plainPrototype,
  prototypeClean,
} from './ownKeys.js'
import { clearScratch, type Scratch, scratchOf, walkedOf, walkKeys } from './fastWalk.js'

// -------------------------------------------------------------------------------------
// failures and strips
// -------------------------------------------------------------------------------------

/**
 * What a walk gives when the member of key `k` fails: FAIL, as io-ts does when it reads
 * the same value, from the record's own key. An inherited one io-ts reads from the record
 * only until a member changes (then from a copy of the record, which lacks it): io-ts's
 * steps decide.
 */
const failure = (u: object, k: string, slow: FastDecoder): unknown =>
  hasOwn.call(u, k) ? FAIL : slow(u)

/** `a` with only the keys of members, in its own order (io-ts's `stripKeys` of a walk). */
const membersOnly = (a: Record<string, unknown>, s: Slots): Record<string, unknown> => {
  const r: Record<string, unknown> = {}
  for (const k in a) if (s.index.has(k)) r[k] = a[k]
  return r
}

// -------------------------------------------------------------------------------------
// one branch
// -------------------------------------------------------------------------------------

/**
 * `exact(type(...))` or `exact(partial(...))` over a record by one walk: the input itself
 * when nothing is stripped or changed, else a record of its members.
 */
export const exactRecord = (branch: Branch, slow: FastDecoder): FastDecoder => {
  const s = slotsOf([branch])
  const { size, names } = s
  const partial = branch.partial
  const all = 2 ** size - 1
  return (u) => {
    if (!isRecord(u)) return FAIL
    // io-ts's steps: a copy of the input at the first member that changes, then its
    // members only if it has other keys.
    let a = u
    let keys = 0
    let last: string | undefined
    let stripped = false
    let seen = 0
    let prev = size
    for (const k in u) {
      keys++
      last = k
      const i = slotOf(s, prev, k)
      if (i < 0) {
        stripped = true
        continue
      }
      prev = i
      seen |= 1 << i
      const ak = u[k]
      // Most members are of a form that gives back the value given: only checked.
      const kind = s.kinds[i] as number
      if (kind !== CALL && ak !== undefined && ak !== null) {
        if (!accepts(s, i, kind, ak)) return failure(u, k, slow)
        continue
      }
      const v = decodeAt(s, i, ak)
      if (failed(v)) {
        // A partial member given as `undefined` that does not decode it stays as given.
        if (!partial || ak !== undefined) return failure(u, k, slow)
      } else if (changed(s, i, ak, v)) {
        if (a === u) a = { ...u }
        a[k] = v
      }
    }
    if (seen !== all) {
      // A member the walk did not visit may be hidden, or inherited.
      if (!ownNamesAre(u, keys, last) || !plainPrototype(u)) return slow(u)
      for (let i = 0; i < size; i++) {
        if ((seen & (1 << i)) !== 0) continue
        const v = absentAt(s, i)
        if (failed(v)) {
          if (partial) continue
          return FAIL
        }
        // io-ts's `type` sets an absent member even to `undefined`; `partial` does not.
        if (partial && v === undefined) continue
        if (a === u) a = { ...u }
        a[names[i] as string] = v
      }
    } else if (a === u || stripped) {
      // io-ts strips by own names: a hidden one makes a copy, an inherited one is none.
      if (!ownNamesAre(u, keys, last)) return slow(u)
    } else if (!ownLast(u, last)) return slow(u)
    return stripped ? membersOnly(a, s) : a
  }
}

// -------------------------------------------------------------------------------------
// an intersection of branches
// -------------------------------------------------------------------------------------

/**
 * The constructor of merged records, whose prototype is `Object.prototype`: they are
 * plain records, to which V8 gives room for their members in the record itself (a
 * literal `{}` has room for four, and grows a second store after).
 */
const Merged = function () {} as unknown as new () => Record<string, unknown>
Merged.prototype = Object.prototype

/**
 * An intersection of exact branches with members of their own, and of rules whose value
 * adds no member (an empty record), as io-ts merges them: the members of each branch in
 * turn, those given in the input's key order, then its defaults. Anything else goes to
 * `slow`.
 */
export const exactMerge = (
  branches: ReadonlyArray<Branch>,
  rules: ReadonlyArray<FastDecoder>,
  slow: FastDecoder,
): FastDecoder => {
  const s = slotsOf(branches)
  const { size, names, partial, branch } = s
  // Each branch's slots: from `starts[b]` to `ends[b]`, and as bits.
  const starts = Int32Array.from(branches, (_, b) =>
    branches.slice(0, b).reduce((n, { keys }) => n + keys.length, 0),
  )
  const ends = Int32Array.from(
    branches,
    (_, b) => (starts[b] as number) + (branches[b] as Branch).keys.length,
  )
  const bits = Int32Array.from(
    branches,
    (_, b) => 2 ** (ends[b] as number) - 2 ** (starts[b] as number),
  )
  // Rules of the form "one of these members given" are checked from the walk (as bits of
  // slots); the others are called.
  const oneOf: Array<number> = []
  const called: Array<FastDecoder> = []
  for (const rule of rules) {
    const keys = oneOfFormOf(rule)
    if (keys !== undefined && keys.every((k) => s.index.has(k)))
      oneOf.push(keys.reduce((bits, k) => bits | (1 << (s.index.get(k) as number)), 0))
    else called.push(rule)
  }
  // A rule's value proven empty once (frozen, no key) need not be walked again.
  let empty: unknown
  // The scratch of the walk under way is not free: a walk of a recursive codec nested in
  // it makes its own. One that threw is never given back, and the next walk makes one.
  let free: Scratch | undefined = scratchOf(size)
  // What a walk that failed at its members found, for the errors' walk (see `WalkMemo`).
  const memo: WalkMemo = { record: undefined, run: -1, seen: 0, failing: 0, others: false }

  /** Gives FAIL, noting what the walk of `u` found. */
  const failedWalk = (u: object, seen: number, failing: number, others: number): typeof FAIL => {
    memo.record = u
    memo.run = runs.current
    memo.seen = seen
    memo.failing = failing
    memo.others = others > 0
    return FAIL
  }

  /**
   * Writes to `r` the defaults of branch `b`, the members it lacks that decode
   * `undefined`, in its members' order: how many, or -1 when a required one fails.
   */
  const setDefaults = (b: number, seen: number, r: Record<string, unknown>): number => {
    let set = 0
    for (let i = starts[b] as number; i < (ends[b] as number); i++) {
      if ((seen & (1 << i)) !== 0) continue
      const v = absentAt(s, i)
      if (failed(v)) {
        if (partial[i]) continue
        return -1
      }
      // io-ts's `type` sets an absent member even to `undefined`; `partial` does not.
      if (partial[i] && v === undefined) continue
      r[names[i] as string] = v
      set++
    }
    return set
  }

  /** Gives the scratch back, without the `count` values it holds (not kept alive by it). */
  const release = (scratch: Scratch, count: number): void => {
    clearScratch(scratch, count)
    free = scratch
  }

  // What the walk under way found (written when it ends, read at once).
  const w = walkedOf()

  /** The merged value of `u` or FAIL, walked with `scratch`; `slow` for any other record. */
  const merge = (u: Record<string, unknown>, scratch: Scratch): unknown => {
    const holds = walkKeys(s, u, scratch, w)
    const { keys, count, seen, given, failing, others } = w
    if (!holds) {
      release(scratch, count)
      return slow(u)
    }
    // One that fails: the walk went on, for the errors of the others (see `WalkMemo`).
    if (failing !== 0) {
      release(scratch, count)
      return failedWalk(u, seen, failing, others)
    }
    for (const bits of oneOf)
      if ((given & bits) === 0) {
        release(scratch, count)
        return failedWalk(u, seen, 0, others)
      }
    // Each branch's members given, in the input's order, then its defaults.
    const { values, order } = scratch
    const r = new Merged()
    let defaults = 0
    for (let b = 0; b < branches.length; b++) {
      for (let j = 0; j < count; j++) {
        const i = order[j] as number
        if (branch[i] === b) r[names[i] as string] = values[i]
      }
      if ((seen & (bits[b] as number)) === bits[b]) continue
      const set = setDefaults(b, seen, r)
      if (set < 0) {
        release(scratch, count)
        return failedWalk(u, seen, 0, others)
      }
      defaults += set
    }
    release(scratch, count)
    // Every branch gave the input itself (no key, nothing set): so does io-ts's merge.
    if (rules.length === 0 && keys === 0 && defaults === 0)
      return ownNamesAre(u, 0, undefined) ? u : slow(u)
    return r
  }

  return withWalkMemo((u) => {
    if (!isRecord(u)) return FAIL
    if (!prototypeClean()) return slow(u)
    for (const rule of called) {
      const v = rule(u)
      if (failed(v)) return FAIL
      if (v === empty) continue
      if (v === u || !isRecord(v)) return slow(u)
      for (const _ in v) return slow(u)
      if (Object.isFrozen(v)) empty = v
    }
    const scratch = free ?? scratchOf(size)
    free = undefined
    return merge(u, scratch)
  }, memo)
}
