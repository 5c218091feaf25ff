import { PaymentLinkRequest, PaymentMethodRequest, validate } from '@paykit/core'
import * as fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import {
  invalidPaymentMethodRequest,
  paymentMethodRequest,
} from '../../src/arbitraries/PaymentMethod.js'
import type { Send } from '../../src/properties/Http.js'
import { refusesBeforeSending, sendsValid } from '../../src/properties/Http.js'
import { describeRefusesBeforeSending } from '../../src/vitest/index.js'

vi.setConfig({ testTimeout: 60_000 })

// A small integration: it validates with the core, then sends over a transport that
// counts requests (a real wrapper would call the service there).
const wrapper =
  (check: (input: unknown) => ReturnType<ReturnType<typeof validate>>): Send =>
  async (input) => {
    let requestsSent = 0
    const transport = async (body: string): Promise<number> => {
      requestsSent += 1
      return Promise.resolve(body.length)
    }
    const result = check(input)
    if (result._tag === 'Left') return { requestsSent, fieldErrors: result.left }
    await transport(JSON.stringify(input))
    return { requestsSent }
  }

describeRefusesBeforeSending({ send: wrapper(validate(PaymentLinkRequest)) })
describeRefusesBeforeSending({
  name: 'refuses invalid cards before sending',
  send: wrapper(validate(PaymentMethodRequest)),
  valid: paymentMethodRequest(),
  invalid: invalidPaymentMethodRequest(),
})

const fails = async <Ts extends [unknown]>(property: fc.IAsyncProperty<Ts>): Promise<boolean> =>
  (await fc.check(property, { numRuns: 200, seed: 5 })).failed

describe('refusesBeforeSending fails', () => {
  it('for an integration that sends first and reports the service answer after', async () => {
    const late: Send = async (input) => {
      const outcome = await wrapper(validate(PaymentLinkRequest))(input)
      return { ...outcome, requestsSent: 1 }
    }
    expect(await fails(refusesBeforeSending(late))).toBe(true)
  })

  it('for an integration that refuses without naming the field', async () => {
    const vague: Send = async (input) => {
      const outcome = await wrapper(validate(PaymentLinkRequest))(input)
      return outcome.fieldErrors === undefined
        ? outcome
        : { requestsSent: 0, fieldErrors: [{ path: '', message: 'invalid request' }] }
    }
    expect(await fails(refusesBeforeSending(vague))).toBe(true)
  })
})

describe('sendsValid fails', () => {
  it('for an integration that refuses a valid request (a stricter rule than the spec)', async () => {
    const strict: Send = async (input) =>
      typeof input === 'object' && input !== null && 'orderDescription' in input
        ? { requestsSent: 0, fieldErrors: [{ path: 'orderDescription', message: 'no' }] }
        : wrapper(validate(PaymentLinkRequest))(input)
    expect(await fails(sendsValid(strict))).toBe(true)
    expect(await fails(sendsValid(wrapper(validate(PaymentLinkRequest))))).toBe(false)
  })
})
