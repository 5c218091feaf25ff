// The sandbox's hosted checkout (`/pay/<orderCode>`) as a buyer uses it, in headless
// Chromium: what the order table shows, what an error says, and what stays typed in the
// form after an error.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testCards } from '../../src/simulator/TestCards.js'
import { launchChromium, startBuyerSandbox, type BuyerSandbox } from './support.js'
import { cvvCopy, distinctiveCvv } from '../leaks.js'

let browser: Browser | undefined
let sandbox: BuyerSandbox | undefined

beforeAll(async () => {
  sandbox = await startBuyerSandbox()
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await sandbox?.close()
})

const year = String(new Date().getUTCFullYear() + 2)

/** A buyer's page at the checkout of a new payment link. */
const checkout = async (body: Record<string, unknown>): Promise<Page> => {
  if (browser === undefined || sandbox === undefined) throw new Error('setup failed')
  const link = await sandbox.paymentLink(body)
  const page = await browser.newPage()
  const response = await page.goto(link.url)
  expect(response?.status()).toBe(200)
  return page
}

const mugs = { lineItems: [{ sku: 'MUG-LOGO', quantity: 2 }] }

interface Typed {
  readonly number: string
  readonly month: string
  readonly year: string
  readonly cvv: string
  readonly name: string
  readonly email: string
  readonly phone: string
}

const typed = (number: string, overrides: Partial<Typed> = {}): Typed => ({
  number,
  month: '07',
  year,
  cvv: distinctiveCvv,
  name: 'Ada Buyer',
  email: 'ada@example.com',
  phone: '+506 8888 0000',
  ...overrides,
})

/** Types every field as a buyer does, then presses Pay and waits for the next page. */
const pay = async (page: Page, card: Typed): Promise<void> => {
  await page.getByLabel('Card number').fill(card.number)
  await page.getByLabel('Expiry month (MM)').fill(card.month)
  await page.getByLabel('Expiry year (YYYY)').fill(card.year)
  await page.getByLabel('CVV').fill(card.cvv)
  await page.getByLabel('Name on card').fill(card.name)
  await page.getByLabel('E-mail').fill(card.email)
  await page.getByLabel('Phone').fill(card.phone)
  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: /^Pay/ }).click()])
}

const errorsShown = (page: Page): Promise<ReadonlyArray<string>> =>
  page.locator('#errors li').allInnerTexts()

describe('checkout page in Chromium', { timeout: 60_000 }, () => {
  it('after an error the typed fields are kept, except the card number and the CVV', async () => {
    const page = await checkout(mugs)
    const card = typed('4242424242424241')
    await pay(page, card)
    expect(await errorsShown(page)).toHaveLength(1)
    expect(await page.getByLabel('Expiry month (MM)').inputValue()).toBe(card.month)
    expect(await page.getByLabel('Expiry year (YYYY)').inputValue()).toBe(card.year)
    expect(await page.getByLabel('Name on card').inputValue()).toBe(card.name)
    expect(await page.getByLabel('E-mail').inputValue()).toBe(card.email)
    expect(await page.getByLabel('Phone').inputValue()).toBe(card.phone)
    expect(await page.getByLabel('Card number').inputValue()).toBe('')
    expect(await page.getByLabel('CVV').inputValue()).toBe('')
    const html = await page.content()
    expect(html).not.toContain(card.number)
    expect(html).not.toMatch(cvvCopy(card.cvv))
    // The buyer types the number and the CVV again; the kept fields are sent as shown.
    await page.getByLabel('Card number').fill(testCards.success.number)
    await page.getByLabel('CVV').fill('123')
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('button', { name: /^Pay/ }).click(),
    ])
    expect(await page.locator('h1').innerText()).toBe('Payment received')
    await page.close()
  })

  it.each([
    [
      'a number that fails the Luhn check',
      typed('4242424242424241'),
      'The card number is not valid.',
    ],
    ['a number with letters', typed('4242-4242-abcd'), 'The card number is not valid.'],
    ['an expired card', typed(testCards.success.number, { year: '2020' }), 'The card has expired.'],
    [
      'a month that does not exist',
      typed(testCards.success.number, { month: '13' }),
      'The expiry month is not valid: enter two digits from 01 to 12.',
    ],
    [
      'a short CVV',
      typed(testCards.success.number, { cvv: '12' }),
      'The security code (CVV) must be 3 or 4 digits.',
    ],
    [
      'a declined card',
      typed(testCards.declined.number),
      'The card was declined. Try another card.',
    ],
    [
      'a card stopped by fraud prevention',
      typed(testCards.fraudPrevent.number),
      'The card was declined. Try another card.',
    ],
  ])('%s: the buyer reads a sentence, not a codec path', async (_, card, sentence) => {
    const page = await checkout(mugs)
    await pay(page, card)
    const shown = await errorsShown(page)
    expect(shown).toEqual([sentence])
    const text = await page.locator('body').innerText()
    // No codec path (`card.number`), rule name or outcome code anywhere on the page.
    expect(text).not.toMatch(
      /card\.[A-Za-z]|Luhn|CARD_DECLINED|FRAUD_PREVENT|must be two digits|must have 12|must contain only|is required/,
    )
    await page.close()
  })

  it('an order with an amount and no line items shows one row: its name and its total', async () => {
    const page = await checkout({ orderName: 'Consulting, March', amount: 123.4 })
    const rows = page.locator('tbody tr')
    expect(await rows.count()).toBe(1)
    const cells = (await rows.first().locator('td').allInnerTexts()).map((c) => c.trim())
    expect(cells[0]).toBe('Consulting, March')
    expect(cells).toContain('$123.40 USD')
    expect(await page.locator('#total').innerText()).toBe('$123.40 USD')
    await page.close()
  })

  it('the sandbox serves a favicon, so the browser gets no 404 for it', async () => {
    if (browser === undefined || sandbox === undefined) throw new Error('setup failed')
    const page = await browser.newPage()
    const response = await page.goto(`${sandbox.sandbox.url}/favicon.ico`)
    expect(response?.status()).toBe(200)
    expect(response?.headers()['content-type']).toBe('image/svg+xml')
    // Drawn as an image: the browser decodes it.
    const size = await page.evaluate(async (src) => {
      const image = new Image()
      image.src = src
      await image.decode()
      return [image.naturalWidth, image.naturalHeight]
    }, `${sandbox.sandbox.url}/favicon.ico`)
    expect(size[0]).toBeGreaterThan(0)
    expect(size[1]).toBeGreaterThan(0)
    await page.close()
  })
})
