/**
 * The main job (`npm start`): the core's pure part, then the whole service flow against a
 * real `paykit-sandbox` process over HTTP on 127.0.0.1, through the core's client.
 * Runs from the built `dist` of both packages, as a user's program would.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { createClient, validate, type PaykitError } from '@paykit/core'
import { ChargeResponse, PaymentLinkRequest } from '@paykit/core/codecs'
import { ChargeFlow, FrameMessage, type ChargeFlowState } from '@paykit/core/machines'
import { WebhookEvent } from '@paykit/core/webhook'
import { verifyWebhook } from '@paykit/core/webhook'
import { defaultCredentials, testCards } from '@paykit/testkit'
import { spawnSandbox, startWebhookReceiver, type CapturedWebhook } from '@paykit/testkit/sandbox'
import { authenticateHeadless, payOnCheckoutPage } from '@paykit/testkit/buyer'

const WEBHOOK_SECRET = 'demo-webhook-secret'

const section = (title: string): void => console.log(`\n== ${title}`)
const show = (label: string, value: unknown): void =>
  console.log(`${label}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)

/** Runs a TaskEither and throws a readable Error on Left (the demo stops there). */
const run = async <A>(task: TE.TaskEither<PaykitError, A>): Promise<A> => {
  const result = await task()
  if (E.isLeft(result)) throw new Error(`${result.left._tag}: ${result.left.message}`)
  return result.right
}

// -------------------------------------------------------------------------------------
// 1. the pure core: codecs, field errors, the charge-flow reducer
// -------------------------------------------------------------------------------------

const pureCore = (): void => {
  section('core: decode a payment-link request (defaults applied, unknown fields stripped)')
  const good = validate(PaymentLinkRequest)({
    orderReference: 'ORD-1001',
    lineItems: [
      { product: { name: 'Coffee beans 1 kg', price: 18.9 }, quantity: 2 },
      { sku: 'MUG-LOGO', quantity: 1 },
    ],
    successUrl: 'https://shop.example/thanks',
    trackingPixel: 'dropped',
  })
  show('decoded', E.map(PaymentLinkRequest.encode)(good))

  section('core: the field errors of a bad one')
  const bad = validate(PaymentLinkRequest)({
    orderName: 'x'.repeat(300),
    lineItems: [{ sku: 'A', product: { name: 'B', price: -1 }, quantity: 0 }],
    successUrl: 'ftp://nope',
  })
  if (E.isLeft(bad)) for (const e of bad.left) show(`  ${e.path}`, e.message)

  section('core: a 3DS charge flow through the pure reducer')
  const request = {
    order: { id: 'ORD-3DS', amount: 25, description: 'demo', name: 'demo' },
    cardId: 'pm_1',
    authenticationId: null,
  }
  const createdAt = '2026-11-22T10:00:00.000Z'
  const responses: ReadonlyArray<unknown> = [
    {
      status: 'AUTHENTICATION_REQUIRED',
      message: 'Authentication required',
      error: null,
      authentication: { url: 'https://sandbox.example/3ds/auth_1', id: 'auth_1' },
      order: null,
      createdAt,
    },
  ]
  let state: ChargeFlowState = ChargeFlow.start(request as never)
  const step = (label: string, event: E.Either<unknown, ChargeFlow.ChargeFlowEvent>): void => {
    if (E.isLeft(event)) return show(label, 'undecodable')
    const next = ChargeFlow.reduce(state, event.right)
    if (E.isLeft(next)) return show(`${label} -> refused`, next.left.message)
    state = next.right
    show(
      `${label} -> ${state._tag}`,
      O.isSome(ChargeFlow.nextRequest(state)) ? 'a request to send' : 'nothing to send',
    )
  }
  const decodeResponse = (u: unknown) =>
    E.map(ChargeFlow.chargeResponded)(validate(ChargeResponse)(u))
  const message = (id: string, status: string) =>
    E.map(ChargeFlow.frameMessageReceived)(
      validate(FrameMessage)({
        MessageType: status === 'SUCCESS' ? 'authentication.complete' : 'authentication.failed',
        Status: status,
        AuthenticationId: id,
        OrderId: 'ORD-3DS',
        OrderAmount: 25,
      }),
    )
  step('charge answered AUTHENTICATION_REQUIRED', decodeResponse(responses[0]))
  step('frame message for another authentication', message('auth_other', 'SUCCESS'))
  step('frame message PENDING', message('auth_1', 'PENDING'))
  step('frame message SUCCESS', message('auth_1', 'SUCCESS'))
  show('retry carries', O.toNullable(ChargeFlow.nextRequest(state)))
}

// -------------------------------------------------------------------------------------
// 2. the service flow against the sandbox
// -------------------------------------------------------------------------------------

/** Whether a webhook the merchant received is signed with the demo's secret. */
const verifiedWebhook = (webhook: CapturedWebhook) =>
  verifyWebhook({
    secret: WEBHOOK_SECRET,
    body: webhook.body,
    header: String(webhook.headers['paykit-signature'] ?? ''),
    now: new Date(),
  })

/** A merchant's webhook receiver: verifies each event with the core's `verifyWebhook`. */
const startReceiver = () =>
  startWebhookReceiver({
    path: '/webhooks/paykit',
    answer: (webhook) => (E.isRight(verifiedWebhook(webhook)) ? 204 : 400),
  })

const describeWebhook = (webhook: CapturedWebhook): string => {
  const verified = verifiedWebhook(webhook)
  const event = validate(WebhookEvent)(JSON.parse(webhook.body))
  return E.isRight(verified) && E.isRight(event)
    ? `${event.right.type} for ${event.right.data.orderCode} (signature verified)`
    : `refused: ${E.isLeft(verified) ? verified.left : 'not a webhook event'}`
}

const describeCharge = (r: ChargeResponse): string =>
  r.status === 'SUCCEEDED'
    ? `SUCCEEDED, authorization ${r.order.authorizationCode}, ${r.order.amount.toFixed(2)} ${r.order.currency}`
    : r.status === 'FAILED'
      ? `FAILED, ${r.error.code}: ${r.error.message}`
      : `AUTHENTICATION_REQUIRED at ${r.authentication.url}`

const serviceFlow = async (): Promise<void> => {
  const receiver = await startReceiver()
  const sandbox = await spawnSandbox({
    args: ['--webhook-url', receiver.url, '--webhook-secret', WEBHOOK_SECRET],
    stderr: 'inherit',
  })
  console.log(`paykit-sandbox: listening on ${sandbox.url}`)
  try {
    const client = createClient({
      baseUrl: sandbox.url,
      credentials: {
        clientId: defaultCredentials.clientId,
        clientSecret: defaultCredentials.clientSecret,
        apiKey: defaultCredentials.apiKey,
      },
    })
    const card = (number: string) => ({
      customer: {
        id: 'cus_1',
        name: 'Ana Mora',
        email: 'ana@example.com',
        phoneNumber: '+50688887777',
      },
      card: {
        number,
        expirationMonth: '12',
        expirationYear: String(new Date().getFullYear() + 2),
        cvv: '123',
        cardHolder: 'ANA MORA',
      },
    })

    section('sandbox: token and a card')
    await run(client.getToken())
    show('token', 'fetched and cached (never printed)')
    const visa = await run(client.createPaymentMethod(card(testCards.success.number)))
    show('payment method', { id: visa.id, bin: visa.bin })

    section('sandbox: a charge that succeeds')
    const order = (id: string) => ({ id, amount: 42.5, description: 'Demo order', name: 'Demo' })
    show(
      'charge',
      describeCharge(
        await run(
          client.charge({ order: order('ORD-2001'), cardId: visa.id }, { paymentMethod: visa }),
        ),
      ),
    )
    show(
      'same order again',
      describeCharge(await run(client.charge({ order: order('ORD-2001'), cardId: visa.id }))),
    )

    section(
      'sandbox: a charge that needs 3DS (the buyer answered headlessly: authenticateHeadless)',
    )
    const threeDs = await run(client.createPaymentMethod(card(testCards.authentication.number)))
    const final = await run(
      client.chargeWith3ds(
        { order: order('ORD-2002'), cardId: threeDs.id },
        authenticateHeadless('success'),
      ),
    )
    show('3DS flow ended', final._tag)

    section('sandbox: a card that fails the Luhn check is refused before sending')
    const refused = await client.createPaymentMethod(card('4242424242424241'))()
    show('refused', E.isLeft(refused) ? refused.left.message : 'accepted?!')

    section('sandbox: a payment link, paid on its checkout page, read back')
    const link = await run(
      client.createPaymentLink({
        orderReference: 'ORD-3001',
        lineItems: [
          {
            product: { name: 'Coffee beans 1 kg', price: 18.9, requiresShipping: true },
            quantity: 2,
          },
          { product: { name: 'Grinder', price: 0.1, requiresShipping: true }, quantity: 3 },
        ],
        metadata: [{ name: 'channel', value: 'demo' }],
      }),
    )
    show('link', link)
    const checkout = await payOnCheckoutPage(link.paymentLinkUrl)
    show('checkout answered', checkout.status)
    const paid = await run(
      client.waitForOrderStatus(link.orderCode, ['PAID'], { timeoutMs: 5000, intervalMs: 50 }),
    )
    show('order', {
      orderCode: paid.orderCode,
      orderStatus: paid.orderStatus,
      subtotal: paid.subtotal.toFixed(2),
      total: paid.total.toFixed(2),
      currency: paid.store.currencyCode,
      authorizationCode: paid.payment?.authorizationCode,
    })
    for (let i = 0; i < 50 && receiver.received.length === 0; i++)
      await new Promise((r) => setTimeout(r, 50))
    show('webhooks received', receiver.received.map(describeWebhook))
  } finally {
    await sandbox.stop()
    await receiver.close()
  }
}

// -------------------------------------------------------------------------------------
// 3. the n8n nodes: example workflows through the real n8n engine (tools/n8n/engine-demo.ts)
// -------------------------------------------------------------------------------------

const n8nFlow = async (): Promise<void> => {
  section(
    'n8n engine: example workflows with the built n8n-nodes-paykit, 100 orders to payment links (none on a re-run), one paid, its webhook to the Paykit Trigger',
  )
  // Loaded only now: the n8n engine takes seconds to load, after the first two sections ran.
  const { n8nEngineFlow } = await import('@paykit/tools/n8n/engine-demo')
  await n8nEngineFlow()
}

pureCore()
await serviceFlow()
await n8nFlow()
console.log('\ndemo finished')
