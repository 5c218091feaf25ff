// What a browser app pays for each public entry of @paykit/core: small apps that import
// from the BUILT package (`pnpm run build` first), bundled for the browser by esbuild as an
// app's bundler would (no externals, minified, ES module), each measured minified and
// gzipped; plus the classic-script bundle `dist/browser/paykit-threeds.iife.js` as built.
// `test/browser/bundle.test.ts` loads every bundle in Chromium, holds the budget, and checks
// that the table in BENCHMARKS.md (between the bundle-size markers) still says what this
// measures:
//
//   node packages/core/scripts/bundle-size.ts           # print the table
//   node packages/core/scripts/bundle-size.ts --write   # and rewrite it into BENCHMARKS.md
import { build } from 'esbuild'
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'

/** The core's package folder. */
export const PACKAGE_ROOT = resolve(import.meta.dirname, '..')
const ROOT = resolve(PACKAGE_ROOT, '../..')

/** The form validation path (`validate` + one request codec) must stay under this, gzip. */
export const FORM_BUDGET_GZIP_BYTES = 40 * 1024

/**
 * One app: its code (what it imports and runs; it sets `globalThis.paykitCheck` to a
 * JSON-able summary that the browser test compares with `expected`).
 */
export interface Scenario {
  readonly id: string
  readonly title: string
  readonly code: string
  readonly expected: unknown
}

const formCheck = `
const ok = validate(PaymentLinkRequest)({ amount: 10 })
const bad = validate(PaymentLinkRequest)({ lineItems: [{ sku: 'A', quantity: 0 }] })
globalThis.paykitCheck = { ok: ok._tag, bad: bad._tag === 'Left' ? bad.left.map((e) => e.path) : [] }`
const formExpected = { ok: 'Right', bad: ['lineItems[0].quantity'] }

const everythingCheck = (namespace: string): string => `
globalThis.paykitCheck = {
  validate: typeof ${namespace}.validate,
  webhookCodec: ${namespace}.WebhookEventType.is('order.paid'),
  signing: ['signWebhook', 'verifyWebhook'].filter((n) => n in ${namespace}),
  total: ${namespace}.Money.toString(${namespace}.Money.add(${namespace}.Money.fromCents(10))(${namespace}.Money.fromCents(20))),
}`
const everythingExpected = { validate: 'function', webhookCodec: true, signing: [], total: '0.3' }

/** The apps measured, one per public entry a browser reaches, and the app of issue 18. */
export const SCENARIOS: ReadonlyArray<Scenario> = [
  {
    id: 'form',
    title:
      "form validation: `validate` from `'@paykit/core'`, `PaymentLinkRequest` from `'@paykit/core/codecs'`",
    code: `import { validate } from '@paykit/core'\nimport { PaymentLinkRequest } from '@paykit/core/codecs'\n${formCheck}`,
    expected: formExpected,
  },
  {
    id: 'form-pure',
    title: "form validation from `'@paykit/core/pure'`",
    code: `import { validate, PaymentLinkRequest } from '@paykit/core/pure'\n${formCheck}`,
    expected: formExpected,
  },
  {
    id: 'root',
    title: "everything of `'@paykit/core'` (`import * as`)",
    code: `import * as core from '@paykit/core'
globalThis.paykitCheck = { validate: typeof core.validate, createClient: typeof core.createClient }`,
    expected: { validate: 'function', createClient: 'function' },
  },
  ...(
    [
      ['client', 'createClient', 'function'],
      ['codecs', 'validate', 'function'],
      ['money', 'MoneyFromNumber', 'object'],
      ['machines', 'isAuthenticationSuccess', 'function'],
    ] as const
  ).map(([entry, name, type]) => ({
    id: entry,
    title: `everything of \`'@paykit/core/${entry}'\` (\`import * as\`)`,
    code: `import * as core from '@paykit/core/${entry}'\nglobalThis.paykitCheck = { ${name}: typeof core.${name} }`,
    expected: { [name]: type },
  })),
  {
    id: 'pure',
    title: "everything of `'@paykit/core/pure'` (`import * as`)",
    code: `import * as core from '@paykit/core/pure'\n${everythingCheck('core')}`,
    expected: everythingExpected,
  },
  {
    id: 'browser',
    title: "everything of `'@paykit/core/browser'` (`import * as`), the 3DS listener",
    code: `import * as threeDs from '@paykit/core/browser'
globalThis.paykitKeys = Object.keys(threeDs).sort()
globalThis.paykitCheck = {
  open: typeof threeDs.openAuthenticationFrame,
  listen: typeof threeDs.listenForFrameMessage,
  frame: threeDs.FrameMessage.is({}),
}`,
    expected: { open: 'function', listen: 'function', frame: false },
  },
  {
    id: 'app',
    title:
      'an app: `validate` + `createClient` from the root, `PaymentLinkRequest` from `/codecs`, `openAuthenticationFrame` from `/browser`',
    code: `import { validate, createClient } from '@paykit/core'
import { PaymentLinkRequest } from '@paykit/core/codecs'
import { openAuthenticationFrame } from '@paykit/core/browser'
const client = createClient({ baseUrl: 'https://pay.example.test', credentials: { clientId: 'c', clientSecret: 's' } })
const refused = await client.createPaymentLink({ amount: -1 })()
globalThis.paykitCheck = {
  valid: validate(PaymentLinkRequest)({ amount: 10 })._tag,
  refused: refused._tag === 'Left' ? refused.left._tag : refused._tag,
  open: typeof openAuthenticationFrame,
}`,
    expected: { valid: 'Right', refused: 'ValidationError', open: 'function' },
  },
]

/** The classic-script bundle, as built (relative to the package). */
export const IIFE = 'dist/browser/paykit-threeds.iife.js'

export interface Measured {
  readonly id: string
  readonly title: string
  readonly code: string
  readonly minBytes: number
  readonly gzipBytes: number
}

const gzip = (code: Uint8Array | string): number => gzipSync(code, { level: 9 }).length

/**
 * A folder outside the repository whose `node_modules/@paykit/core` is this package, so the
 * apps resolve `@paykit/core` through its `exports` map, as an installed copy does.
 */
export const appFolder = (): { readonly dir: string; readonly remove: () => void } => {
  const dir = join(tmpdir(), `paykit-bundle-size-${process.pid}-${Date.now()}`)
  mkdirSync(join(dir, 'node_modules', '@paykit'), { recursive: true })
  symlinkSync(PACKAGE_ROOT, join(dir, 'node_modules', '@paykit', 'core'), 'dir')
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Bundles one app for the browser: no externals, minified, an ES module. Throws on errors. */
export const bundleApp = async (
  dir: string,
  code: string,
  options: { readonly platform?: 'browser' | 'node' } = {},
): Promise<string> => {
  const result = await build({
    stdin: { contents: code, resolveDir: dir, sourcefile: 'app.js', loader: 'js' },
    bundle: true,
    platform: options.platform ?? 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  })
  return result.outputFiles[0]?.text ?? ''
}

/** Every scenario bundled and measured, then the IIFE as built. */
export const measure = async (): Promise<ReadonlyArray<Measured>> => {
  const app = appFolder()
  try {
    const rows: Array<Measured> = []
    for (const s of SCENARIOS) {
      const code = await bundleApp(app.dir, s.code)
      rows.push({
        id: s.id,
        title: s.title,
        code,
        minBytes: Buffer.byteLength(code),
        gzipBytes: gzip(code),
      })
    }
    const iife = readFileSync(join(PACKAGE_ROOT, IIFE))
    rows.push({
      id: 'iife',
      title: `\`${IIFE}\` as built (script tag, the \`PaykitThreeDS\` global)`,
      code: iife.toString('utf8'),
      minBytes: iife.length,
      gzipBytes: gzip(iife),
    })
    return rows
  } finally {
    app.remove()
  }
}

// -------------------------------------------------------------------------------------
// the table in BENCHMARKS.md
// -------------------------------------------------------------------------------------

export const BEGIN =
  '<!-- bundle-size:begin (written by packages/core/scripts/bundle-size.ts --write) -->'
export const END = '<!-- bundle-size:end -->'
export const BENCHMARKS = join(ROOT, 'BENCHMARKS.md')

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`

/** The generated table (between the markers): one row per bundle, sizes in KB. */
export const renderTable = (rows: ReadonlyArray<Measured>): string =>
  [
    '| bundle | id | minified | gzip | budget (gzip) |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.title} | \`${r.id}\` | ${kb(r.minBytes)} | ${kb(r.gzipBytes)} | ${
          r.id === 'form' || r.id === 'form-pure'
            ? `<= ${kb(FORM_BUDGET_GZIP_BYTES)} (${r.gzipBytes <= FORM_BUDGET_GZIP_BYTES ? 'met' : 'MISSED'})`
            : ''
        } |`,
    ),
  ].join('\n')

/** The sizes the table of BENCHMARKS.md records, by id, in bytes (rounded to 0.1 KB). */
export const recorded = (
  markdown: string,
): ReadonlyMap<string, { readonly minBytes: number; readonly gzipBytes: number }> => {
  const start = markdown.indexOf(BEGIN)
  const end = markdown.indexOf(END)
  const out = new Map<string, { minBytes: number; gzipBytes: number }>()
  if (start < 0 || end < start) return out
  for (const line of markdown.slice(start, end).split('\n')) {
    const m = /\|\s*`([a-z-]+)`\s*\|\s*([\d.]+) KB\s*\|\s*([\d.]+) KB\s*\|/.exec(line)
    if (m !== null)
      out.set(m[1] ?? '', {
        minBytes: Number(m[2]) * 1024,
        gzipBytes: Number(m[3]) * 1024,
      })
  }
  return out
}

/** BENCHMARKS.md with the table between the markers replaced (formatted by prettier). */
export const rewrite = async (rows: ReadonlyArray<Measured>): Promise<void> => {
  const before = readFileSync(BENCHMARKS, 'utf8')
  const start = before.indexOf(BEGIN)
  const end = before.indexOf(END)
  if (start < 0 || end < start) throw new Error(`${BENCHMARKS} has no bundle-size markers`)
  const next = `${before.slice(0, start)}${BEGIN}\n\n${renderTable(rows)}\n\n${before.slice(end)}`
  const prettier = await import('prettier')
  const options = (await prettier.resolveConfig(BENCHMARKS)) ?? {}
  writeFileSync(BENCHMARKS, await prettier.format(next, { ...options, filepath: BENCHMARKS }))
}

if (import.meta.main) {
  const rows = await measure()
  console.log(renderTable(rows))
  if (process.argv.includes('--write')) {
    await rewrite(rows)
    console.log(`\nwrote ${BENCHMARKS}`)
  }
}
