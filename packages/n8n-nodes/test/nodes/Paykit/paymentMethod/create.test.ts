/**
 * Payment Method → Create in the real n8n engine against the sandbox: the card is read from
 * the input item at the configured field names, never from a parameter, and by default its
 * number and CVV are gone from the input item (so from everything n8n keeps of the run)
 * once the node has read them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { testCards } from '@paykit/testkit'
import { paykitNode, run, singleNodeWorkflow, useSandbox } from '../../../support.js'
import { CVV as CARD_ITEM_CVV, cardItem, cardParameters } from '../charge/support.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

const NUMBER = testCards.success.number
const CVV = '8317'
const YEAR = new Date().getUTCFullYear() + 3

const cardNode = (parameters: Record<string, unknown> = {}) =>
  singleNodeWorkflow(
    paykitNode('Card', { resource: 'paymentMethod', operation: 'create', ...parameters }),
  )

const cardRequests = () => sandbox.requests().filter((r) => r.path === '/paymentmethods')

describe('Payment Method -> Create: the card comes from the input item', () => {
  it('reads card.* by default; the run n8n keeps holds neither the number nor the CVV', async () => {
    const result = await run(sandbox, cardNode(), [
      {
        orderId: 'o-1',
        card: { number: NUMBER, expirationMonth: '12', expirationYear: String(YEAR), cvv: CVV },
      },
    ])
    expect(result.error).toBeUndefined()
    expect(result.nodes['Card']?.[0]?.[0]?.json).toMatchObject({
      id: expect.stringMatching(/^pm_/),
      card: { last4: '4242', expirationMonth: '12', expirationYear: String(YEAR) },
    })
    const kept = JSON.stringify(result.run)
    expect(kept).not.toContain(NUMBER)
    expect(kept).not.toContain(CVV)
    // The trigger's own output (the same item) was cleared too; the rest of it stays.
    expect(result.nodes['Start']?.[0]?.[0]?.json).toEqual({
      orderId: 'o-1',
      card: { expirationMonth: '12', expirationYear: String(YEAR) },
    })
  })

  it('form fields: names with spaces at the top level, month 9, year 31, digits in groups', async () => {
    const result = await run(
      sandbox,
      cardNode({
        cardNumberField: 'Card Number',
        expirationMonthField: 'Month',
        expirationYearField: 'Year',
        cvvField: 'CVV',
      }),
      [{ 'Card Number': '4242 4242 4242 4242', Month: '9', Year: 31, CVV: CVV }],
    )
    expect(result.error).toBeUndefined()
    expect(result.nodes['Card']?.[0]?.[0]?.json).toMatchObject({
      card: { last4: '4242', expirationMonth: '09', expirationYear: '2031' },
    })
    expect(result.nodes['Start']?.[0]?.[0]?.json).toEqual({ Month: '9', Year: 31 })
  })

  it('Keep Card Data in Input leaves the input item as it was', async () => {
    const result = await run(sandbox, cardNode({ options: { keepCardData: true } }), [
      { card: { number: NUMBER, expirationMonth: '12', expirationYear: String(YEAR), cvv: CVV } },
    ])
    expect(result.error).toBeUndefined()
    expect(result.nodes['Start']?.[0]?.[0]?.json).toMatchObject({
      card: { number: NUMBER, cvv: CVV },
    })
  })

  it('a missing field is refused before sending, naming the card field and where it was looked for', async () => {
    const before = cardRequests().length
    const result = await run(sandbox, cardNode({ cvvField: 'body.cvv' }), [
      { card: { number: NUMBER, expirationMonth: '12', expirationYear: String(YEAR) } },
    ])
    expect(result.error?.name).toBe('NodeOperationError')
    expect(result.error?.description).toContain('card.cvv: is required')
    expect(result.error?.description).toContain('"body.cvv"')
    expect(cardRequests().length).toBe(before)
    // Read before the refusal, the number is removed all the same.
    expect(JSON.stringify(result.run)).not.toContain(NUMBER)
  })

  it('an invalid card fails with the core field error; nothing of the card is in the error or the run', async () => {
    const result = await run(sandbox, cardNode(), [
      {
        card: {
          number: '4242424242424241',
          expirationMonth: '13',
          expirationYear: '2020',
          cvv: CVV,
        },
      },
    ])
    expect(result.error?.message).toContain('card.number')
    const everything = JSON.stringify(result)
    expect(everything).not.toContain('4242424242424241')
    expect(everything).not.toContain(CVV)
  })

  it('a field parameter that holds a card number is refused without repeating it', async () => {
    const before = cardRequests().length
    const result = await run(sandbox, cardNode({ cardNumberField: NUMBER }), [
      { card: { number: NUMBER, expirationMonth: '12', expirationYear: String(YEAR), cvv: CVV } },
    ])
    expect(result.error?.description).toContain('must name the input field')
    expect(JSON.stringify(result.error)).not.toContain(NUMBER)
    expect(cardRequests().length).toBe(before)
  })

  it('a card number sent as a JSON number (a form may) is taken as its digits', async () => {
    const result = await run(sandbox, cardNode(), [
      { card: { number: 4242424242424242, expirationMonth: 12, expirationYear: YEAR, cvv: CVV } },
    ])
    expect(result.error).toBeUndefined()
    expect(result.nodes['Card']?.[0]?.[0]?.json).toMatchObject({ card: { last4: '4242' } })
  })
})

describe('Payment Method -> Create: a card as a form or webhook delivers it', () => {
  it('registers a card; the output keeps the last four digits, never the number or the CVV', async () => {
    const input = cardItem(testCards.success.number)
    const result = await run(sandbox, singleNodeWorkflow(paykitNode('Card', cardParameters)), [
      input,
    ])
    const json = result.nodes['Card']?.[0]?.[0]?.json
    expect(json).toMatchObject({
      id: expect.stringMatching(/^pm_/),
      type: 'card',
      bin: { brand: 'VISA', countryCode: 'CRI' },
      card: { last4: '4242' },
    })
    const text = JSON.stringify(result.run)
    expect(text).not.toContain(testCards.success.number)
    expect(text).not.toContain(`"${CARD_ITEM_CVV}"`)
  })

  it('a card that fails the Luhn check is refused before sending, naming card.number, without the number', async () => {
    const before = sandbox.requests().length
    const result = await run(sandbox, singleNodeWorkflow(paykitNode('Card', cardParameters)), [
      cardItem('4242424242424241'),
    ])
    expect(result.error?.name).toBe('NodeOperationError')
    expect(result.error?.message).toContain('card.number')
    expect(JSON.stringify(result.error)).not.toContain('4242424242424241')
    expect(sandbox.requests().length).toBe(before)
  })
})
