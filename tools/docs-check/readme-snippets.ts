/**
 * README and docs snippets as tests. Every ```ts block of the files below is extracted,
 * type-checked under `strict` and run:
 *
 * - ```ts          run with Node (type stripping), as an ES module, from a project that
 *                  installed `@paykit/core` and `@paykit/testkit`; must exit 0;
 * - ```ts vitest   a vitest test file: run with `vitest run`; every test must pass;
 * - ```ts browser  type-checked with the DOM lib, not run (needs a page);
 * - ```ts n8n      not checked: it needs n8n-core and a community node of your own
 *                  (`@paykit/testkit/n8n` is tested in `packages/testkit/test/n8n`).
 *
 * A snippet that needs a service starts its own (`startSandbox`, `mockPaymentService`), so
 * it runs as written when pasted into a user's project.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The READMEs and the `docs/` pages whose ```ts blocks are checked, relative to the repository
 * root. A page with a ```ts block goes here.
 */
export const README_FILES = [
  'README.md',
  'packages/core/README.md',
  'packages/testkit/README.md',
  'docs/core/validation.md',
  'docs/core/codecs.md',
  'docs/core/webhooks.md',
  'docs/core/browser-3ds.md',
  'docs/core/client.md',
  'docs/testkit/sandbox.md',
  'docs/testkit/nock.md',
  'docs/testkit/msw.md',
  'docs/testkit/headless-3ds.md',
  'docs/testkit/faults.md',
  'docs/testkit/request-log.md',
  'docs/testkit/simulator.md',
  'docs/testkit/arbitraries.md',
  'docs/testkit/n8n-harness.md',
  'docs/testkit/model-kit.md',
] as const

/** How a snippet is run: see the module comment. */
export type SnippetMode = 'node' | 'vitest' | 'browser' | 'n8n'

export interface Snippet {
  /** README (or source file of an `@example`) path relative to the repository root. */
  readonly source: string
  /** 1-based line of the opening fence in `source`. */
  readonly line: number
  readonly mode: SnippetMode
  readonly code: string
  /** File name in the generated project. */
  readonly fileName: string
}

const FENCE = /^```(\S*)\s*(.*)$/

/** The modes a README snippet may name after ```ts (none: `node`). */
export const README_MODES: Readonly<Record<string, SnippetMode>> = {
  '': 'node',
  vitest: 'vitest',
  browser: 'browser',
  n8n: 'n8n',
}

export interface ExtractOptions {
  /** The modes allowed after ```ts; default {@link README_MODES}. */
  readonly modes?: Readonly<Record<string, SnippetMode>>
  /** The line of `source` the text starts at (1-based); default 1. */
  readonly firstLine?: number
  /** Refuse a fenced block in another language than ts (default: ignore it). */
  readonly onlyTs?: boolean
}

/**
 * The ```ts blocks of a Markdown text, with their mode; other blocks are ignored (or refused
 * with `onlyTs`). Throws on a mode outside `options.modes`, naming `source:line`.
 */
export const extractSnippets = (
  markdown: string,
  source: string,
  options: ExtractOptions = {},
): ReadonlyArray<Snippet> => {
  const modes = options.modes ?? README_MODES
  const first = options.firstLine ?? 1
  const lines = markdown.split('\n')
  const out: Array<Snippet> = []
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? '')
    if (open === null) continue
    const line = first + i
    let end = i + 1
    while (end < lines.length && !(lines[end] ?? '').startsWith('```')) end++
    const lang = open[1] ?? ''
    const info = (open[2] ?? '').trim()
    if (lang === 'ts' || lang === 'typescript') {
      const mode = Object.hasOwn(modes, info) ? modes[info] : undefined
      if (mode === undefined)
        throw new Error(
          `${source}:${line}: unknown snippet mode "${info}" (${Object.keys(modes)
            .filter((m) => m !== '')
            .join(' | ')})`,
        )
      const slug = source.replace(/README\.md$/, '').replace(/[^A-Za-z0-9]+/g, '-') || 'root-'
      const base = `${slug.replace(/^-|-$/g, '') || 'root'}-L${line}`
      const fileName =
        mode === 'vitest'
          ? `${base}.test.ts`
          : mode === 'browser'
            ? `browser-${base}.ts`
            : `${base}.ts`
      out.push({ source, line, mode, code: lines.slice(i + 1, end).join('\n'), fileName })
    } else if (options.onlyTs === true) {
      throw new Error(`${source}:${line}: a \`\`\`${lang} block: only \`\`\`ts is checked`)
    }
    i = end
  }
  return out
}

/** Every snippet of {@link README_FILES} under `root`. */
export const readmeSnippets = (root: string): ReadonlyArray<Snippet> =>
  README_FILES.flatMap((readme) =>
    extractSnippets(readFileSync(join(root, readme), 'utf8'), readme),
  )

const compilerOptions = {
  target: 'ES2023',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  noEmit: true,
  skipLibCheck: true,
}

/**
 * Writes the snippets into `dir` (created; its old snippets removed) with a
 * `package.json` (`type: module`), `tsconfig.json` (strict, Node types),
 * `tsconfig.browser.json` (strict, DOM lib) and `vitest.config.mjs`.
 */
export const writeSnippetProject = (dir: string, snippets: ReadonlyArray<Snippet>): void => {
  rmSync(join(dir, 'snippets'), { recursive: true, force: true })
  mkdirSync(join(dir, 'snippets'), { recursive: true })
  for (const s of snippets.filter((x) => x.mode !== 'n8n')) {
    // A snippet without import/export is a script: make it a module (top-level await).
    const body = /^\s*(import|export)\s/m.test(s.code) ? s.code : `${s.code}\nexport {}`
    writeFileSync(join(dir, 'snippets', s.fileName), `// ${s.source}:${s.line}\n${body}\n`)
  }
  writeFileSync(
    join(dir, 'snippets', 'package.json'),
    JSON.stringify({ private: true, type: 'module' }, null, 2),
  )
  writeFileSync(
    join(dir, 'snippets', 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: { ...compilerOptions, lib: ['ES2023'], types: ['node'] },
        include: ['*.ts'],
        exclude: ['browser-*.ts'],
      },
      null,
      2,
    ),
  )
  writeFileSync(
    join(dir, 'snippets', 'tsconfig.browser.json'),
    JSON.stringify(
      {
        compilerOptions: { ...compilerOptions, lib: ['ES2023', 'DOM', 'DOM.Iterable'], types: [] },
        include: ['browser-*.ts'],
      },
      null,
      2,
    ),
  )
  writeFileSync(
    join(dir, 'snippets', 'vitest.config.mjs'),
    "export default { test: { include: ['*.test.ts'], testTimeout: 60000 } }\n",
  )
}
