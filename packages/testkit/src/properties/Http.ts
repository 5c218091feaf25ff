/**
 * The HTTP-level properties: an integration (a client, an n8n node, the integrator's own
 * wrapper) refuses every invalid request before any request leaves it, naming the field,
 * and sends every valid one. The vitest suite, `describeRefusesBeforeSending`, is in
 * `@paykit/testkit/vitest`.
 *
 * @since 0.1.0
 */
import type { FieldError } from '@paykit/core'
import * as fc from 'fast-check'
import type { Invalid } from '../arbitraries/Common.js'
import type { PaymentLinkArbitraryOptions } from '../arbitraries/PaymentLink.js'
import { invalidPaymentLinkRequest, paymentLinkRequest } from '../arbitraries/PaymentLink.js'
import { assertNamesField } from './Validation.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * What the integration under test did with one input: how many HTTP requests it sent
 * (count them with nock, the testkit's request log or a transport spy) and, when it refused
 * the input, the field errors it reported.
 *
 * @category model
 * @since 0.1.0
 */
export interface SendOutcome {
  readonly requestsSent: number
  readonly fieldErrors?: ReadonlyArray<FieldError>
}

/**
 * The integration under test: sends one input (a fresh HTTP mock per call, or a counter
 * reset per call) and says what happened. It must not throw for an invalid input.
 *
 * @category model
 * @since 0.1.0
 */
export type Send = (input: unknown) => Promise<SendOutcome>

/**
 * Options of `describeRefusesBeforeSending`.
 *
 * @category model
 * @since 0.1.0
 */
export interface RefusesBeforeSendingOptions {
  readonly send: Send
  /** The suite's title (default `refuses invalid payment-link requests before sending`). */
  readonly name?: string
  /** Valid inputs (default: `paymentLinkRequest(arbitrary)`). */
  readonly valid?: fc.Arbitrary<unknown>
  /** Invalid inputs (default: `invalidPaymentLinkRequest(arbitrary)`). */
  readonly invalid?: fc.Arbitrary<Invalid>
  /** Options of the default payment-link arbitraries (a catalogue of skus, for instance). */
  readonly arbitrary?: PaymentLinkArbitraryOptions
  /** Whether to check that valid inputs are sent (default true). */
  readonly checkValid?: boolean
  readonly numRuns?: number
  readonly seed?: number
  /** The vitest timeout of each test in milliseconds (default 60000). */
  readonly timeout?: number
}

// -------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------

/**
 * Every invalid input is refused with no request sent, and the refusal names its field
 * and no unrelated one.
 *
 * @example
 * ```ts
 * import { refusesBeforeSending, type Send } from '@paykit/testkit'
 * import { PaymentLinkRequest, validate } from '@paykit/core'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * // An integration that validates with the core before it sends anything.
 * const send: Send = async (input) => {
 *   const checked = validate(PaymentLinkRequest)(input)
 *   if (checked._tag === 'Left') return { requestsSent: 0, fieldErrors: checked.left }
 *   return { requestsSent: 1 } // here it would POST /paymentlink/checkout
 * }
 * await fc.assert(refusesBeforeSending(send), { numRuns: 20 })
 * // One that sends everything fails the property.
 * const sendsAll: Send = async () => ({ requestsSent: 1 })
 * await assert.rejects(fc.assert(refusesBeforeSending(sendsAll), { numRuns: 5 }))
 * ```
 *
 * @category properties
 * @since 0.1.0
 */
export const refusesBeforeSending = (
  send: Send,
  invalid: fc.Arbitrary<Invalid> = invalidPaymentLinkRequest(),
): fc.IAsyncPropertyWithHooks<[Invalid]> =>
  fc.asyncProperty(invalid, async (record) => {
    const outcome = await send(record.value)
    if (outcome.requestsSent !== 0) {
      throw new Error(
        `an invalid request (${record.field}: ${record.rule}) was sent ${outcome.requestsSent} time(s)`,
      )
    }
    if (outcome.fieldErrors === undefined || outcome.fieldErrors.length === 0) {
      throw new Error(`an invalid request (${record.field}: ${record.rule}) got no field errors`)
    }
    assertNamesField(record, outcome.fieldErrors)
  })

/**
 * Every valid input is sent (at least one request leaves the integration): nothing valid
 * is refused on the way.
 *
 * @example
 * ```ts
 * import { sendsValid, type Send } from '@paykit/testkit'
 * import { PaymentLinkRequest, validate } from '@paykit/core'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * // An integration that validates with the core before it sends anything.
 * const send: Send = async (input) => {
 *   const checked = validate(PaymentLinkRequest)(input)
 *   if (checked._tag === 'Left') return { requestsSent: 0, fieldErrors: checked.left }
 *   return { requestsSent: 1 } // here it would POST /paymentlink/checkout
 * }
 * await fc.assert(sendsValid(send), { numRuns: 20 })
 * // One that refuses what it should send fails the property.
 * const refusesAll: Send = async () => ({ requestsSent: 0, fieldErrors: [] })
 * await assert.rejects(fc.assert(sendsValid(refusesAll), { numRuns: 5 }))
 * ```
 *
 * @category properties
 * @since 0.1.0
 */
export const sendsValid = (
  send: Send,
  valid: fc.Arbitrary<unknown> = paymentLinkRequest(),
): fc.IAsyncPropertyWithHooks<[unknown]> =>
  fc.asyncProperty(valid, async (input) => {
    const outcome = await send(input)
    if (outcome.requestsSent < 1) {
      const fields = (outcome.fieldErrors ?? []).map((e) => e.path)
      throw new Error(`a valid request was not sent (refused at ${JSON.stringify(fields)})`)
    }
  })
