// Writes `src/internal/fastForms.generated.ts`, the fast forms of the model's records marked
// `unrolled`, from their codecs: members, their order and the layout bits are read from what
// `src/model/` declares, never written by hand. The generated forms read each member by name
// and build the value with named stores (what makes them faster than the walk of a record),
// which only generated code can do without `eval` / `new Function` (forbidden by n8n and by
// browsers with a content security policy). After a change to a model's records:
//
//   pnpm run build && node packages/core/scripts/fastForms.ts --write   # rewrite the file
//   node packages/core/scripts/fastForms.ts                             # check it (exit 1)
//
// `test/internal/fastForms.test.ts` regenerates it from the sources and fails on any drift.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type * as t from 'io-ts'
import * as prettier from 'prettier'

type Decoder = t.Decoder<unknown, unknown>

/** The generated file. */
export const GENERATED = resolve(import.meta.dirname, '../src/internal/fastForms.generated.ts')

/** What the generator asks of the core (its sources in a test, its build here). */
export interface Introspection {
  /** Whether the model marks `codec` `unrolled` (`markUnrolled`). */
  readonly isUnrolled: (codec: object) => boolean
  /** The keys of which `rule` wants one given, if it is such a rule (`oneOfFormOf`). */
  readonly oneOfOf: (rule: Decoder) => ReadonlyArray<string> | undefined
  /** Whether `member` decodes a value to itself or fails, as its form says (`formOf`). */
  readonly asIs: (member: Decoder) => boolean
  /** Whether `member` decodes `undefined` to `undefined`. */
  readonly keepsUndefined: (member: Decoder) => boolean
}

/** The core's internals the generator reads, from its sources (a test) or its build. */
export interface Core {
  readonly isUnrolled: (codec: object) => boolean
  readonly failed: (v: unknown) => boolean
  readonly fastDecoderOf: (codec: Decoder) => (u: unknown) => unknown
  readonly formOf: (decoder: (u: unknown) => unknown) => { readonly absent: unknown } | undefined
  readonly oneOfFormOf: (decoder: (u: unknown) => unknown) => ReadonlyArray<string> | undefined
}

/** What the generator asks of the core, from its internals. */
export const introspectionOf = (core: Core): Introspection => ({
  isUnrolled: core.isUnrolled,
  oneOfOf: (rule) => core.oneOfFormOf(core.fastDecoderOf(rule)),
  asIs: (member) => {
    const form = core.formOf(core.fastDecoderOf(member))
    return form !== undefined && core.failed(form.absent)
  },
  keepsUndefined: (member) => core.fastDecoderOf(member)(undefined) === undefined,
})

interface Tagged {
  readonly _tag?: string
  readonly name?: string
  readonly type?: Tagged
  readonly types?: ReadonlyArray<Tagged>
  readonly props?: Readonly<Record<string, unknown>>
}

/** A record's shape, as its form reads it. */
type Shape =
  | {
      readonly kind: 'record'
      readonly keys: ReadonlyArray<string>
      /** Whether each member decodes a value to itself or fails. */
      readonly asIs: ReadonlyArray<boolean>
      /** Whether each member decodes `undefined` to `undefined`. */
      readonly keepsUndefined: ReadonlyArray<boolean>
    }
  | { readonly kind: 'exact'; readonly keys: ReadonlyArray<string> }
  | {
      readonly kind: 'merged'
      readonly required: ReadonlyArray<string>
      readonly optional: ReadonlyArray<string>
      readonly oneOf: ReadonlyArray<ReadonlyArray<string>>
    }

// -------------------------------------------------------------------------------------
// shapes
// -------------------------------------------------------------------------------------

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** The members of an exact `type` or `partial` of `tag`, if `codec` is one. */
const exactKeys = (codec: Tagged, tag: string): ReadonlyArray<string> | undefined =>
  codec._tag === 'ExactType' && codec.type?._tag === tag && codec.type.props !== undefined
    ? Object.keys(codec.type.props)
    : undefined

/** The shape of `codec`, a record the model marks `unrolled`. */
const shapeOf = (codec: Tagged, look: Introspection): Shape => {
  const props = codec.props
  if (codec._tag === 'InterfaceType' && props !== undefined) {
    const keys = Object.keys(props)
    const members = keys.map((k) => props[k] as Decoder)
    return {
      kind: 'record',
      keys,
      asIs: members.map(look.asIs),
      keepsUndefined: members.map(look.keepsUndefined),
    }
  }
  const keys = exactKeys(codec, 'InterfaceType')
  if (keys !== undefined) return { kind: 'exact', keys }
  const [first, second, ...rules] = codec.types ?? []
  const required = first === undefined ? undefined : exactKeys(first, 'InterfaceType')
  const optional = second === undefined ? undefined : exactKeys(second, 'PartialType')
  const oneOf = rules.map((rule) => look.oneOfOf(rule as Decoder))
  if (codec._tag === 'IntersectionType' && required !== undefined && optional !== undefined) {
    if (oneOf.every((keys) => keys !== undefined))
      return { kind: 'merged', required, optional, oneOf }
  }
  throw new Error(
    `${codec.name}: marked unrolled, but not a type, an exact type, or an intersection of an exact type, an exact partial and rules "one of these members given"`,
  )
}

/** The members of `shape`, checked to be names a form can read and a walk can decode. */
const membersOfShape = (name: string, shape: Shape): ReadonlyArray<string> => {
  const keys = shape.kind === 'merged' ? [...shape.required, ...shape.optional] : shape.keys
  for (const k of keys)
    if (!IDENTIFIER.test(k) || k in Object.prototype)
      throw new Error(`${name}: its member ${JSON.stringify(k)} is no name a form reads`)
  if (keys.length > 30) throw new Error(`${name}: more than 30 members (one bit each)`)
  return keys
}

// -------------------------------------------------------------------------------------
// code
// -------------------------------------------------------------------------------------

const list = (xs: ReadonlyArray<string>): string => xs.map((x) => JSON.stringify(x)).join(', ')

/** `const [aOf, bOf] = <from> as [FastDecoder, FastDecoder]`. */
const decoders = (keys: ReadonlyArray<string>, from: string): string =>
  keys.length === 0
    ? ''
    : `const [${keys.map((k) => `${k}Of`).join(', ')}] = ${from} as readonly [${keys.map(() => 'FastDecoder').join(', ')}]`

/** An io-ts `type`: members read in order, the input copied at the first that changes. */
const recordForm = (name: string, shape: Extract<Shape, { kind: 'record' }>): string => {
  const { keys } = shape
  const same = keys.filter((_, i) => shape.asIs[i])
  // With no member that changes, the input is the value: no copy to read from.
  const a = same.length < keys.length ? 'a' : 'u'
  const block = (k: string, i: number): string =>
    shape.asIs[i]
      ? `if (failed(${k}Of(${a}[${JSON.stringify(k)}]))) return FAIL`
      : `const ${k}Raw = a[${JSON.stringify(k)}]
    const ${k}Value = ${k}Of(${k}Raw)
    if (${k}Value !== ${k}Raw${shape.keepsUndefined[i] ? ` || (${k}Value === undefined && !Object.hasOwn(a, ${JSON.stringify(k)}))` : ''}) {
      if (failed(${k}Value)) return FAIL
      if (a === u) a = copyOf(u)
      a[${JSON.stringify(k)}] = ${k}Value
    }`
  return `
// ${name}: io-ts's \`type\`, its members read by name in order from the input, or from its
// copy once a member changes${same.length > 0 ? ' (those that never change only checked)' : ''}.
const ${name}: UnrolledForm = (codec, compile${same.length > 0 ? ', structural' : ''}) => {
  ${decoders(keys, `decodersOf(codec, [${list(keys)}], compile)`)}
  ${same.length > 0 ? `if (mayChange([${same.map((k) => `${k}Of`).join(', ')}])) return structural()` : ''}
  return (u) => {
    if (!isRecord(u)) return FAIL
    ${a === 'a' ? 'let a = u' : ''}
    ${keys.map(block).join('\n    ')}
    return ${a}
  }
}
`
}

/** An exact `type` as JSON gives it (its own keys its members, in order); other records walked. */
const exactForm = (name: string, keys: ReadonlyArray<string>): string => `
// ${name}: io-ts's exact \`type\` of a record whose own keys are its members in order (so
// nothing is stripped, io-ts's copy holds them all): the input, or its copy with the
// members that change. Any other record is the walk's.
const ${name}: UnrolledForm = (codec, compile, structural) => {
  const decoders = decodersOf(codec, ${name}_KEYS, compile)
  ${decoders(keys, 'decoders')}
  const walk = structural()
  // Members that never change (as their forms say) need no hidden key checked but once.
  const changes = mayChange(decoders)
  return (u) => {
    if (!isRecord(u) || !(changes ? ownKeysAre(u, ${name}_KEYS) : ownNamesAreKeys(u, ${name}_KEYS)))
      return walk(u)
    let a = u
    ${keys
      .map(
        (k) => `const ${k}Raw = u[${JSON.stringify(k)}]
    const ${k}Value = ${k}Of(${k}Raw)
    if (${k}Value !== ${k}Raw) {
      if (failed(${k}Value)) return FAIL
      if (a === u) {
        if (!changes) return walk(u)
        a = { ...u }
      }
      a[${JSON.stringify(k)}] = ${k}Value
    }`,
      )
      .join('\n')}
    // Nothing changed: io-ts strips a hidden key.
    return a !== u || !changes || ownNamesAreKeys(u, ${name}_KEYS) ? a : walk(u)
  }
}
`

// Names of the merged form's own variables, which a required member's value must not take.
const RESERVED = new Set(['a', 'u', 'v', 'seen', 'failing', 'walk', 'parts', 'layout', 'memo'])

/** An intersection of an exact `type`, an exact `partial` and rules, as JSON gives it. */
const mergedForm = (
  name: string,
  required: ReadonlyArray<string>,
  optional: ReadonlyArray<string>,
  oneOf: ReadonlyArray<ReadonlyArray<string>>,
): string => {
  const value = (k: string): string => (RESERVED.has(k) ? `${k}_` : k)
  const rules = oneOf.map(
    (keys) => `(${keys.map((k) => `u[${JSON.stringify(k)}] !== undefined`).join(' || ')})`,
  )
  return `
// ${name}: io-ts's merge of an exact \`type\` and an exact \`partial\`${oneOf.length > 0 ? ' and its rules' : ''}, for a
// record as JSON gives it (see \`layoutOf\`): its members read by name, the value built in
// io-ts's key order with named stores. One that fails notes for the errors' walk what the
// walk would; any other record is the walk's.
const ${name}: UnrolledForm = (codec, compile, structural) => {
  const walk = structural()
  const parts = mergedOf(codec, [${list(required)}], [${list(optional)}], [${oneOf.map((keys) => `[${list(keys)}]`).join(', ')}], compile, walk)
  if (parts === undefined) return walk
  const { layout, memo } = parts
  ${[decoders(required, 'parts.required'), decoders(optional, 'parts.optional')].filter((d) => d !== '').join('\n')}
  return withWalkMemo((u) => {
    if (!isRecord(u)) return walk(u)
    const seen = layout(u)
    if (seen < 0) return walk(u)
    let failing = 0
    ${required
      .map(
        (k, i) => `const ${value(k)} = ${k}Of(u[${JSON.stringify(k)}])
    if (failed(${value(k)})) failing |= ${2 ** i}`,
      )
      .join('\n')}
    const a: Record<string, unknown> = { ${required.map((k) => (value(k) === k ? k : `${k}: ${value(k)}`)).join(', ')} }
    ${optional.length > 0 ? 'let v: unknown' : ''}
    ${optional
      .map((k, j) => {
        const bit = 2 ** (required.length + j)
        return `if ((seen & ${bit}) !== 0) {
      if (failed((v = givenValue(${k}Of, u[${JSON.stringify(k)}])))) failing |= ${bit}
      else a[${JSON.stringify(k)}] = v
    }`
      })
      .join('\n')}
    if (${['failing === 0', ...rules].join(' && ')}) return a
    return failedWith(memo, u, seen, failing)
  }, memo)
}
`
}

/** One unrolled record found in the model. */
interface Found {
  readonly name: string
  readonly shape: Shape
}

/** The unrolled records of `modules` (the model's modules), by name. */
const unrolledOf = (
  modules: ReadonlyArray<Readonly<Record<string, unknown>>>,
  look: Introspection,
): ReadonlyArray<Found> => {
  const found = new Map<string, Found>()
  const seen = new Set<unknown>()
  for (const module of modules)
    for (const value of Object.values(module)) {
      if (typeof value !== 'object' || value === null || seen.has(value)) continue
      seen.add(value)
      if (!look.isUnrolled(value)) continue
      const codec = value as Tagged
      const name = codec.name ?? ''
      if (!IDENTIFIER.test(name)) throw new Error(`an unrolled record named ${name}`)
      if (found.has(name)) throw new Error(`two unrolled records named ${name}`)
      const shape = shapeOf(codec, look)
      membersOfShape(name, shape)
      found.set(name, { name, shape })
    }
  return [...found.values()].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
}

/** The generated module's text (before formatting). */
export const fastFormsSource = (
  modules: ReadonlyArray<Readonly<Record<string, unknown>>>,
  look: Introspection,
): string => {
  const records = unrolledOf(modules, look)
  const kinds = new Set(records.map((r) => r.shape.kind))
  const keys = records.flatMap(({ name, shape }) =>
    shape.kind === 'exact' ? [`const ${name}_KEYS = [${list(shape.keys)}]\n`] : [],
  )
  const forms = records.map(({ name, shape }) =>
    shape.kind === 'record'
      ? recordForm(name, shape)
      : shape.kind === 'exact'
        ? exactForm(name, shape.keys)
        : mergedForm(name, shape.required, shape.optional, shape.oneOf),
  )
  const has = (kind: Shape['kind']): boolean => kinds.has(kind)
  const fromDecoder = ['FAIL', 'failed', 'type FastDecoder', 'type UnrolledForm']
  if (has('merged')) fromDecoder.push('withWalkMemo')
  const fromUnrolled = ['decodersOf']
  if (has('exact') || has('record')) fromUnrolled.push('mayChange')
  if (has('record')) fromUnrolled.push('copyOf')
  if (has('merged')) fromUnrolled.push('failedWith', 'givenValue', 'mergedOf')
  const fromOwnKeys = ['isRecord']
  if (has('exact')) fromOwnKeys.push('ownKeysAre', 'ownNamesAreKeys')
  return `// Generated by packages/core/scripts/fastForms.ts from the model's records marked
// \`unrolled\`: do not edit. After a change to one, \`pnpm run build\` then
// \`node packages/core/scripts/fastForms.ts --write\`; test/internal/fastForms.test.ts fails
// while this file differs from what the model declares.
/**
 * The fast forms of the model's records marked \`unrolled\`, by the record's name (see
 * \`fastRecords\`): each reads a record's members by name, as a block each, and leaves any
 * record it does not read as io-ts does to the walk (\`structural\`), so the value is io-ts's.
 */
import { ${fromDecoder.join(', ')} } from './fastDecoder.js'
import { ${fromUnrolled.join(', ')} } from './fastUnrolled.js'
import { ${fromOwnKeys.join(', ')} } from './ownKeys.js'

${keys.join('')}
${forms.join('')}
/** The fast forms of the model's records marked \`unrolled\`, by the name of the record. */
export const generatedForms: Readonly<Record<string, UnrolledForm>> = { ${records.map((r) => r.name).join(', ')} }
`
}

/** `source` as prettier writes it with the repository's settings. */
export const formatted = async (source: string): Promise<string> =>
  prettier.format(source, { ...(await prettier.resolveConfig(GENERATED)), filepath: GENERATED })

// -------------------------------------------------------------------------------------
// command line: from the build
// -------------------------------------------------------------------------------------

if (import.meta.main) {
  const dist = resolve(import.meta.dirname, '../dist')
  const load = (path: string): Promise<Readonly<Record<string, unknown>>> =>
    import(pathToFileURL(resolve(dist, path)).href) as Promise<Readonly<Record<string, unknown>>>
  const core = {
    ...(await load('internal/fastDecoder.js')),
    ...(await load('internal/fastDecode.js')),
    ...(await load('internal/fastForm.js')),
  } as unknown as Core
  const files = readdirSync(resolve(dist, 'model')).filter((f) => f.endsWith('.js'))
  const modules = await Promise.all(files.sort().map((f) => load(`model/${f}`)))
  const text = await formatted(fastFormsSource(modules, introspectionOf(core)))
  const same = existsSync(GENERATED) && readFileSync(GENERATED, 'utf8') === text
  if (process.argv.includes('--write')) {
    if (!same) writeFileSync(GENERATED, text)
    console.log(same ? `${GENERATED} is up to date` : `${GENERATED} written`)
  } else {
    console.log(same ? `${GENERATED} is up to date` : `${GENERATED} differs: run with --write`)
    if (!same) process.exitCode = 1
  }
}
