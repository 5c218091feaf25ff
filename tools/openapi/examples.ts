// The document's examples: the simulator's real answers to one fixed run of requests (a
// fixed clock and a fresh state, so the ids and times, and thus the file, never drift).
import { serverProblem } from '@paykit/core/codecs'
import { WebhookEvent } from '@paykit/core/webhook'
import { defaultCredentials, testCards } from '@paykit/testkit'
import {
  completeAuthentication,
  eventsOf,
  frameMessageOf,
  Simulator,
  initialState,
  payOrder,
  type SimRequest,
  type SimulatorState,
} from '@paykit/testkit/simulator'
import * as E from 'fp-ts/lib/Either.js'

/** The base URL of the examples: the sandbox's usual address (`paykit-sandbox --port 4010`). */
export const EXAMPLE_BASE_URL = 'http://127.0.0.1:4010'

/** The clock of the run. */
export const EXAMPLE_TIME = new Date('2026-01-15T12:00:00.000Z')

/** One request of the run and the simulator's answer. */
export interface Exchange {
  readonly request: unknown
  readonly status: number
  readonly response: unknown
}

/** What the run gives, by the name of each example. */
export interface Examples {
  readonly exchanges: Readonly<Record<string, Exchange>>
  readonly frameMessage: unknown
  readonly webhookEvent: unknown
  readonly serverProblem: unknown
}

const CARD = { expirationMonth: '12', expirationYear: '2030', cvv: '123', cardHolder: 'Ana Mora' }
const CUSTOMER = {
  id: 'cus-1001',
  name: 'Ana Mora',
  email: 'ana@example.com',
  phoneNumber: '+50688887777',
}

const must = <A>(e: E.Either<string, A>): A => {
  if (E.isLeft(e)) throw new Error(e.left)
  return e.right
}

/** Runs the requests through the simulator and collects its answers. */
export const runExamples = (): Examples => {
  let state: SimulatorState = initialState({ baseUrl: EXAMPLE_BASE_URL })
  const exchanges: Record<string, Exchange> = {}
  const send = (
    name: string,
    method: string,
    path: string,
    body: unknown,
    authorization?: string,
  ): Exchange => {
    const request: SimRequest = {
      method,
      path,
      headers: {
        'content-type': 'application/json',
        ...(authorization === undefined ? {} : { authorization: `Bearer ${authorization}` }),
      },
      body: body === undefined ? '' : JSON.stringify(body),
    }
    const [next, response] = Simulator.handle(state, request, EXAMPLE_TIME)
    state = next
    const exchange = { request: body, status: response.status, response: JSON.parse(response.body) }
    exchanges[name] = exchange
    return exchange
  }

  const { clientId, clientSecret, apiKey } = defaultCredentials
  const token = send('token', 'POST', '/token', { clientId, clientSecret })
  const accessToken = (token.response as { accessToken: string }).accessToken
  send('tokenRefused', 'POST', '/token', { clientId, clientSecret: 'not-the-secret' })
  send('tokenInvalid', 'POST', '/token', { clientId })

  const card = (name: string, number: string): string => {
    const created = send(
      name,
      'POST',
      '/paymentmethods',
      {
        customer: CUSTOMER,
        card: { ...CARD, number },
      },
      accessToken,
    )
    return (created.response as { id: string }).id
  }
  const cardId = card('paymentMethod', testCards.success.number)
  const usaCardId = card('paymentMethodUsa', testCards.successUsa.number)
  const threeDsCardId = card('paymentMethod3ds', testCards.authentication.number)
  const fraudCardId = card('paymentMethodFraud', testCards.fraudPrevent.number)
  const declinedCardId = card('paymentMethodDeclined', testCards.declined.number)
  send(
    'paymentMethodRefused',
    'POST',
    '/paymentmethods',
    {
      card: { ...CARD, number: '4242424242424241' },
    },
    accessToken,
  )

  const order = (id: string, amount: number) => ({
    id,
    amount,
    description: 'Two logo mugs',
    name: `Order ${id}`,
  })
  send(
    'chargeSucceeded',
    'POST',
    '/charges',
    {
      order: order('ord-1001', 17),
      cardId,
      authenticationId: null,
    },
    accessToken,
  )
  send(
    'chargeWithBillingInfo',
    'POST',
    '/charges',
    {
      order: order('ord-1002', 17),
      cardId: usaCardId,
      authenticationId: null,
      billingInfo: { countryCode: 'USA', stateCode: 'NY', zipCode: '10001' },
    },
    accessToken,
  )
  send(
    'chargeRefused',
    'POST',
    '/charges',
    {
      order: order('ord-1006', 17),
      cardId: usaCardId,
      authenticationId: null,
    },
    accessToken,
  )
  send(
    'chargeFailed',
    'POST',
    '/charges',
    {
      order: order('ord-1003', 17),
      cardId: fraudCardId,
      authenticationId: null,
    },
    accessToken,
  )
  const required = send(
    'chargeAuthenticationRequired',
    'POST',
    '/charges',
    {
      order: order('ord-1004', 17),
      cardId: threeDsCardId,
      authenticationId: null,
    },
    accessToken,
  )
  const authenticationId = (required.response as { authentication: { id: string } }).authentication
    .id
  state = must(completeAuthentication(state, authenticationId, 'success', EXAMPLE_TIME))
  const authentication = state.authentications[authenticationId]
  if (authentication === undefined) throw new Error('the authentication is gone')
  send(
    'chargeAfterAuthentication',
    'POST',
    '/charges',
    {
      order: order('ord-1004', 17),
      cardId: threeDsCardId,
      authenticationId,
    },
    accessToken,
  )
  send('chargeUnauthorized', 'POST', '/charges', {
    order: order('ord-1005', 17),
    cardId,
    authenticationId: null,
  })
  // The other failure codes, and a cardId that names no payment method.
  send(
    'chargeDeclined',
    'POST',
    '/charges',
    { order: order('ord-1007', 17), cardId: declinedCardId, authenticationId: null },
    accessToken,
  )
  send(
    'chargeDuplicateOrder',
    'POST',
    '/charges',
    { order: order('ord-1001', 17), cardId, authenticationId: null },
    accessToken,
  )
  send(
    'chargeAuthenticationFailed',
    'POST',
    '/charges',
    { order: order('ord-1008', 17), cardId: threeDsCardId, authenticationId },
    accessToken,
  )
  send(
    'chargeUnknownCard',
    'POST',
    '/charges',
    { order: order('ord-1009', 17), cardId: 'pm_unknown', authenticationId: null },
    accessToken,
  )

  const link = send(
    'paymentLinkFromAmount',
    'POST',
    '/paymentlink/checkout',
    {
      orderReference: 'INV-2026-0042',
      orderName: 'Invoice 42',
      amount: 49.9,
      successUrl: 'https://shop.example.com/thanks',
      cancelUrl: 'https://shop.example.com/cart',
      metadata: [{ name: 'channel', value: 'email' }],
      expirationMinutes: 60,
    },
    apiKey,
  )
  send(
    'paymentLinkFromLineItems',
    'POST',
    '/paymentlink/checkout',
    {
      orderReference: 'INV-2026-0043',
      lineItems: [
        { sku: 'MUG-LOGO', quantity: 2 },
        { product: { name: 'Gift wrap', price: 2.5, requiresShipping: false }, quantity: 1 },
      ],
    },
    apiKey,
  )
  send(
    'paymentLinkRefused',
    'POST',
    '/paymentlink/checkout',
    {
      amount: 0,
      lineItems: [{ quantity: 1 }],
    },
    apiKey,
  )
  const orderCode = (link.response as { orderCode: string }).orderCode
  send('orderPending', 'GET', `/paymentlink/order/${orderCode}`, undefined, apiKey)
  state = must(
    payOrder(
      state,
      orderCode,
      { buyer: { name: 'Ana Mora', email: 'ana@example.com' } },
      EXAMPLE_TIME,
    ),
  )
  send('orderPaid', 'GET', `/paymentlink/order/${orderCode}`, undefined, apiKey)
  send('orderNotFound', 'GET', '/paymentlink/order/ord-unknown', undefined, apiKey)

  const event = eventsOf(state).find((e) => e.type === 'order.paid')
  if (event === undefined) throw new Error('no order.paid event')
  return {
    exchanges,
    frameMessage: frameMessageOf(authentication),
    webhookEvent: WebhookEvent.encode(event),
    serverProblem: serverProblem(),
  }
}
