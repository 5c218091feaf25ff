/**
 * The n8n editor in Chromium (tools/lib/chromium.ts), as a user reaches it: signed in on
 * n8n's own sign-in page.
 */
import type { Browser, Page } from 'playwright-core'
import { OWNER, type Stack } from '@paykit/tools/n8n/stack'

/**
 * A new page of `browser` at `viewport`, signed in to the stack's editor as the owner (typed
 * into n8n's sign-in page), each action waiting `timeoutMs` at most.
 */
export const signedInPage = async (
  browser: Browser,
  stack: Pick<Stack, 'editorUrl'>,
  viewport: { readonly width: number; readonly height: number },
  timeoutMs = 30_000,
): Promise<Page> => {
  const page = await browser.newPage({ viewport })
  page.setDefaultTimeout(timeoutMs)
  await page.goto(`${stack.editorUrl}signin`)
  await page.locator('input[type="email"]').fill(OWNER.email)
  await page.locator('input[type="password"]').fill(OWNER.password)
  await page.getByRole('button', { name: /sign in/i }).click()
  await page.waitForURL((url) => !url.pathname.includes('signin'))
  return page
}
