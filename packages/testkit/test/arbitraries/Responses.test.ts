// Every response and event arbitrary against the core's codec for it: each value decodes
// (Right), and encode -> JSON -> decode gives the value back (amounts as JSON numbers).
import { validate } from '@paykit/core'
import {
  AccessToken,
  ChargeResponse,
  OrderDetails,
  PaymentLinkResponse,
  PaymentMethod,
  ProblemDetails,
  ServerProblem,
  ValidationProblem,
} from '@paykit/core/codecs'
import { FrameMessage } from '@paykit/core/machines'
import { WebhookEvent } from '@paykit/core/webhook'
import * as E from 'fp-ts/lib/Either.js'
import * as fc from 'fast-check'
import type * as t from 'io-ts'
import { describe, expect, it, vi } from 'vitest'
import { frameMessage } from '../../src/arbitraries/Authentication.js'
import { chargeResponse } from '../../src/arbitraries/Charge.js'
import { orderDetails, orderLineItem } from '../../src/arbitraries/Order.js'
import { paymentLinkResponse } from '../../src/arbitraries/PaymentLink.js'
import { paymentMethod } from '../../src/arbitraries/PaymentMethod.js'
import {
  problemDetails,
  serverProblemDetails,
  validationProblemDetails,
} from '../../src/arbitraries/Problem.js'
import { accessToken } from '../../src/arbitraries/Token.js'
import { webhookEvent } from '../../src/arbitraries/WebhookEvent.js'
import { OrderLineItem } from '@paykit/core/pure'

vi.setConfig({ testTimeout: 60_000 })

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table of unrelated codecs
type AnyCodec = t.Type<any, any, unknown>

const table: ReadonlyArray<readonly [string, AnyCodec, fc.Arbitrary<unknown>]> = [
  ['accessToken', AccessToken, accessToken()],
  ['paymentMethod', PaymentMethod, paymentMethod()],
  ['chargeResponse', ChargeResponse, chargeResponse()],
  ['paymentLinkResponse', PaymentLinkResponse, paymentLinkResponse()],
  ['orderLineItem', OrderLineItem, orderLineItem()],
  ['orderDetails', OrderDetails, orderDetails()],
  ['webhookEvent', WebhookEvent, webhookEvent()],
  ['frameMessage', FrameMessage, frameMessage()],
  ['validationProblemDetails', ValidationProblem, validationProblemDetails()],
  ['serverProblemDetails', ServerProblem, serverProblemDetails()],
  ['problemDetails', ProblemDetails, problemDetails()],
]

describe.each(table)('%s', (_, codec, arbitrary) => {
  it("decodes with the core's codec, and encode -> JSON -> decode gives the same value", () => {
    fc.assert(
      fc.property(arbitrary, (json) => {
        const decoded = validate(codec)(json)
        if (E.isLeft(decoded)) throw new Error(JSON.stringify(decoded.left))
        const encoded: unknown = codec.encode(decoded.right)
        expect(encoded).toEqual(json)
        const again = validate(codec)(JSON.parse(JSON.stringify(encoded)))
        expect(E.isRight(again) && codec.encode(again.right)).toEqual(json)
      }),
      { numRuns: 300 },
    )
  })

  it('is plain JSON (nothing JSON.stringify would drop or change)', () => {
    for (const json of fc.sample(arbitrary, 100))
      expect(JSON.parse(JSON.stringify(json))).toEqual(json)
  })
})
