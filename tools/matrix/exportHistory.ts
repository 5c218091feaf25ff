/**
 * The public names `@paykit/core` has exported, over the repository's history: for each
 * commit that changed `packages/core/src`, the runtime and type exports of each entry
 * (`.`, the concept entries, `./pure`, `./webhook`, `./browser`), read by TypeScript's checker from that
 * commit's sources. Writes `core-exports-history.json` beside this file, which
 * `moved.test.ts` holds docs/core/layout.md's "What moved" table to (CI's checkout has no
 * history, so the list of names is committed). Run after a change to the core's entries:
 * `node tools/matrix/exportHistory.ts`.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { ROOT } from '@paykit/tools/lib/root'

/** The core's entries and their source files under `packages/core/src`. */
export const ENTRIES: Readonly<Record<string, string>> = {
  '@paykit/core': 'index.ts',
  '@paykit/core/client': 'client.ts',
  '@paykit/core/codecs': 'codecs.ts',
  '@paykit/core/money': 'money.ts',
  '@paykit/core/machines': 'machines.ts',
  '@paykit/core/pure': 'pure.ts',
  '@paykit/core/webhook': 'webhook.ts',
  '@paykit/core/browser': 'browser/index.ts',
}

/** The names each entry exports in the sources under `src` (runtime and type names alike). */
export const exportsOf = (src: string): Readonly<Record<string, ReadonlyArray<string>>> => {
  const files = Object.fromEntries(
    Object.entries(ENTRIES)
      .map(([entry, file]) => [entry, join(src, file)] as const)
      .filter(([, file]) => existsSync(file)),
  )
  const program = ts.createProgram(Object.values(files), {
    noLib: true,
    types: [],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowJs: false,
    noEmit: true,
  })
  const checker = program.getTypeChecker()
  const out: Record<string, ReadonlyArray<string>> = {}
  for (const [entry, file] of Object.entries(files)) {
    const source = program.getSourceFile(file)
    const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source)
    out[entry] =
      symbol === undefined
        ? []
        : checker
            .getExportsOfModule(symbol)
            .map((s) => s.name)
            .sort()
  }
  return out
}

const git = (...args: ReadonlyArray<string>): string =>
  execFileSync('git', [...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })

if (import.meta.url === `file://${process.argv[1]}`) {
  const commits = git('log', '--reverse', '--format=%h', '--', 'packages/core/src')
    .trim()
    .split('\n')
  // name -> entry -> [first commit, last commit] it was exported in
  const seen: Record<string, Record<string, [string, string]>> = {}
  for (const commit of commits) {
    const dir = mkdtempSync(join(tmpdir(), 'paykit-exports-'))
    execFileSync('sh', ['-c', `git archive ${commit} packages/core/src | tar -x -C ${dir}`], {
      cwd: ROOT,
    })
    const exported = exportsOf(join(dir, 'packages', 'core', 'src'))
    rmSync(dir, { recursive: true, force: true })
    for (const [entry, names] of Object.entries(exported))
      for (const name of names) {
        const at = ((seen[entry] ??= {})[name] ??= [commit, commit])
        at[1] = commit
      }
    process.stderr.write(`${commit}: ${Object.values(exported).flat().length} names\n`)
  }
  const head = commits.at(-1) ?? ''
  const history = Object.fromEntries(
    Object.entries(seen).map(([entry, names]) => [
      entry,
      Object.fromEntries(
        Object.entries(names)
          .sort(([a], [b]) => a.localeCompare(b, 'en'))
          .map(([name, [first, last]]) => [name, { first, last: last === head ? 'now' : last }]),
      ),
    ]),
  )
  writeFileSync(
    join(dirname(fileURLToPath(import.meta.url)), 'core-exports-history.json'),
    `${JSON.stringify(history, null, 2)}\n`,
  )
}
