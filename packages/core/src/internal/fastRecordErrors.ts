/**
 * The errors of an exact record, or of an intersection of exact records and rules (a
 * request's required and optional members and its rules), found by one walk of the
 * input's keys, as the fast path walks it (`fastRecord`): each member checked inline by
 * its slot (`fastSlots`), and only the members that fail visited for their errors, in
 * io-ts's order (branch after branch, members in order). The walk holds for the records
 * whose members read by name are what io-ts reads, from the input or from its copy
 * (`ownKeys`), and which have no other key (io-ts's copy would read it, and a getter may
 * throw); any other record goes to `slow`, io-ts's steps one by one.
 */
import type * as t from 'io-ts'
import type { Collector } from './collector.js'
import { childSite, keyKindOf, type Site, type SiteType, siteTypeOf } from './errorSite.js'
import type { Found } from './fieldErrors.js'
import { failed, type FastDecoder, runs, type WalkMemo } from './fastDecoder.js'
import { absentAt, type Branch, slotsOf } from './fastSlots.js'
import { clearScratch, scratchOf, walkedOf, walkKeys } from './fastWalk.js'
import { hasOwn, isRecord, prototypeClean } from './ownKeys.js'

type Decoder = t.Decoder<unknown, unknown>

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One branch of the walked record: an exact record (`branch`, its members' codecs in
 * `types`) or a rule over the whole record (`decode`, `collect`), with its codec.
 */
export type Part =
  | {
      readonly type: Decoder
      readonly branch: Branch
      readonly types: ReadonlyArray<Decoder>
      readonly collectors: ReadonlyArray<Collector>
    }
  | {
      readonly type: Decoder
      readonly branch?: undefined
      readonly decode: FastDecoder
      readonly collect: Collector
    }

// -------------------------------------------------------------------------------------
// collector
// -------------------------------------------------------------------------------------

/** The slot of the lowest bit set in `bits`. */
const lowest = (bits: number): number => 31 - Math.clz32(bits & -bits)

/**
 * The collector of `parts`: the branches of an intersection (`intersection`, each then
 * at a branch site of its own), or one exact record. `memo` is what the fast decoder of
 * the same codec found when its walk of the record failed, if it notes it.
 */
export const walkErrors = (
  parts: ReadonlyArray<Part>,
  intersection: boolean,
  slow: Collector,
  memo?: WalkMemo,
): Collector => {
  const exacts: Array<Branch> = []
  const types: Array<Decoder> = []
  const collectors: Array<Collector> = []
  const starts: Array<number> = []
  for (const part of parts) {
    starts.push(types.length)
    if (part.branch === undefined) continue
    exacts.push(part.branch)
    types.push(...part.types)
    collectors.push(...part.collectors)
  }
  const s = slotsOf(exacts)
  const { size, names, partial } = s
  const kinds = names.map(keyKindOf)
  const ats = types.map(siteTypeOf)
  const partAts = parts.map((part) => siteTypeOf(part.type))
  const partKeys = parts.map((_, b) => String(b))
  const all = 2 ** size - 1
  // The required members whose absence fails: those whose absent value is known, found
  // once; those whose decoder is asked, each time.
  let absentFails = 0
  let absentAsked = 0
  for (let i = 0; i < size; i++) {
    if (partial[i]) continue
    if (s.absentKnown[i] !== 1) absentAsked |= 1 << i
    else if (failed(s.absents[i])) absentFails |= 1 << i
  }
  // The slots of each exact part, as bits (none for a rule).
  const partBits = parts.map((part, b) =>
    part.branch === undefined
      ? 0
      : 2 ** ((starts[b] as number) + part.branch.keys.length) - 2 ** (starts[b] as number),
  )

  /** Adds the errors of `u`, whose members `seen` were given and `failing` failed. */
  const report = (
    u: Readonly<Record<string, unknown>>,
    site: Site,
    found: Array<Found>,
    seen: number,
    given: number,
  ): void => {
    const absent = all & ~seen
    let failing = given | (absent & absentFails)
    for (let asked = absent & absentAsked; asked !== 0; asked &= asked - 1) {
      const i = lowest(asked)
      if (failed(absentAt(s, i))) failing |= 1 << i
    }
    for (let b = 0; b < parts.length; b++) {
      const part = parts[b] as Part
      if (part.branch === undefined) {
        if (failed(part.decode(u)))
          part.collect(
            u,
            childSite(site, partKeys[b] as string, partAts[b] as SiteType, u, 'index'),
            found,
          )
        continue
      }
      // The failing members of this part, in member order.
      let members = failing & (partBits[b] as number)
      if (members === 0) continue
      const at = intersection
        ? childSite(site, partKeys[b] as string, partAts[b] as SiteType, u, 'index')
        : site
      for (; members !== 0; members &= members - 1) {
        const i = lowest(members)
        const k = names[i] as string
        const ak = (seen & (1 << i)) === 0 ? undefined : u[k]
        ;(collectors[i] as Collector)(
          ak,
          childSite(at, k, ats[i] as SiteType, ak, kinds[i]),
          found,
          true,
        )
      }
    }
  }

  // The walk's scratch (its values are not read: cleared at once) and what it found.
  const scratch = scratchOf(size)
  const w = walkedOf()

  /** The members of `u` that fail, and those it gives, from the fast decoder's walk. */
  const known = (u: object): boolean => memo?.record === u && memo.run === runs.current

  return (u, site, found) => {
    // io-ts's copy of a record with an own `__proto__` key has another prototype.
    if (!isRecord(u) || !prototypeClean() || hasOwn.call(u, '__proto__'))
      return slow(u, site, found)
    if (known(u)) {
      const { seen, failing, others } = memo as WalkMemo
      // io-ts's copy of a record reads its other keys too (a getter may throw): its steps.
      return others ? slow(u, site, found) : report(u, site, found, seen, failing)
    }
    const holds = walkKeys(s, u, scratch, w)
    const { count, seen, failing, others } = w
    clearScratch(scratch, count)
    // io-ts's copy of a record reads its other keys too (a getter may throw): its steps.
    if (!holds || others > 0) return slow(u, site, found)
    report(u, site, found, seen, failing)
  }
}
