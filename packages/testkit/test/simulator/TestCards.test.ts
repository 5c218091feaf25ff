import { cardBrand, luhn } from '@paykit/core/codecs'
import { describe, expect, it } from 'vitest'
import {
  defaultCredentials,
  defaultProducts,
  defaultStore,
  testCardOf,
  testCards,
  testCardTable,
} from '../../src/simulator/TestCards.js'

describe('test cards', () => {
  it('has the seven rows of the table in docs/service.md, each passing the Luhn check', () => {
    expect(testCardTable.map((c) => [c.number, c.brand, c.countryCode, c.outcome])).toEqual([
      ['4242424242424242', 'VISA', 'CRI', 'SUCCEEDED'],
      ['4111111111111111', 'VISA', 'USA', 'SUCCEEDED'],
      ['5555555555554444', 'MASTERCARD', 'CAN', 'SUCCEEDED'],
      ['4000000000003220', 'VISA', 'CRI', 'AUTHENTICATION_REQUIRED'],
      ['4000008400000027', 'VISA', 'USA', 'AUTHENTICATION_REQUIRED'],
      ['4000000000009995', 'VISA', 'CRI', 'FRAUD_PREVENT'],
      ['4000000000000002', 'VISA', 'CRI', 'CARD_DECLINED'],
    ])
    for (const card of testCardTable) {
      expect(luhn(card.number)).toBe(true)
      expect(cardBrand(card.number)).toBe(card.brand)
    }
  })

  it('names the issuers of the table', () => {
    expect(testCards.successUsa.issuerName).toBe('Sandbox Bank USA')
    expect(testCards.successCanada.issuerName).toBe('Sandbox Bank Canada')
    expect(testCards.success.issuerName).toBe('Banco Sandbox')
  })

  it('describes any other valid number as a CRI card of Banco Sandbox that succeeds', () => {
    expect(testCardOf('378282246310005')).toEqual({
      number: '378282246310005',
      brand: 'AMEX',
      issuerName: 'Banco Sandbox',
      countryCode: 'CRI',
      outcome: 'SUCCEEDED',
    })
    expect(testCardOf('6011111111111117').brand).toBe('DISCOVER')
    expect(testCardOf(testCards.declined.number)).toBe(testCards.declined)
  })

  it('exports the default credentials, store and catalogue', () => {
    expect(defaultCredentials).toEqual({
      clientId: 'sandbox-client',
      clientSecret: 'sandbox-secret',
      apiKey: 'sandbox-api-key',
    })
    expect(defaultStore).toEqual({
      name: 'Paykit Sandbox Store',
      countryCode: 'CRI',
      currencyCode: 'USD',
      currencySymbol: '$',
      locale: 'es_CR',
      timezone: 'America/Costa_Rica',
    })
    expect(new Set(defaultProducts.map((p) => p.sku)).size).toBe(defaultProducts.length)
  })
})
