import { validate } from '@paykit/core'
import { ChargeResponse } from '@paykit/core/codecs'
import { Money } from '@paykit/core/money'
import { Authentication, ChargeFlow, FrameMessage } from '@paykit/core/machines'
import * as E from 'fp-ts/lib/Either.js'
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { frameMessage, messageTypesOf } from '../../src/arbitraries/Authentication.js'
import { chargeResponse } from '../../src/arbitraries/Charge.js'

describe('frameMessage', () => {
  it('draws every status of spec 6.1, each with the MessageType the sandbox pairs it with', () => {
    const seen = new Set<string>()
    fc.assert(
      fc.property(frameMessage(), (json) => {
        const message = validate(FrameMessage)(json)
        if (message._tag === 'Left') throw new Error(JSON.stringify(message.left))
        seen.add(`${json.Status} ${json.MessageType}`)
        expect(messageTypesOf(json.Status)).toContain(json.MessageType)
      }),
      { numRuns: 300 },
    )
    expect([...seen].sort()).toEqual([
      'ERROR authentication.failed',
      'EXPIRED authentication.failed',
      'FAILED authentication.failed',
      'PENDING authentication.complete',
      'PENDING authentication.failed',
      'SUCCESS authentication.complete',
    ])
    expect(Authentication.AUTHENTICATION_STATUSES.every((s) => messageTypesOf(s).length > 0)).toBe(
      true,
    )
  })

  it("moves the core's charge flow as the status says: SUCCESS ready to retry, PENDING still awaiting, others failed", () => {
    const request = {
      order: { id: 'o1', amount: Money.fromCents(1250) },
      cardId: 'pm_000001',
      authenticationId: null,
    }
    const awaiting = fc
      .tuple(
        chargeResponse({
          statuses: ['AUTHENTICATION_REQUIRED'],
          order: { id: 'o1', amount: 12.5 },
        }),
      )
      .map(([json]) => {
        const response = validate(ChargeResponse)(json)
        if (response._tag === 'Left') throw new Error('does not decode')
        return ChargeFlow.reduce(
          ChargeFlow.start(request),
          ChargeFlow.chargeResponded(response.right),
        )
      })
    fc.assert(
      fc.property(
        awaiting.chain((state) =>
          fc.tuple(
            fc.constant(state),
            frameMessage({
              authenticationId:
                E.isRight(state) && state.right._tag === 'AwaitingAuthentication'
                  ? state.right.authenticationId
                  : 'none',
            }),
          ),
        ),
        ([state, json]) => {
          if (E.isLeft(state)) throw new Error(state.left.message)
          const message = validate(FrameMessage)(json)
          if (message._tag === 'Left') throw new Error('does not decode')
          const next = ChargeFlow.reduce(
            state.right,
            ChargeFlow.frameMessageReceived(message.right),
          )
          expect(E.isRight(next) && next.right._tag).toBe(
            json.Status === 'SUCCESS'
              ? 'ReadyToRetry'
              : json.Status === 'PENDING'
                ? 'AwaitingAuthentication'
                : 'AuthenticationFailed',
          )
          // The same message for another authentication does not apply.
          const other = {
            ...message.right,
            AuthenticationId: `${message.right.AuthenticationId}-other`,
          }
          expect(
            E.isLeft(ChargeFlow.reduce(state.right, ChargeFlow.frameMessageReceived(other))),
          ).toBe(true)
        },
      ),
      { numRuns: 200 },
    )
  })
})
