/**
 * Fault and latency injection: a pure plan, shared by the nock adapter and the sandbox
 * server, of what goes wrong with which request. The plan only decides; each adapter
 * carries the decision out on its own transport (a socket reset, a held socket, ...).
 *
 * Every failure says whether the service still processes the request
 * (`processesRequest`): only `status500` stands for a service that failed before doing
 * anything. The others are "processed, then": the simulator's state changes (a card, a
 * charge, an order is recorded) and then the answer is lost or spoilt, which is what a
 * client must take for an unknown outcome.
 *
 * @since 0.2.0
 */
import * as t from 'io-ts'
import type { SimResponse } from '../simulator/Http.js'
import { internalError } from '../simulator/Responses.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A fault that replaces or spoils the answer to one request:
 * - `status500`: a 500 problem-details answer (spec 7.2); the simulator does not see the
 *   request, so nothing is recorded;
 * - `processedThen500`: the simulator processes the request (a card, charge or order is
 *   recorded), then the answer is that same 500 instead of its own;
 * - `malformedBody`: the simulator processes the request; its status and headers with a
 *   body that is not JSON;
 * - `offContractBody`: the simulator processes the request; its status and headers with a
 *   JSON body that matches no response of the contract;
 * - `truncatedBody`: the simulator processes the request; its answer cut in half, then the
 *   connection breaks;
 * - `connectionReset`: the simulator processes the request and the connection is reset
 *   before any answer;
 * - `hang`: the simulator processes the request and no answer ever comes, so the client's
 *   timeout fires.
 *
 * @category model
 * @since 0.2.0
 */
export type Failure =
  | { readonly kind: 'status500' }
  | { readonly kind: 'processedThen500' }
  | { readonly kind: 'malformedBody' }
  | { readonly kind: 'offContractBody' }
  | { readonly kind: 'truncatedBody' }
  | { readonly kind: 'connectionReset' }
  | { readonly kind: 'hang' }

/**
 * Extra time, in milliseconds, before the answer to one request is sent.
 *
 * @category model
 * @since 0.2.0
 */
export interface Latency {
  readonly kind: 'latency'
  readonly ms: number
}

/**
 * Anything that can be injected: a failure or a latency.
 *
 * @category model
 * @since 0.2.0
 */
export type Fault = Failure | Latency

/**
 * What a request asks the service to do, in the core client's words: `getToken`,
 * `createPaymentMethod`, `charge` (a first attempt, `authenticationId` null),
 * `chargeAfter3ds` (the repeat carrying an `authenticationId`), `createPaymentLink`,
 * `getOrder`, and the pages a buyer opens: `authenticationPage` (the 3DS frame) and
 * `checkoutPage` (the hosted checkout and its voucher).
 *
 * @category model
 * @since 0.2.0
 */
export type Operation =
  | 'getToken'
  | 'createPaymentMethod'
  | 'charge'
  | 'chargeAfter3ds'
  | 'createPaymentLink'
  | 'getOrder'
  | 'authenticationPage'
  | 'checkoutPage'

/**
 * Which requests a fault applies to. `method` is compared case-insensitively; `path` is a
 * pattern over the path without its query string, where `*` stands for one path segment
 * (no `/`) and `**` for anything; `operation` is what the request asks for
 * ({@link operationOf}); `orderId` is the merchant's order of the request
 * ({@link orderIdOf}: a charge's `order.id`, a link's `orderReference`, an order code in
 * the path). An absent member matches every request.
 *
 * Among the matching requests, `nth` lets the first `nth - 1` through (counted from when
 * the rule was added) and `probability` applies the rule to each eligible one with that
 * chance, drawn from the rule's `seed` or else the plan's ({@link seeded}), so a run
 * replays.
 *
 * @category model
 * @since 0.2.0
 */
export interface Target {
  readonly method?: string
  readonly path?: string
  readonly operation?: Operation
  readonly orderId?: string
  readonly nth?: number
  readonly probability?: number
  /** The seed of this rule's own generator for `probability` (else the plan's). */
  readonly seed?: number
}

/**
 * One entry of the plan: `remaining` is how many more matching requests it applies to
 * (`undefined`: every one until the plan is cleared); `seen` counts the matching requests
 * so far, for `nth`.
 *
 * @category model
 * @since 0.2.0
 */
export interface FaultRule extends Target {
  readonly fault: Fault
  readonly remaining?: number
  readonly seen?: number
}

/**
 * The rules in the order they were added; for each request the first matching failure
 * and the first matching latency apply. `seed` is the state of the generator that draws
 * the `probability` of a rule (0 unless {@link seeded}).
 *
 * @category model
 * @since 0.2.0
 */
export interface FaultPlan {
  readonly rules: ReadonlyArray<FaultRule>
  readonly seed?: number
}

/**
 * What the plan decided for one request.
 *
 * @category model
 * @since 0.2.0
 */
export interface Decision {
  readonly latencyMs: number
  readonly failure: Failure | undefined
}

/**
 * The part of a request the plan looks at.
 *
 * @category model
 * @since 0.2.0
 */
export interface RequestLine {
  readonly method: string
  /** The path, with or without a query string. */
  readonly path: string
  /** The raw body, read only by a rule with an `operation` or an `orderId`. */
  readonly body?: string
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A 500 problem-details answer instead of the service's.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import { startSandbox } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * const sandbox = await startSandbox()
 * try {
 *   sandbox.injectFault(Faults.status500, { method: 'POST', path: '/token', times: 1 })
 *   const res = await fetch(`${sandbox.url}/token`, { method: 'POST' })
 *   assert.equal(res.status, 500)
 *   const problem = (await res.json()) as { status: number } // problem details
 *   assert.equal(problem.status, 500)
 * } finally {
 *   await sandbox.close()
 * }
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const status500: Failure = { kind: 'status500' }

/**
 * The request is processed, then answered with a 500 problem-details body instead of the
 * service's own answer: what a client sees when the service fails after committing (a
 * charge recorded, a link created) and before answering.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { Faults } from '@paykit/testkit/service'
 * import { startSandbox } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * const sandbox = await startSandbox()
 * try {
 *   sandbox.injectFault(Faults.processedThen500, { path: '/paymentlink/checkout', times: 1 })
 *   const res = await fetch(`${sandbox.url}/paymentlink/checkout`, {
 *     method: 'POST',
 *     headers: {
 *       authorization: `Bearer ${defaultCredentials.apiKey}`,
 *       'content-type': 'application/json',
 *     },
 *     body: JSON.stringify({ amount: 10 }),
 *   })
 *   assert.equal(res.status, 500)
 *   assert.equal(((await res.json()) as { status: number }).status, 500)
 *   // ...and yet the link was created: the order exists.
 *   assert.equal(sandbox.state().counters.order, 1)
 *   assert.equal(sandbox.requests()[0]?.fault, 'processedThen500')
 * } finally {
 *   await sandbox.close()
 * }
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const processedThen500: Failure = { kind: 'processedThen500' }

/**
 * The service's answer with a body that is not JSON.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import { startSandbox } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * const sandbox = await startSandbox()
 * try {
 *   sandbox.injectFault(Faults.malformedBody, { times: 1 })
 *   const res = await fetch(`${sandbox.url}/paymentlink/order/OC00001001`)
 *   assert.equal(res.status, 401) // the service's own status (no API key)...
 *   await assert.rejects(res.json(), SyntaxError) // ...with a body that is not JSON
 * } finally {
 *   await sandbox.close()
 * }
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const malformedBody: Failure = { kind: 'malformedBody' }

/**
 * The request is processed; the service's status and headers come back with a JSON body
 * that matches no response of the contract (a gateway's own JSON, another API version):
 * a client can read it but not use it.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { Faults } from '@paykit/testkit/service'
 * import { mockPaymentService } from '@paykit/testkit/nock'
 * import assert from 'node:assert/strict'
 *
 * const mock = mockPaymentService({ baseUrl: 'https://paykit.test' })
 * try {
 *   mock.injectFault(Faults.offContractBody, { path: '/token', times: 1 })
 *   const res = await fetch('https://paykit.test/token', {
 *     method: 'POST',
 *     headers: { 'content-type': 'application/json' },
 *     body: JSON.stringify(defaultCredentials),
 *   })
 *   assert.equal(res.status, 200) // the service's own status...
 *   const body = (await res.json()) as Record<string, unknown> // ...valid JSON...
 *   assert.equal('accessToken' in body, false) // ...off the contract
 *   assert.equal(mock.state().counters.token, 1) // the token was issued all the same
 * } finally {
 *   mock.restore()
 * }
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const offContractBody: Failure = { kind: 'offContractBody' }

/**
 * The service's answer cut in half, then the connection breaks.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import { startSandbox } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * const sandbox = await startSandbox()
 * try {
 *   sandbox.injectFault(Faults.truncatedBody, { times: 1 })
 *   const res = await fetch(`${sandbox.url}/paymentlink/order/OC00001001`)
 *   assert.equal(res.status, 401)
 *   await assert.rejects(res.text()) // the connection breaks halfway through the body
 * } finally {
 *   await sandbox.close()
 * }
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const truncatedBody: Failure = { kind: 'truncatedBody' }

/**
 * The request is processed and the connection reset before the answer.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import { startSandbox } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * const sandbox = await startSandbox()
 * try {
 *   sandbox.injectFault(Faults.connectionReset, { path: '/token', times: 1 })
 *   await assert.rejects(fetch(`${sandbox.url}/token`, { method: 'POST' }), TypeError)
 *   assert.equal(sandbox.requests()[0]?.fault, 'connectionReset') // processed, then reset
 * } finally {
 *   await sandbox.close()
 * }
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const connectionReset: Failure = { kind: 'connectionReset' }

/**
 * The request is processed and never answered.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import { startSandbox } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * const sandbox = await startSandbox()
 * try {
 *   sandbox.injectFault(Faults.hang, { times: 1 })
 *   const signal = AbortSignal.timeout(100) // the client's own timeout is what fires
 *   await assert.rejects(fetch(`${sandbox.url}/token`, { method: 'POST', signal }), {
 *     name: 'TimeoutError',
 *   })
 * } finally {
 *   await sandbox.close() // also destroys the held socket
 * }
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const hang: Failure = { kind: 'hang' }

/**
 * `connectionReset` by the name that says what the service did: the request is processed
 * (a charge, a link recorded), then the connection is reset before any answer.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Faults.processedThenReset, Faults.connectionReset)
 * assert.equal(Faults.processesRequest(Faults.processedThenReset), true)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const processedThenReset: Failure = connectionReset

/**
 * `hang` by the name that says what the service did: the request is processed, then no
 * answer comes and the client's timeout fires.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Faults.processedThenTimeout, Faults.hang)
 * assert.equal(Faults.processesRequest(Faults.processedThenTimeout), true)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const processedThenTimeout: Failure = hang

/**
 * `ms` milliseconds of extra delay before the answer (negative or non-finite values count
 * as 0).
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(Faults.latency(250), { kind: 'latency', ms: 250 })
 * assert.deepEqual(Faults.latency(-5), { kind: 'latency', ms: 0 })
 *
 * const plan = Faults.inject(Faults.latency(250), { path: '/charges' })(Faults.empty)
 * const [decision] = Faults.take({ method: 'POST', path: '/charges' })(plan)
 * assert.equal(decision.latencyMs, 250)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const latency = (ms: number): Latency => ({
  kind: 'latency',
  ms: Number.isFinite(ms) && ms > 0 ? Math.floor(ms) : 0,
})

/**
 * Every failure, in a fixed order: for a test that runs a case per failure (a matrix, a
 * model-based test drawing one), so a failure added later is never left out.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(
 *   Faults.failures.map((f) => f.kind),
 *   [
 *     'status500',
 *     'processedThen500',
 *     'malformedBody',
 *     'offContractBody',
 *     'truncatedBody',
 *     'connectionReset',
 *     'hang',
 *   ],
 * )
 * // Which of them leave the service's state changed:
 * assert.deepEqual(
 *   Faults.failures.filter(Faults.processesRequest).map((f) => f.kind),
 *   ['processedThen500', 'malformedBody', 'offContractBody', 'truncatedBody', 'connectionReset', 'hang'],
 * )
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const failures: ReadonlyArray<Failure> = [
  status500,
  processedThen500,
  malformedBody,
  offContractBody,
  truncatedBody,
  connectionReset,
  hang,
]

/**
 * The plan with no faults: every request is answered normally.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * const [decision, plan] = Faults.take({ method: 'POST', path: '/charges' })(Faults.empty)
 * assert.deepEqual(decision, { latencyMs: 0, failure: undefined })
 * assert.deepEqual(plan, Faults.empty)
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const empty: FaultPlan = { rules: [] }

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

const NonNegativeInt = t.refinement(
  t.number,
  (n) => Number.isSafeInteger(n) && n >= 0,
  'NonNegativeInt',
)
const PositiveCount = t.refinement(t.number, (n) => Number.isSafeInteger(n) && n > 0, 'PositiveInt')
const Probability = t.refinement(t.number, (n) => n >= 0 && n <= 1, 'Probability')

/**
 * A fault as JSON (the sandbox's `POST /__sandbox/faults` body):
 * `{ "fault": "status500" | "processedThen500" | "malformedBody" | "offContractBody" |
 * "truncatedBody" | "connectionReset" | "hang" | "latency", "ms"?: n, "method"?: "POST",
 * "path"?: "/charges", "times"?: n, "operation"?: "chargeAfter3ds", "orderId"?: "o1",
 * "nth"?: n, "probability"?: p }`.
 * `ms` is the latency's delay; `times` limits the fault to the next `times` matching
 * requests; the others are those of {@link Target}.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 * import * as E from 'fp-ts/lib/Either.js'
 *
 * const ok = Faults.FaultInjection.decode({ fault: 'status500', path: '/charges', times: 2 })
 * assert.ok(E.isRight(ok))
 * assert.equal(ok.right.times, 2)
 * assert.ok(E.isRight(Faults.FaultInjection.decode({ fault: 'processedThen500' })))
 * assert.ok(E.isLeft(Faults.FaultInjection.decode({ fault: 'explode' })))
 * assert.ok(E.isLeft(Faults.FaultInjection.decode({ fault: 'hang', times: 0 })))
 * const third = Faults.FaultInjection.decode({ fault: 'hang', operation: 'charge', nth: 3 })
 * assert.ok(E.isRight(third))
 * assert.ok(E.isLeft(Faults.FaultInjection.decode({ fault: 'hang', probability: 2 })))
 * ```
 *
 * @category codecs
 * @since 0.2.0
 */
export const FaultInjection = t.intersection(
  [
    t.type({
      fault: t.keyof({
        status500: null,
        processedThen500: null,
        malformedBody: null,
        offContractBody: null,
        truncatedBody: null,
        connectionReset: null,
        hang: null,
        latency: null,
      }),
    }),
    t.partial({
      ms: NonNegativeInt,
      method: t.string,
      path: t.string,
      times: PositiveCount,
      operation: t.keyof({
        getToken: null,
        createPaymentMethod: null,
        charge: null,
        chargeAfter3ds: null,
        createPaymentLink: null,
        getOrder: null,
        authenticationPage: null,
        checkoutPage: null,
      }),
      orderId: t.string,
      nth: PositiveCount,
      probability: Probability,
      seed: t.Int,
    }),
  ],
  'FaultInjection',
)

/**
 * A decoded {@link FaultInjection}.
 *
 * @category model
 * @since 0.2.0
 */
export type FaultInjection = t.TypeOf<typeof FaultInjection>

/**
 * The rule a {@link FaultInjection} describes (`latency` without `ms` is 0 ms).
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(Faults.ruleOf({ fault: 'latency', ms: 300, path: '/paymentlink/**' }), {
 *   fault: { kind: 'latency', ms: 300 },
 *   path: '/paymentlink/**',
 * })
 * assert.deepEqual(Faults.ruleOf({ fault: 'hang', method: 'POST', times: 1 }), {
 *   fault: Faults.hang,
 *   method: 'POST',
 *   remaining: 1,
 * })
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const ruleOf = (injection: FaultInjection): FaultRule => {
  const fault: Fault =
    injection.fault === 'latency' ? latency(injection.ms ?? 0) : { kind: injection.fault }
  return {
    fault,
    ...targetOf(injection),
    ...(injection.times === undefined ? {} : { remaining: injection.times }),
  }
}

/** The members of `target` that are set (an absent member must stay absent). */
const targetOf = (target: Target): Target => {
  const out: { -readonly [K in keyof Target]: Target[K] } = {}
  if (target.method !== undefined) out.method = target.method
  if (target.path !== undefined) out.path = target.path
  if (target.operation !== undefined) out.operation = target.operation
  if (target.orderId !== undefined) out.orderId = target.orderId
  if (target.nth !== undefined) out.nth = target.nth
  if (target.probability !== undefined) out.probability = target.probability
  if (target.seed !== undefined) out.seed = target.seed | 0
  return out
}

// -------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------

/**
 * Adds `fault` for the requests of `target`; with `times`, only for the next `times`
 * matching requests, otherwise until the plan is cleared.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * const plan = Faults.inject(Faults.status500, { method: 'POST', path: '/charges', times: 1 })(
 *   Faults.empty,
 * )
 * const [first, after] = Faults.take({ method: 'POST', path: '/charges' })(plan)
 * assert.deepEqual(first.failure, Faults.status500)
 * const [second] = Faults.take({ method: 'POST', path: '/charges' })(after)
 * assert.equal(second.failure, undefined) // `times: 1` was used up
 * ```
 *
 * @category combinators
 * @since 0.2.0
 */
export const inject =
  (fault: Fault, target: Target & { readonly times?: number } = {}) =>
  (plan: FaultPlan): FaultPlan =>
    add({
      fault,
      ...targetOf(target),
      ...(target.times === undefined ? {} : { remaining: target.times }),
    })(plan)

/**
 * Appends a rule (one whose `remaining` is not a positive integer is ignored).
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * const plan = Faults.add({ fault: Faults.hang, path: '/token', remaining: 2 })(Faults.empty)
 * assert.equal(plan.rules.length, 1)
 * // a rule whose `remaining` is not a positive integer is ignored
 * assert.equal(Faults.add({ fault: Faults.hang, remaining: 0 })(plan), plan)
 * ```
 *
 * @category combinators
 * @since 0.2.0
 */
export const add =
  (rule: FaultRule) =>
  (plan: FaultPlan): FaultPlan =>
    rule.remaining !== undefined && !(Number.isSafeInteger(rule.remaining) && rule.remaining > 0)
      ? plan
      : { ...plan, rules: [...plan.rules, rule] }

/**
 * Removes every rule.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * const plan = Faults.inject(Faults.status500)(Faults.empty)
 * assert.deepEqual(Faults.clear(plan), Faults.empty)
 * ```
 *
 * @category combinators
 * @since 0.2.0
 */
export const clear = (plan: FaultPlan): FaultPlan =>
  plan.seed === undefined ? empty : { rules: [], seed: plan.seed }

/**
 * The plan with its generator set to `seed` (any integer; draw it from fast-check, e.g.
 * `fc.integer()`, so that a failing run replays with the same faults). Only rules with a
 * `probability` draw from it.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * const plan = Faults.inject(Faults.processedThen500, { operation: 'charge', probability: 0.5 })(
 *   Faults.seeded(42)(Faults.empty),
 * )
 * const hits = (p: Faults.FaultPlan): ReadonlyArray<boolean> => {
 *   const out: Array<boolean> = []
 *   for (let i = 0; i < 20; i++) {
 *     const [decision, next] = Faults.take({ method: 'POST', path: '/charges', body: '{}' })(p)
 *     out.push(decision.failure !== undefined)
 *     p = next
 *   }
 *   return out
 * }
 * assert.deepEqual(hits(plan), hits(plan)) // the same seed, the same faults
 * assert.ok(hits(plan).includes(true) && hits(plan).includes(false))
 // a rule may carry its own seed (the JSON form's "seed"), whatever the plan's
 * const own = Faults.inject(Faults.hang, { operation: 'charge', probability: 0.5, seed: 7 })
 * assert.deepEqual(hits(own(Faults.empty)), hits(own(Faults.seeded(1)(Faults.empty))))
 * ```
 *
 * @category combinators
 * @since 0.2.0
 */
export const seeded =
  (seed: number) =>
  (plan: FaultPlan): FaultPlan => ({ ...plan, seed: seed | 0 })

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

const escapeRegExp = (s: string): string => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')

const patternRegExp = (pattern: string): RegExp =>
  new RegExp(
    `^${pattern
      .split('**')
      .map((part) => part.split('*').map(escapeRegExp).join('[^/]*'))
      .join('.*')}$`,
  )

const OPERATIONS: ReadonlyArray<readonly [RegExp, string, Operation]> = [
  [/\/token$/, 'POST', 'getToken'],
  [/\/paymentmethods$/, 'POST', 'createPaymentMethod'],
  [/\/charges$/, 'POST', 'charge'],
  [/\/paymentlink\/checkout$/, 'POST', 'createPaymentLink'],
  [/\/paymentlink\/order\/[^/]+$/, 'GET', 'getOrder'],
  [/\/3ds\/[^/]+$/, '', 'authenticationPage'],
  [/\/pay\/[^/]+(?:\/voucher)?$/, '', 'checkoutPage'],
]

const jsonOf = (body: string | undefined): Record<string, unknown> | undefined => {
  if (body === undefined || body === '') return undefined
  try {
    const json: unknown = JSON.parse(body)
    return typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * What `request` asks the service to do (`undefined` for a request of no operation: an
 * unknown path, a wrong method). A `POST /charges` whose body carries a string
 * `authenticationId` is `chargeAfter3ds`, any other `charge`.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * const first = { method: 'POST', path: '/charges', body: '{"authenticationId":null}' }
 * assert.equal(Faults.operationOf(first), 'charge')
 * const retry = { method: 'POST', path: '/charges', body: '{"authenticationId":"auth_1"}' }
 * assert.equal(Faults.operationOf(retry), 'chargeAfter3ds')
 * assert.equal(Faults.operationOf({ method: 'GET', path: '/v1/paymentlink/order/OC1?x=1' }), 'getOrder')
 * assert.equal(Faults.operationOf({ method: 'DELETE', path: '/charges' }), undefined)
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const operationOf = (request: RequestLine): Operation | undefined => {
  const pathname = request.path.split('?')[0] ?? ''
  const method = request.method.toUpperCase()
  const found = OPERATIONS.find(([re, m]) => (m === '' || m === method) && re.test(pathname))
  if (found === undefined) return undefined
  if (found[2] !== 'charge') return found[2]
  return typeof jsonOf(request.body)?.['authenticationId'] === 'string'
    ? 'chargeAfter3ds'
    : 'charge'
}

/**
 * The merchant's order a request is about: a charge's `order.id`, a payment link's
 * `orderReference`, or the order code in the path of `GET /paymentlink/order/{orderCode}`
 * and the checkout page (`undefined` when it names none).
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * const charge = { method: 'POST', path: '/charges', body: '{"order":{"id":"o1","amount":5}}' }
 * assert.equal(Faults.orderIdOf(charge), 'o1')
 * const link = { method: 'POST', path: '/paymentlink/checkout', body: '{"orderReference":"o2"}' }
 * assert.equal(Faults.orderIdOf(link), 'o2')
 * assert.equal(Faults.orderIdOf({ method: 'GET', path: '/paymentlink/order/OC00001001' }), 'OC00001001')
 * assert.equal(Faults.orderIdOf({ method: 'POST', path: '/token', body: '{}' }), undefined)
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const orderIdOf = (request: RequestLine): string | undefined => {
  const pathname = request.path.split('?')[0] ?? ''
  const code = /\/(?:paymentlink\/order|pay)\/([^/]+)(?:\/voucher)?$/.exec(pathname)?.[1]
  if (code !== undefined) return decodeURIComponent(code)
  const json = jsonOf(request.body)
  const order = json?.['order']
  const id =
    typeof order === 'object' && order !== null
      ? (order as Record<string, unknown>)['id']
      : json?.['orderReference']
  return typeof id === 'string' ? id : undefined
}

/**
 * Whether `rule` applies to `request` by what the request is (method, path, operation,
 * order id); `nth` and `probability` are counted and drawn by {@link take}.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * const order = { method: 'get', path: '/paymentlink/order/OC00001001?x=1' }
 * assert.equal(Faults.matches(order)({ method: 'GET', path: '/paymentlink/**' }), true)
 * assert.equal(Faults.matches(order)({ path: '/paymentlink/order/*' }), true)
 * assert.equal(Faults.matches(order)({ path: '/paymentlink/*' }), false) // `*` is one segment
 * assert.equal(Faults.matches(order)({ method: 'POST' }), false)
 * assert.equal(Faults.matches(order)({}), true)
 * assert.equal(Faults.matches(order)({ operation: 'getOrder', orderId: 'OC00001001' }), true)
 * assert.equal(Faults.matches(order)({ operation: 'charge' }), false)
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const matches =
  (request: RequestLine) =>
  (rule: Target): boolean => {
    if (rule.method !== undefined && rule.method.toUpperCase() !== request.method.toUpperCase())
      return false
    if (rule.operation !== undefined && operationOf(request) !== rule.operation) return false
    if (rule.orderId !== undefined && orderIdOf(request) !== rule.orderId) return false
    if (rule.path === undefined) return true
    const pathname = request.path.split('?')[0] ?? ''
    return patternRegExp(rule.path).test(pathname)
  }

/** One step of mulberry32: the next state and a number in [0, 1). */
const draw = (seed: number): readonly [number, number] => {
  const next = (seed + 0x6d2b79f5) | 0
  let x = Math.imul(next ^ (next >>> 15), next | 1)
  x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
  return [next, ((x ^ (x >>> 14)) >>> 0) / 4294967296]
}

/**
 * Decides the fault for one request and uses up one count of each rule that applied:
 * the first matching failure and the first matching latency. A matching rule with `nth`
 * counts the request (in `seen`) and applies from the `nth` on; one with `probability`
 * applies when the plan's generator draws under it.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * const plan = Faults.inject(Faults.latency(100))(
 *   Faults.inject(Faults.connectionReset, { path: '/charges', times: 1 })(Faults.empty),
 * )
 * const [decision, next] = Faults.take({ method: 'POST', path: '/charges' })(plan)
 * assert.deepEqual(decision, { latencyMs: 100, failure: Faults.connectionReset })
 * assert.equal(next.rules.length, 1) // the reset is used up; the latency stays
 *
 * // the second first-attempt charge of order o1 only
 * let second = Faults.inject(Faults.processedThen500, {
 *   operation: 'charge',
 *   orderId: 'o1',
 *   nth: 2,
 *   times: 1,
 * })(Faults.empty)
 * const charge = { method: 'POST', path: '/charges', body: '{"order":{"id":"o1"}}' }
 * const kinds: Array<string | undefined> = []
 * for (let i = 0; i < 3; i++) {
 *   const [d, p] = Faults.take(charge)(second)
 *   kinds.push(d.failure?.kind)
 *   second = p
 * }
 * assert.deepEqual(kinds, [undefined, 'processedThen500', undefined])
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const take =
  (request: RequestLine) =>
  (plan: FaultPlan): readonly [Decision, FaultPlan] => {
    const applies = matches(request)
    let seed = plan.seed ?? 0
    let failureIndex = -1
    let latencyIndex = -1
    const counted = plan.rules.map((rule, i): FaultRule => {
      if (!applies(rule)) return rule
      const seen = (rule.seen ?? 0) + 1
      const isLatency = rule.fault.kind === 'latency'
      const eligible =
        (rule.nth === undefined || seen >= rule.nth) &&
        (isLatency ? latencyIndex < 0 : failureIndex < 0)
      let fires = eligible
      let own = rule.seed
      if (eligible && rule.probability !== undefined) {
        const [next, x] = draw(own ?? seed)
        if (own === undefined) seed = next
        else own = next
        fires = x < rule.probability
      }
      if (fires) {
        if (isLatency) latencyIndex = i
        else failureIndex = i
      }
      if (rule.nth === undefined && own === rule.seed) return rule
      return {
        ...rule,
        ...(rule.nth === undefined ? {} : { seen }),
        ...(own === undefined ? {} : { seed: own }),
      }
    })
    const failureRule = plan.rules[failureIndex]
    const latencyRule = plan.rules[latencyIndex]
    const decision: Decision = {
      latencyMs: latencyRule?.fault.kind === 'latency' ? latencyRule.fault.ms : 0,
      failure: failureRule?.fault.kind === 'latency' ? undefined : failureRule?.fault,
    }
    const rules = counted.flatMap((rule, i): ReadonlyArray<FaultRule> => {
      if ((i !== failureIndex && i !== latencyIndex) || rule.remaining === undefined) return [rule]
      return rule.remaining > 1 ? [{ ...rule, remaining: rule.remaining - 1 }] : []
    })
    return [decision, plan.seed === undefined && seed === 0 ? { rules } : { rules, seed }]
  }

/**
 * Whether the simulator still processes a request that meets `failure` (every failure but
 * `status500`, which stands for the service failing before it did anything): the request's
 * effect (a card, a charge, an order, a token) is in the state although the answer is
 * lost or spoilt.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Faults.processesRequest(undefined), true)
 * assert.equal(Faults.processesRequest(Faults.connectionReset), true) // a charge is recorded
 * assert.equal(Faults.processesRequest(Faults.processedThen500), true)
 * assert.equal(Faults.processesRequest(Faults.status500), false)
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const processesRequest = (failure: Failure | undefined): boolean =>
  failure?.kind !== 'status500'

// -------------------------------------------------------------------------------------
// responses
// -------------------------------------------------------------------------------------

/**
 * The 500 answer of `status500`: problem details of spec 7.2 (type, title, status; no
 * `errors` member).
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Faults.serverProblem.status, 500)
 * const problem = JSON.parse(Faults.serverProblem.body)
 * assert.equal(problem.status, 500)
 * assert.equal('errors' in problem, false)
 * ```
 *
 * @category responses
 * @since 0.2.0
 */
export const serverProblem: SimResponse = internalError()

/**
 * The answer of `malformedBody`: `response` with a body that no JSON parser accepts.
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * const answer = { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' }
 * const spoilt = Faults.malformed(answer)
 * assert.equal(spoilt.status, 200)
 * assert.throws(() => JSON.parse(spoilt.body), SyntaxError)
 * ```
 *
 * @category responses
 * @since 0.2.0
 */
export const malformed = (response: SimResponse): SimResponse => ({
  ...response,
  body: '{"status": <malformed',
})

/**
 * The answer of `offContractBody`: `response` with a JSON body that no response of the
 * contract accepts (none of its members is one the contract names).
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * const answer = { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' }
 * const spoilt = Faults.offContract(answer)
 * assert.equal(spoilt.status, 200)
 * assert.deepEqual(JSON.parse(spoilt.body), { unexpected: 'a body off the contract' })
 * ```
 *
 * @category responses
 * @since 0.2.0
 */
export const offContract = (response: SimResponse): SimResponse => ({
  ...response,
  body: '{"unexpected":"a body off the contract"}',
})

/**
 * The answer the client gets for `response` (the simulator's, when it processed the
 * request) once `failure` applies: the 500 server problem for `status500` and
 * `processedThen500`, the spoilt body for `malformedBody` and `offContractBody`, and
 * `response` itself otherwise (the adapter then resets, holds or truncates it).
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * const answer = { status: 200, headers: {}, body: '{"orderCode":"OC00001001"}' }
 * assert.equal(Faults.answerOf(Faults.processedThen500)(answer).status, 500)
 * assert.equal(Faults.answerOf(Faults.offContractBody)(answer).status, 200)
 * assert.equal(Faults.answerOf(Faults.connectionReset)(answer), answer)
 * assert.equal(Faults.answerOf(undefined)(answer), answer)
 * ```
 *
 * @category responses
 * @since 0.2.0
 */
export const answerOf =
  (failure: Failure | undefined) =>
  (response: SimResponse): SimResponse => {
    switch (failure?.kind) {
      case 'status500':
      case 'processedThen500':
        return serverProblem
      case 'malformedBody':
        return malformed(response)
      case 'offContractBody':
        return offContract(response)
      default:
        return response
    }
  }

/**
 * The part of `body` that `truncatedBody` sends before breaking the connection: the first
 * half of its bytes (at most one byte short of the whole, empty for an empty body).
 *
 * @example
 * ```ts
 * import { Faults } from '@paykit/testkit/service'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(Faults.truncatedPart('{"status":500}').toString(), '{"statu')
 * assert.equal(Faults.truncatedPart('x').length, 0)
 * ```
 *
 * @category responses
 * @since 0.2.0
 */
export const truncatedPart = (body: string): Buffer => {
  const bytes = Buffer.from(body, 'utf8')
  return bytes.subarray(0, Math.min(Math.floor(bytes.length / 2), Math.max(bytes.length - 1, 0)))
}
