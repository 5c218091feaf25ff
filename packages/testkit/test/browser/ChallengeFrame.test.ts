// The sandbox's 3DS challenge frame as a buyer sees it, in headless Chromium: a merchant
// page on its own origin embeds `authentication.url` in an iframe of each EMV 3DS
// challenge window size (and of the browser's default iframe size); both buttons must be
// in view inside the frame, and clicking where they are shown must post the spec 6.1
// message to the merchant's page.
import type { Server } from 'node:http'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  close,
  launchChromium,
  listen,
  startBuyerSandbox,
  type Authentication,
  type BuyerSandbox,
} from './support.js'

declare global {
  interface Window {
    frameMessages: Array<unknown>
  }
}

interface FrameSize {
  readonly name: string
  /** The iframe's CSS size. */
  readonly style: string
  readonly viewport: { readonly width: number; readonly height: number }
}

const viewport = { width: 1280, height: 800 }

// EMV 3DS challengeWindowSize 01 to 05, and an iframe with no size at all (300x150).
const sizes: ReadonlyArray<FrameSize> = [
  { name: '01: 250x400', style: 'width:250px;height:400px', viewport },
  { name: '02: 390x400', style: 'width:390px;height:400px', viewport },
  { name: '03: 500x600', style: 'width:500px;height:600px', viewport },
  { name: '04: 600x400', style: 'width:600px;height:400px', viewport },
  { name: '05: full page', style: 'width:100vw;height:100vh', viewport },
  {
    name: '05: full page on a phone',
    style: 'width:100vw;height:100vh',
    viewport: { width: 360, height: 640 },
  },
  { name: 'the default iframe (300x150)', style: '', viewport },
]

let browser: Browser | undefined
let acs: BuyerSandbox | undefined
let merchant: { readonly origin: string; readonly server: Server } | undefined

beforeAll(async () => {
  acs = await startBuyerSandbox()
  const sandboxOrigin = acs.sandbox.url
  // The merchant's page: one borderless iframe styled by `?style=`, at `?src=`, and a
  // listener keeping every message the sandbox's origin posts.
  merchant = await listen((req, res) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams
    const attribute = (value: string | null) => JSON.stringify(value ?? '').replace(/</g, '\\u003c')
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(`<!doctype html><html><head><meta charset="utf-8"><title>merchant</title>
<style>html,body{margin:0;padding:0}iframe{display:block;border:0}</style></head><body>
<script>
window.frameMessages = []
window.addEventListener('message', (event) => {
  if (event.origin === ${JSON.stringify(sandboxOrigin)}) window.frameMessages.push(event.data)
})
const frame = document.createElement('iframe')
frame.id = 'acs'
frame.setAttribute('style', ${attribute(query.get('style'))})
frame.src = ${attribute(query.get('src'))}
document.body.appendChild(frame)
</script></body></html>`)
  })
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await Promise.all([acs?.close(), close(merchant?.server)])
})

const openFrame = async (size: FrameSize, auth: Authentication): Promise<Page> => {
  if (browser === undefined || merchant === undefined) throw new Error('setup failed')
  const page = await browser.newPage({ viewport: size.viewport })
  const query = new URLSearchParams({ src: auth.url, style: size.style })
  await page.goto(`${merchant.origin}/?${query.toString()}`)
  await page.frameLocator('#acs').getByRole('button', { name: 'Complete' }).waitFor()
  return page
}

type Box = {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

const boxOf = async (
  locator: { boundingBox: () => Promise<Box | null> },
  what: string,
): Promise<Box> => {
  const box = await locator.boundingBox()
  if (box === null) throw new Error(`${what} is not rendered`)
  return box
}

/**
 * Checks that the button is drawn entirely inside the iframe as it is shown (no
 * scrolling), then clicks where it is drawn, as a buyer does.
 */
const clickInView = async (page: Page, name: 'Complete' | 'Fail'): Promise<void> => {
  const frame = await boxOf(page.locator('#acs'), 'the iframe')
  const button = await boxOf(
    page.frameLocator('#acs').getByRole('button', { name }),
    `the ${name} button`,
  )
  expect(button.width).toBeGreaterThan(0)
  expect(button.height).toBeGreaterThan(0)
  expect(button.x).toBeGreaterThanOrEqual(frame.x)
  expect(button.y).toBeGreaterThanOrEqual(frame.y)
  expect(button.x + button.width).toBeLessThanOrEqual(frame.x + frame.width + 0.5)
  expect(button.y + button.height).toBeLessThanOrEqual(frame.y + frame.height + 0.5)
  await page.mouse.click(button.x + button.width / 2, button.y + button.height / 2)
}

const messages = async (page: Page): Promise<unknown> => {
  await page.waitForFunction(() => window.frameMessages.length > 0, undefined, { timeout: 10_000 })
  return page.evaluate(() => window.frameMessages)
}

describe(
  '3DS challenge frame in Chromium, in each challenge window size',
  { timeout: 60_000 },
  () => {
    it.each(sizes)('$name: Complete is in view and posts authentication.complete', async (size) => {
      if (acs === undefined) throw new Error('the sandbox did not start')
      const auth = await acs.authenticate()
      const page = await openFrame(size, auth)
      // Nothing sticks out sideways: the buyer never scrolls the frame horizontally.
      const frame = page.frames().find((f) => f.url() === auth.url)
      expect(
        await frame?.evaluate(
          () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
        ),
      ).toBe(true)
      await clickInView(page, 'Complete')
      expect(await messages(page)).toEqual([
        {
          MessageType: 'authentication.complete',
          Status: 'SUCCESS',
          AuthenticationId: auth.id,
          OrderId: auth.orderId,
          OrderAmount: 25.5,
        },
      ])
      await page.close()
    })

    it.each(sizes)('$name: Fail is in view and posts authentication.failed', async (size) => {
      if (acs === undefined) throw new Error('the sandbox did not start')
      const auth = await acs.authenticate()
      const page = await openFrame(size, auth)
      await clickInView(page, 'Fail')
      expect(await messages(page)).toEqual([
        {
          MessageType: 'authentication.failed',
          Status: 'FAILED',
          AuthenticationId: auth.id,
          OrderId: auth.orderId,
          OrderAmount: 25.5,
        },
      ])
      await page.close()
    })
  },
)
