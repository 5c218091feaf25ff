import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from '@paykit/tools/lib/root'
import {
  extractExamples,
  extractFromSource,
  missingExamples,
  publicValues,
  sourceProgram,
} from '@paykit/tools/docs-check/examples'
import { checkSnippets, defaultPool, toSourceLocations } from '@paykit/tools/docs-check/snippets'

const parse = (text: string): ts.SourceFile =>
  ts.createSourceFile('x.ts', text, ts.ScriptTarget.ES2023, true)

describe('extractFromSource', () => {
  it('finds each fenced block of an @example with its file:line, the leading * stripped', () => {
    const src = [
      '/**', //                              1
      ' * Adds.', //                         2
      ' *', //                               3
      ' * @example', //                      4
      ' * ```ts', //                         5
      " * import { add } from 'x'", //       6
      ' *', //                               7
      ' *   add(1, 2)', //                   8
      ' * ```', //                           9
      ' * ```ts browser', //                 10
      ' * document.title', //                11
      ' * ```', //                           12
      ' *', //                               13
      ' * @since 0.1.0', //                  14
      ' */', //                              15
      'export const add = (a: number, b: number) => a + b',
    ].join('\n')
    const { snippets, problems } = extractFromSource(parse(src), 'packages/core/src/x.ts')
    expect(problems).toEqual([])
    expect(snippets).toEqual([
      {
        source: 'packages/core/src/x.ts',
        line: 5,
        mode: 'node',
        code: "import { add } from 'x'\n\n  add(1, 2)",
        fileName: 'packages-core-src-x-ts-L5.ts',
      },
      {
        source: 'packages/core/src/x.ts',
        line: 10,
        mode: 'browser',
        code: 'document.title',
        fileName: 'browser-packages-core-src-x-ts-L10.ts',
      },
    ])
  })

  it('refuses an unknown fence mode, another language and an @example without a block', () => {
    const src = [
      '/**\n * @example\n * ```ts nodejs\n * a()\n * ```\n */\nexport const a = 1',
      '/**\n * @example\n * ```js\n * b()\n * ```\n */\nexport const b = 1',
      '/**\n * @example\n * c()\n */\nexport function c() {}',
    ].join('\n')
    const { snippets, problems } = extractFromSource(parse(src), 'x.ts')
    expect(snippets).toEqual([])
    expect(problems).toEqual([
      expect.stringMatching(/^x\.ts:3: unknown snippet mode "nodejs"/),
      expect.stringMatching(/^x\.ts:10: a ```js block/),
      'x.ts:16: an @example without a fenced ```ts block',
    ])
  })
})

// One program over the sources, for both the extraction and the coverage.
const program = sourceProgram(ROOT)

// Against the workspace's built packages (run after `pnpm run build`), in a project outside
// the repository whose node_modules links the workspace root's entries and a few more.
describe('the @example blocks of the core and testkit', () => {
  const project = mkdtempSync(join(tmpdir(), 'paykit-examples-'))
  const modules = join(project, 'node_modules')
  mkdirSync(modules)
  for (const name of readdirSync(join(ROOT, 'node_modules')))
    if (!name.startsWith('.')) symlinkSync(join(ROOT, 'node_modules', name), join(modules, name))
  // What a user of the entries installs beside them: io-ts (core's peer), n8n-workflow,
  // n8n-core and n8n-nodes-base for `@paykit/testkit/n8n`, msw for `@paykit/testkit/msw`.
  symlinkSync(join(ROOT, 'packages', 'core', 'node_modules', 'io-ts'), join(modules, 'io-ts'))
  // (msw is a root devDependency too: linked above already.)
  for (const name of ['n8n-workflow', 'n8n-core', 'msw'])
    if (!existsSync(join(modules, name)))
      symlinkSync(join(ROOT, 'packages', 'testkit', 'node_modules', name), join(modules, name))
  // n8n's built-in nodes, which runWorkflow and baseNodeType load (an optional peer).
  symlinkSync(
    join(ROOT, 'packages', 'n8n-nodes', 'node_modules', 'n8n-nodes-base'),
    join(modules, 'n8n-nodes-base'),
  )
  afterAll(() => rmSync(project, { recursive: true, force: true }), 60_000)
  mkdirSync(join(project, 'failing'))
  symlinkSync(modules, join(project, 'failing', 'node_modules'))

  it("a failure names the example's source file:line and the error", async () => {
    const at = (line: number, code: string) =>
      ({
        source: 'packages/core/src/x.ts',
        line,
        mode: 'node',
        code,
        fileName: `packages-core-src-x-ts-L${line}.ts`,
      }) as const
    const snippets = [
      at(10, "import assert from 'node:assert/strict'\nassert.equal(1 + 1, 3)"),
      at(20, "import { createServer } from 'node:http'\ncreateServer().listen(0, '127.0.0.1')"),
      at(30, "import assert from 'node:assert/strict'\nassert.equal(1 + 1, 2)"),
      at(40, 'const n: number = "1"\nexport {}'),
      at(
        50,
        "import { mockPaymentService } from '@paykit/testkit/nock'\n" +
          "mockPaymentService({ baseUrl: 'https://paykit.test' })",
      ),
    ]
    const report = await checkSnippets(join(project, 'failing'), snippets, { pool: 1 })
    expect(report.failures).toEqual([
      expect.stringMatching(
        /^node packages\/core\/src\/x\.ts:10 failed:\n[^]*Expected values[^]*x\.ts:12:/,
      ),
      expect.stringMatching(
        /^node packages\/core\/src\/x\.ts:20 failed:\nleft open[^]*TCPServerWrap/,
      ),
      expect.stringMatching(
        /^node packages\/core\/src\/x\.ts:50 failed:\nleft nock interceptors \(call restore\(\)\)/,
      ),
      expect.stringMatching(/^tsc [^]*x\.ts:41:\d+: error TS2322/),
    ])
  })

  it('are well formed (a fenced ```ts, ```ts browser or ```ts vitest block)', () => {
    expect(extractExamples(ROOT, program).problems).toEqual([])
  })

  // EXAMPLES_ONLY=packages/core/src/model checks only the examples whose source path
  // contains it (while writing them); the coverage test is not filtered.
  it('type-check under strict (one tsc run) and run', { timeout: 300_000 }, async () => {
    const only = process.env['EXAMPLES_ONLY'] ?? ''
    const snippets = extractExamples(ROOT, program).snippets.filter((s) => s.source.includes(only))
    const report = await checkSnippets(project, snippets, { pool: defaultPool() })
    console.log(
      `${snippets.length} examples:`,
      Object.entries(report.timings)
        .map(([k, v]) => `${k} ${v} ms`)
        .join('; '),
    )
    expect(report.failures).toEqual([])
  })

  it('cover every value a public entry exports (the list is what lacks one)', () => {
    const values = publicValues(ROOT, program)
    expect(values.length).toBeGreaterThan(50)
    expect(missingExamples(values)).toEqual([])
  })
})

describe('toSourceLocations', () => {
  it('names the source file:line of a tsc error and of a stack frame', () => {
    const s = {
      source: 'packages/core/src/model/Money.ts',
      line: 40,
      mode: 'node',
      code: '',
      fileName: 'packages-core-src-model-Money-ts-L40.ts',
    } as const
    const tsc = 'packages-core-src-model-Money-ts-L40.ts(3,7): error TS2322: nope'
    const node = '    at file:///tmp/p/snippets/packages-core-src-model-Money-ts-L40.ts:4:1'
    expect(toSourceLocations(`${tsc}\n${node}`, [s])).toBe(
      'packages/core/src/model/Money.ts:42:7: error TS2322: nope\n' +
        '    at packages/core/src/model/Money.ts:43:1',
    )
  })
})
