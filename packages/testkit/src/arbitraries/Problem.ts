/**
 * Arbitraries of the problem details the service answers with (spec 7.2, the core's
 * `ProblemDetails`, `ValidationProblem` and `ServerProblem`, as JSON).
 *
 * @since 0.2.0
 */
import {
  serverProblemType,
  validationProblemType,
  type ProblemDetails,
  type ServerProblem,
  type ValidationProblem,
} from '@paykit/core/pure'
import * as fc from 'fast-check'
import type * as t from 'io-ts'
import { text } from './Common.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A problem-details body as JSON.
 *
 * @category model
 * @since 0.2.0
 */
export type ProblemDetailsJson = t.OutputOf<typeof ProblemDetails>

// The fields a 400 may name: the spec's request fields in the core's path notation.
const FIELDS = [
  'amount',
  'lineItems',
  'lineItems[0].quantity',
  'lineItems[1].product.price',
  'orderReference',
  'expirationMinutes',
  'metadata[0].name',
  'card.number',
  'card.cvv',
  'billingInfo',
  'order.amount',
  'clientId',
]

// -------------------------------------------------------------------------------------
// valid
// -------------------------------------------------------------------------------------

/**
 * A 400 body (spec 7.2): `type` the RFC 7231 6.5.1 address, `errors` mapping one to three
 * field names to non-empty lists of messages.
 *
 * @example
 * ```ts
 * import { validationProblemDetails } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { ValidationProblem, fieldErrorsOf } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * for (const json of fc.sample(validationProblemDetails(), 20)) {
 *   const problem = validate(ValidationProblem)(json)
 *   assert.ok(problem._tag === 'Right' && fieldErrorsOf(problem.right).length > 0)
 * }
 * ```
 *
 * @category valid
 * @since 0.2.0
 */
export const validationProblemDetails = (): fc.Arbitrary<ValidationProblem> =>
  fc
    .dictionary(fc.constantFrom(...FIELDS), fc.array(text(80), { minLength: 1, maxLength: 2 }), {
      minKeys: 1,
      maxKeys: 3,
    })
    .map((errors) => ({
      type: validationProblemType,
      title: 'One or more validation errors occurred.',
      status: 400 as const,
      errors,
    }))

/**
 * A 500 body (spec 7.2): `type` the RFC 7231 6.6.1 address, no `errors`.
 *
 * @example
 * ```ts
 * import { serverProblemDetails } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { ServerProblem } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * for (const json of fc.sample(serverProblemDetails(), 5)) {
 *   assert.ok(validate(ServerProblem)(json)._tag === 'Right')
 *   assert.ok(!('errors' in json))
 * }
 * ```
 *
 * @category valid
 * @since 0.2.0
 */
export const serverProblemDetails = (): fc.Arbitrary<ServerProblem> =>
  fc
    .constantFrom('An error occurred while processing your request.', 'Internal Server Error')
    .map((title) => ({ type: serverProblemType, title, status: 500 as const }))

/**
 * Any problem-details answer: a 400 or a 500 of the spec, or another status the sandbox
 * answers with a problem (401 for a missing or expired credential, 404, 405, 409, 413, 429,
 * 503), with or without `detail` and `instance`.
 *
 * @example
 * ```ts
 * import { problemDetails } from '@paykit/testkit/arbitraries'
 * import { validate } from '@paykit/core'
 * import { ProblemDetails } from '@paykit/core/codecs'
 * import fc from 'fast-check'
 * import assert from 'node:assert/strict'
 *
 * for (const json of fc.sample(problemDetails(), 20)) {
 *   const problem = validate(ProblemDetails)(json)
 *   assert.ok(problem._tag === 'Right' && problem.right.status >= 400)
 * }
 * ```
 *
 * @category valid
 * @since 0.2.0
 */
export const problemDetails = (): fc.Arbitrary<ProblemDetailsJson> =>
  fc.oneof(
    validationProblemDetails(),
    serverProblemDetails(),
    fc.record(
      {
        status: fc.constantFrom(401, 404, 405, 409, 413, 429, 503),
        title: text(80),
        type: fc.constant('about:blank'),
        detail: text(200),
        instance: fc.constantFrom('/token', '/charges', '/paymentlink/checkout'),
      },
      { requiredKeys: ['status', 'title'] },
    ),
  )
