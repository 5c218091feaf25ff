// Conformance (black box, the built CLI over HTTP): POST /paymentmethods, the test
// cards of docs/service.md#test-cards.
import { beforeAll, describe, expect, it } from 'vitest'
import {
  call,
  cardBody,
  charge,
  createCard,
  expectFieldError,
  luhn,
  token,
  usBilling,
  useCli,
} from './support.js'

const cli = useCli()
let bearer: string
beforeAll(async () => {
  bearer = await token(cli.url)
})

/** The table of docs/service.md#test-cards, copied by hand as an outside author would. */
const table = [
  ['4242424242424242', 'VISA', 'Banco Sandbox', 'CRI', 'SUCCEEDED', null],
  ['4111111111111111', 'VISA', 'Sandbox Bank USA', 'USA', 'SUCCEEDED', null],
  ['5555555555554444', 'MASTERCARD', 'Sandbox Bank Canada', 'CAN', 'SUCCEEDED', null],
  ['4000000000003220', 'VISA', 'Banco Sandbox', 'CRI', 'AUTHENTICATION_REQUIRED', null],
  ['4000008400000027', 'VISA', 'Sandbox Bank USA', 'USA', 'AUTHENTICATION_REQUIRED', null],
  ['4000000000009995', 'VISA', 'Banco Sandbox', 'CRI', 'FAILED', 'FRAUD_PREVENT'],
  ['4000000000000002', 'VISA', 'Banco Sandbox', 'CRI', 'FAILED', 'CARD_DECLINED'],
] as const

let orderSeq = 0
const nextOrder = () => `cards-order-${++orderSeq}`

describe('test-card table', () => {
  it.each(table)(
    '%s: %s, %s, %s -> %s %s',
    async (number, brand, issuer, country, outcome, code) => {
      const res = await createCard(cli.url, bearer, number, '4821')
      expect(res.status).toBe(200)
      expect(res.json).toEqual({
        id: expect.any(String),
        type: 'card',
        bin: { brand, issuerName: issuer, countryCode: country },
        success: true,
        message: expect.any(String),
      })
      expect(res.text).not.toContain(number)
      expect(res.text).not.toContain('4821')
      const needsBilling = country === 'USA' || country === 'CAN'
      const charged = await charge(cli.url, bearer, res.json.id, nextOrder(), {
        ...(needsBilling ? { billingInfo: usBilling } : {}),
      })
      expect(charged.status).toBe(200)
      expect(charged.json.status).toBe(outcome)
      if (code !== null) expect(charged.json.error).toEqual({ code, message: expect.any(String) })
      expect(charged.text).not.toContain(number)
    },
  )

  it.each(table.filter(([, , , country]) => country === 'USA' || country === 'CAN'))(
    '%s (%s, %s, %s) without billingInfo -> 400 naming billingInfo',
    async (number) => {
      const card = await createCard(cli.url, bearer, number)
      const res = await charge(cli.url, bearer, card.json.id, nextOrder())
      expectFieldError(res, 'billingInfo')
      expect(res.text).not.toContain(number)
    },
  )

  it.each(table.filter(([, , , country]) => country === 'CRI'))(
    '%s (CRI) needs no billingInfo, and accepts one',
    async (number) => {
      const card = await createCard(cli.url, bearer, number)
      const without = await charge(cli.url, bearer, card.json.id, nextOrder())
      expect(without.status).toBe(200)
      const withBilling = await charge(cli.url, bearer, card.json.id, nextOrder(), {
        billingInfo: { countryCode: 'CRI', stateCode: 'SJ', zipCode: '10101' },
      })
      expect(withBilling.status).toBe(200)
    },
  )

  it('billingInfo.countryCode accepts alpha-3 as well as alpha-2', async () => {
    const card = await createCard(cli.url, bearer, '4111111111111111')
    const res = await charge(cli.url, bearer, card.json.id, nextOrder(), {
      billingInfo: { countryCode: 'USA', stateCode: 'NY', zipCode: '10001' },
    })
    expect(res.json.status).toBe('SUCCEEDED')
  })
})

describe('any other Luhn-valid number', () => {
  const cases = [
    [luhn('37828224631000'), 'AMEX'],
    [luhn('401288888888188'), 'VISA'],
    [luhn('510510510510510'), 'MASTERCARD'],
    [luhn('601111111111111'), 'DISCOVER'],
    [luhn('700000000000000'), 'UNKNOWN'],
    [luhn('100000000000000'), 'UNKNOWN'],
    [luhn('900000000000123'), 'UNKNOWN'],
    [luhn('22223000000000'), 'UNKNOWN'],
  ] as const
  it.each(cases)('%s -> %s, Banco Sandbox, CRI, charge SUCCEEDED', async (number, brand) => {
    const res = await createCard(cli.url, bearer, number)
    expect(res.status).toBe(200)
    expect(res.json.bin).toEqual({ brand, issuerName: 'Banco Sandbox', countryCode: 'CRI' })
    expect(res.text).not.toContain(number)
    const charged = await charge(cli.url, bearer, res.json.id, nextOrder())
    expect(charged.json.status).toBe('SUCCEEDED')
  })
})

describe('refused cards', () => {
  it.each(['4242424242424241', '4111111111111112', '5555555555554440', '1234567812345678'])(
    'Luhn failure %s -> 400 naming card.number, number not echoed',
    async (number) => {
      const res = await createCard(cli.url, bearer, number)
      expectFieldError(res, 'card.number')
      expect(res.text).not.toContain(number)
    },
  )

  it('an expiry in the past -> 400 naming the expiry, number and CVV not echoed', async () => {
    const body = cardBody('4242424242424242', '9182')
    const res = await call(cli.url, 'POST', '/paymentmethods', {
      bearer,
      body: { ...body, card: { ...body.card, expirationYear: '2001' } },
    })
    expectFieldError(res, /^card\.expiration(Year|Month)$/)
    expect(res.text).not.toContain('4242424242424242')
    expect(res.text).not.toContain('9182')
  })

  it.each(['12', '12345', 'abc'])('CVV %s -> 400 naming card.cvv, not echoed', async (cvv) => {
    const res = await createCard(cli.url, bearer, '4242424242424242', cvv)
    expectFieldError(res, 'card.cvv')
    expect(res.text).not.toContain('4242424242424242')
    expect(res.text).not.toContain(`"${cvv}"`)
  })

  it('a charge of an unknown cardId is refused (4xx), not a success', async () => {
    const res = await charge(cli.url, bearer, 'pm_does_not_exist', nextOrder())
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
  })
})
