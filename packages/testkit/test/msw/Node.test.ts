// @paykit-test own-worker: MSW's patched fetch
// @paykit/testkit/msw with setupServer beside the testkit's root, as a user's test file has
// it (signedWebhook and payOnCheckoutPage come from `@paykit/testkit`): run on MSW 2 and on
// MSW 3 (project testkit-msw3). The root used to load nock, which takes over `fetch` as it
// loads, and MSW 3's listen() then threw `Failed to replace a global value at "fetch"`.
import * as E from 'fp-ts/lib/Either.js'
import { createClient } from '@paykit/core'
import { Money } from '@paykit/core/money'
import { verifyWebhookEvent } from '@paykit/core/webhook'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { defaultCredentials } from '../../src/index.js'
import { signedWebhook } from '../../src/service/index.js'
import { payOnCheckoutPage } from '../../src/buyer/index.js'
import { paykitHandlers } from '../../src/msw/index.js'

const SECRET = 'whsec-msw-node'
const paykit = paykitHandlers({ baseUrl: 'https://paykit-msw-node.test' })
const server = setupServer(...paykit.handlers)

// MSW 2 reads onUnhandledRequest, MSW 3 onUnhandledFrame (it ignores the other name).
const strict = { onUnhandledRequest: 'error', onUnhandledFrame: 'error' } as const
beforeAll(() => server.listen(strict))
beforeEach(() => paykit.reset())
afterAll(() => {
  server.close()
  paykit.release()
})

describe('paykitHandlers in Node, beside the root @paykit/testkit', () => {
  it('a link paid on the checkout page: PAID read back, a signed order.paid delivered', async () => {
    const received: Array<{ readonly body: string; readonly header: string | undefined }> = []
    const outbox = paykit.webhooks({
      secret: SECRET,
      sign: signedWebhook,
      handler: async (body, headers) => {
        received.push({ body, header: headers['paykit-signature'] })
        return { status: 200 }
      },
    })
    const client = createClient({ baseUrl: paykit.baseUrl, credentials: defaultCredentials })
    const link = await client.createPaymentLink({
      amount: 19.99,
      orderReference: 'msw-node-1',
      successUrl: 'https://shop.example/thanks',
    })()
    if (E.isLeft(link)) throw new Error(link.left.message)
    const page = await payOnCheckoutPage(link.right.paymentLinkUrl)
    expect(page.headers.get('location')).toBe('https://shop.example/thanks')
    const order = await client.getOrder(link.right.orderCode)()
    expect(E.isRight(order) && order.right.orderStatus).toBe('PAID')
    expect(await outbox.deliverAll()).toEqual([
      expect.objectContaining({ type: 'order.paid', status: 200, duplicate: false }),
    ])
    const [sent] = received
    const verified = verifyWebhookEvent({
      secret: SECRET,
      body: sent?.body ?? '',
      header: sent?.header,
      now: new Date(),
    })
    expect(E.isRight(verified) && verified.right.data.orderReference).toBe('msw-node-1')
    expect(E.isRight(verified) && Money.toString(verified.right.data.total)).toBe('19.99')
  })

  it('a dropped connection on a charge: outcome unknown, sent once', async () => {
    paykit.injectFault({ kind: 'connectionReset' }, { method: 'POST', path: '/charges', times: 1 })
    const client = createClient({ baseUrl: paykit.baseUrl, credentials: defaultCredentials })
    const charged = await client.charge({ order: { id: 'o-1', amount: 5 }, cardId: 'pm_1' })()
    expect(E.isLeft(charged) && charged.left.outcomeUnknown).toBe(true)
    expect(paykit.requests().filter((r) => r.path === '/charges')).toHaveLength(1)
  })
})
