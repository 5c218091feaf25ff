// The 3DS frame listener of @paykit/core/browser in a real browser: headless Chromium
// (Debian's `chromium`, driven by playwright-core) loads a merchant page on one origin
// that embeds the 3DS frame served on another origin, clicks in the frame, and reads
// what the listener resolved with. A third origin forges frame messages.
import { existsSync, readFileSync } from 'node:fs'
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as ThreeDS from '@paykit/core/browser'
import { CHROMIUM } from '@paykit/tools/lib/chromium'
import {
  launchChromium,
  startBuyerSandbox,
  type Authentication,
  type BuyerSandbox,
} from './support.js'

const BUNDLE_DIR = fileURLToPath(new URL('../../../core/dist/browser/', import.meta.url))
// The classic-script bundle (a page without a bundler). The plain ES modules of
// `@paykit/core/browser` run in Chromium in the core's test/browser/bundle.test.ts.
const IIFE = 'paykit-threeds.iife.js'

declare global {
  interface Window {
    PaykitThreeDS: typeof ThreeDS
    paykitResult: Promise<unknown>
    paykitForged: Promise<void>
  }
}

// -------------------------------------------------------------------------------------
// servers
// -------------------------------------------------------------------------------------

const listen = async (handler: RequestListener): Promise<{ origin: string; server: Server }> => {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

const close = (server: Server | undefined): Promise<void> =>
  new Promise((resolve) => (server === undefined ? resolve() : server.close(() => resolve())))

const html = (body: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>page</title></head><body>${body}</body></html>`

// The merchant: a page that loads the built bundles, and the bundles themselves.
const merchantHandler: RequestListener = (req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname
  if (path === `/${IIFE}`) {
    res.writeHead(200, { 'content-type': 'text/javascript' })
    res.end(readFileSync(BUNDLE_DIR + path.slice(1)))
    return
  }
  res.writeHead(200, { 'content-type': 'text/html' })
  res.end(
    html(
      `<div id="three-ds" style="width:420px;height:420px"></div>` +
        `<script src="/${IIFE}"></script>`,
    ),
  )
}

// A third origin whose page posts a well-formed frame message for the expected id to its
// parent, then a marker so the merchant page knows the forgery was delivered.
const forgerHandler: RequestListener = (req, res) => {
  const query = new URL(req.url ?? '/', 'http://x').searchParams
  const message = {
    MessageType: 'authentication.failed',
    Status: 'FAILED',
    AuthenticationId: query.get('id'),
    OrderId: query.get('orderId'),
    OrderAmount: 1,
  }
  res.writeHead(200, { 'content-type': 'text/html' })
  res.end(
    html(
      `<script>parent.postMessage(${JSON.stringify(message)}, '*');` +
        `parent.postMessage(${JSON.stringify(JSON.stringify(message))}, '*');` +
        `parent.postMessage({ forged: 'done' }, '*')</script>`,
    ),
  )
}

// -------------------------------------------------------------------------------------
// browser (the 3DS side is the sandbox on its own origin: support.ts's startBuyerSandbox)
// -------------------------------------------------------------------------------------

let browser: Browser | undefined
let launchError: Error | undefined
let acs: BuyerSandbox | undefined
let merchant: { origin: string; server: Server } | undefined
let forger: { origin: string; server: Server } | undefined

beforeAll(async () => {
  acs = await startBuyerSandbox()
  merchant = await listen(merchantHandler)
  forger = await listen(forgerHandler)
  if (!existsSync(CHROMIUM)) {
    launchError = new Error(
      `Chromium is missing at ${CHROMIUM}: install it (apt-get install -y --no-install-recommends chromium; tools/run.sh test does it) to run the real-browser 3DS tests.`,
    )
    return
  }
  if (!existsSync(BUNDLE_DIR + IIFE)) {
    launchError = new Error(
      `The browser bundle is missing in ${BUNDLE_DIR}: run \`pnpm run build\` (tsc -b, then the core's bundle script) first.`,
    )
    return
  }
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await Promise.all([acs?.close(), close(merchant?.server), close(forger?.server)])
})

const sandboxAcs = (): BuyerSandbox => {
  if (acs === undefined) throw new Error('the sandbox did not start')
  return acs
}

// A fresh page of the merchant with the bundles loaded (fails the test with the reason
// when Chromium or the bundle is missing: this suite never skips).
const merchantPage = async (): Promise<Page> => {
  if (launchError !== undefined) throw launchError
  if (browser === undefined || merchant === undefined) throw new Error('the browser did not start')
  const page = await browser.newPage()
  const errors: Array<string> = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(merchant.origin)
  await page.waitForFunction(() => typeof window.PaykitThreeDS === 'object')
  expect(errors).toEqual([])
  return page
}

// Opens the frame with the bundle's `openAuthenticationFrame`; the result is kept in the
// page (encoded back to plain JSON) until the test reads it.
const openFrame = async (page: Page, auth: Authentication, timeoutMs: number): Promise<void> => {
  await page.evaluate(
    ({ url, id, timeoutMs }) => {
      const P = window.PaykitThreeDS
      const container = document.getElementById('three-ds')
      if (container === null) throw new Error('no container')
      window.paykitResult = P.openAuthenticationFrame({
        url,
        authenticationId: id,
        container,
        timeoutMs,
      })().then((r) =>
        r._tag === 'Right' ? { _tag: 'Right', right: P.FrameMessage.encode(r.right) } : r,
      )
    },
    { url: auth.url, id: auth.id, timeoutMs },
  )
}

const result = (page: Page): Promise<unknown> => page.evaluate(() => window.paykitResult)

const isPending = (page: Page): Promise<boolean> =>
  page.evaluate(() =>
    Promise.race([
      window.paykitResult.then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 300)),
    ]),
  )

// Posts forged frame messages for `auth` from the merchant page itself and from a frame
// on a third origin, and waits until both were delivered.
const forge = async (page: Page, auth: Authentication): Promise<void> => {
  if (forger === undefined) throw new Error('no forger')
  await page.evaluate(
    ({ forgerUrl, id, orderId }) => {
      const message = {
        MessageType: 'authentication.failed',
        Status: 'FAILED',
        AuthenticationId: id,
        OrderId: orderId,
        OrderAmount: 1,
      }
      window.postMessage(message, '*')
      window.paykitForged = new Promise<void>((resolve) => {
        window.addEventListener('message', (event) => {
          if ((event.data as { forged?: string } | null)?.forged === 'done') resolve()
        })
      })
      const frame = document.createElement('iframe')
      frame.src = forgerUrl
      document.body.appendChild(frame)
    },
    {
      forgerUrl: `${forger.origin}/forge?id=${encodeURIComponent(auth.id)}&orderId=${encodeURIComponent(auth.orderId)}`,
      id: auth.id,
      orderId: auth.orderId,
    },
  )
  await page.evaluate(() => window.paykitForged)
}

const frameButton = (page: Page, name: 'Complete' | 'Fail') =>
  page.frameLocator('#three-ds iframe').getByRole('button', { name })

// -------------------------------------------------------------------------------------
// tests
// -------------------------------------------------------------------------------------

describe('3DS frame listener in Chromium', { timeout: 60_000 }, () => {
  it('Complete in the frame resolves with authentication.complete / SUCCESS, and the frame is removed', async () => {
    const page = await merchantPage()
    const auth = await sandboxAcs().authenticate()
    await openFrame(page, auth, 30_000)
    await frameButton(page, 'Complete').click()
    expect(await result(page)).toEqual({
      _tag: 'Right',
      right: expect.objectContaining({
        MessageType: 'authentication.complete',
        Status: 'SUCCESS',
        AuthenticationId: auth.id,
        OrderId: auth.orderId,
      }) as unknown,
    })
    expect(await page.locator('#three-ds iframe').count()).toBe(0)
    expect(await sandboxAcs().repeatCharge(auth)).toBe('SUCCEEDED')
    await page.close()
  })

  it('Fail in the frame resolves with authentication.failed / FAILED', async () => {
    const page = await merchantPage()
    const auth = await sandboxAcs().authenticate()
    await openFrame(page, auth, 30_000)
    await frameButton(page, 'Fail').click()
    expect(await result(page)).toEqual({
      _tag: 'Right',
      right: expect.objectContaining({
        MessageType: 'authentication.failed',
        Status: 'FAILED',
        AuthenticationId: auth.id,
        OrderId: auth.orderId,
      }) as unknown,
    })
    expect(await sandboxAcs().repeatCharge(auth)).toBe('FAILED')
    await page.close()
  })

  it('ignores messages posted from other origins: still waiting, then the real Complete wins', async () => {
    const page = await merchantPage()
    const auth = await sandboxAcs().authenticate()
    await openFrame(page, auth, 30_000)
    await frameButton(page, 'Complete').waitFor()
    await forge(page, auth)
    expect(await isPending(page)).toBe(true)
    await frameButton(page, 'Complete').click()
    expect(await result(page)).toMatchObject({
      _tag: 'Right',
      right: {
        MessageType: 'authentication.complete',
        Status: 'SUCCESS',
        AuthenticationId: auth.id,
      },
    })
    await page.close()
  })

  it('listenForFrameMessage (origin and id checks alone) ignores forgeries and times out', async () => {
    const page = await merchantPage()
    const auth = await sandboxAcs().authenticate()
    // The page embeds the frame itself and listens with no source filter.
    await page.evaluate(
      ({ url, id }) => {
        const frame = document.createElement('iframe')
        frame.id = 'acs'
        document.getElementById('three-ds')?.appendChild(frame)
        window.paykitResult = window.PaykitThreeDS.listenForFrameMessage({
          url,
          authenticationId: id,
          timeoutMs: 3000,
        })()
        frame.src = url
      },
      { url: auth.url, id: auth.id },
    )
    const acsFrame = page.frameLocator('#acs')
    await acsFrame.getByRole('button', { name: 'Complete' }).waitFor()
    await forge(page, auth)
    // The frame's own origin, but another authentication id.
    const frame = page.frames().find((f) => f.url() === auth.url)
    if (frame === undefined) throw new Error('the 3DS frame is not loaded')
    await frame.evaluate((orderId) => {
      parent.postMessage(
        {
          MessageType: 'authentication.complete',
          Status: 'SUCCESS',
          AuthenticationId: 'another-authentication',
          OrderId: orderId,
          OrderAmount: 1,
        },
        '*',
      )
    }, auth.orderId)
    expect(await result(page)).toEqual({
      _tag: 'Left',
      left: {
        _tag: 'FrameTimeout',
        authenticationId: auth.id,
        timeoutMs: 3000,
        message: expect.any(String) as unknown,
      },
    })
    await page.close()
  })

  it('an abort before the buyer answers gives FrameAborted and removes the frame', async () => {
    const page = await merchantPage()
    const auth = await sandboxAcs().authenticate()
    const outcome = await page.evaluate(
      async ({ url, id }) => {
        const container = document.getElementById('three-ds')
        if (container === null) throw new Error('no container')
        const controller = new AbortController()
        const result = window.PaykitThreeDS.openAuthenticationFrame({
          url,
          authenticationId: id,
          container,
          timeoutMs: 30_000,
          signal: controller.signal,
        })()
        const framesWhileOpen = container.querySelectorAll('iframe').length
        setTimeout(() => controller.abort(), 200)
        const settled = await result
        return {
          framesWhileOpen,
          settled,
          framesAfter: container.querySelectorAll('iframe').length,
        }
      },
      { url: auth.url, id: auth.id },
    )
    expect(outcome).toEqual({
      framesWhileOpen: 1,
      settled: {
        _tag: 'Left',
        left: {
          _tag: 'FrameAborted',
          authenticationId: auth.id,
          message: expect.any(String) as unknown,
        },
      },
      framesAfter: 0,
    })
    await page.close()
  })
})
