/**
 * 3DS authentications: the frame page at `authentication.url`, the result it records
 * (once: the core's authentication-status machine refuses a second), and the spec 6.1
 * message the page posts to its parent.
 *
 * @since 0.2.0
 */
import {
  Authentication,
  FrameMessage,
  Money,
  validate,
  type AuthenticationStatus,
  type FrameMessageOutput,
} from '@paykit/core/pure'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { authenticationUrlOf } from './Charges.js'
import { formBody, isForm, isJson, jsonBody } from './Gates.js'
import { insert } from './HashTrie.js'
import { authenticationPage, messagePage } from './Pages.js'
import { badRequest, html, json, problem } from './Responses.js'
import type { Context, Result } from './Route.js'
import { own, type AuthenticationRecord, type SimulatorState } from './State.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A result the frame (or a control) records: `success`, `failed`, `error`, `expired`.
 *
 * @category model
 * @since 0.2.0
 */
export type AuthenticationResult = 'success' | 'failed' | 'error' | 'expired'

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

/**
 * `result` of `GET /3ds/<id>?result=...` and of `POST /3ds/<id>`.
 *
 * @category codecs
 * @since 0.2.0
 */
export const AuthenticationResult = t.keyof(
  { success: null, failed: null, error: null, expired: null },
  'AuthenticationResult',
)

const ResultBody = t.type({ result: AuthenticationResult }, 'AuthenticationResultBody')

const statusOf: Readonly<Record<AuthenticationResult, AuthenticationStatus>> = {
  success: 'SUCCESS',
  failed: 'FAILED',
  error: 'ERROR',
  expired: 'EXPIRED',
}

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * The frame message (spec 6.1, as JSON) of an authentication with a final status:
 * `authentication.complete` for SUCCESS, `authentication.failed` for every other.
 * `OrderId` is the merchant's `order.id`. Null while PENDING.
 *
 * @example
 * ```ts
 * import { defaultCredentials, testCards } from '@paykit/testkit'
 * import { completeAuthentication, frameMessageOf, initialState, Simulator } from '@paykit/testkit/simulator'
 * import assert from 'node:assert/strict'
 *
 * const now = new Date('2026-06-15T12:00:00Z')
 * let state = initialState({ baseUrl: 'http://127.0.0.1:4010' })
 * const post = (path: string, body: unknown, token = '') => {
 *   const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` }
 *   const [next, response] = Simulator.handle(
 *     state,
 *     { method: 'POST', path, headers, body: JSON.stringify(body) },
 *     now,
 *   )
 *   state = next
 *   return JSON.parse(response.body)
 * }
 * const { accessToken } = post('/token', defaultCredentials)
 * const card = {
 *   number: testCards.authentication.number,
 *   expirationMonth: '12',
 *   expirationYear: '2030',
 *   cvv: '123',
 * }
 * const { id: cardId } = post('/paymentmethods', { card }, accessToken)
 * const { authentication } = post(
 *   '/charges',
 *   { order: { id: 'order-1', amount: 25 }, cardId },
 *   accessToken,
 * )
 * const pending = state.authentications[authentication.id]
 * assert.ok(pending !== undefined && frameMessageOf(pending) === null) // PENDING: no message yet
 * const done = completeAuthentication(state, authentication.id, 'success', now)
 * assert.ok(done._tag === 'Right')
 * const completed = done.right.authentications[authentication.id]
 * assert.deepEqual(completed && frameMessageOf(completed), {
 *   MessageType: 'authentication.complete',
 *   Status: 'SUCCESS',
 *   AuthenticationId: authentication.id,
 *   OrderId: 'order-1',
 *   OrderAmount: 25,
 * })
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const frameMessageOf = (a: AuthenticationRecord): FrameMessageOutput | null =>
  a.status === 'PENDING'
    ? null
    : FrameMessage.encode({
        MessageType: a.status === 'SUCCESS' ? 'authentication.complete' : 'authentication.failed',
        Status: a.status,
        AuthenticationId: a.id,
        OrderId: a.orderId,
        OrderAmount: a.amount,
      })

// -------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------

/**
 * Records the result of a PENDING authentication at simulator time `atMs`; Left for an
 * unknown id or one that already has a result (it never changes again).
 *
 * @category combinators
 * @since 0.2.0
 */
export const recordAuthenticationResult = (
  state: SimulatorState,
  authenticationId: string,
  result: AuthenticationResult,
): E.Either<string, SimulatorState> => {
  const a = own(state.authentications, authenticationId)
  if (a === undefined) return E.left(`no authentication has id ${authenticationId}`)
  const status = Authentication.transition(statusOf[result])(a.status)
  if (E.isLeft(status)) return E.left(status.left.message)
  return E.right({
    ...state,
    authentications: insert(state.authentications, a.id, { ...a, status: status.right }),
  })
}

// -------------------------------------------------------------------------------------
// endpoints
// -------------------------------------------------------------------------------------

const framePage = (state: SimulatorState, a: AuthenticationRecord, notice?: string): string =>
  authenticationPage({
    authenticationId: a.id,
    status: a.status,
    orderId: a.orderId,
    amount: `${Money.toString(a.amount, 2)} ${state.config.store.currencyCode}`,
    action: authenticationUrlOf(state, a.id),
    message: frameMessageOf(a),
    ...(notice === undefined ? {} : { notice }),
  })

const notFound = (id: string): string =>
  messagePage('Authentication not found', `No 3DS authentication has id ${id}.`)

/**
 * Records `result` and answers with the frame page (status 200), or when a different
 * result was recorded before, with the page of the recorded one (status 409).
 */
const recordAndShow = (
  state: SimulatorState,
  a: AuthenticationRecord,
  result: AuthenticationResult,
): Result => {
  const recorded = recordAuthenticationResult(state, a.id, result)
  if (E.isRight(recorded)) {
    const updated = own(recorded.right.authentications, a.id) ?? a
    return [recorded.right, html(200, framePage(recorded.right, updated))]
  }
  return a.status === statusOf[result]
    ? [state, html(200, framePage(state, a))]
    : [state, html(409, framePage(state, a, `The result was already recorded: ${a.status}.`))]
}

/** Records a result the page gave (query or form), or answers a 400 page for another value. */
const recordFromPage = (state: SimulatorState, a: AuthenticationRecord, result: unknown): Result =>
  AuthenticationResult.is(result)
    ? recordAndShow(state, a, result)
    : [
        state,
        html(
          400,
          messagePage('Bad result', 'result must be one of success, failed, error, expired.'),
        ),
      ]

// A headless buyer asks for JSON: where the authentication stands, without a page.
const wantsJson = (context: Context): boolean =>
  (context.request.headers['accept'] ?? '').includes('application/json')

/**
 * `GET /3ds/<id>`: the frame page; with `?result=success|failed|error|expired` the
 * result is recorded at once and the page posts its message (automation without a
 * browser). 404 page for an unknown id, 400 for another `result`. Asked for JSON
 * (`Accept: application/json`) without a `result`, it answers what the page shows, as
 * `{ authenticationId, status, orderId, orderAmount }` (404 problem for an unknown id).
 *
 * @category endpoints
 * @since 0.2.0
 */
export const getAuthenticationPage = (context: Context): Result => {
  const { state, params, query } = context
  const id = params[0] ?? ''
  const a = own(state.authentications, id)
  const result = query.get('result')
  if (result === null && wantsJson(context))
    return a === undefined
      ? [state, problem(404, `No 3DS authentication has id ${id}.`)]
      : [
          state,
          json(200, {
            authenticationId: a.id,
            status: a.status,
            orderId: a.orderId,
            orderAmount: Money.toNumber(a.amount),
          }),
        ]
  if (a === undefined) return [state, html(404, notFound(id))]
  if (result === null) return [state, html(200, framePage(state, a))]
  return recordFromPage(state, a, result)
}

/**
 * `POST /3ds/<id>`: records `result` from a form (the frame's buttons; answers with the
 * page that posts the message) or from JSON `{ "result": ... }` (answers with the frame
 * message as JSON; 409 problem details when another result was recorded before).
 *
 * @category endpoints
 * @since 0.2.0
 */
export const postAuthenticationResult = ({ state, request, params }: Context): Result => {
  const id = params[0] ?? ''
  const a = own(state.authentications, id)
  if (isForm(request)) {
    if (a === undefined) return [state, html(404, notFound(id))]
    return recordFromPage(state, a, formBody(request)['result'])
  }
  if (!isJson(request))
    return [state, problem(415, 'Send the result as a form or as JSON { "result": ... }.')]
  const body = jsonBody(request)
  if (E.isLeft(body)) return [state, body.left]
  if (a === undefined) return [state, problem(404, `No 3DS authentication has id ${id}.`)]
  const decoded = validate(ResultBody)(body.right)
  if (E.isLeft(decoded)) return [state, badRequest(decoded.left)]
  const recorded = recordAuthenticationResult(state, a.id, decoded.right.result)
  if (E.isLeft(recorded)) {
    return a.status === statusOf[decoded.right.result]
      ? [state, json(200, frameMessageOf(a))]
      : [state, problem(409, `The result was already recorded: ${a.status}.`)]
  }
  const updated = own(recorded.right.authentications, a.id) ?? a
  return [recorded.right, json(200, frameMessageOf(updated))]
}
