/**
 * The HTTP-level properties: an integration (a client, an n8n node, the integrator's own
 * wrapper) refuses every invalid request before any request leaves it, naming the field,
 * and sends every valid one. The vitest suite, `describeRefusesBeforeSending`, is in
 * `@paykit/testkit/vitest`.
 *
 * @since 0.2.0
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
 * @since 0.2.0
 */
export interface SendOutcome {
  readonly requestsSent: number
  readonly fieldErrors?: ReadonlyArray<FieldError>
}

/**
 * The integration under test: sends one input (a generated body, or with `map` its own
 * input `A`; a fresh HTTP mock per call, or a counter reset per call) and says what
 * happened. It must not throw for an invalid input.
 *
 * @category model
 * @since 0.2.0
 */
export type Send<A = unknown> = (input: A) => Promise<SendOutcome>

/**
 * How generated request bodies reach an integration whose input is its own domain type
 * (`{ sku, qty, priceCents }` rather than a payment-link body): `map` turns a body into
 * that input, or `undefined` for a body the type cannot hold (it is left out; so is an
 * invalid body whose broken part the type has no place for: `map` must never drop what
 * makes a body invalid). `covers`, when given, keeps only the invalid bodies broken at a
 * field it accepts (`(field) => field.startsWith('lineItems')`).
 *
 * @category model
 * @since 0.2.0
 */
export interface InputMapping<A> {
  readonly map: (body: unknown) => A | undefined
  readonly covers?: (field: string) => boolean
}

/**
 * Options of `describeRefusesBeforeSending`: `send` takes the generated bodies as they
 * are, or, with `map` (see {@link InputMapping}), the integration's own input.
 *
 * @category model
 * @since 0.2.0
 */
export interface RefusesBeforeSendingOptions<A = unknown> {
  readonly send: Send<A>
  /** From a generated body to the integration's input (`undefined`: leave it out). */
  readonly map?: (body: unknown) => A | undefined
  /** Which broken fields the integration's input can hold (default: all). */
  readonly covers?: (field: string) => boolean
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
// combinators
// -------------------------------------------------------------------------------------

/**
 * The invalid bodies an integration's own input can hold, mapped to it: each record's
 * `value` is `map(body)`, its `field` and `rule` those of the body (left out: the bodies
 * `map` gives `undefined` for, and those broken where `covers` says no).
 *
 * @example
 * ```ts
 * import { invalidPaymentLinkRequest } from '@paykit/testkit/arbitraries'
 * import { mapInvalid } from '@paykit/testkit/properties'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * // An input that holds only the amount, in cents.
 * const map = (body: unknown) => {
 *   const amount = (body as { amount?: unknown } | null)?.amount
 *   return amount === undefined ? undefined : { cents: typeof amount === 'number' ? amount * 100 : amount }
 * }
 * const invalid = mapInvalid(invalidPaymentLinkRequest({ shapes: ['amount'] }), {
 *   map,
 *   covers: (field) => field === 'amount',
 * })
 * for (const { value, field } of fc.sample(invalid, 10)) {
 *   assert.equal(field, 'amount')
 *   assert.ok(typeof value === 'object' && value !== null && 'cents' in value)
 * }
 * ```
 *
 * @category combinators
 * @since 0.2.0
 */
export const mapInvalid = <A>(
  invalid: fc.Arbitrary<Invalid>,
  mapping: InputMapping<A>,
): fc.Arbitrary<Invalid & { readonly value: A }> =>
  invalid
    .filter((record) => mapping.covers === undefined || mapping.covers(record.field))
    .map((record) => ({ record, value: mapping.map(record.value) }))
    .filter((m): m is { record: Invalid; value: A } => m.value !== undefined)
    .map(({ record, value }) => ({ ...record, value }))

/**
 * The valid bodies an integration's own input can hold, mapped to it (left out: those
 * `map` gives `undefined` for).
 *
 * @example
 * ```ts
 * import { paymentLinkRequest } from '@paykit/testkit/arbitraries'
 * import { mapValid } from '@paykit/testkit/properties'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * const cents = mapValid(paymentLinkRequest({ shapes: ['amount'] }), {
 *   map: (body) => Math.round((body as { amount: number }).amount * 100),
 * })
 * for (const c of fc.sample(cents, 10)) assert.ok(Number.isSafeInteger(c) && c > 0)
 * ```
 *
 * @category combinators
 * @since 0.2.0
 */
export const mapValid = <A>(
  valid: fc.Arbitrary<unknown>,
  mapping: Pick<InputMapping<A>, 'map'>,
): fc.Arbitrary<A> => valid.map((body) => mapping.map(body)).filter((a): a is A => a !== undefined)

/**
 * The valid and invalid inputs a `describeRefusesBeforeSending` suite sends: the options'
 * (payment-link bodies by default), through `map` when given.
 *
 * @example
 * ```ts
 * import { suiteInputs } from '@paykit/testkit/properties'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * const { valid, invalid } = suiteInputs({ send: async () => ({ requestsSent: 0 }) })
 * assert.ok(fc.sample(valid, 5).length === 5 && fc.sample(invalid, 5).length === 5)
 * ```
 *
 * @category combinators
 * @since 0.2.0
 */
export const suiteInputs = <A>(
  options: RefusesBeforeSendingOptions<A>,
): { readonly valid: fc.Arbitrary<A>; readonly invalid: fc.Arbitrary<Invalid> } => {
  const invalid = options.invalid ?? invalidPaymentLinkRequest(options.arbitrary)
  const valid = options.valid ?? paymentLinkRequest(options.arbitrary)
  const { map, covers } = options
  const covered = covers === undefined ? invalid : invalid.filter((r) => covers(r.field))
  return map === undefined
    ? { valid: valid as fc.Arbitrary<A>, invalid: covered }
    : { valid: mapValid(valid, { map }), invalid: mapInvalid(covered, { map }) }
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
 * import { refusesBeforeSending, type Send } from '@paykit/testkit/properties'
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest } from '@paykit/core/codecs'
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
 * @since 0.2.0
 */
export const refusesBeforeSending = <A = unknown>(
  send: Send<A>,
  invalid: fc.Arbitrary<Invalid> = invalidPaymentLinkRequest(),
): fc.IAsyncPropertyWithHooks<[Invalid]> =>
  fc.asyncProperty(invalid, async (record) => {
    const outcome = await send(record.value as A)
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
 * import { sendsValid, type Send } from '@paykit/testkit/properties'
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest } from '@paykit/core/codecs'
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
 * @since 0.2.0
 */
export const sendsValid = <A = unknown>(
  send: Send<A>,
  valid: fc.Arbitrary<A> = paymentLinkRequest() as fc.Arbitrary<A>,
): fc.IAsyncPropertyWithHooks<[A]> =>
  fc.asyncProperty(valid, async (input) => {
    const outcome = await send(input)
    if (outcome.requestsSent < 1) {
      const fields = (outcome.fieldErrors ?? []).map((e) => e.path)
      throw new Error(`a valid request was not sent (refused at ${JSON.stringify(fields)})`)
    }
  })
