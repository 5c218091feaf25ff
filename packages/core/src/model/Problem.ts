/**
 * Problem details (spec 7.2, RFC 7807 style): the 400 body of a request that breaks a
 * rule, the 500 body, and a general shape for the other statuses (401, 404).
 *
 * @since 0.1.0
 */
import * as t from 'io-ts'
import { fromErrorMap, toErrorMap, type FieldError } from './FieldError.js'
import { Int } from '../internal/codec.js'

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

/**
 * Any problem details body: `title` and `status` required, `type`, `detail` and
 * `instance` optional. Unknown fields are tolerated.
 *
 * @category codecs
 * @since 0.1.0
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
 * @category codecs
 * @since 0.1.0
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
 * @category codecs
 * @since 0.1.0
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
 * @since 0.1.0
 */
export type ProblemDetails = t.TypeOf<typeof ProblemDetails>

/**
 * The 400 body naming every field that breaks a rule.
 *
 * @category model
 * @since 0.1.0
 */
export type ValidationProblem = t.TypeOf<typeof ValidationProblem>

/**
 * The 500 body.
 *
 * @category model
 * @since 0.1.0
 */
export type ServerProblem = t.TypeOf<typeof ServerProblem>

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * `type` of a 400 body (RFC 7231 section 6.5.1, Bad Request).
 *
 * @category constructors
 * @since 0.1.0
 */
export const validationProblemType = 'https://tools.ietf.org/html/rfc7231#section-6.5.1'

/**
 * `type` of a 500 body (RFC 7231 section 6.6.1, Internal Server Error).
 *
 * @category constructors
 * @since 0.1.0
 */
export const serverProblemType = 'https://tools.ietf.org/html/rfc7231#section-6.6.1'

/**
 * The 400 body for field errors: `errors` is `toErrorMap(fieldErrors)` (the root is `$`).
 *
 * @category constructors
 * @since 0.1.0
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
 * @category constructors
 * @since 0.1.0
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
 * The field errors a 400 body carries (the inverse of `validationProblem`).
 *
 * @category destructors
 * @since 0.1.0
 */
export const fieldErrorsOf = (problem: ValidationProblem): ReadonlyArray<FieldError> =>
  fromErrorMap(problem.errors)
