/**
 * `POST /charges` (spec 4.3, 2.4, 2.5, 3.1): the request is validated with the core's
 * `chargeRequestFor(paymentMethod)` (billingInfo for USA and CAN cards), then answered
 * by the test card's outcome, the 3DS authentication it carries, and whether the order
 * already succeeded (`DUPLICATE_ORDER`, a sandbox choice).
 *
 * @since 0.2.0
 */
import {
  ChargeRequest,
  ChargeResponse,
  chargeRequestFor,
  fieldError,
  Money,
  validate,
  type ChargeRequest as ChargeRequestType,
} from '@paykit/core/pure'
import * as E from 'fp-ts/lib/Either.js'
import { isoOf } from './Clock.js'
import { authenticatedJson } from './Gates.js'
import { insert } from './HashTrie.js'
import { authorizationCodeOf } from './Orders.js'
import { paymentMethodOf } from './PaymentMethods.js'
import { badRequest, json } from './Responses.js'
import type { Context, Result } from './Route.js'
import {
  AUTHENTICATION_LIFETIME_MS,
  idOf,
  nextId,
  own,
  type AuthenticationRecord,
  type ChargeRecord,
  type PaymentMethodRecord,
  type SimulatorState,
} from './State.js'

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * The 3DS frame address of an authentication.
 *
 * @category destructors
 * @since 0.2.0
 */
export const authenticationUrlOf = (state: SimulatorState, authenticationId: string): string =>
  `${state.config.baseUrl}/3ds/${encodeURIComponent(authenticationId)}`

/**
 * Why an authentication cannot complete this charge, or undefined when it can: it must
 * exist, be bound to the same order id, card and amount, and have succeeded.
 *
 * @category destructors
 * @since 0.2.0
 */
const authenticationProblem = (
  authentication: AuthenticationRecord | undefined,
  request: ChargeRequestType,
): string | undefined => {
  if (authentication === undefined) return 'the authentication is unknown'
  if (authentication.orderId !== request.order.id)
    return 'the authentication was made for another order'
  if (authentication.cardId !== request.cardId)
    return 'the authentication was made for another card'
  if (!Money.Eq.equals(authentication.amount, request.order.amount))
    return 'the authentication was made for another amount'
  if (authentication.status !== 'SUCCESS') return `the authentication is ${authentication.status}`
  return undefined
}

// -------------------------------------------------------------------------------------
// endpoints
// -------------------------------------------------------------------------------------

const record = (
  state: SimulatorState,
  charge: Omit<ChargeRecord, 'id'>,
  n: number,
): SimulatorState => ({
  ...state,
  charges: [...state.charges, { id: idOf('ch', n), ...charge }],
})

const failed = (
  state: SimulatorState,
  request: ChargeRequestType,
  createdAt: string,
  code: string,
  message: string,
): Result => {
  const [s1, n] = nextId(state, 'charge')
  return [
    record(
      s1,
      {
        orderId: request.order.id,
        cardId: request.cardId,
        amount: request.order.amount,
        status: 'FAILED',
        errorCode: code,
        authenticationId: request.authenticationId,
        serviceOrderId: null,
        authorizationCode: null,
        createdAt,
      },
      n,
    ),
    json(
      200,
      ChargeResponse.encode({
        status: 'FAILED',
        message: 'The charge failed',
        error: { code, message },
        authentication: null,
        order: null,
        createdAt,
      }),
    ),
  ]
}

const succeeded = (
  state: SimulatorState,
  request: ChargeRequestType,
  createdAt: string,
): Result => {
  const [s1, n] = nextId(state, 'charge')
  const serviceOrderId = idOf('ord', n)
  const authorizationCode = authorizationCodeOf(n)
  return [
    record(
      s1,
      {
        orderId: request.order.id,
        cardId: request.cardId,
        amount: request.order.amount,
        status: 'SUCCEEDED',
        errorCode: null,
        authenticationId: request.authenticationId,
        serviceOrderId,
        authorizationCode,
        createdAt,
      },
      n,
    ),
    json(
      200,
      ChargeResponse.encode({
        status: 'SUCCEEDED',
        message: 'The charge succeeded',
        error: null,
        authentication: null,
        order: {
          id: serviceOrderId,
          reference: request.order.id,
          amount: request.order.amount,
          currency: state.config.store.currencyCode,
          authorizationCode,
        },
        createdAt,
      }),
    ),
  ]
}

const authenticationRequired = (
  state: SimulatorState,
  request: ChargeRequestType,
  atMs: number,
): Result => {
  const createdAt = isoOf(atMs)
  const [s1, a] = nextId(state, 'authentication')
  const authentication: AuthenticationRecord = {
    id: idOf('auth', a),
    orderId: request.order.id,
    cardId: request.cardId,
    amount: request.order.amount,
    status: 'PENDING',
    createdAtMs: atMs,
    expiresAtMs: atMs + AUTHENTICATION_LIFETIME_MS,
  }
  const [s2, n] = nextId(s1, 'charge')
  const s3 = record(
    {
      ...s2,
      authentications: insert(s2.authentications, authentication.id, authentication),
      deadlines: s2.deadlines.add({
        atMs: authentication.expiresAtMs,
        seq: a,
        kind: 'expireAuthentication',
        key: authentication.id,
      }),
    },
    {
      orderId: request.order.id,
      cardId: request.cardId,
      amount: request.order.amount,
      status: 'AUTHENTICATION_REQUIRED',
      errorCode: null,
      authenticationId: authentication.id,
      serviceOrderId: null,
      authorizationCode: null,
      createdAt,
    },
    n,
  )
  return [
    s3,
    json(
      200,
      ChargeResponse.encode({
        status: 'AUTHENTICATION_REQUIRED',
        message: 'The card requires 3DS authentication',
        error: null,
        authentication: {
          url: authenticationUrlOf(state, authentication.id),
          id: authentication.id,
        },
        order: null,
        createdAt,
      }),
    ),
  ]
}

const charge = (
  state: SimulatorState,
  card: PaymentMethodRecord,
  request: ChargeRequestType,
  atMs: number,
): Result => {
  const createdAt = isoOf(atMs)
  if (state.charges.some((c) => c.status === 'SUCCEEDED' && c.orderId === request.order.id))
    return failed(state, request, createdAt, 'DUPLICATE_ORDER', 'The order was already charged')
  if (request.authenticationId !== null) {
    const why = authenticationProblem(own(state.authentications, request.authenticationId), request)
    return why === undefined
      ? succeeded(state, request, createdAt)
      : failed(state, request, createdAt, 'AUTHENTICATION_FAILED', `3DS failed: ${why}`)
  }
  switch (card.outcome) {
    case 'SUCCEEDED':
      return succeeded(state, request, createdAt)
    case 'AUTHENTICATION_REQUIRED':
      return authenticationRequired(state, request, atMs)
    case 'FRAUD_PREVENT':
      return failed(state, request, createdAt, 'FRAUD_PREVENT', 'The charge is under review')
    case 'CARD_DECLINED':
      return failed(state, request, createdAt, 'CARD_DECLINED', 'The card was declined')
  }
}

/**
 * `POST /charges` (access token): 200 with a charge response (FAILED, SUCCEEDED or
 * AUTHENTICATION_REQUIRED), or 400 naming the field (`billingInfo` for a USA/CAN card,
 * `cardId` for an unknown payment method).
 *
 * @category endpoints
 * @since 0.2.0
 */
export const postCharge = (context: Context): Result =>
  authenticatedJson(
    context,
    'accessToken',
  )((body) => {
    const { state, atMs } = context
    const cardId =
      body !== null && typeof body === 'object'
        ? (body as Record<string, unknown>)['cardId']
        : undefined
    const card = typeof cardId === 'string' ? own(state.paymentMethods, cardId) : undefined
    const decoded = validate(
      card === undefined ? ChargeRequest : chargeRequestFor(paymentMethodOf(card)),
    )(body)
    if (E.isLeft(decoded)) return [state, badRequest(decoded.left)]
    if (card === undefined)
      return [
        state,
        badRequest([fieldError('cardId', { code: 'notFound', resource: 'payment method' })]),
      ]
    return charge(state, card, decoded.right, atMs)
  })
