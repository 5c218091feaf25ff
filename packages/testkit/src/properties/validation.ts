/**
 * Property suites of a validation function: every valid request is accepted, every invalid
 * one is refused naming its field (and no unrelated field), and nothing ever throws. Each
 * is a fast-check `asyncProperty`, for any runner; `@paykit/testkit/vitest` registers them
 * as vitest tests in one call.
 *
 * @since 0.1.0
 */
import type { FieldError } from '@paykit/core'
import * as fc from 'fast-check'
import type { Invalid } from '../arbitraries/common.js'
import { namedFields } from '../arbitraries/common.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The result of a validation: fp-ts `Either`, field errors on the left.
 *
 * @category model
 * @since 0.1.0
 */
export type Validation =
  | { readonly _tag: 'Left'; readonly left: ReadonlyArray<FieldError> }
  | { readonly _tag: 'Right'; readonly right: unknown }

/**
 * The validation function under test (the core's `validate(Codec)` or the integrator's own),
 * synchronous or not.
 *
 * @category model
 * @since 0.1.0
 */
export type Validate = (input: unknown) => Validation | Promise<Validation>

/**
 * Options of every `describe...Validation` suite.
 *
 * @category model
 * @since 0.1.0
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
 * @since 0.1.0
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
 * @since 0.1.0
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
 * @category checks
 * @since 0.1.0
 */
export const concerns = (field: string, path: string): boolean =>
  path === field || (field !== '' && (path.startsWith(`${field}.`) || path.startsWith(`${field}[`)))

const listed = (errors: ReadonlyArray<FieldError>): string =>
  JSON.stringify(errors.map((e) => e.path))

/**
 * Throws unless `errors` name every field `invalid` names and nothing else.
 *
 * @category checks
 * @since 0.1.0
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
 * @category checks
 * @since 0.1.0
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
 * @category properties
 * @since 0.1.0
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
 * @category properties
 * @since 0.1.0
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
 * @category properties
 * @since 0.1.0
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
 * @category properties
 * @since 0.1.0
 */
export const anythingAnd = (invalid: fc.Arbitrary<Invalid>): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.anything(),
    invalid.map((record) => record.value),
  )

/**
 * The three properties of a validation suite, for runners other than vitest.
 *
 * @category properties
 * @since 0.1.0
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
 * @category parameters
 * @since 0.1.0
 */
export const parametersOf = <Ts>(options: {
  readonly numRuns?: number
  readonly seed?: number
}): fc.Parameters<Ts> => ({
  ...(options.numRuns === undefined ? {} : { numRuns: options.numRuns }),
  ...(options.seed === undefined ? {} : { seed: options.seed }),
})
