/**
 * Problem details (spec 7.2, RFC 7807 style): the 400 body of a request that breaks a
 * rule, the 500 body, and a general shape for the other statuses (401, 404).
 *
 * @since 0.2.0
 */
import * as t from 'io-ts'
import { type CodedFieldError, fromErrorMap, toErrorMap, type FieldError } from './FieldError.js'
import { Int } from '../internal/codec.js'

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

/**
 * Any problem details body: `title` and `status` required, `type`, `detail` and
 * `instance` optional. Unknown fields are tolerated.
 *
 * @example
 * ```ts
 * import { ProblemDetails } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(ProblemDetails.is({ title: 'Unauthorized', status: 401 }), true)
 * assert.equal(
 *   ProblemDetails.is({ title: 'Not Found', status: 404, detail: 'no such order' }),
 *   true,
 * )
 * assert.equal(ProblemDetails.is({ status: 404 }), false)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const ProblemDetails = t.intersection(
  [
    t.type({ title: t.string, status: Int }),
    t.partial({ type: t.string, detail: t.string, instance: t.string }),
  ],
  'ProblemDetails',
)

/**
 * The 400 body (spec 7.2): `type` (RFC 7231 section 6.5.1), `title`, `status` 400 and
 * `errors`, a map from field name to messages. Unknown fields are tolerated.
 *
 * @example
 * ```ts
 * import { validate } from '@paykit/core'
 * import { ValidationProblem, fieldErrorsOf } from '@paykit/core/codecs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import assert from 'node:assert/strict'
 *
 * // a 400 body from the service
 * const problem = validate(ValidationProblem)({
 *   type: 'https://tools.ietf.org/html/rfc7231#section-6.5.1',
 *   title: 'One or more validation errors occurred.',
 *   status: 400,
 *   errors: { 'card.cvv': ['must be 3 or 4 digits'] },
 * })
 * assert.ok(E.isRight(problem))
 * // each with the code its message words
 * assert.deepEqual(fieldErrorsOf(problem.right), [
 *   { path: 'card.cvv', message: 'must be 3 or 4 digits', code: 'cvv' },
 * ])
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const ValidationProblem = t.type(
  {
    type: t.string,
    title: t.string,
    status: t.literal(400),
    errors: t.record(t.string, t.readonlyArray(t.string)),
  },
  'ValidationProblem',
)

/**
 * The 500 body (spec 7.2): `type` (RFC 7231 section 6.6.1), `title` and `status` 500;
 * no `errors` member. Unknown fields are tolerated.
 *
 * @example
 * ```ts
 * import { ServerProblem, serverProblem } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(ServerProblem.is(serverProblem()), true)
 * assert.equal(ServerProblem.is({ ...serverProblem(), status: 400 }), false)
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const ServerProblem = t.type(
  { type: t.string, title: t.string, status: t.literal(500) },
  'ServerProblem',
)

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A problem details body of any status.
 *
 * @category model
 * @since 0.2.0
 */
export type ProblemDetails = t.TypeOf<typeof ProblemDetails>

/**
 * The 400 body naming every field that breaks a rule.
 *
 * @category model
 * @since 0.2.0
 */
export type ValidationProblem = t.TypeOf<typeof ValidationProblem>

/**
 * The 500 body.
 *
 * @category model
 * @since 0.2.0
 */
export type ServerProblem = t.TypeOf<typeof ServerProblem>

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * `type` of a 400 body (RFC 7231 section 6.5.1, Bad Request).
 *
 * @example
 * ```ts
 * import { validationProblem, validationProblemType } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(validationProblem([]).type, validationProblemType)
 * assert.match(validationProblemType, /rfc7231#section-6\.5\.1$/)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const validationProblemType = 'https://tools.ietf.org/html/rfc7231#section-6.5.1'

/**
 * `type` of a 500 body (RFC 7231 section 6.6.1, Internal Server Error).
 *
 * @example
 * ```ts
 * import { serverProblem, serverProblemType } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(serverProblem().type, serverProblemType)
 * assert.match(serverProblemType, /rfc7231#section-6\.6\.1$/)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const serverProblemType = 'https://tools.ietf.org/html/rfc7231#section-6.6.1'

/**
 * The 400 body for field errors: `errors` is `toErrorMap(fieldErrors)` (the root is `$`).
 *
 * @example
 * ```ts
 * import { fieldError, validationProblem } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * const body = validationProblem([
 *   fieldError('amount', { code: 'required' }),
 *   fieldError('', { code: 'type', expected: ['object'], received: 'array' }),
 * ])
 * assert.equal(body.status, 400)
 * assert.deepEqual(body.errors, {
 *   amount: ['is required'],
 *   $: ['must be an object, got an array'],
 * })
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const validationProblem = (fieldErrors: ReadonlyArray<FieldError>): ValidationProblem => ({
  type: validationProblemType,
  title: 'One or more validation errors occurred.',
  status: 400,
  errors: toErrorMap(fieldErrors),
})

/**
 * The 500 body.
 *
 * @example
 * ```ts
 * import { serverProblem } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * const body = serverProblem()
 * assert.equal(body.status, 500)
 * assert.equal('errors' in body, false)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const serverProblem = (): ServerProblem => ({
  type: serverProblemType,
  title: 'An error occurred while processing your request.',
  status: 500,
})

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * The field errors a 400 body carries (the inverse of `validationProblem`), each with the
 * code its message words (`fromErrorMap`).
 *
 * @example
 * ```ts
 * import { fieldError, fieldErrorsOf, validationProblem } from '@paykit/core/codecs'
 * import assert from 'node:assert/strict'
 *
 * const errors = [fieldError('card.number', { code: 'luhn' })]
 * assert.deepEqual(fieldErrorsOf(validationProblem(errors)), errors)
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const fieldErrorsOf = (problem: ValidationProblem): ReadonlyArray<CodedFieldError> =>
  fromErrorMap(problem.errors)
