/**
 * 3DS without a browser: an `Authenticate` for the core client's `chargeWith3ds` that
 * records a chosen result on the fake service's frame (`POST <authentication.url>` with
 * JSON `{ "result" }`) and yields the frame message the frame would have posted.
 *
 * @since 0.1.0
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import {
  FrameMessage,
  decodeError,
  fetchTransport,
  httpError,
  networkError,
  timeout,
  validate,
  type Authenticate,
  type PaykitError,
  type Transport,
} from '@paykit/core'
import type { AuthenticationResult } from '../simulator/Authentications.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Options of `authenticateHeadless`: the transport (the core's fetch transport by default;
 * it goes through nock too) and a time limit.
 *
 * @category model
 * @since 0.1.0
 */
export interface HeadlessAuthenticateOptions {
  readonly transport?: Transport
  readonly timeoutMs?: number
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * An `Authenticate` that answers every 3DS authentication with `result` (`success` by
 * default), as a buyer clicking Complete or Fail in the frame would.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { createClient } from '@paykit/core'
 * import { authenticateHeadless, defaultCredentials, startSandbox, testCards } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * const sandbox = await startSandbox()
 * try {
 *   const client = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
 *   const expirationYear = String(new Date().getUTCFullYear() + 2)
 *   const card = { number: testCards.authentication.number, expirationMonth: '12', expirationYear, cvv: '123' }
 *   const method = await client.createPaymentMethod({ card })()
 *   assert.ok(E.isRight(method))
 *   const request = { order: { id: 'order-7', amount: 40 }, cardId: method.right.id }
 *   // The buyer clicks Fail in the 3DS frame: the charge is not repeated.
 *   const flow = await client.chargeWith3ds(request, authenticateHeadless('failed'))()
 *   assert.ok(E.isRight(flow) && flow.right._tag === 'AuthenticationFailed')
 *   assert.equal(sandbox.requests().filter((r) => r.path === '/charges').length, 1)
 * } finally {
 *   await sandbox.close()
 * }
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const authenticateHeadless =
  (
    result: AuthenticationResult = 'success',
    options: HeadlessAuthenticateOptions = {},
  ): Authenticate =>
  (url, id) => {
    const operation = `3DS authentication ${id}`
    const timeoutMs = options.timeoutMs ?? 10_000
    const send = options.transport ?? fetchTransport({ timeoutMs })
    return pipe(
      send({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ result }),
        timeoutMs,
      }),
      TE.mapLeft((e): PaykitError =>
        e.failure === 'timeout'
          ? timeout(operation, timeoutMs)
          : networkError(operation, e.sent, e.failure, e.detail),
      ),
      TE.chainEitherK((response): E.Either<PaykitError, FrameMessage> => {
        if (response.status !== 200) return E.left(httpError(operation, response.status))
        let body: unknown
        try {
          body = JSON.parse(response.body)
        } catch {
          return E.left(
            decodeError(operation, response.status, [{ path: '', message: 'must be JSON' }]),
          )
        }
        return pipe(
          validate(FrameMessage)(body),
          E.mapLeft((errors) => decodeError(operation, response.status, errors)),
        )
      }),
    )
  }
