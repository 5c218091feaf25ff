/**
 * `POST /paymentmethods` (spec 4.2, 2.2, 2.3): the card is validated with the core's
 * codec (Luhn, expiry at the simulator time, CVV) and described by the test-card table.
 * Neither the number nor the CVV is kept or echoed.
 *
 * @since 0.2.0
 */
import { cardLast4, paymentMethodRequestAt, validate, type PaymentMethod } from '@paykit/core/pure'
import * as E from 'fp-ts/lib/Either.js'
import { testCardOf } from './TestCards.js'
import { authenticatedJson } from './Gates.js'
import { insert } from './HashTrie.js'
import { badRequest, json } from './Responses.js'
import type { Context, Result } from './Route.js'
import { idOf, nextId, type PaymentMethodRecord } from './State.js'

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * The payment method (spec 2.3) of a record.
 *
 * @category destructors
 * @since 0.2.0
 */
export const paymentMethodOf = (record: PaymentMethodRecord): PaymentMethod => ({
  id: record.id,
  type: 'card',
  bin: { brand: record.brand, issuerName: record.issuerName, countryCode: record.countryCode },
  success: true,
  message: 'Payment method created',
})

// -------------------------------------------------------------------------------------
// endpoints
// -------------------------------------------------------------------------------------

/**
 * `POST /paymentmethods` (access token): 200 with the payment method, or 400 naming the
 * card field that breaks a rule (`card.number`, `card.expirationMonth`, `card.cvv`, ...).
 *
 * @category endpoints
 * @since 0.2.0
 */
export const postPaymentMethod = (context: Context): Result =>
  authenticatedJson(
    context,
    'accessToken',
  )((body) => {
    const { state, atMs } = context
    const decoded = validate(paymentMethodRequestAt(new Date(atMs)))(body)
    if (E.isLeft(decoded)) return [state, badRequest(decoded.left)]
    const card = testCardOf(decoded.right.card.number)
    const [s1, n] = nextId(state, 'paymentMethod')
    const record: PaymentMethodRecord = {
      id: idOf('pm', n),
      brand: card.brand,
      issuerName: card.issuerName,
      countryCode: card.countryCode,
      last4: cardLast4(card.number),
      outcome: card.outcome,
    }
    return [
      { ...s1, paymentMethods: insert(s1.paymentMethods, record.id, record) },
      json(200, paymentMethodOf(record)),
    ]
  })
