// The merchant's page of test/browser/Msw.test.ts, bundled by esbuild for the browser: MSW's
// worker with the testkit's handlers on this origin's /paykit, the core's client (its fetch
// goes through the worker) and the core's 3DS frame listener, handed to the test on `window`.
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { setupWorker } from 'msw/browser'
import { createClient, type Client } from '@paykit/core'
import { networkError } from '@paykit/core/client'
import { openAuthenticationFrame } from '@paykit/core/browser'
import {
  defaultCredentials,
  paykitHandlers,
  testCards,
  type PaykitHandlers,
} from '../../../src/msw/index.js'
import { adaCard } from '../../samples.js'

export interface MswPage {
  readonly paykit: PaykitHandlers
  readonly client: Client
  /** A card of the 3DS test card, charged with 3DS through the frame in `#three-ds`. */
  readonly chargeWith3ds: (orderId: string) => Promise<unknown>
  /** A payment link whose checkout opens in an iframe `#checkout`: its order code. */
  readonly openCheckout: (amount: number) => Promise<string>
  /** Delivers every pending webhook event to a handler in this page: the types it got. */
  readonly deliverWebhooks: () => Promise<ReadonlyArray<string>>
}

declare global {
  interface Window {
    mswPage: Promise<MswPage>
  }
}

const start = async (): Promise<MswPage> => {
  const paykit = paykitHandlers({ baseUrl: `${location.origin}/paykit` })
  const worker = setupWorker(...paykit.handlers)
  // MSW 2 names the option onUnhandledRequest, MSW 3 onUnhandledFrame: both given, each
  // major reads its own (an object, not a literal, so neither name is an excess property).
  const options = {
    serviceWorker: { url: '/mockServiceWorker.js' },
    onUnhandledRequest: 'error',
    onUnhandledFrame: 'error',
    quiet: true,
  } as const
  await worker.start(options)
  const client = createClient({ baseUrl: paykit.baseUrl, credentials: defaultCredentials })
  // Unsigned: the page has no node:crypto for signedWebhook.
  const received: Array<string> = []
  const outbox = paykit.webhooks({
    handler: async (body, headers) => {
      received.push(`${String(JSON.parse(body).type)} ${headers['content-type'] ?? ''}`)
      return { status: 200 }
    },
  })
  const container = (id: string): HTMLElement => {
    const element = document.getElementById(id)
    if (element === null) throw new Error(`the page has no #${id}`)
    return element
  }
  // The frame's own failures (timeout, abort) as the client's error type: the flow ends.
  const threeDs = (url: string, id: string) =>
    TE.mapLeft((e: { readonly _tag: string }) => networkError('3DS frame', 'no', 'other', e._tag))(
      openAuthenticationFrame({
        url,
        authenticationId: id,
        container: container('three-ds'),
        timeoutMs: 30_000,
      }),
    )
  return {
    paykit,
    client,
    chargeWith3ds: async (orderId) => {
      const card = await client.createPaymentMethod({
        card: adaCard(testCards.authentication.number),
      })()
      if (E.isLeft(card)) return card
      return client.chargeWith3ds(
        { order: { id: orderId, amount: 25.5 }, cardId: card.right.id },
        threeDs,
      )()
    },
    openCheckout: async (amount) => {
      const link = await client.createPaymentLink({ amount })()
      if (E.isLeft(link)) throw new Error(link.left.message)
      const frame = document.createElement('iframe')
      frame.id = 'checkout'
      frame.style.width = '600px'
      frame.style.height = '800px'
      frame.src = link.right.paymentLinkUrl
      container('pages').appendChild(frame)
      return link.right.orderCode
    },
    deliverWebhooks: async () => {
      await outbox.deliverAll()
      return [...received]
    },
  }
}

window.mswPage = start()
