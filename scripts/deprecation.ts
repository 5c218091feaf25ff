/**
 * Which exports of a module are deprecated: the `@deprecated` tag of the declaration each
 * export resolves to, read with the TypeScript compiler API (what an editor reads to strike
 * a name through and rank it last among auto-imports). Shared by the packages' tests of
 * their deprecated aliases (issue 18).
 */
import ts from 'typescript'

/** Whether each export of `file` named in `names` is deprecated in its declaration's JSDoc. */
export const deprecation = (
  file: string,
  names: ReadonlyArray<string>,
): Readonly<Record<string, boolean>> => {
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    noEmit: true,
  })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(file)
  const module = source === undefined ? undefined : checker.getSymbolAtLocation(source)
  if (module === undefined) throw new Error(`no module ${file}`)
  const exports = checker.getExportsOfModule(module)
  return Object.fromEntries(
    names.map((name) => {
      const found = exports.find((e) => e.name === name)
      if (found === undefined) return [name, false]
      const target = found.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(found) : found
      const tags = (target.declarations ?? []).flatMap((d) => ts.getJSDocTags(d))
      return [name, tags.some((t) => t.tagName.text === 'deprecated')]
    }),
  )
}
