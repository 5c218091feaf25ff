/**
 * Headless Chromium for the real-browser tests (Debian's `chromium`, driven by the tools'
 * own playwright-core): one launch, the same flags everywhere. Fails with the reason when
 * Chromium is missing (these tests never skip).
 */
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

export const CHROMIUM = '/usr/bin/chromium'

/** Launches headless Chromium; `purpose` ends the message when it is missing. */
export const launchChromium = async (
  purpose = 'to run the real-browser tests',
): Promise<Browser> => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: install it (apt-get install -y --no-install-recommends chromium; tools/run.sh test does it) ${purpose}.`,
    )
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  })
}
