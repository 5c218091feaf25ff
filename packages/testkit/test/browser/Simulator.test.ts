// The pure simulator in a real browser: the BUILT simulator (`pnpm run build` first) bundled
// by esbuild for the browser with no externals (no Node built-in may be left: the lint rule
// testkit-simulator-is-pure holds the imports, this holds the result), then run in Chromium:
// a token, a payment link, its order read back, a wrong secret refused.
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchChromium } from './support.js'

// esbuild is the core's devDependency (its bundles); resolved from there.
type Build = (options: Record<string, unknown>) => Promise<{
  readonly outputFiles: ReadonlyArray<{ readonly text: string }>
}>
const { build } = createRequire(new URL('../../../core/package.json', import.meta.url))(
  'esbuild',
) as { readonly build: Build }

const DIST = fileURLToPath(new URL('../../dist/simulator/', import.meta.url))

const ENTRY = `
import { initialState } from './State.js'
import { handle } from './Simulator.js'
const post = (state, path, headers, body) =>
  handle(state, { method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }, new Date())
let state = initialState({ baseUrl: 'https://sandbox.test' })
const [s1, token] = post(state, '/token', {}, { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' })
const [s2, link] = post(s1, '/paymentlink/checkout', { authorization: 'Bearer sandbox-api-key' }, { amount: 12.5, orderReference: 'browser-1' })
const code = JSON.parse(link.body).orderCode
const [, order] = handle(s2, { method: 'GET', path: '/paymentlink/order/' + code, headers: { authorization: 'Bearer sandbox-api-key' }, body: '' }, new Date())
const [, refused] = post(s2, '/token', {}, { clientId: 'sandbox-client', clientSecret: 'wrong' })
globalThis.result = { token: token.status, tokenType: JSON.parse(token.body).tokenType, link: link.status, order: JSON.parse(order.body), refused: refused.status }
`

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
}, 60_000)
afterAll(() => browser?.close())

describe('the simulator in a browser', () => {
  it('bundles for the browser with no externals and answers in Chromium', async () => {
    const bundled = await build({
      stdin: { contents: ENTRY, resolveDir: DIST, loader: 'js' },
      bundle: true,
      platform: 'browser',
      format: 'iife',
      write: false,
      logLevel: 'silent',
    })
    const code = bundled.outputFiles[0]?.text ?? ''
    expect(code).not.toMatch(/require\(["']node:/)
    const page = await browser.newPage()
    await page.addScriptTag({ content: code })
    const result = (await page.evaluate(() => (globalThis as { result?: unknown }).result)) as {
      token: number
      tokenType: string
      link: number
      order: { orderReference: string; orderStatus: string; total: number }
      refused: number
    }
    expect(result).toMatchObject({
      token: 200,
      tokenType: 'Bearer',
      link: 200,
      order: { orderReference: 'browser-1', orderStatus: 'PENDING', total: 12.5 },
      refused: 401,
    })
  }, 60_000)
})
