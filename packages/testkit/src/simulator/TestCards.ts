/**
 * The sandbox's fixed data (docs/service.md, "Where the service is silent"): the test-card table,
 * the default credentials, the store and the default product catalogue, exported so that tests
 * never copy them.
 *
 * @since 0.2.0
 */
import { cardBrand, type Store } from '@paykit/core/pure'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * What a charge of a card does: succeed, ask for 3DS first, or fail with a code.
 *
 * @category model
 * @since 0.2.0
 */
export type TestCardOutcome =
  'SUCCEEDED' | 'AUTHENTICATION_REQUIRED' | 'FRAUD_PREVENT' | 'CARD_DECLINED'

/**
 * One row of the test-card table.
 *
 * @category model
 * @since 0.2.0
 */
export interface TestCard {
  readonly number: string
  readonly brand: string
  readonly issuerName: string
  /** Issuer country (ISO 3166 alpha-3); USA and CAN require `billingInfo` on a charge. */
  readonly countryCode: string
  readonly outcome: TestCardOutcome
}

/**
 * A product of the catalogue that `sku` line items resolve against.
 *
 * @category model
 * @since 0.2.0
 */
export interface CatalogueProduct {
  readonly sku: string
  readonly name: string
  /** Unit price in the store's currency (a JSON number; exact decimal inside). */
  readonly price: number
  readonly imageUrl: string
  /** The order details' `lineItems[].productId`; numbered from 1 in catalogue order when absent. */
  readonly productId?: number
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * The test cards by name (any future expiry, any 3-4 digit CVV).
 *
 * @example
 * ```ts
 * import { testCardOf, testCards } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * const card = testCards.authentication // 3DS first, then SUCCEEDED
 * assert.equal(card.number, '4000000000003220')
 * assert.equal(card.outcome, 'AUTHENTICATION_REQUIRED')
 * assert.equal(testCards.declined.outcome, 'CARD_DECLINED')
 * assert.equal(testCardOf(card.number), card)
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const testCards = {
  /** VISA, Banco Sandbox, CRI: SUCCEEDED. */
  success: {
    number: '4242424242424242',
    brand: 'VISA',
    issuerName: 'Banco Sandbox',
    countryCode: 'CRI',
    outcome: 'SUCCEEDED',
  },
  /** VISA, Sandbox Bank USA, USA: SUCCEEDED (billingInfo required). */
  successUsa: {
    number: '4111111111111111',
    brand: 'VISA',
    issuerName: 'Sandbox Bank USA',
    countryCode: 'USA',
    outcome: 'SUCCEEDED',
  },
  /** MASTERCARD, Sandbox Bank Canada, CAN: SUCCEEDED (billingInfo required). */
  successCanada: {
    number: '5555555555554444',
    brand: 'MASTERCARD',
    issuerName: 'Sandbox Bank Canada',
    countryCode: 'CAN',
    outcome: 'SUCCEEDED',
  },
  /** VISA, Banco Sandbox, CRI: AUTHENTICATION_REQUIRED, then SUCCEEDED after 3DS SUCCESS. */
  authentication: {
    number: '4000000000003220',
    brand: 'VISA',
    issuerName: 'Banco Sandbox',
    countryCode: 'CRI',
    outcome: 'AUTHENTICATION_REQUIRED',
  },
  /** VISA, Sandbox Bank USA, USA: AUTHENTICATION_REQUIRED (billingInfo required). */
  authenticationUsa: {
    number: '4000008400000027',
    brand: 'VISA',
    issuerName: 'Sandbox Bank USA',
    countryCode: 'USA',
    outcome: 'AUTHENTICATION_REQUIRED',
  },
  /** VISA, Banco Sandbox, CRI: FAILED with code FRAUD_PREVENT. */
  fraudPrevent: {
    number: '4000000000009995',
    brand: 'VISA',
    issuerName: 'Banco Sandbox',
    countryCode: 'CRI',
    outcome: 'FRAUD_PREVENT',
  },
  /** VISA, Banco Sandbox, CRI: FAILED with code CARD_DECLINED. */
  declined: {
    number: '4000000000000002',
    brand: 'VISA',
    issuerName: 'Banco Sandbox',
    countryCode: 'CRI',
    outcome: 'CARD_DECLINED',
  },
} as const satisfies Readonly<Record<string, TestCard>>

/**
 * The test-card table as a list, in the order of docs/service.md#test-cards.
 *
 * @example
 * ```ts
 * import { testCardTable } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * const needBillingInfo = testCardTable.filter((c) => ['USA', 'CAN'].includes(c.countryCode))
 * assert.deepEqual(
 *   needBillingInfo.map((c) => c.number),
 *   ['4111111111111111', '5555555555554444', '4000008400000027'],
 * )
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const testCardTable: ReadonlyArray<TestCard> = Object.values(testCards)

/**
 * The sandbox's default credentials: `POST /token` client id and secret, and the API key
 * the payment-link endpoints accept.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { startSandbox } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * const sandbox = await startSandbox()
 * try {
 *   const { clientId, clientSecret } = defaultCredentials
 *   const res = await fetch(`${sandbox.url}/token`, {
 *     method: 'POST',
 *     headers: { 'content-type': 'application/json' },
 *     body: JSON.stringify({ clientId, clientSecret }),
 *   })
 *   assert.equal(res.status, 200)
 *   const token = (await res.json()) as { accessToken: string; tokenType: string }
 *   assert.equal(token.tokenType, 'Bearer')
 * } finally {
 *   await sandbox.close()
 * }
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const defaultCredentials = {
  clientId: 'sandbox-client',
  clientSecret: 'sandbox-secret',
  apiKey: 'sandbox-api-key',
} as const

/**
 * The store of every order (docs/service.md#the-store-and-the-checkout-page).
 *
 * @example
 * ```ts
 * import { defaultCredentials, defaultStore } from '@paykit/testkit'
 * import { mockPaymentService } from '@paykit/testkit/nock'
 * import assert from 'node:assert/strict'
 *
 * const mock = mockPaymentService({ baseUrl: 'https://paykit.test' })
 * try {
 *   const headers = { authorization: `Bearer ${defaultCredentials.apiKey}` }
 *   const link = await fetch('https://paykit.test/paymentlink/checkout', {
 *     method: 'POST',
 *     headers: { ...headers, 'content-type': 'application/json' },
 *     body: JSON.stringify({ amount: 12.5 }),
 *   }).then((res) => res.json() as Promise<{ orderCode: string }>)
 *   const order = await fetch(`https://paykit.test/paymentlink/order/${link.orderCode}`, {
 *     headers,
 *   }).then((res) => res.json() as Promise<{ store: unknown }>)
 *   assert.deepEqual(order.store, defaultStore)
 *   assert.equal(defaultStore.currencyCode, 'USD')
 * } finally {
 *   mock.restore()
 * }
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const defaultStore: Store = {
  name: 'Paykit Sandbox Store',
  countryCode: 'CRI',
  currencyCode: 'USD',
  currencySymbol: '$',
  locale: 'es_CR',
  timezone: 'America/Costa_Rica',
}

/**
 * The default product catalogue for `sku` line items.
 *
 * @example
 * ```ts
 * import { defaultCredentials, defaultProducts } from '@paykit/testkit'
 * import { mockPaymentService } from '@paykit/testkit/nock'
 * import assert from 'node:assert/strict'
 *
 * const mug = defaultProducts.find((p) => p.sku === 'MUG-LOGO')
 * assert.equal(mug?.price, 8.5)
 * const mock = mockPaymentService({ baseUrl: 'https://paykit.test' })
 * try {
 *   const headers = { authorization: `Bearer ${defaultCredentials.apiKey}` }
 *   const link = await fetch('https://paykit.test/paymentlink/checkout', {
 *     method: 'POST',
 *     headers: { ...headers, 'content-type': 'application/json' },
 *     body: JSON.stringify({ lineItems: [{ sku: 'MUG-LOGO', quantity: 2 }] }),
 *   }).then((res) => res.json() as Promise<{ orderCode: string }>)
 *   const order = await fetch(`https://paykit.test/paymentlink/order/${link.orderCode}`, {
 *     headers,
 *   }).then((res) => res.json() as Promise<{ total: number; lineItems: Array<{ name: string }> }>)
 *   assert.equal(order.total, 17)
 *   assert.equal(order.lineItems[0].name, 'Logo mug')
 * } finally {
 *   mock.restore()
 * }
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const defaultProducts: ReadonlyArray<CatalogueProduct> = [
  {
    productId: 1,
    sku: 'TSHIRT-BLUE-M',
    name: 'Blue T-shirt (M)',
    price: 19.99,
    imageUrl: 'https://images.example.com/tshirt-blue-m.png',
  },
  {
    productId: 2,
    sku: 'MUG-LOGO',
    name: 'Logo mug',
    price: 8.5,
    imageUrl: 'https://images.example.com/mug-logo.png',
  },
  {
    productId: 3,
    sku: 'COFFEE-1KG',
    name: 'Costa Rican coffee, 1 kg',
    price: 24,
    imageUrl: 'https://images.example.com/coffee-1kg.png',
  },
  {
    productId: 4,
    sku: 'STICKER-PACK',
    name: 'Sticker pack',
    price: 0.99,
    imageUrl: 'https://images.example.com/sticker-pack.png',
  },
]

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * The sandbox's view of a card number (digits only, already valid): its row of the
 * table, or for any other number VISA/MASTERCARD/... by its first digit, issuer
 * `Banco Sandbox`, country CRI, outcome SUCCEEDED.
 *
 * @example
 * ```ts
 * import { testCardOf, testCards } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(testCardOf('4000000000009995'), testCards.fraudPrevent)
 * // any other (valid) number: Banco Sandbox, CRI, SUCCEEDED, brand by its first digits
 * assert.deepEqual(testCardOf('378282246310005'), {
 *   number: '378282246310005',
 *   brand: 'AMEX',
 *   issuerName: 'Banco Sandbox',
 *   countryCode: 'CRI',
 *   outcome: 'SUCCEEDED',
 * })
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const testCardOf = (number: string): TestCard =>
  testCardTable.find((card) => card.number === number) ?? {
    number,
    brand: cardBrand(number),
    issuerName: 'Banco Sandbox',
    countryCode: 'CRI',
    outcome: 'SUCCEEDED',
  }
