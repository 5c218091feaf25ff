// Sample shapes of the service's resources (docs/service.md#2-resources), written from that
// page alone (black-box conformance suite: everything here imports only from the built
// package root).
import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import { expect } from 'vitest'
import { validate, type FieldError } from '@paykit/core'
import { sandboxStore } from '../fixtures.js'

/** The codecs of spec sections 2, 6.1 and 7.2 under test, re-exported for the suites. */
export {
  AccessToken,
  ChargeRequest,
  ChargeResponse,
  OrderDetails,
  PaymentLinkRequest,
  PaymentLinkResponse,
  PaymentMethod,
  PaymentMethodRequest,
  ServerProblem,
  TokenRequest,
  ValidationProblem,
  chargeRequestFor,
} from '@paykit/core/codecs'
export { FrameMessage } from '@paykit/core/machines'

/** The decoded value, failing the test with the field errors when it does not decode. */
export const decodeRight = <A, O>(codec: t.Type<A, O, unknown>, input: unknown): A => {
  const r = validate(codec)(input)
  if (E.isLeft(r)) expect.fail(`expected Right, got ${JSON.stringify(r.left)}`)
  return r.right
}

/** The field errors, failing the test when the input decodes. */
export const decodeLeft = <A, O>(
  codec: t.Type<A, O, unknown>,
  input: unknown,
): ReadonlyArray<FieldError> => {
  const r = validate(codec)(input)
  if (E.isRight(r)) expect.fail(`expected Left for ${safeJson(input)}`)
  return r.left
}

/** The distinct paths of a Left, sorted. */
export const pathsOf = <A, O>(codec: t.Type<A, O, unknown>, input: unknown): string[] =>
  [...new Set(decodeLeft(codec, input).map((e) => e.path))].sort()

const safeJson = (u: unknown): string => {
  try {
    return JSON.stringify(u)?.slice(0, 200) ?? String(u)
  } catch {
    return '<unprintable>'
  }
}

const now = new Date()
/** A four-digit year safely in the future. */
export const futureYear = String(now.getUTCFullYear() + 4)

export const tokenRequest = { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }

export const accessToken = {
  accessToken: 'eyJhbGciOi.abc.def',
  tokenType: 'Bearer',
  expiresIn: 3600,
}

export const paymentMethodRequest = {
  customer: {
    id: 'cus-001',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    phoneNumber: '+50688887777',
  },
  card: {
    number: '4242424242424242',
    expirationMonth: '12',
    expirationYear: futureYear,
    cvv: '123',
    cardHolder: 'Ada Lovelace',
    singleUse: false,
  },
}

export const paymentMethod = (countryCode = 'CRI') => ({
  id: 'pm_123',
  type: 'card',
  bin: { brand: 'VISA', issuerName: 'Banco Sandbox', countryCode },
  success: true,
  message: 'Payment method created',
})

export const chargeRequest = {
  order: { id: 'order-1001', amount: 25.5, description: 'Two mugs', name: 'Mugs' },
  cardId: 'pm_123',
  authenticationId: null,
}

export const billingInfo = { countryCode: 'US', stateCode: 'CA', zipCode: '94103' }

export const createdAt = '2024-05-01T12:34:56.789Z'

export const chargeFailed = {
  status: 'FAILED',
  message: 'Charge under review',
  error: { code: 'FRAUD_PREVENT', message: 'Charge under review' },
  authentication: null,
  order: null,
  createdAt,
}

export const chargeSucceeded = {
  status: 'SUCCEEDED',
  message: 'Charge succeeded',
  error: null,
  authentication: null,
  order: {
    id: 'svc-9001',
    reference: 'order-1001',
    amount: 25.5,
    currency: 'USD',
    authorizationCode: 'A1B2C3',
  },
  createdAt,
}

export const chargeAuthRequired = {
  status: 'AUTHENTICATION_REQUIRED',
  message: 'Authentication required',
  error: null,
  authentication: { url: 'https://3ds.example.com/auth/auth-1', id: 'auth-1' },
  order: null,
  createdAt,
}

export const frameMessage = (
  Status = 'SUCCESS',
  AuthenticationId = 'auth-1',
  MessageType = Status === 'SUCCESS' ? 'authentication.complete' : 'authentication.failed',
) => ({ MessageType, Status, AuthenticationId, OrderId: 'order-1001', OrderAmount: 25.5 })

export const paymentLinkFromAmount = {
  orderReference: 'inv-77',
  orderName: 'Invoice 77',
  orderDescription: 'Consulting, May',
  amount: 40,
  successUrl: 'https://shop.example.com/ok',
  cancelUrl: 'https://shop.example.com/cancel',
  locationCode: 'MAIN',
  metadata: [{ name: 'customer', value: 'cus-001' }],
  expirationMinutes: 60,
}

export const paymentLinkFromLineItems = {
  orderReference: 'inv-78',
  lineItems: [
    { sku: 'MUG-01', quantity: 2 },
    {
      product: {
        name: 'Tea',
        price: 4.5,
        imageUrl: 'https://cdn.example.com/tea.png',
        requiresShipping: true,
      },
      quantity: 3,
    },
  ],
}

export const paymentLinkResponse = {
  orderCode: 'PL-ABC123',
  orderId: 42,
  paymentLinkUrl: 'https://pay.example.com/PL-ABC123',
}

export const orderDetails = {
  orderId: 42,
  orderCode: 'PL-ABC123',
  orderReference: 'inv-78',
  name: 'PaymentLink Order',
  description: 'Tea and mugs',
  lineItems: [
    {
      productId: 7,
      sku: 'TEA-01',
      name: 'Tea',
      price: 4.5,
      promoPrice: 4.5,
      quantity: 3,
      imageUrl: 'https://cdn.example.com/tea.png',
      subTotal: 13.5,
    },
  ],
  orderStatus: 'PENDING',
  subtotal: 13.5,
  totalDetails: { shippingAmount: 0, discountAmount: 0, surchargeAmount: 0 },
  total: 13.5,
  metadata: [{ name: 'customer', value: 'cus-001' }],
  paymentLinkUrl: 'https://pay.example.com/PL-ABC123',
  successUrl: 'https://shop.example.com/ok',
  cancelUrl: 'https://shop.example.com/cancel',
  store: sandboxStore,
  payment: {
    authorizationCode: 'A1B2C3',
    voucherUrl: 'https://pay.example.com/voucher/42',
    buyer: { name: 'Ada Lovelace', phone: '+50688887777', email: 'ada@example.com' },
  },
  created: '2024-05-01T12:34:56.789Z',
}

export const validationProblemBody = {
  type: 'https://tools.ietf.org/html/rfc7231#section-6.5.1',
  title: 'One or more validation errors occurred.',
  status: 400,
  errors: { amount: ['The field amount must be greater than 0.'] },
}

export const serverProblemBody = {
  type: 'https://tools.ietf.org/html/rfc7231#section-6.6.1',
  title: 'An error occurred while processing your request.',
  status: 500,
}
