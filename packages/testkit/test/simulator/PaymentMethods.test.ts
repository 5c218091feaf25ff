import { describe, expect, it } from 'vitest'
import { testCards, testCardTable } from '../../src/simulator/TestCards.js'
import { bearer, cardRequest, request, session } from './support.js'

const create = (body: unknown) => {
  const s = session()
  const tok = s.token()
  return s.send(request('POST', '/paymentmethods', body, bearer(tok)))
}

describe('POST /paymentmethods', () => {
  it.each(testCardTable.map((c) => [c.number, c] as const))(
    'describes test card %s by the table, without its number or CVV',
    (number, card) => {
      const r = create(cardRequest(number))
      expect(r.status).toBe(200)
      expect(r.json()).toEqual({
        id: expect.stringMatching(/^pm_/),
        type: 'card',
        bin: { brand: card.brand, issuerName: card.issuerName, countryCode: card.countryCode },
        success: true,
        message: expect.any(String),
      })
      expect(r.body).not.toContain(number)
      expect(r.body).not.toContain('"123"')
    },
  )

  it('describes any other Luhn-valid number by its first digit, Banco Sandbox, CRI', () => {
    const r = create(cardRequest('5105105105105100'))
    expect(r.json().bin).toEqual({
      brand: 'MASTERCARD',
      issuerName: 'Banco Sandbox',
      countryCode: 'CRI',
    })
  })

  it.each([
    ['card.number', { number: '4242424242424241' }],
    ['card.number', { number: 'abcd' }],
    ['card.cvv', { cvv: '12' }],
    ['card.expirationMonth', { expirationMonth: '13' }],
    ['card.expirationYear', { expirationYear: '2025' }],
    ['card.expirationMonth', { expirationYear: '2026', expirationMonth: '10' }],
  ])('answers 400 naming %s', (field, change) => {
    const body = cardRequest()
    const r = create({ ...body, card: { ...body.card, ...change } })
    expect(r.status).toBe(400)
    const problem = r.json()
    expect(problem).toMatchObject({
      status: 400,
      title: expect.any(String),
      type: expect.any(String),
    })
    expect(Object.keys(problem.errors)).toContain(field)
  })

  it('never echoes a refused card number or CVV', () => {
    const body = cardRequest('4242424242424241')
    const r = create({ ...body, card: { ...body.card, cvv: '98765' } })
    expect(r.status).toBe(400)
    expect(r.body).not.toContain('4242424242424241')
    expect(r.body).not.toContain('98765')
  })

  it('answers 400 naming card when there is none', () => {
    const r = create({ customer: {} })
    expect(Object.keys(r.json().errors)).toEqual(['card'])
  })

  it('numbers payment methods apart', () => {
    const s = session()
    const tok = s.token()
    expect(s.paymentMethod(tok)).not.toBe(s.paymentMethod(tok, testCards.declined.number))
  })
})
