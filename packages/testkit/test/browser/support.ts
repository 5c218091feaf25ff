// Shared by the real-browser tests of the sandbox's pages: headless Chromium (Debian's
// `chromium`, driven by playwright-core: tools/lib/chromium.ts), a tiny
// HTTP server for the merchant's page, and a sandbox with a token and a 3DS card.
import { randomUUID } from 'node:crypto'
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { launchChromium as launchChromiumOnce } from '@paykit/tools/lib/chromium'
import { startSandbox, type Sandbox } from '../../src/sandbox/startSandbox.js'
import { defaultCredentials, testCards } from '../../src/simulator/TestCards.js'

// -------------------------------------------------------------------------------------
// browser
// -------------------------------------------------------------------------------------

/** Headless Chromium (tools/lib/chromium.ts); fails with the reason when it is missing. */
export const launchChromium = () => launchChromiumOnce('to run the real-browser page tests')

// -------------------------------------------------------------------------------------
// servers
// -------------------------------------------------------------------------------------

/** A server on a free port of 127.0.0.1 (an origin of its own). */
export const listen = async (
  handler: RequestListener,
): Promise<{ readonly origin: string; readonly server: Server }> => {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

/** Stops a server started by `listen` (nothing when it never started). */
export const close = (server: Server | undefined): Promise<void> =>
  new Promise((resolve) => (server === undefined ? resolve() : server.close(() => resolve())))

// -------------------------------------------------------------------------------------
// sandbox
// -------------------------------------------------------------------------------------

/** One 3DS authentication: its frame address, id and the merchant's order id. */
export interface Authentication {
  readonly url: string
  readonly id: string
  readonly orderId: string
}

/** A sandbox and the API calls a merchant makes before a buyer sees a page. */
export interface BuyerSandbox {
  readonly sandbox: Sandbox
  /** A new order charged with the 3DS test card: its authentication. */
  readonly authenticate: () => Promise<Authentication>
  /** The charge repeated with the authentication id: its status. */
  readonly repeatCharge: (auth: Authentication) => Promise<string>
  /** A payment link from this creation body: its checkout address and order code. */
  readonly paymentLink: (
    body: Record<string, unknown>,
  ) => Promise<{ readonly url: string; readonly orderCode: string }>
  readonly close: () => Promise<void>
}

let counter = 0

/** Starts a sandbox, takes a token and registers the `authentication` test card. */
export const startBuyerSandbox = async (): Promise<BuyerSandbox> => {
  const sandbox = await startSandbox()
  const post = async (
    path: string,
    body: unknown,
    credential?: string,
  ): Promise<Record<string, unknown>> => {
    const response = await fetch(`${sandbox.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(credential === undefined ? {} : { authorization: `Bearer ${credential}` }),
      },
      body: JSON.stringify(body),
    })
    const json = (await response.json()) as Record<string, unknown>
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(json)}`)
    return json
  }
  const { accessToken } = (await post('/token', {
    clientId: defaultCredentials.clientId,
    clientSecret: defaultCredentials.clientSecret,
  })) as { accessToken: string }
  const { id: cardId } = (await post(
    '/paymentmethods',
    {
      card: {
        number: testCards.authentication.number,
        expirationMonth: '12',
        expirationYear: String(new Date().getUTCFullYear() + 3),
        cvv: '123',
        cardHolder: 'Ada Buyer',
      },
    },
    accessToken,
  )) as { id: string }
  const charge = (orderId: string, authenticationId: string | null) =>
    post(
      '/charges',
      { order: { id: orderId, amount: 25.5 }, cardId, authenticationId },
      accessToken,
    )
  return {
    sandbox,
    authenticate: async () => {
      counter += 1
      // Merchants' order ids are often UUIDs: long words that do not wrap.
      const orderId = `order-${counter}-${randomUUID()}`
      const response = await charge(orderId, null)
      if (response['status'] !== 'AUTHENTICATION_REQUIRED')
        throw new Error(`the 3DS card was charged without 3DS: ${JSON.stringify(response)}`)
      const authentication = response['authentication'] as { url: string; id: string }
      if (new URL(authentication.url).origin !== sandbox.url)
        throw new Error(`the 3DS frame is not on the sandbox's origin: ${authentication.url}`)
      return { url: authentication.url, id: authentication.id, orderId }
    },
    repeatCharge: async (auth) => String((await charge(auth.orderId, auth.id))['status']),
    paymentLink: async (body) => {
      const link = await post('/paymentlink/checkout', body, defaultCredentials.apiKey)
      return { url: String(link['paymentLinkUrl']), orderCode: String(link['orderCode']) }
    },
    close: () => sandbox.close(),
  }
}
