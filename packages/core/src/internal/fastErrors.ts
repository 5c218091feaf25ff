/**
 * A fast path for the errors of invalid input: an io-ts codec compiled, once, into a
 * collector (`collector`), a plain function that adds to a list what `codec.validate`
 * reports, in io-ts's order, each error placed by its site (`errorSite`): the same path,
 * issue and message `fromValidationErrors` reads from io-ts's error. No context array and
 * no `Either` is made; a member is checked by its fast decoder (`fastDecode`) and only one
 * that fails is visited for its errors.
 *
 * io-ts's own combinators (`type`, `partial`, `exact`, `intersection`, `array`, `union`,
 * `readonly`, refinements and the primitives) are compiled here with io-ts's steps: a
 * record's members read in order, from a copy of it once a member changes, as io-ts reads
 * them. The core's combinators register their collectors with `withCollector`; any other
 * codec runs its own `validate` with the site's context, and its errors are read as
 * `fromValidationErrors` reads them.
 */
import * as t from 'io-ts'
import { type Collector, collectorBuilderOf } from './collector.js'
import {
  childSite,
  contextOf,
  keyKindOf,
  type Site,
  type SiteType,
  siteTypeOf,
} from './errorSite.js'
import { issueOfRefused } from './expected.js'
import { exactBranchOf, failed, type FastDecoder, fastDecoderOf, hasMembers } from './fastDecode.js'
import { AS_IS_TAGS, walkMemoOf } from './fastDecoder.js'
import { type Part, walkErrors } from './fastRecordErrors.js'
import { MAX_MEMBERS } from './fastSlots.js'
import { type Found, foundOf } from './fieldErrors.js'
import { fieldErrorMessage, type FieldIssue } from './issue.js'

type Decoder = t.Decoder<unknown, unknown>

interface Tagged {
  readonly _tag?: string
  readonly type?: Decoder
  readonly types?: ReadonlyArray<Decoder>
  readonly props?: Readonly<Record<string, Decoder>>
  readonly predicate?: (u: unknown) => boolean
}

// -------------------------------------------------------------------------------------
// errors
// -------------------------------------------------------------------------------------

const REQUIRED: FieldIssue = { code: 'required' }

/**
 * The error of an io-ts codec (no message, no issue) refusing `u` at `site`: `required`
 * when absent, else what the site's field expects.
 */
export const refusedAt = (site: Site, u: unknown): Found => {
  const issue = u === undefined ? REQUIRED : issueOfRefused(site.field, u)
  return { path: site.path, viaUnion: site.viaUnion, issue, message: fieldErrorMessage(issue) }
}

/** The collector that runs `codec`'s own `validate` with the site's context. */
const viaValidate =
  (codec: Decoder): Collector =>
  (u, site, found) => {
    const r = codec.validate(u, contextOf(site))
    if (r._tag === 'Left') for (const error of r.left) found.push(foundOf(error))
  }

// -------------------------------------------------------------------------------------
// io-ts semantics
// -------------------------------------------------------------------------------------

const hasOwn = Object.prototype.hasOwnProperty
const isRecord = t.UnknownRecord.is

/** An io-ts `type` or `partial`: members read in order, from io-ts's copy once one changes. */
const interfaceOf = (props: Readonly<Record<string, Decoder>>, partial: boolean): Collector => {
  const keys = Object.keys(props)
  const kinds = keys.map(keyKindOf)
  const types = keys.map((k) => props[k] as Decoder)
  const ats = types.map(siteTypeOf)
  const decoders = types.map(fastDecoderOf)
  const collectors = types.map(collectorOf)
  const len = keys.length
  return (u, site, found) => {
    if (!isRecord(u)) {
      found.push(refusedAt(site, u))
      return
    }
    let a = u
    for (let i = 0; i < len; i++) {
      const k = keys[i] as string
      const ak = a[k]
      const v = (decoders[i] as FastDecoder)(ak)
      if (failed(v)) {
        if (!partial || ak !== undefined)
          (collectors[i] as Collector)(
            ak,
            childSite(site, k, ats[i] as SiteType, ak, kinds[i]),
            found,
            true,
          )
      } else if (v !== ak || (!partial && v === undefined && !hasOwn.call(a, k))) {
        // io-ts's copy (`Object.assign`), from which it reads the members after this one.
        if (a === u) a = Object.assign({}, u) as Record<string, unknown>
        a[k] = v
      }
    }
  }
}

/** io-ts's `array(item)` / `readonlyArray(item)`: each item's errors, in order. */
const arrayOf = (item: Decoder): Collector => {
  const collect = collectorOf(item)
  const itemAt = siteTypeOf(item)
  return (u, site, found) => {
    if (!Array.isArray(u)) {
      found.push(refusedAt(site, u))
      return
    }
    // Each item's collector, which adds nothing for an item that decodes.
    for (let i = 0; i < u.length; i++) {
      const ui: unknown = u[i]
      collect(ui, childSite(site, String(i), itemAt, ui, 'index'), found)
    }
  }
}

/** The branches of a union or intersection as sites need them: their types and indexes. */
const branchesOf = (
  types: ReadonlyArray<Decoder>,
): readonly [ReadonlyArray<SiteType>, ReadonlyArray<string>] => [
  types.map(siteTypeOf),
  types.map((_, i) => String(i)),
]

/** `codec` as a part of a walk, if it is an exact record a walk can decode. */
const exactPart = (codec: Decoder): Part | undefined => {
  const branch = exactBranchOf(codec)
  const props = ((codec as Tagged).type as Tagged | undefined)?.props
  if (branch === undefined || props === undefined) return undefined
  const types = branch.keys.map((k) => props[k] as Decoder)
  return { type: codec, branch, types, collectors: types.map(collectorOf) }
}

/**
 * The branches of an intersection as parts of a walk, if it has exact records a walk can
 * decode (no member in two, at most `MAX_MEMBERS` in all) and rules with no member.
 */
const walkedParts = (types: ReadonlyArray<Decoder>): ReadonlyArray<Part> | undefined => {
  const parts: Array<Part> = []
  const keys = new Set<string>()
  for (const type of types) {
    const part = exactPart(type)
    if (part === undefined) {
      if (hasMembers(type)) return undefined
      parts.push({ type, decode: fastDecoderOf(type), collect: collectorOf(type) })
      continue
    }
    for (const k of part.branch?.keys ?? []) {
      if (keys.has(k)) return undefined
      keys.add(k)
    }
    parts.push(part)
  }
  return keys.size === 0 || keys.size > MAX_MEMBERS ? undefined : parts
}

const build = (codec: Decoder): Collector => {
  const own = viaValidate(codec)
  const builder = collectorBuilderOf(codec)
  if (builder !== undefined) return builder(collectorOf, fastDecoderOf, own)
  const tagged = codec as Tagged
  const tag = tagged._tag ?? ''
  if (AS_IS_TAGS.has(tag)) {
    const decode = fastDecoderOf(codec)
    return (u, site, found) => {
      if (failed(decode(u))) found.push(refusedAt(site, u))
    }
  }
  switch (tag) {
    case 'InterfaceType':
    case 'PartialType':
      if (tagged.props !== undefined) return interfaceOf(tagged.props, tag === 'PartialType')
      break
    case 'ExactType': {
      if (tagged.type === undefined) break
      const inner = collectorOf(tagged.type)
      const slow: Collector = (u, site, found) => {
        if (!isRecord(u)) found.push(refusedAt(site, u))
        else inner(u, site, found)
      }
      const part = exactPart(codec)
      return part === undefined ? slow : walkErrors([part], false, slow)
    }
    case 'IntersectionType': {
      const types = tagged.types ?? []
      const collectors = types.map(collectorOf)
      const [ats, indexes] = branchesOf(types)
      const slow: Collector = (u, site, found) => {
        for (let i = 0; i < types.length; i++)
          (collectors[i] as Collector)(
            u,
            childSite(site, indexes[i] as string, ats[i] as SiteType, u, 'index'),
            found,
          )
      }
      const parts = walkedParts(types)
      return parts === undefined
        ? slow
        : walkErrors(parts, true, slow, walkMemoOf(fastDecoderOf(codec)))
    }
    case 'UnionType': {
      const types = tagged.types ?? []
      const decode = fastDecoderOf(codec)
      const collectors = types.map(collectorOf)
      const [ats, indexes] = branchesOf(types)
      // Every branch's errors, when none decodes.
      return (u, site, found) => {
        if (!failed(decode(u))) return
        for (let i = 0; i < types.length; i++)
          (collectors[i] as Collector)(
            u,
            childSite(site, indexes[i] as string, ats[i] as SiteType, u, 'index'),
            found,
          )
      }
    }
    case 'ArrayType':
    case 'ReadonlyArrayType':
      if (tagged.type !== undefined) return arrayOf(tagged.type)
      break
    case 'ReadonlyType':
      if (tagged.type !== undefined) return collectorOf(tagged.type)
      break
    case 'RefinementType': {
      const predicate = tagged.predicate
      if (tagged.type === undefined || predicate === undefined) break
      const decode = fastDecoderOf(tagged.type)
      const inner = collectorOf(tagged.type)
      // io-ts reports the decoded value, not the input.
      return (u, site, found) => {
        const before = found.length
        inner(u, site, found)
        if (found.length > before) return
        const a = decode(u)
        if (!predicate(a)) found.push(refusedAt(site, a))
      }
    }
  }
  return own
}

// -------------------------------------------------------------------------------------
// registry
// -------------------------------------------------------------------------------------

const compiled = new WeakMap<object, Collector>()

/**
 * The collector of `codec` (compiled once, then cached): adds to a list the errors
 * `codec.validate` reports for a value at a site, none for a value it accepts.
 */
export const collectorOf = (codec: Decoder): Collector => {
  const cached = compiled.get(codec)
  if (cached !== undefined) return cached
  // A recursive codec reaches itself while compiling: it waits for its own compilation.
  const pending: { collector?: Collector } = {}
  compiled.set(codec, (u, site, found, refused) => {
    ;(pending.collector as Collector)(u, site, found, refused)
  })
  const collector = build(codec)
  pending.collector = collector
  compiled.set(codec, collector)
  return collector
}
