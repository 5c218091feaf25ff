/**
 * Where a field error is: an io-ts context entry (`key`, `type`, `actual`) with its parent,
 * and what an error there needs of the whole context, worked out once as the entry is
 * made: its path in the spec's notation (`lineItems[2].product.price`), the type that
 * defines its field, and whether a union is on the way to it. `pathOf` over a context and
 * a chain of sites take the same steps, so an error found by a collector (`fastErrors`) is
 * placed exactly as io-ts's error with that context.
 */
import type * as t from 'io-ts'

type Decoder = t.Decoder<unknown, unknown>

// -------------------------------------------------------------------------------------
// branches
// -------------------------------------------------------------------------------------

const isBranchTag = (tag: unknown): boolean =>
  tag === 'UnionType' || tag === 'IntersectionType' || tag === 'TaggedUnionType'

const WRAPPERS = new Set(['ExactType', 'StrictType', 'ReadonlyType', 'RefinementType'])

/** The tag of the codec under `t.exact`, `t.readonly` and refinements, which validate in place. */
const unwrap = (type: Decoder): unknown => {
  let current = type as { readonly _tag?: unknown; readonly type?: unknown }
  while (
    typeof current._tag === 'string' &&
    WRAPPERS.has(current._tag) &&
    current.type !== undefined
  ) {
    current = current.type as typeof current
  }
  return current._tag
}

const INDEX = /^\d+$/

/**
 * Whether a context entry is a union or intersection branch rather than a field: the
 * parent is one (possibly wrapped), or the entry re-validates the very same value under a
 * branch index (a custom combinator around an intersection).
 */
export const isBranch = (parent: t.ContextEntry, entry: t.ContextEntry): boolean =>
  isBranchTag(unwrap(parent.type)) ||
  (INDEX.test(entry.key) && !Array.isArray(parent.actual) && Object.is(entry.actual, parent.actual))

// -------------------------------------------------------------------------------------
// paths
// -------------------------------------------------------------------------------------

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** The path of `entry`, below `parent` whose path is `path`: a branch adds nothing. */
const pathBelow = (path: string, parent: t.ContextEntry, entry: t.ContextEntry): string => {
  if (isBranch(parent, entry)) return path
  const key = entry.key
  if (Array.isArray(parent.actual) && INDEX.test(key)) return `${path}[${key}]`
  if (IDENTIFIER.test(key)) return path === '' ? key : `${path}.${key}`
  return `${path}[${JSON.stringify(key)}]`
}

/** The path of an io-ts context in the spec's notation; branch indexes are left out. */
export const contextPath = (context: t.Context): string => {
  let path = ''
  for (let i = 1; i < context.length; i++) {
    const parent = context[i - 1]
    const entry = context[i]
    if (parent !== undefined && entry !== undefined) path = pathBelow(path, parent, entry)
  }
  return path
}

/**
 * The type that defines the field an error is at: the last context entry that is not a
 * union or intersection branch, so every failed branch of `string | null` names the union.
 */
export const fieldTypeOf = (context: t.Context): Decoder | undefined => {
  for (let i = context.length - 1; i > 0; i--) {
    const parent = context[i - 1]
    const entry = context[i]
    if (parent !== undefined && entry !== undefined && !isBranch(parent, entry)) return entry.type
  }
  return context[0]?.type
}

const isUnion = (type: Decoder): boolean =>
  (type as { readonly _tag?: unknown })._tag === 'UnionType'

/** Whether a union is on the way to an error (its field may be named by a deeper one). */
export const throughUnion = (context: t.Context): boolean => {
  for (const entry of context) if (isUnion(entry.type)) return true
  return false
}

// -------------------------------------------------------------------------------------
// sites
// -------------------------------------------------------------------------------------

/** What a key is, for a path: an array index's form, a name, or anything else. */
export type KeyKind = 'index' | 'name' | 'other'

/** The kind of `key` (once per key a collector knows before it sees a value). */
export const keyKindOf = (key: string): KeyKind =>
  INDEX.test(key) ? 'index' : IDENTIFIER.test(key) ? 'name' : 'other'

/**
 * A codec as the sites of its values need it, worked out once (when a collector is
 * compiled): whether it is a union, and whether the entries below it are its branches
 * (it is a union or an intersection, maybe wrapped).
 */
export interface SiteType {
  readonly type: Decoder
  readonly union: boolean
  readonly branching: boolean
}

/** `type` as the sites of its values need it. */
export const siteTypeOf = (type: Decoder): SiteType => ({
  type,
  union: isUnion(type),
  branching: isBranchTag(unwrap(type)),
})

/**
 * A context entry and its parent, with what an error there needs: its `path`
 * (`contextPath`), its `field` (`fieldTypeOf`) and `viaUnion` (`throughUnion`).
 */
export interface Site extends t.ContextEntry {
  readonly parent: Site | undefined
  readonly path: string
  readonly field: Decoder
  readonly viaUnion: boolean
  /** Whether the entries below it are branches (its type is a union or intersection). */
  readonly branching: boolean
}

/** The site of the value `decode` is given, of type `at`: the context's first entry. */
export const rootSite = (at: SiteType, actual: unknown): Site => ({
  parent: undefined,
  key: '',
  type: at.type,
  actual,
  path: '',
  field: at.type,
  viaUnion: at.union,
  branching: at.branching,
})

/** The path of a key of kind `kind` below `parent`, not a branch (`pathBelow`'s steps). */
const keyPath = (parent: Site, key: string, kind: KeyKind): string => {
  const path = parent.path
  if (kind === 'name') return path === '' ? key : `${path}.${key}`
  if (kind === 'index' && Array.isArray(parent.actual)) return `${path}[${key}]`
  return `${path}[${JSON.stringify(key)}]`
}

/**
 * The site of `actual`, of type `at`, at `key` below `parent`, as io-ts's `appendContext`
 * adds it; `kind` is `keyKindOf(key)`, if known.
 */
export const childSite = (
  parent: Site,
  key: string,
  at: SiteType,
  actual: unknown,
  kind: KeyKind = keyKindOf(key),
): Site => {
  // `isBranch`, with what is known of the parent and the key.
  const branch =
    parent.branching ||
    (kind === 'index' && !Array.isArray(parent.actual) && Object.is(actual, parent.actual))
  return {
    parent,
    key,
    type: at.type,
    actual,
    path: branch ? parent.path : keyPath(parent, key, kind),
    field: branch ? parent.field : at.type,
    viaUnion: parent.viaUnion || at.union,
    branching: at.branching,
  }
}

/** `site` with its entry's type `at`, as a combinator presents another type as the value's. */
export const retyped = (site: Site, at: SiteType): Site =>
  site.parent === undefined
    ? rootSite(at, site.actual)
    : childSite(site.parent, site.key, at, site.actual)

/** The io-ts context of `site`: its entries from the root. */
export const contextOf = (site: Site): t.Context => {
  const entries: Array<t.ContextEntry> = []
  for (let s: Site | undefined = site; s !== undefined; s = s.parent)
    entries.push({ key: s.key, type: s.type, actual: s.actual })
  return entries.reverse()
}
