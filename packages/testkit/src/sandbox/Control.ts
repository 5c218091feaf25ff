/**
 * The sandbox's control endpoints under `/__sandbox/` (served only when enabled): reset,
 * advance the clock, inject faults, read events, deliveries and the request log, resend an
 * event to every webhook URL, record a 3DS result, pay, cancel or finalize an order. Each maps a request to one call of the
 * live service.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { validate } from '@paykit/core'
import { WebhookEvent } from '@paykit/core/webhook'
import * as Faults from '../service/Faults.js'
import type { LiveService } from '../service/LiveService.js'
import { AuthenticationResult } from '../simulator/Authentications.js'
import type { SimRequest, SimResponse } from '../simulator/Http.js'
import { badRequest, json, problem } from '../simulator/Responses.js'
import { own } from '../simulator/State.js'
import type { WebhookDispatcher } from './Webhooks.js'

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * The path prefix of the control endpoints.
 *
 * @example
 * ```ts
 * import { CONTROL_PREFIX, startSandbox } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * const sandbox = await startSandbox({ control: true }) // off by default: then 404
 * try {
 *   const res = await fetch(`${sandbox.url}${CONTROL_PREFIX}clock`, {
 *     method: 'POST',
 *     headers: { 'content-type': 'application/json' },
 *     body: JSON.stringify({ advanceSeconds: 3600 }),
 *   })
 *   assert.deepEqual(await res.json(), { clockOffsetMs: 3_600_000 })
 * } finally {
 *   await sandbox.close()
 * }
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const CONTROL_PREFIX = '/__sandbox/'

/**
 * How far `POST /__sandbox/clock` moves the sandbox clock ahead of wall time at most (in
 * total): 1000 years, well inside the range of a JavaScript `Date`, so every date the
 * sandbox writes afterwards stays valid (past that range every request would be a 500).
 *
 * @example
 * ```ts
 * import { MAX_CLOCK_OFFSET_SECONDS, startSandbox } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * const sandbox = await startSandbox({ control: true })
 * try {
 *   const res = await fetch(`${sandbox.url}/__sandbox/clock`, {
 *     method: 'POST',
 *     headers: { 'content-type': 'application/json' },
 *     body: JSON.stringify({ advanceSeconds: MAX_CLOCK_OFFSET_SECONDS + 1 }),
 *   })
 *   assert.equal(res.status, 400) // naming advanceSeconds; the clock did not move
 *   assert.equal(sandbox.state().clockOffsetMs, 0)
 * } finally {
 *   await sandbox.close()
 * }
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const MAX_CLOCK_OFFSET_SECONDS = 1000 * 365.25 * 24 * 60 * 60

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

/**
 * Body of `POST /__sandbox/clock`: seconds to move the clock forward (> 0).
 *
 * @example
 * ```ts
 * import { ClockAdvance } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 * import * as E from 'fp-ts/lib/Either.js'
 *
 * assert.deepEqual(ClockAdvance.decode({ advanceSeconds: 90 }), E.right({ advanceSeconds: 90 }))
 * assert.ok(E.isLeft(ClockAdvance.decode({ advanceSeconds: 0 })))
 * assert.ok(E.isLeft(ClockAdvance.decode({ advanceSeconds: '90' })))
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const ClockAdvance = t.type(
  {
    advanceSeconds: t.refinement(t.number, (n) => Number.isFinite(n) && n > 0, 'PositiveNumber'),
  },
  'ClockAdvance',
)

/**
 * Body of `POST /__sandbox/authentications/<id>`: the result to record.
 *
 * @example
 * ```ts
 * import { AuthenticationCompletion } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 * import * as E from 'fp-ts/lib/Either.js'
 *
 * assert.ok(E.isRight(AuthenticationCompletion.decode({ result: 'success' })))
 * assert.ok(E.isRight(AuthenticationCompletion.decode({ result: 'expired' })))
 * assert.ok(E.isLeft(AuthenticationCompletion.decode({ result: 'SUCCESS' })))
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const AuthenticationCompletion = t.type(
  { result: AuthenticationResult },
  'AuthenticationCompletion',
)

/**
 * Body of `POST /__sandbox/orders/<code>/pay` (all optional): the buyer recorded in
 * `payment`, and the card as the checkout form sends it (the success test card when
 * absent).
 *
 * @example
 * ```ts
 * import { OrderPaymentBody } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 * import * as E from 'fp-ts/lib/Either.js'
 *
 * assert.ok(E.isRight(OrderPaymentBody.decode({}))) // a sandbox buyer and the success card
 * const buyer = { name: 'Ana Mora', email: 'ana@example.com' }
 * assert.deepEqual(OrderPaymentBody.decode({ buyer }), E.right({ buyer }))
 * assert.ok(E.isLeft(OrderPaymentBody.decode({ buyer: { name: 42 } })))
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const OrderPaymentBody = t.partial(
  {
    buyer: t.partial({ name: t.string, phone: t.string, email: t.string }),
    card: t.unknown,
  },
  'OrderPaymentBody',
)

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * Whether a path (with or without query) is a control endpoint.
 *
 * @example
 * ```ts
 * import { isControlPath } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(isControlPath('/__sandbox/events'), true)
 * assert.equal(isControlPath('/__sandbox/requests?x=1'), true)
 * assert.equal(isControlPath('/charges?next=/__sandbox/'), false)
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const isControlPath = (path: string): boolean =>
  path.split('?')[0]?.startsWith(CONTROL_PREFIX) === true

const safeDecode = (segment: string): string => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

const parseJson = (body: string): E.Either<SimResponse, unknown> => {
  if (body.trim() === '') return E.right({})
  try {
    return E.right(JSON.parse(body) as unknown)
  } catch {
    return E.left(problem(400, 'The body is not valid JSON.'))
  }
}

const decodeBody =
  <A, O>(codec: t.Type<A, O, unknown>) =>
  (body: string): E.Either<SimResponse, A> =>
    E.chain((u: unknown) => E.mapLeft(badRequest)(validate(codec)(u)))(parseJson(body))

const fold = (result: E.Either<SimResponse, SimResponse>): SimResponse =>
  E.isLeft(result) ? result.left : result.right

/**
 * The answer of a control endpoint. Moves are refused with 404 for an unknown id or
 * code and 409 when the simulator refuses the move (its reason in `detail`).
 * `POST /__sandbox/events/<id>/resend` answers 202 with the event's id, type and the URLs
 * it is being sent to again.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { makeLiveService } from '@paykit/testkit/service'
 * import { handleControl } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * const live = makeLiveService({ baseUrl: 'http://paykit.test' })
 * const headers = { authorization: `Bearer ${defaultCredentials.apiKey}`, 'content-type': 'application/json' }
 * const link = live.exchange({ method: 'POST', path: '/paymentlink/checkout', headers, body: '{"amount":5}' })
 * const { orderCode } = JSON.parse(link.response.body)
 *
 * const pay = { method: 'POST', path: `/__sandbox/orders/${orderCode}/pay`, headers: {}, body: '' }
 * assert.equal(handleControl(live, undefined, pay).status, 200)
 * assert.equal(handleControl(live, undefined, pay).status, 409) // no longer PENDING
 * const unknown = { ...pay, path: '/__sandbox/orders/OC99999999/pay' }
 * assert.equal(handleControl(live, undefined, unknown).status, 404)
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const handleControl = (
  service: LiveService,
  webhooks: WebhookDispatcher | undefined,
  request: SimRequest,
): SimResponse => {
  const path = (request.path.split('?')[0] ?? '').slice(CONTROL_PREFIX.length).replace(/\/+$/, '')
  const method = request.method.toUpperCase()
  const segments = path.split('/').map(safeDecode)
  const moved = (result: E.Either<string, void>): SimResponse =>
    E.isLeft(result) ? problem(409, result.left) : json(200, { ok: true })

  if (method === 'POST' && path === 'reset') {
    service.reset()
    webhooks?.reset()
    return json(200, { ok: true })
  }
  if (method === 'POST' && path === 'clock')
    return fold(
      E.map(({ advanceSeconds }: t.TypeOf<typeof ClockAdvance>) => {
        service.advanceClock(advanceSeconds * 1000)
        return json(200, { clockOffsetMs: service.state().clockOffsetMs })
      })(
        E.chain((body: t.TypeOf<typeof ClockAdvance>) =>
          service.state().clockOffsetMs / 1000 + body.advanceSeconds > MAX_CLOCK_OFFSET_SECONDS
            ? E.left(
                badRequest([
                  {
                    path: 'advanceSeconds',
                    message: `would move the clock more than ${MAX_CLOCK_OFFSET_SECONDS} seconds (1000 years) ahead`,
                  },
                ]),
              )
            : E.right(body),
        )(decodeBody(ClockAdvance)(request.body)),
      ),
    )
  if (path === 'faults') {
    if (method === 'GET') return json(200, service.faults())
    if (method === 'DELETE') {
      service.clearFaults()
      return json(200, { ok: true })
    }
    if (method === 'POST')
      return fold(
        E.map((injection: Faults.FaultInjection) => {
          const rule = Faults.ruleOf(injection)
          service.injectFault(rule.fault, {
            ...(rule.method === undefined ? {} : { method: rule.method }),
            ...(rule.path === undefined ? {} : { path: rule.path }),
            ...(rule.remaining === undefined ? {} : { times: rule.remaining }),
          })
          return json(200, service.faults())
        })(decodeBody(Faults.FaultInjection)(request.body)),
      )
  }
  if (method === 'GET' && path === 'events')
    return json(
      200,
      service.events().map((e) => WebhookEvent.encode(e)),
    )
  if (method === 'GET' && path === 'deliveries') return json(200, webhooks?.deliveries() ?? [])
  if (
    method === 'POST' &&
    segments.length === 3 &&
    segments[0] === 'events' &&
    segments[2] === 'resend'
  ) {
    const id = segments[1] ?? ''
    const event = service.events().find((e) => e.id === id)
    if (event === undefined) return problem(404, `No event ${JSON.stringify(id)}.`)
    if (webhooks === undefined || !webhooks.resend(id))
      return problem(409, 'No webhook URL is set: there is nowhere to resend the event to.')
    // Accepted: each URL's attempts show in GET /__sandbox/deliveries as they happen.
    return json(202, { eventId: event.id, type: event.type, urls: webhooks.urls })
  }
  if (method === 'GET' && path === 'requests') return json(200, service.requests())
  if (method === 'POST' && segments.length === 2 && segments[0] === 'authentications') {
    const id = segments[1] ?? ''
    if (own(service.state().authentications, id) === undefined)
      return problem(404, `No authentication ${JSON.stringify(id)}.`)
    return fold(
      E.map(({ result }: { readonly result: AuthenticationResult }) =>
        moved(service.completeAuthentication(id, result)),
      )(decodeBody(AuthenticationCompletion)(request.body)),
    )
  }
  if (method === 'POST' && segments.length === 3 && segments[0] === 'orders') {
    const code = segments[1] ?? ''
    const action = segments[2]
    if (action === 'pay' || action === 'cancel' || action === 'finalize') {
      if (own(service.state().orders, code) === undefined)
        return problem(404, `No order ${JSON.stringify(code)}.`)
      if (action === 'pay')
        return fold(
          E.map((payment: t.TypeOf<typeof OrderPaymentBody>) =>
            moved(
              service.payOrder(code, {
                ...(payment.buyer === undefined ? {} : { buyer: payment.buyer }),
                ...(payment.card === undefined ? {} : { card: payment.card }),
              }),
            ),
          )(decodeBody(OrderPaymentBody)(request.body)),
        )
      if (action === 'cancel') return moved(service.cancelOrder(code))
      return moved(service.finalizeOrder(code))
    }
  }
  return problem(404, `No control endpoint ${method} ${CONTROL_PREFIX}${path}.`)
}
