/**
 * Property suites of a validation function: every valid request is accepted, every invalid
 * one is refused naming its field (and no unrelated field), and nothing ever throws. Each
 * is a fast-check `asyncProperty`, for any runner; `@paykit/testkit/vitest` registers them
 * as vitest tests in one call.
 *
 * @since 0.2.0
 */
import type { FieldError } from '@paykit/core'
import * as fc from 'fast-check'
import type { Invalid } from '../arbitraries/Common.js'
import { namedFields } from '../arbitraries/Common.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The result of a validation: fp-ts `Either`, field errors on the left.
 *
 * @category model
 * @since 0.2.0
 */
export type Validation =
  | { readonly _tag: 'Left'; readonly left: ReadonlyArray<FieldError> }
  | { readonly _tag: 'Right'; readonly right: unknown }

/**
 * The validation function under test (the core's `validate(Codec)` or the integrator's own),
 * synchronous or not.
 *
 * @category model
 * @since 0.2.0
 */
export type Validate = (input: unknown) => Validation | Promise<Validation>

/**
 * Options of every `describe...Validation` suite.
 *
 * @category model
 * @since 0.2.0
 */
export interface ValidationSuiteOptions {
  readonly validate: Validate
  /** Runs per property (fast-check's default, 100, when absent). */
  readonly numRuns?: number
  /** A fixed seed, to replay a failure. */
  readonly seed?: number
  /** The vitest timeout of each test in milliseconds (default 30000). */
  readonly timeout?: number
}

/**
 * What a validation suite checks: the arbitraries of valid and invalid inputs.
 *
 * @category model
 * @since 0.2.0
 */
export interface ValidationSuite {
  readonly valid: fc.Arbitrary<unknown>
  readonly invalid: fc.Arbitrary<Invalid>
  /** Strings that must never appear in an error message (a card number, a CVV). */
  readonly secretsOf?: (input: unknown) => ReadonlyArray<string>
}

/**
 * The three properties of a validation suite, as fast-check async properties.
 *
 * @category model
 * @since 0.2.0
 */
export interface ValidationProperties {
  readonly acceptsValid: fc.IAsyncPropertyWithHooks<[unknown]>
  readonly refusesInvalid: fc.IAsyncPropertyWithHooks<[Invalid]>
  readonly neverThrows: fc.IAsyncPropertyWithHooks<[unknown]>
}

// -------------------------------------------------------------------------------------
// checks (throw an Error that says what went wrong; fast-check reports the counterexample)
// -------------------------------------------------------------------------------------

/**
 * Whether error `path` concerns the field `field`: the field itself or a field below it.
 *
 * @example
 * ```ts
 * import { concerns } from '@paykit/testkit/properties'
 * import assert from 'node:assert/strict'
 *
 * assert.ok(concerns('lineItems', 'lineItems'))
 * assert.ok(concerns('lineItems', 'lineItems[0].sku')) // a field below it
 * assert.ok(concerns('card', 'card.number'))
 * assert.ok(!concerns('card', 'cardId')) // another field that merely starts the same
 * assert.ok(!concerns('', 'amount')) // the body as a whole concerns only ''
 * ```
 *
 * @category checks
 * @since 0.2.0
 */
export const concerns = (field: string, path: string): boolean =>
  path === field || (field !== '' && (path.startsWith(`${field}.`) || path.startsWith(`${field}[`)))

const listed = (errors: ReadonlyArray<FieldError>): string =>
  JSON.stringify(errors.map((e) => e.path))

/**
 * Throws unless `errors` name every field `invalid` names and nothing else.
 *
 * @example
 * ```ts
 * import { type Invalid } from '@paykit/testkit/arbitraries'
 * import { assertNamesField } from '@paykit/testkit/properties'
 * import assert from 'node:assert/strict'
 *
 * const invalid: Invalid = {
 *   value: { clientId: '' },
 *   field: 'clientId',
 *   rule: 'clientId is not empty',
 * }
 * assertNamesField(invalid, [{ path: 'clientId', message: 'must not be empty' }])
 * // Not naming the field, or naming an unrelated one too, throws.
 * assert.throws(() => assertNamesField(invalid, [{ path: '', message: 'invalid body' }]))
 * assert.throws(() =>
 *   assertNamesField(invalid, [
 *     { path: 'clientId', message: 'must not be empty' },
 *     { path: 'clientSecret', message: 'is required' },
 *   ]),
 * )
 * ```
 *
 * @category checks
 * @since 0.2.0
 */
export const assertNamesField = (invalid: Invalid, errors: ReadonlyArray<FieldError>): void => {
  const fields = namedFields(invalid)
  const missing = fields.filter((field) => !errors.some((e) => e.path === field))
  if (missing.length > 0) {
    throw new Error(
      `refusal (${invalid.rule}) does not name ${JSON.stringify(missing)}; it names ${listed(errors)}`,
    )
  }
  const unrelated = errors.filter((e) => !fields.some((field) => concerns(field, e.path)))
  if (unrelated.length > 0) {
    throw new Error(
      `refusal (${invalid.rule}) of ${JSON.stringify(fields)} also names unrelated ${listed(unrelated)}`,
    )
  }
}

/**
 * Throws when a message of `errors` contains one of `secrets`.
 *
 * @example
 * ```ts
 * import { cardSecretsOf } from '@paykit/testkit/arbitraries'
 * import { assertNoSecrets } from '@paykit/testkit/properties'
 * import assert from 'node:assert/strict'
 *
 * const body = { card: { number: '4000000000000002', cvv: '123' } }
 * const secrets = cardSecretsOf(body)
 * assertNoSecrets(secrets, [{ path: 'card.expirationMonth', message: 'is required' }])
 * assert.throws(
 *   () => assertNoSecrets(secrets, [{ path: 'card.number', message: 'bad 4000000000000002' }]),
 *   /repeats a card number or CVV/,
 * )
 * ```
 *
 * @category checks
 * @since 0.2.0
 */
export const assertNoSecrets = (
  secrets: ReadonlyArray<string>,
  errors: ReadonlyArray<FieldError>,
): void => {
  for (const e of errors) {
    if (secrets.some((secret) => e.message.includes(secret) || e.path.includes(secret))) {
      throw new Error(`the error at ${JSON.stringify(e.path)} repeats a card number or CVV`)
    }
  }
}

const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === 'object' && u !== null

const isFieldError = (u: unknown): boolean =>
  isRecord(u) && typeof u['path'] === 'string' && typeof u['message'] === 'string'

const isValidation = (u: unknown): u is Validation =>
  isRecord(u) &&
  (u['_tag'] === 'Right' ||
    (u['_tag'] === 'Left' && Array.isArray(u['left']) && u['left'].every(isFieldError)))

// -------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------

/**
 * Every value of `valid` is accepted (Right).
 *
 * @example
 * ```ts
 * import { tokenRequest } from '@paykit/testkit/arbitraries'
 * import { acceptsValid } from '@paykit/testkit/properties'
 * import { validate } from '@paykit/core'
 * import { TokenRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * await fc.assert(acceptsValid(validate(TokenRequest), tokenRequest()), { numRuns: 20 })
 * // A validation that refuses a valid request fails the property.
 * const refusesAll = () => ({ _tag: 'Left', left: [{ path: '', message: 'no' }] }) as const
 * await assert.rejects(fc.assert(acceptsValid(refusesAll, tokenRequest()), { numRuns: 5 }))
 * ```
 *
 * @category properties
 * @since 0.2.0
 */
export const acceptsValid = (
  validate: Validate,
  valid: fc.Arbitrary<unknown>,
): fc.IAsyncPropertyWithHooks<[unknown]> =>
  fc.asyncProperty(valid, async (input) => {
    const result = await validate(input)
    if (result._tag === 'Left') {
      throw new Error(`a valid request was refused at ${listed(result.left)}`)
    }
  })

/**
 * Every value of `invalid` is refused (Left) naming its field and no unrelated one, and no
 * message repeats a secret of the input.
 *
 * @example
 * ```ts
 * import { invalidTokenRequest } from '@paykit/testkit/arbitraries'
 * import { refusesInvalid } from '@paykit/testkit/properties'
 * import { validate } from '@paykit/core'
 * import { TokenRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * await fc.assert(refusesInvalid(validate(TokenRequest), invalidTokenRequest()), { numRuns: 20 })
 * // A validation that accepts everything fails the property.
 * const acceptsAll = (input: unknown) => ({ _tag: 'Right', right: input }) as const
 * await assert.rejects(
 *   fc.assert(refusesInvalid(acceptsAll, invalidTokenRequest()), { numRuns: 5 }),
 * )
 * ```
 *
 * @category properties
 * @since 0.2.0
 */
export const refusesInvalid = (
  validate: Validate,
  invalid: fc.Arbitrary<Invalid>,
  secretsOf: (input: unknown) => ReadonlyArray<string> = () => [],
): fc.IAsyncPropertyWithHooks<[Invalid]> =>
  fc.asyncProperty(invalid, async (record) => {
    const result = await validate(record.value)
    if (result._tag === 'Right') {
      throw new Error(`an invalid request (${record.field}: ${record.rule}) was accepted`)
    }
    assertNamesField(record, result.left)
    assertNoSecrets(secretsOf(record.value), result.left)
  })

/**
 * Validation never throws and always answers an Either of field errors, on any value at all
 * (`inputs`, default `fc.anything()`).
 *
 * @example
 * ```ts
 * import { neverThrows } from '@paykit/testkit/properties'
 * import { validate } from '@paykit/core'
 * import { PaymentLinkRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * await fc.assert(neverThrows(validate(PaymentLinkRequest)), { numRuns: 50 })
 * // A validation that throws on some input fails the property.
 * const fragile = (input: unknown) => {
 *   if (input === null) throw new TypeError('cannot read null')
 *   return { _tag: 'Right', right: input } as const
 * }
 * await assert.rejects(fc.assert(neverThrows(fragile, fc.constant(null)), { numRuns: 1 }))
 * ```
 *
 * @category properties
 * @since 0.2.0
 */
export const neverThrows = (
  validate: Validate,
  inputs: fc.Arbitrary<unknown> = fc.anything(),
): fc.IAsyncPropertyWithHooks<[unknown]> =>
  fc.asyncProperty(inputs, async (input) => {
    const result: unknown = await validate(input)
    if (!isValidation(result)) throw new Error('validation did not answer an Either')
  })

/**
 * Any value at all: `fc.anything()`, and the invalid inputs (near misses of a request).
 *
 * @example
 * ```ts
 * import { invalidTokenRequest } from '@paykit/testkit/arbitraries'
 * import { anythingAnd, neverThrows } from '@paykit/testkit/properties'
 * import { validate } from '@paykit/core'
 * import { TokenRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * // Any value, and near misses of a token request among them.
 * const inputs = anythingAnd(invalidTokenRequest())
 * const nearMiss = (u: unknown) => typeof u === 'object' && u !== null && 'clientSecret' in u
 * assert.ok(fc.sample(inputs, 100).some(nearMiss))
 * await fc.assert(neverThrows(validate(TokenRequest), inputs), { numRuns: 50 })
 * ```
 *
 * @category properties
 * @since 0.2.0
 */
export const anythingAnd = (invalid: fc.Arbitrary<Invalid>): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.anything(),
    invalid.map((record) => record.value),
  )

/**
 * The three properties of a validation suite, for runners other than vitest.
 *
 * @example
 * ```ts
 * import { invalidTokenRequest, tokenRequest } from '@paykit/testkit/arbitraries'
 * import { validationProperties } from '@paykit/testkit/properties'
 * import { validate } from '@paykit/core'
 * import { TokenRequest } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 *
 * const properties = validationProperties(validate(TokenRequest), {
 *   valid: tokenRequest(),
 *   invalid: invalidTokenRequest(),
 * })
 * await fc.assert(properties.acceptsValid, { numRuns: 20 })
 * await fc.assert(properties.refusesInvalid, { numRuns: 20 })
 * await fc.assert(properties.neverThrows, { numRuns: 20 })
 * ```
 *
 * @category properties
 * @since 0.2.0
 */
export const validationProperties = (
  validate: Validate,
  suite: ValidationSuite,
): ValidationProperties => ({
  acceptsValid: acceptsValid(validate, suite.valid),
  refusesInvalid: refusesInvalid(validate, suite.invalid, suite.secretsOf),
  neverThrows: neverThrows(validate, anythingAnd(suite.invalid)),
})

// -------------------------------------------------------------------------------------
// parameters
// -------------------------------------------------------------------------------------

/**
 * fast-check parameters from suite options (only those given).
 *
 * @example
 * ```ts
 * import { parametersOf } from '@paykit/testkit/properties'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(parametersOf({ numRuns: 20, seed: 42 }), { numRuns: 20, seed: 42 })
 * assert.deepEqual(parametersOf({}), {}) // fast-check's defaults
 * ```
 *
 * @category parameters
 * @since 0.2.0
 */
export const parametersOf = <Ts>(options: {
  readonly numRuns?: number
  readonly seed?: number
}): fc.Parameters<Ts> => ({
  ...(options.numRuns === undefined ? {} : { numRuns: options.numRuns }),
  ...(options.seed === undefined ? {} : { seed: options.seed }),
})
