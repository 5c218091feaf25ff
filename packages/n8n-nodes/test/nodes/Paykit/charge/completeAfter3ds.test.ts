/** Charge → Complete After 3DS through the real n8n engine against the sandbox over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '@paykit/testkit/sandbox'
import { testCards } from '@paykit/testkit'
import { run, useSandbox } from '../../../support.js'
import {
  chargeNode,
  chargeRequests as chargeRequestsOf,
  paymentMethod as paymentMethodIn,
} from './support.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

const paymentMethod = (number: string) => paymentMethodIn(sandbox, number)
const chargeRequests = () => chargeRequestsOf(sandbox)

describe('Charge -> Complete After 3DS', () => {
  const start3ds = async (orderId: string) => {
    const card = await paymentMethod(testCards.authentication.number)
    const first = await run(sandbox, chargeNode({ orderId, amount: 10, cardId: card.id }))
    const json = first.nodes['Charge']?.[1]?.[0]?.json as {
      status: string
      authentication: { url: string; id: string }
    }
    expect(json.status).toBe('AUTHENTICATION_REQUIRED')
    return { card, authentication: json.authentication }
  }

  const complete = (parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    chargeNode({ operation: 'completeAfter3ds', amount: 10, ...parameters }, extra)

  const frameMessage = (orderId: string, id: string, messageType: string, status: string) => ({
    MessageType: messageType,
    Status: status,
    AuthenticationId: id,
    OrderId: orderId,
    OrderAmount: 10,
  })

  it('repeats the charge with the id from a frame message authentication.complete + SUCCESS', async () => {
    const { card, authentication } = await start3ds('3ds-ok')
    sandbox.completeAuthentication(authentication.id, 'success')
    const result = await run(
      sandbox,
      complete({ orderId: '3ds-ok', cardId: card.id, frameMessage: '={{ $json.message }}' }),
      [
        {
          message: frameMessage('3ds-ok', authentication.id, 'authentication.complete', 'SUCCESS'),
        },
      ],
    )
    expect(result.error).toBeUndefined()
    expect(result.nodes['Charge']?.[0]?.[0]?.json).toMatchObject({
      status: 'SUCCEEDED',
      request: { authenticationId: authentication.id },
    })
  })

  it('a failed authentication does not repeat the charge: an error naming frameMessage.Status', async () => {
    const { card, authentication } = await start3ds('3ds-failed')
    sandbox.completeAuthentication(authentication.id, 'failed')
    const before = chargeRequests().length
    const result = await run(
      sandbox,
      complete({
        orderId: '3ds-failed',
        cardId: card.id,
        frameMessage: JSON.stringify(
          frameMessage('3ds-failed', authentication.id, 'authentication.failed', 'FAILED'),
        ),
      }),
    )
    expect(result.error?.message).toContain('frameMessage.Status')
    expect(chargeRequests().length).toBe(before)
  })

  it('a malformed frame message names its field; a message for another order is refused', async () => {
    const { card, authentication } = await start3ds('3ds-bad')
    const bad = await run(
      sandbox,
      complete({ orderId: '3ds-bad', cardId: card.id, frameMessage: '{"MessageType":"x"}' }),
    )
    expect(bad.error?.message).toContain('frameMessage.MessageType')
    const other = await run(
      sandbox,
      complete({
        orderId: '3ds-bad',
        cardId: card.id,
        frameMessage: JSON.stringify(
          frameMessage('another-order', authentication.id, 'authentication.complete', 'SUCCESS'),
        ),
      }),
    )
    expect(other.error?.message).toContain('frameMessage.OrderId')
  })

  it('completes with an authentication id given directly', async () => {
    const { card, authentication } = await start3ds('3ds-id')
    sandbox.completeAuthentication(authentication.id, 'success')
    const result = await run(
      sandbox,
      complete({
        orderId: '3ds-id',
        cardId: card.id,
        authenticationFrom: 'authenticationId',
        authenticationId: authentication.id,
      }),
    )
    expect(result.nodes['Charge']?.[0]?.[0]?.json.status).toBe('SUCCEEDED')
  })
})
