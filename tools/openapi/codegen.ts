// Typed clients generated from openapi.yaml as a user gets them (issue 27): openapi-typescript
// with the command docs/core/contract.md shows (for openapi-fetch), and @hey-api/openapi-ts's SDK,
// each beside the files of ./codegen (flows and type probes), then type-checked by tsc under
// `strict`. The codegen test (./codegen.test.ts) runs the flows against the sandbox.
import { createClient as heyApi } from '@hey-api/openapi-ts'
import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, join, relative } from 'node:path'
import { promisify } from 'node:util'
import ts from 'typescript'
import { stringify } from 'yaml'
import { ROOT } from '@paykit/tools/lib/root'

const FIXTURES = join(import.meta.dirname, 'codegen')
const require = createRequire(import.meta.url)

// -------------------------------------------------------------------------------------
// the contract page's lines
// -------------------------------------------------------------------------------------

/** The lines of the contract page (docs/core/contract.md) that give a user a typed client. */
export interface ReadmeLines {
  /** The `npx openapi-typescript ...` command, split into words. */
  readonly generate: ReadonlyArray<string>
  /** The TypeScript lines that make the client. */
  readonly client: string
}

/** The shell and TypeScript blocks of the contract page, `docs/core/contract.md`. */
export const readmeLines = (): ReadmeLines => {
  const page = readFileSync(join(ROOT, 'docs/core/contract.md'), 'utf8')
  const section = page.split(/^#+ The contract for other tools/m)[1]?.split(/^##? /m)[0] ?? ''
  const block = (lang: string): string => {
    const found = new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, 'm').exec(section)
    if (found?.[1] === undefined) throw new Error(`no \`\`\`${lang} block in the contract section`)
    return found[1]
  }
  const generate = block('sh')
    .split('\n')
    .find((line) => line.startsWith('npx openapi-typescript'))
  if (generate === undefined)
    throw new Error('no npx openapi-typescript line in docs/core/contract.md')
  return { generate: generate.split(/\s+/), client: block('mts') }
}

// -------------------------------------------------------------------------------------
// generation
// -------------------------------------------------------------------------------------

/**
 * Writes into `dir`, from `document` (openapi.yaml's content): `paykit.ts` by the contract page's
 * openapi-typescript command (its input and output put in `dir`), `hey-api/` by
 * @hey-api/openapi-ts (imports with `.js`, as tsc's NodeNext wants), `readme.ts` (the
 * contract page's client lines) and the files of ./codegen.
 */
export const writeClients = async (dir: string, document: object): Promise<void> => {
  mkdirSync(dir, { recursive: true })
  const input = join(dir, 'openapi.yaml')
  writeFileSync(input, stringify(document, { lineWidth: 0, aliasDuplicateObjects: false }))
  const { generate, client } = readmeLines()
  const [npx, pkg, ...args] = generate
  if (npx !== 'npx' || !/^openapi-typescript(@\d+)?$/.test(pkg ?? ''))
    throw new Error(`not an openapi-typescript command: ${generate.join(' ')}`)
  const bin = join(require.resolve('openapi-typescript/package.json'), '../bin/cli.js')
  const output = args.findIndex((a) => a === '--output' || a === '-o')
  if (output < 0 || args[output + 1] !== 'src/paykit.ts')
    throw new Error(`the contract page's command writes ${args[output + 1]}, not src/paykit.ts`)
  const argv = args.map((a, i) =>
    a === 'openapi.yaml' ? input : i === output + 1 ? join(dir, 'paykit.ts') : a,
  )
  // In `dir`, as in a user's project (not beside the repository's redocly.yaml).
  await promisify(execFile)(process.execPath, [bin, ...argv], { cwd: dir })
  await heyApi({
    input,
    output: { path: join(dir, 'hey-api'), importFileExtension: '.js' },
    logs: { level: 'silent' },
  })
  writeFileSync(join(dir, 'readme.ts'), `${client}\nexport { paykit }\n`)
  for (const file of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, file), join(dir, file))
}

// -------------------------------------------------------------------------------------
// type check
// -------------------------------------------------------------------------------------

/** One error tsc reports: the file (relative to the checked folder), line and code. */
export interface TypeError {
  readonly file: string
  readonly line: number
  readonly code: number
  readonly message: string
}

/** tsc's options for the generated code: `strict`, Node's ESM resolution, fetch's types. */
export const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
  skipLibCheck: true,
}

/** Every .ts file under `dir`. */
export const tsFilesIn = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f))

/** The errors tsc finds in `files` (and what they import), under {@link COMPILER_OPTIONS}. */
export const typeErrors = (dir: string, files: ReadonlyArray<string>): ReadonlyArray<TypeError> =>
  ts
    .getPreEmitDiagnostics(ts.createProgram({ rootNames: files, options: COMPILER_OPTIONS }))
    .map((d) => {
      const at =
        d.file === undefined || d.start === undefined
          ? undefined
          : d.file.getLineAndCharacterOfPosition(d.start)
      return {
        file: d.file === undefined ? '' : relative(dir, d.file.fileName),
        line: at === undefined ? 0 : at.line + 1,
        code: d.code,
        message: ts.flattenDiagnosticMessageText(d.messageText, ' '),
      }
    })

/** A `// @ts-expect-error <says>` of a probe file, at its 1-based line. */
export interface Probe {
  readonly line: number
  readonly says: string
}

const EXPECT_ERROR = '// @ts-expect-error '

/** The `// @ts-expect-error` directives of `file` (each before a probe). */
export const probesOf = (file: string): ReadonlyArray<Probe> =>
  readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((text, i) => {
      const at = text.indexOf(EXPECT_ERROR)
      return at < 0 ? [] : [{ line: i + 1, says: text.slice(at + EXPECT_ERROR.length).trim() }]
    })

/** The fixture file names of ./codegen with `suffix` (`.probes.ts`, `.flows.ts`). */
export const fixtures = (suffix: string): ReadonlyArray<string> =>
  readdirSync(FIXTURES)
    .filter((f) => f.endsWith(suffix))
    .map((f) => basename(f))
