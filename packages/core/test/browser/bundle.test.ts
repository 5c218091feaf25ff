// Issue 18, part 2: the core bundles for a browser. Small apps import each public entry of
// the BUILT package (`pnpm run build` first), esbuild bundles them for the browser with no
// externals (scripts/bundle-size.ts, the figures of BENCHMARKS.md), and headless Chromium
// (Debian's, driven by playwright-core) runs each bundle. `@paykit/core/webhook` is the
// server's (node:crypto) and is the only entry a browser bundle cannot take.
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import { runInNewContext } from 'node:vm'
import { build } from 'esbuild'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, launchChromium } from '@paykit/tools/lib/chromium'
import {
  appFolder,
  BENCHMARKS,
  bundleApp,
  FORM_BUDGET_GZIP_BYTES,
  IIFE,
  measure,
  PACKAGE_ROOT,
  recorded,
  SCENARIOS,
  type Measured,
} from '../../scripts/bundle-size.js'

const run = promisify(execFile)
const api = ['FrameMessage', 'decodeFrameEvent', 'listenForFrameMessage', 'openAuthenticationFrame']

let rows: ReadonlyArray<Measured> = []
const row = (id: string): Measured => {
  const r = rows.find((x) => x.id === id)
  if (r === undefined) throw new Error(`no bundle ${id}`)
  return r
}

beforeAll(async () => {
  rows = await measure()
}, 120_000)

describe('each public entry bundled for the browser (esbuild, no externals)', () => {
  it('bundles: the root, /pure, /browser and an app using all three', () => {
    expect(rows.map((r) => r.id)).toEqual([...SCENARIOS.map((s) => s.id), 'iife'])
    for (const r of rows) {
      expect(r.minBytes, r.id).toBeGreaterThan(10_000)
      // No Node built-in reached, not even left as an import for the app to stub.
      expect(r.code, r.id).not.toMatch(/["']node:[a-z]+["']/)
      expect(r.code, r.id).not.toMatch(/createHmac|timingSafeEqual/)
    }
  })

  it('the form validation path (validate + one request codec) is within its budget, gzip', () => {
    expect(row('form').gzipBytes).toBeLessThanOrEqual(FORM_BUDGET_GZIP_BYTES)
    expect(row('form-pure').gzipBytes).toBeLessThanOrEqual(FORM_BUDGET_GZIP_BYTES)
  })

  it('`@paykit/core/webhook` is server-only: node:crypto stops a browser bundle, a Node one builds', async () => {
    const app = appFolder()
    try {
      const code =
        "import { verifyWebhook } from '@paykit/core/webhook'\nglobalThis.v = verifyWebhook"
      await expect(bundleApp(app.dir, code)).rejects.toThrow(/Could not resolve "node:crypto"/)
      expect(await bundleApp(app.dir, code, { platform: 'node' })).toMatch(/node:crypto/)
    } finally {
      app.remove()
    }
  })

  it('`@paykit/core/browser` is plain ES modules sharing the app’s fp-ts, io-ts and decimal.js', async () => {
    const script = `console.log(import.meta.resolve('@paykit/core/browser'))`
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: PACKAGE_ROOT,
    })
    expect(stdout.trim()).toMatch(/\/dist\/browser\/index\.js$/)
    // The app of issue 18 (validate + createClient + the listener): every library once, and
    // no prebundled copy of them (the old paykit-threeds.esm.js) among its inputs.
    const app = appFolder()
    try {
      const scenario = SCENARIOS.find((s) => s.id === 'app')
      const result = await build({
        stdin: { contents: scenario?.code ?? '', resolveDir: app.dir, loader: 'js' },
        bundle: true,
        platform: 'browser',
        format: 'esm',
        target: 'es2022',
        write: false,
        metafile: true,
        logLevel: 'silent',
      })
      const inputs = Object.keys(result.metafile.inputs)
      expect(inputs.filter((i) => /paykit-threeds/.test(i))).toEqual([])
      expect(inputs.filter((i) => /decimal\.js\/decimal\.m?js$/.test(i))).toHaveLength(1)
      expect(inputs.filter((i) => /io-ts\/(es6|lib)\/index\.js$/.test(i))).toHaveLength(1)
      expect(inputs.filter((i) => /dist\/browser\/FrameListener\.js$/.test(i))).toHaveLength(1)
    } finally {
      app.remove()
    }
    // So the app is far smaller than the root plus a self-contained listener would be.
    expect(row('app').minBytes).toBeLessThan(row('root').minBytes + row('browser').minBytes / 2)
  })

  it('the classic-script bundle defines the `PaykitThreeDS` global and nothing else', () => {
    const context: Record<string, unknown> = {}
    runInNewContext(row('iife').code, context)
    expect(Object.keys(context)).toEqual(['PaykitThreeDS'])
    expect(Object.keys(context['PaykitThreeDS'] as object)).toEqual(expect.arrayContaining(api))
  })

  it('BENCHMARKS.md records these sizes (within 5 %: run `node packages/core/scripts/bundle-size.ts --write`)', () => {
    const table = recorded(readFileSync(BENCHMARKS, 'utf8'))
    const off: Array<string> = []
    for (const r of rows) {
      const t = table.get(r.id)
      const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(b * 0.05, 205)
      if (t === undefined || !near(t.minBytes, r.minBytes) || !near(t.gzipBytes, r.gzipBytes))
        off.push(
          `${r.id}: recorded ${JSON.stringify(t)}, measured ${r.minBytes} / ${r.gzipBytes} B`,
        )
    }
    expect(off).toEqual([])
  })
})

// -------------------------------------------------------------------------------------
// in Chromium
// -------------------------------------------------------------------------------------

describe('each bundle runs in Chromium', () => {
  let browser: Browser | undefined
  let server: Server | undefined
  let origin = ''
  let launchError: Error | undefined

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      launchError = new Error(
        `Chromium is missing at ${CHROMIUM}: install it (apt-get install -y --no-install-recommends chromium; tools/run.sh test does it).`,
      )
      return
    }
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname
      const bundle = /^\/([a-z-]+)\.js$/.exec(path)
      const found = bundle === null ? undefined : rows.find((r) => r.id === bundle[1])
      if (found !== undefined) {
        res.writeHead(200, { 'content-type': 'text/javascript' })
        res.end(found.code)
        return
      }
      const page = /^\/(module|script)\/([a-z-]+)$/.exec(path)
      res.writeHead(page === null ? 404 : 200, { 'content-type': 'text/html' })
      res.end(
        page === null
          ? ''
          : `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>` +
              `<script ${page[1] === 'module' ? 'type="module" ' : ''}src="/${page[2]}.js"></script></body></html>`,
      )
    })
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise<void>((resolve) =>
      server === undefined ? resolve() : server.close(() => resolve()),
    )
  })

  const open = async (
    path: string,
    ready: string,
  ): Promise<{ value: unknown; errors: string[] }> => {
    if (launchError !== undefined) throw launchError
    if (browser === undefined) throw new Error('the browser did not start')
    const page = await browser.newPage()
    const errors: Array<string> = []
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('console', (m) => (m.type() === 'error' ? errors.push(m.text()) : undefined))
    try {
      await page.goto(`${origin}${path}`)
      await page.waitForFunction(ready, undefined, { timeout: 10_000 }).catch(() => undefined)
      const value = await page.evaluate(ready)
      return { value, errors }
    } finally {
      await page.close()
    }
  }

  it.each(SCENARIOS.map((s) => [s.id, s] as const))('%s', async (id, scenario) => {
    const { value, errors } = await open(`/module/${id}`, 'globalThis.paykitCheck')
    expect(errors).toEqual([])
    expect(value).toEqual(scenario.expected)
  })

  it(`iife (${IIFE}, a classic script): the global holds what \`/browser\` exports`, async () => {
    const { value, errors } = await open(
      '/script/iife',
      'typeof PaykitThreeDS === "object" && Object.keys(PaykitThreeDS).sort()',
    )
    expect(errors).toEqual([])
    expect(value).toEqual(expect.arrayContaining(api))
    const esm = await open('/module/browser', 'globalThis.paykitKeys')
    expect(esm.errors).toEqual([])
    expect(value).toEqual(esm.value)
  })
})
