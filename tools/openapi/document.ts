// The OpenAPI 3.1 document of the service as paykit implements it (docs/service.md, with its
// section 10's choices where the service is silent): every endpoint, the two credentials, the webhook, the 3DS frame
// message, each schema walked from the core's codecs (./schema.ts) and each example the
// simulator's real answer (./examples.ts). The rules a schema cannot say are in the
// `description`s, in the words of the core's doc comments.
import {
  AccessToken,
  BILLING_INFO_COUNTRIES,
  BillingInfo,
  Bin,
  Buyer,
  ChargeAuthentication,
  ChargeAuthenticationRequired,
  ChargeError,
  ChargeFailed,
  ChargeOrder,
  ChargeOrderRequest,
  ChargeRequest,
  ChargeResponse,
  ChargeSucceeded,
  LineItem,
  Metadata,
  OrderDetails,
  OrderLineItem,
  OrderMetadata,
  OrderStatus,
  Payment,
  PaymentLinkRequest,
  PaymentLinkResponse,
  PaymentMethod,
  paymentMethodRequestAt,
  ProblemDetails,
  Product,
  ProductLineItem,
  ServerProblem,
  SkuLineItem,
  Store,
  TokenRequest,
  TotalDetails,
  ValidationProblem,
} from '@paykit/core/codecs'
import { AuthenticationStatus, FrameMessage, FrameMessageType } from '@paykit/core/machines'
import { WEBHOOK_SIGNATURE_HEADER, WebhookEvent, WebhookEventType } from '@paykit/core/webhook'
import { CHARGE_FAILURE_CODES } from '@paykit/testkit/arbitraries'
// Internal to the core: the entry it declares for its tools (./schema.ts reads its hints there).
import { HttpUrl } from '@paykit/core/internal/tools'
import {
  EXAMPLE_BASE_URL,
  EXAMPLE_TIME,
  type Examples,
  runExamples,
} from '@paykit/tools/openapi/examples'
import { type Components, type Decoder, type Schema, schemaOf } from '@paykit/tools/openapi/schema'

// -------------------------------------------------------------------------------------
// components
// -------------------------------------------------------------------------------------

/**
 * Why a charge FAILED, by the code the sandbox sends (`CHARGE_FAILURE_CODES` of the testkit:
 * its simulator's codes; FRAUD_PREVENT is the spec's sample).
 */
const FAILURE_CODE_MEANINGS: Readonly<Record<string, string>> = {
  FRAUD_PREVENT: 'the charge is under review (spec 7.1)',
  CARD_DECLINED: 'the card was declined',
  AUTHENTICATION_FAILED:
    'the authenticationId cannot complete this charge: unknown, made for another order, card or amount, or its 3DS did not succeed',
  DUPLICATE_ORDER:
    'the order already has a charge that succeeded, so repeating a charge whose answer was lost is safe',
}

const failureCodes = (): string => {
  const documented = Object.keys(FAILURE_CODE_MEANINGS)
  if (documented.join() !== CHARGE_FAILURE_CODES.join())
    throw new Error(`charge failure codes: documented ${documented}, sent ${CHARGE_FAILURE_CODES}`)
  return documented.map((code) => `${code}, ${FAILURE_CODE_MEANINGS[code]}`).join('; ')
}

/** A problem's `detail`: a member the service sends that the codecs tolerate without reading. */
const DETAIL: Schema = {
  type: 'string',
  description: "A sentence for people about the problem (spec 7.2's RFC 7807 member).",
}

/** What a component says beyond its codec: members added, or keywords on a member. */
type Members = Readonly<Record<string, Schema>>

/**
 * The codecs written as components, with what their schema cannot say. The payment-method
 * request is the codec at a fixed date: its structure is the same at any date, and the
 * expiry rule is in its description.
 */
const COMPONENTS: ReadonlyArray<readonly [string, Decoder, string?, Members?]> = [
  ['TokenRequest', TokenRequest, 'Body of POST /token (spec 4.1).'],
  ['AccessToken', AccessToken, 'Answer of POST /token (spec 2.1).'],
  [
    'PaymentMethodRequest',
    paymentMethodRequestAt(EXAMPLE_TIME),
    'Body of POST /paymentmethods (spec 2.2). Unknown fields are stripped. Rules no schema says: card.number (spaces allowed, removed) passes the Luhn check; the expiry (card.expirationMonth of card.expirationYear) is not in the past at the service clock.',
  ],
  ['PaymentMethod', PaymentMethod, 'Answer of POST /paymentmethods (spec 2.3).'],
  ['Bin', Bin],
  [
    'ChargeRequest',
    ChargeRequest,
    `Body of POST /charges (spec 2.4). Unknown fields are stripped. Rules no schema says: cardId is the id of a payment method of POST /paymentmethods (another is a 400 naming cardId); billingInfo is required when the card issuer country (bin.countryCode of the payment method cardId names) is ${BILLING_INFO_COUNTRIES.join(' or ')}; null reads as absent. The request that completes a 3DS flow carries the same order and cardId and the authenticationId of the frame message.`,
  ],
  ['ChargeOrderRequest', ChargeOrderRequest],
  ['BillingInfo', BillingInfo],
  [
    'ChargeResponse',
    ChargeResponse,
    'Answer of POST /charges (spec 2.5), one shape per status: in every status the fields not listed as non-null for it are null.',
  ],
  ['ChargeFailed', ChargeFailed],
  ['ChargeSucceeded', ChargeSucceeded],
  ['ChargeAuthenticationRequired', ChargeAuthenticationRequired],
  [
    'ChargeError',
    ChargeError,
    'Why a charge FAILED (spec 2.5 error, 7.1).',
    {
      code: {
        description: `The codes the sandbox sends: ${failureCodes()}. The service may send others: read any code as a failure of this charge.`,
        examples: CHARGE_FAILURE_CODES,
      },
    },
  ],
  ['ChargeAuthentication', ChargeAuthentication],
  ['ChargeOrder', ChargeOrder],
  [
    'PaymentLinkRequest',
    PaymentLinkRequest,
    "Body of POST /paymentlink/checkout (spec 2.6). Unknown fields are stripped; orderName, expirationMinutes and product.requiresShipping get their defaults. Rules no schema says: with both amount and lineItems, amount equals the line-item total (product price, or the catalogue's price of a sku, times quantity); every sku is a product of the merchant's catalogue.",
  ],
  [
    'LineItem',
    LineItem,
    'Exactly one of sku (a product of the catalogue) or product (a one-time product).',
  ],
  ['SkuLineItem', SkuLineItem],
  ['ProductLineItem', ProductLineItem],
  ['Product', Product],
  ['Metadata', Metadata],
  [
    'HttpUrl',
    HttpUrl,
    "An absolute http(s) URL as the WHATWG URL parser reads it (what browsers and Node's URL do): the pattern is its form. Rule no schema says: the host is one the parser's IDNA, IPv4 or IPv6 reading accepts (http://1.2.3.256 fits the pattern and is refused).",
  ],
  ['PaymentLinkResponse', PaymentLinkResponse, 'Answer of POST /paymentlink/checkout (spec 2.7).'],
  [
    'OrderDetails',
    OrderDetails,
    'Answer of GET /paymentlink/order/{orderCode} (spec 2.8). orderReference, description, successUrl and cancelUrl are null when the request gave none; payment is null until the order is PAID.',
  ],
  ['OrderLineItem', OrderLineItem],
  ['OrderStatus', OrderStatus],
  ['TotalDetails', TotalDetails],
  ['Store', Store],
  ['Payment', Payment],
  ['Buyer', Buyer],
  ['OrderMetadata', OrderMetadata],
  [
    'ProblemDetails',
    ProblemDetails,
    'Problem details (RFC 7807) of a refused request other than 400 and 500: 401 (missing, unknown or expired credential), 404, 413, 415.',
  ],
  [
    'ValidationProblem',
    ValidationProblem,
    "400 (spec 7.2): errors maps each broken field's path (card.number, lineItems[2].product.price) to its messages.",
    { detail: DETAIL },
  ],
  ['ServerProblem', ServerProblem, '500 (spec 7.2): no errors member.', { detail: DETAIL }],
  [
    'FrameMessage',
    FrameMessage,
    "The message the 3DS frame at authentication.url posts to the embedding page (spec 6.1, browser postMessage, not HTTP). When MessageType is authentication.complete and Status is SUCCESS, the merchant repeats POST /charges with authenticationId set to AuthenticationId. OrderId is the merchant's order.id.",
  ],
  ['FrameMessageType', FrameMessageType],
  ['AuthenticationStatus', AuthenticationStatus],
  [
    'WebhookEvent',
    WebhookEvent,
    'An order event (docs/service.md#order-events-webhooks; the service shows none): data is the order as GET /paymentlink/order/{orderCode} reads it.',
  ],
  ['WebhookEventType', WebhookEventType],
]

/** `schema` with `members` merged into its properties (a member's keywords over its own). */
const withMembers = (name: string, schema: Schema, members?: Members): Schema => {
  if (members === undefined) return schema
  const properties = schema['properties'] as Readonly<Record<string, Schema>> | undefined
  if (properties === undefined) throw new Error(`${name}: no properties to add members to`)
  return {
    ...schema,
    properties: Object.fromEntries([
      ...Object.entries(properties).map(([key, member]) => [key, { ...member, ...members[key] }]),
      ...Object.entries(members).filter(([key]) => !(key in properties)),
    ]),
  }
}

const componentNames: Components = new Map(COMPONENTS.map(([name, codec]) => [codec, name]))

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })

const schemas = (examples: Examples): Record<string, Schema> =>
  Object.fromEntries(
    COMPONENTS.map(([name, codec, description, members]) => {
      const schema = withMembers(name, schemaOf(codec, componentNames), members)
      // The frame message travels by postMessage, not HTTP: its example sits in its schema.
      const example = name === 'FrameMessage' ? { examples: [examples.frameMessage] } : {}
      // The component's description says more than the rule's own (HttpUrl's).
      const { description: _rule, ...rest } = schema
      return [name, description === undefined ? schema : { description, ...rest, ...example }]
    }),
  )

// -------------------------------------------------------------------------------------
// paths
// -------------------------------------------------------------------------------------

type Exchanges = Examples['exchanges']

/** The exchanges named, as OpenAPI examples of their request or response. */
const examplesOf = (
  exchanges: Exchanges,
  pick: 'request' | 'response',
  names: ReadonlyArray<string>,
): Record<string, { value: unknown }> =>
  Object.fromEntries(
    names.map((name) => {
      const exchange = exchanges[name]
      if (exchange === undefined) throw new Error(`no example ${name}`)
      return [name, { value: exchange[pick] }]
    }),
  )

const JSON_MEDIA = 'application/json'

const answer = (
  description: string,
  schema: string,
  examples: Record<string, { value: unknown }> = {},
): object => ({
  description,
  content: {
    [JSON_MEDIA]: {
      schema: ref(schema),
      ...(Object.keys(examples).length > 0 ? { examples } : {}),
    },
  },
})

/** One operation; examples are named by the exchange of `runExamples` they come from. */
interface Operation {
  readonly operationId: string
  readonly summary: string
  readonly description?: string
  readonly tag: string
  readonly security: ReadonlyArray<object>
  readonly parameters?: ReadonlyArray<object>
  /** The body's schema and example exchanges; a body also brings 400, 413 and 415. */
  readonly request?: readonly [schema: string, examples: ReadonlyArray<string>]
  readonly badRequest?: ReadonlyArray<string>
  /** Why the 400 comes, when more than a broken rule of the body can bring it. */
  readonly badRequestDescription?: string
  readonly ok: readonly [description: string, schema: string, examples: ReadonlyArray<string>]
  readonly unauthorized: ReadonlyArray<string>
  readonly notFound?: ReadonlyArray<string>
}

const PAYMENT_LINK_SECURITY = [{ apiKey: [] }, { accessToken: [] }]

/** The operation as OpenAPI writes it, with the refusals every endpoint can give. */
const operation = (examples: Examples, o: Operation): object => {
  const x = examples.exchanges
  const [okDescription, okSchema, okExamples] = o.ok
  return {
    operationId: o.operationId,
    summary: o.summary,
    ...(o.description === undefined ? {} : { description: o.description }),
    tags: [o.tag],
    security: o.security,
    ...(o.parameters === undefined ? {} : { parameters: o.parameters }),
    ...(o.request === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: {
              [JSON_MEDIA]: {
                schema: ref(o.request[0]),
                examples: examplesOf(x, 'request', o.request[1]),
              },
            },
          },
        }),
    responses: {
      '200': answer(okDescription, okSchema, examplesOf(x, 'response', okExamples)),
      ...(o.request === undefined
        ? {}
        : {
            '400': answer(
              o.badRequestDescription ??
                'The body breaks a rule or is not JSON: errors names each field.',
              'ValidationProblem',
              examplesOf(x, 'response', o.badRequest ?? []),
            ),
            '413': answer('The body is larger than the service accepts.', 'ProblemDetails'),
            '415': answer('The body is not sent as application/json.', 'ProblemDetails'),
          }),
      '401': answer(
        'The credential is missing, unknown or expired.',
        'ProblemDetails',
        examplesOf(x, 'response', o.unauthorized),
      ),
      ...(o.notFound === undefined
        ? {}
        : {
            '404': answer(
              'No order has this code (or it was dropped after its retention).',
              'ProblemDetails',
              examplesOf(x, 'response', o.notFound),
            ),
          }),
      '500': answer('The service failed (spec 7.2).', 'ServerProblem', {
        serverProblem: { value: examples.serverProblem },
      }),
    },
  }
}

const paths = (examples: Examples): object => ({
  '/token': {
    post: operation(examples, {
      operationId: 'createToken',
      summary: 'Obtain an access token (spec 4.1)',
      description:
        'Client credentials in a JSON body; the token is sent as Authorization: Bearer <token> on the other endpoints and lives expiresIn seconds.',
      tag: 'Authentication',
      security: [],
      request: ['TokenRequest', ['token']],
      badRequest: ['tokenInvalid'],
      ok: ['The access token.', 'AccessToken', ['token']],
      unauthorized: ['tokenRefused'],
    }),
  },
  '/paymentmethods': {
    post: operation(examples, {
      operationId: 'createPaymentMethod',
      summary: 'Register a card as a payment method (spec 4.2)',
      tag: 'Cards',
      security: [{ accessToken: [] }],
      request: ['PaymentMethodRequest', ['paymentMethod']],
      badRequest: ['paymentMethodRefused'],
      ok: [
        'The payment method; its id is the cardId of a charge.',
        'PaymentMethod',
        ['paymentMethod', 'paymentMethodUsa'],
      ],
      unauthorized: ['chargeUnauthorized'],
    }),
  },
  '/charges': {
    post: operation(examples, {
      operationId: 'createCharge',
      summary: 'Charge a payment method, or repeat the charge after 3DS (spec 4.3)',
      description:
        'A charge ends FAILED or SUCCEEDED, or answers AUTHENTICATION_REQUIRED: the buyer then completes 3DS in a frame opened at authentication.url (its message: FrameMessage), and the merchant repeats the charge with the same order and cardId and the authenticationId received. A charge of an order that already succeeded is FAILED with code DUPLICATE_ORDER.',
      tag: 'Charges',
      security: [{ accessToken: [] }],
      request: [
        'ChargeRequest',
        ['chargeSucceeded', 'chargeWithBillingInfo', 'chargeAfterAuthentication'],
      ],
      badRequest: ['chargeRefused', 'chargeUnknownCard'],
      badRequestDescription:
        'The body breaks a rule or is not JSON, or cardId is the id of no payment method (errors.cardId): errors names each field.',
      ok: [
        'The charge: FAILED (error.code says why: ChargeError), SUCCEEDED or AUTHENTICATION_REQUIRED.',
        'ChargeResponse',
        [
          'chargeSucceeded',
          'chargeFailed',
          'chargeDeclined',
          'chargeDuplicateOrder',
          'chargeAuthenticationFailed',
          'chargeAuthenticationRequired',
          'chargeAfterAuthentication',
        ],
      ],
      unauthorized: ['chargeUnauthorized'],
    }),
  },
  '/paymentlink/checkout': {
    post: operation(examples, {
      operationId: 'createPaymentLink',
      summary: 'Create a hosted payment link (spec 4.4)',
      tag: 'Payment links',
      security: PAYMENT_LINK_SECURITY,
      request: ['PaymentLinkRequest', ['paymentLinkFromAmount', 'paymentLinkFromLineItems']],
      badRequest: ['paymentLinkRefused'],
      ok: [
        'The link.',
        'PaymentLinkResponse',
        ['paymentLinkFromAmount', 'paymentLinkFromLineItems'],
      ],
      unauthorized: [],
    }),
  },
  '/paymentlink/order/{orderCode}': {
    get: operation(examples, {
      operationId: 'getOrder',
      summary: 'Read a payment-link order (spec 4.5)',
      description:
        'An unpaid link past its expirationMinutes reads as CANCELLED; payment is null until the order is PAID.',
      tag: 'Payment links',
      security: PAYMENT_LINK_SECURITY,
      parameters: [
        {
          name: 'orderCode',
          in: 'path',
          required: true,
          description: 'The orderCode returned at link creation.',
          schema: { type: 'string' },
        },
      ],
      ok: ['The order.', 'OrderDetails', ['orderPending', 'orderPaid']],
      unauthorized: [],
      notFound: ['orderNotFound'],
    }),
  },
})

// -------------------------------------------------------------------------------------
// document
// -------------------------------------------------------------------------------------

/** The whole document, as plain JSON (the same on every run). */
export const openApiDocument = (): object => {
  const examples = runExamples()
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payment service (paykit)',
      version: '0.1.0',
      description:
        "The card-payment service as paykit implements it (docs/service.md in the repository): generated from @paykit/core's io-ts codecs by tools/openapi/generate.ts (do not edit by hand), examples from the testkit simulator's answers. Rules a JSON Schema cannot say are in the descriptions.",
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: EXAMPLE_BASE_URL, description: 'paykit-sandbox --port 4010' }],
    tags: [
      { name: 'Authentication', description: 'Client credentials for an access token.' },
      { name: 'Cards', description: 'Payment methods from card data.' },
      { name: 'Charges', description: 'Charges with optional 3DS.' },
      { name: 'Payment links', description: 'Hosted payment links and their orders.' },
      { name: 'Order events', description: 'Webhooks of order events.' },
    ],
    paths: paths(examples),
    webhooks: {
      orderEvent: {
        post: {
          operationId: 'orderEvent',
          summary: 'An order event, sent to the configured webhook URL',
          description: `Sent on order.paid, order.cancelled and order.finalized. With a secret configured, the ${WEBHOOK_SIGNATURE_HEADER} header is t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">.`,
          tags: ['Order events'],
          security: [], // the signature header is the credential
          parameters: [
            {
              name: WEBHOOK_SIGNATURE_HEADER,
              in: 'header',
              required: false,
              description: 'Present when a webhook secret is configured.',
              schema: { type: 'string', pattern: '^t=\\d+,v1=[0-9a-f]{64}$' },
            },
          ],
          requestBody: {
            required: true,
            content: {
              [JSON_MEDIA]: {
                schema: ref('WebhookEvent'),
                examples: { orderPaid: { value: examples.webhookEvent } },
              },
            },
          },
          responses: { '200': { description: 'Received (any 2xx).' } },
        },
      },
    },
    components: {
      schemas: schemas(examples),
      securitySchemes: {
        accessToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The access token of POST /token (client credentials: clientId and clientSecret in a JSON body, not an RFC 6749 form, so not an oauth2 flow here).',
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            "The merchant's secret API key, sent as a bearer credential, for the payment-link endpoints (spec 4.4, 4.5); the sandbox also takes an access token there.",
        },
      },
    },
  }
}
