/**
 * The `@example` blocks of the core and testkit as tests (issue 9), with the README
 * snippets' runner (`checkSnippets`):
 *
 * - extraction: every `@example` tag of every doc comment under `packages/core/src` and
 *   `packages/testkit/src`, read with the TypeScript compiler API; its fenced blocks, the
 *   leading ` * ` stripped. ```ts runs with Node, ```ts browser is type-checked with the
 *   DOM lib, ```ts vitest runs with `vitest run`; another fence, or an `@example` without
 *   a fenced block, is refused.
 * - coverage: every value (function, const, codec, class, and each value member of a
 *   namespace export such as `Money`) that a public entry exports needs an `@example` in
 *   the doc comment of (one of) its declarations. Types and interfaces need none.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { ROOT } from '@paykit/tools/lib/root'
import {
  extractSnippets,
  type Snippet,
  type SnippetMode,
} from '@paykit/tools/docs-check/readme-snippets'

/** The public entries: the `exports` of each package.json that have types, as source files. */
export const PUBLIC_ENTRIES: ReadonlyArray<{ readonly entry: string; readonly file: string }> = [
  'core',
  'testkit',
].flatMap((name) => {
  const folder = join('packages', name)
  const pkg = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as {
    readonly exports: Readonly<Record<string, string | { readonly types?: string }>>
  }
  return Object.entries(pkg.exports).flatMap(([subpath, target]) =>
    typeof target === 'string' || target.types === undefined
      ? []
      : [
          {
            entry: `@paykit/${name}${subpath.slice(1)}`,
            file: join(
              folder,
              target.types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'),
            ),
          },
        ],
  )
})

/** The folders whose doc comments are read. */
export const SOURCE_DIRS = ['packages/core/src', 'packages/testkit/src'] as const

/** The modes an `@example` may name after ```ts (none: run with Node). */
export const EXAMPLE_MODES: Readonly<Record<string, SnippetMode>> = {
  '': 'node',
  browser: 'browser',
  vitest: 'vitest',
}

const sourceFiles = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : []
  })

/** A program over the core's and testkit's sources (the TypeDoc project's settings). */
export const sourceProgram = (root: string): ts.Program => {
  const configPath = join(root, 'tools', 'tsconfig.typedoc.json')
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
      },
    },
  )
  if (parsed === undefined) throw new Error(`cannot read ${configPath}`)
  const files = SOURCE_DIRS.flatMap((d) => sourceFiles(join(root, d)))
  return ts.createProgram({ rootNames: files, options: parsed.options })
}

/** The text of a JSDoc tag's comment as written, ` * ` stripped, and its first line. */
const rawTag = (
  sf: ts.SourceFile,
  tag: ts.JSDocTag,
): { readonly text: string; readonly line: number } => {
  const start = tag.tagName.end
  const raw = sf.text.slice(start, tag.end).replace(/\*\/\s*$/, '')
  const lines = raw.split('\n').map((l) => l.replace(/^\s*\*(?: |$)/, '').replace(/\s+$/, ''))
  return { text: lines.join('\n'), line: sf.getLineAndCharacterOfPosition(start).line + 1 }
}

export interface Extracted {
  readonly snippets: ReadonlyArray<Snippet>
  /** `file:line: what is wrong` for each refused `@example`. */
  readonly problems: ReadonlyArray<string>
}

/** The `@example` blocks of one source file (`path` relative to the root, for messages). */
export const extractFromSource = (sf: ts.SourceFile, path: string): Extracted => {
  const snippets: Array<Snippet> = []
  const problems: Array<string> = []
  const seen = new Set<number>()
  const visit = (node: ts.Node): void => {
    for (const tag of ts.getJSDocTags(node)) {
      if (tag.tagName.text !== 'example' || seen.has(tag.pos)) continue
      seen.add(tag.pos)
      const { text, line } = rawTag(sf, tag)
      try {
        const found = extractSnippets(text, path, {
          modes: EXAMPLE_MODES,
          firstLine: line,
          onlyTs: true,
        })
        if (found.length === 0)
          problems.push(`${path}:${line}: an @example without a fenced \`\`\`ts block`)
        snippets.push(...found)
      } catch (e) {
        problems.push(e instanceof Error ? e.message : String(e))
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return { snippets, problems }
}

/** Every `@example` of {@link SOURCE_DIRS}. */
export const extractExamples = (root: string, program = sourceProgram(root)): Extracted => {
  const dirs = SOURCE_DIRS.map((d) => join(root, d) + '/')
  // Binds the files: JSDoc lookups go through parent pointers, set by the binder.
  program.getTypeChecker()
  const all = program
    .getSourceFiles()
    .filter((sf) => dirs.some((d) => sf.fileName.startsWith(d)))
    .map((sf) => extractFromSource(sf, relative(root, sf.fileName)))
  return {
    snippets: all.flatMap((e) => e.snippets),
    problems: all.flatMap((e) => e.problems),
  }
}

export interface PublicValue {
  /** As a user writes it: `Money.add`, `createClient`. */
  readonly name: string
  /** The entries that export it. */
  readonly entries: ReadonlyArray<string>
  /** `file:line` of its first declaration. */
  readonly declaredAt: string
  readonly hasExample: boolean
}

const isTypeOnlyExport = (symbol: ts.Symbol): boolean =>
  (symbol.declarations ?? []).some(
    (d) =>
      ts.isExportSpecifier(d) &&
      (d.isTypeOnly || (ts.isNamedExports(d.parent) && d.parent.parent.isTypeOnly)),
  )

/** Every value the public entries export, each once, with whether it has an `@example`. */
export const publicValues = (
  root: string,
  program = sourceProgram(root),
): ReadonlyArray<PublicValue> => {
  const checker = program.getTypeChecker()
  const byDeclaration = new Map<ts.Symbol, { name: string; entries: Set<string> }>()
  const add = (symbol: ts.Symbol, name: string, entry: string): void => {
    const found = byDeclaration.get(symbol)
    if (found === undefined) byDeclaration.set(symbol, { name, entries: new Set([entry]) })
    else found.entries.add(entry)
  }
  const resolve = (s: ts.Symbol): ts.Symbol =>
    s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s
  for (const { entry, file } of PUBLIC_ENTRIES) {
    const sf = program.getSourceFile(join(root, file))
    const moduleSymbol = sf === undefined ? undefined : checker.getSymbolAtLocation(sf)
    if (moduleSymbol === undefined) throw new Error(`no module symbol for ${file}`)
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      if (isTypeOnlyExport(exported)) continue
      const target = resolve(exported)
      if (target.flags & ts.SymbolFlags.ValueModule && target.valueDeclaration !== undefined) {
        if (ts.isSourceFile(target.valueDeclaration)) {
          // `export * as Money from './Money.js'`: its value members.
          for (const member of checker.getExportsOfModule(target)) {
            if (isTypeOnlyExport(member)) continue
            const m = resolve(member)
            if (m.flags & ts.SymbolFlags.Value) add(m, `${exported.name}.${member.name}`, entry)
          }
          continue
        }
      }
      if (target.flags & ts.SymbolFlags.Value) add(target, exported.name, entry)
    }
  }
  return [...byDeclaration].map(([symbol, { name, entries }]) => {
    const declarations = symbol.declarations ?? []
    const first = declarations[0]
    const at =
      first === undefined
        ? '?'
        : `${relative(root, first.getSourceFile().fileName)}:${
            first.getSourceFile().getLineAndCharacterOfPosition(first.getStart()).line + 1
          }`
    return {
      name,
      entries: [...entries],
      declaredAt: at,
      hasExample: declarations.some((d) =>
        ts.getJSDocTags(d).some((t) => t.tagName.text === 'example'),
      ),
    }
  })
}

/** The public values without an `@example`, one line each: `file:line name (entries)`. */
export const missingExamples = (values: ReadonlyArray<PublicValue>): ReadonlyArray<string> =>
  values
    .filter((v) => !v.hasExample)
    .map((v) => `${v.declaredAt} ${v.name} (${v.entries.join(', ')})`)
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
