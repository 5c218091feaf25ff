// @paykit-test own-worker: MSW's module (msw 2 here, msw 3 in testkit-msw3)
// @paykit/testkit/msw in a real browser: headless Chromium loads a merchant page (bundled by
// esbuild from msw/page.ts) that starts MSW's service worker (msw's own
// mockServiceWorker.js, served here) with paykitHandlers on the page's origin. The core's
// client and its 3DS frame listener talk to the handlers only: this server answers the
// page, its script, the worker and, for a navigation to a hosted page, MSW_PAGE_SHELL,
// which fetches the page itself through the worker (MSW 2, whose worker lets navigations
// through; MSW 3's worker hands them to the handlers). A 3DS charge is completed in the frame
// served by the handlers, and a payment link is paid on their checkout page (its order.paid
// then delivered to a webhook handler in the page).
import { readFileSync } from 'node:fs'
import type { Server } from 'node:http'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MSW_PAGE_SHELL, testCards } from '../../src/msw/index.js'
import { close, launchChromium, listen } from './support.js'
import type { MswPage } from './msw/page.js'

// esbuild is the core's devDependency (its bundles); resolved from there.
type Build = (options: Record<string, unknown>) => Promise<{
  readonly outputFiles: ReadonlyArray<{ readonly text: string }>
}>
const { build } = createRequire(new URL('../../../core/package.json', import.meta.url))(
  'esbuild',
) as { readonly build: Build }

// The MSW major under test: `msw` (2) in the testkit project, the msw3 devDependency (3) in
// testkit-msw3, for the page's bundle and the worker script alike (each major has its own).
const MSW = process.env['PAYKIT_MSW'] ?? 'msw'
const MAJOR = MSW === 'msw' ? 'MSW 2' : 'MSW 3'
const require = createRequire(import.meta.url)
const WORKER = readFileSync(
  require.resolve(`${MSW}/mockServiceWorker.js`, {
    paths: [fileURLToPath(new URL('../../', import.meta.url))],
  }),
  'utf8',
)

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>shop</title></head><body>
<div id="three-ds" style="width:420px;height:420px"></div><div id="pages"></div>
<script src="/page.js"></script></body></html>`

let browser: Browser
let site: { readonly origin: string; readonly server: Server } | undefined
/** What the site served, by path: the hosted pages must reach it as navigations only. */
const served: Array<string> = []

beforeAll(async () => {
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('./msw/page.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    // esbuild resolves an alias from its working directory: this package's.
    alias: { msw: MSW },
    absWorkingDir: fileURLToPath(new URL('../../', import.meta.url)),
    write: false,
    logLevel: 'silent',
  })
  const script = bundled.outputFiles[0]?.text ?? ''
  expect(script).not.toMatch(/require\(["']node:/)
  site = await listen((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    served.push(`${req.method} ${path}`)
    const [type, body] =
      path === '/'
        ? ['text/html', PAGE]
        : path === '/page.js'
          ? ['text/javascript', script]
          : path === '/mockServiceWorker.js'
            ? ['text/javascript', WORKER]
            : path.startsWith('/paykit/')
              ? ['text/html', MSW_PAGE_SHELL]
              : [undefined, 'not found']
    res.writeHead(type === undefined ? 404 : 200, {
      'content-type': `${type ?? 'text/plain'}; charset=utf-8`,
    })
    res.end(body)
  })
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await close(site?.server)
})

const openShop = async (): Promise<Page> => {
  if (site === undefined) throw new Error('the site did not start')
  const page = await browser.newPage()
  const errors: Array<string> = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(site.origin)
  await page.evaluate(() => window.mswPage.then(() => undefined))
  expect(errors).toEqual([])
  return page
}

describe(`@paykit/testkit/msw in Chromium (setupWorker, ${MAJOR})`, { timeout: 60_000 }, () => {
  it('a 3DS charge: the frame served by the handlers, Complete clicked, charged again once', async () => {
    const page = await openShop()
    const orderId = `order-msw-${Date.now()}`
    await page.evaluate((id) => {
      ;(window as unknown as { flow: Promise<unknown> }).flow = window.mswPage.then((p) =>
        p.chargeWith3ds(id),
      )
    }, orderId)
    const frame = page.frameLocator('#three-ds iframe')
    await frame.getByRole('button', { name: 'Complete' }).click()
    const flow = await page.evaluate(() => (window as unknown as { flow: Promise<unknown> }).flow)
    expect(flow).toMatchObject({ _tag: 'Right', right: { _tag: 'Succeeded' } })
    const log = await page.evaluate(() =>
      window.mswPage.then((p: MswPage) =>
        p.paykit
          .requests()
          .map((r) => `${r.method} ${r.path.replace(/\/3ds\/.*/, '/3ds/{id}')} ${r.status}`),
      ),
    )
    expect(log).toEqual([
      'POST /paykit/token 200',
      'POST /paykit/paymentmethods 200',
      'POST /paykit/charges 200',
      'GET /paykit/3ds/{id} 200',
      'POST /paykit/3ds/{id} 200',
      'POST /paykit/charges 200',
    ])
    // MSW 2's worker lets navigations through: the site saw the one to the frame (answered
    // with the shell), no API call. MSW 3's worker gives navigations to the handlers: the
    // site saw nothing under /paykit/.
    expect(served.filter((s) => s.includes('/paykit/'))).toEqual(
      MSW === 'msw' ? [expect.stringMatching(/^GET \/paykit\/3ds\//)] : [],
    )
    await page.close()
  })

  it("a payment link paid on the handlers' checkout page: the client reads it PAID, order.paid delivered in the page", async () => {
    const page = await openShop()
    const orderCode = await page.evaluate(() => window.mswPage.then((p) => p.openCheckout(12.5)))
    const checkout = page.frameLocator('#checkout')
    await checkout.getByLabel('Card number').fill(testCards.success.number)
    await checkout.getByLabel('Expiry month (MM)').fill('12')
    await checkout.getByLabel('Expiry year (YYYY)').fill(String(new Date().getUTCFullYear() + 2))
    await checkout.getByLabel('CVV').fill('123')
    await checkout.getByLabel('Name on card').fill('Ada Buyer')
    await checkout.getByRole('button', { name: /^Pay/ }).click()
    await expect.poll(() => checkout.locator('h1').innerText()).toBe('Payment received')
    const order = await page.evaluate(
      (code) =>
        window.mswPage.then(async (p) => {
          const read = await p.client.getOrder(code)()
          return {
            status: read._tag === 'Right' ? read.right.orderStatus : read.left.message,
            events: p.paykit.events().map((e) => e.type),
          }
        }),
      orderCode,
    )
    expect(order).toEqual({ status: 'PAID', events: ['order.paid'] })
    // Delivered to a handler in the page, through the same outbox as nock and in memory.
    const delivered = await page.evaluate(() => window.mswPage.then((p) => p.deliverWebhooks()))
    expect(delivered).toEqual(['order.paid application/json'])
    await page.close()
  })
})
