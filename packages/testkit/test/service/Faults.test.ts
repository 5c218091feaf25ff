import { describe, expect, it } from 'vitest'
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import { validate } from '@paykit/core'
import * as Faults from '../../src/service/Faults.js'

const charge = { method: 'POST', path: '/charges' }
const token = { method: 'POST', path: '/token' }

describe('take', () => {
  it('decides nothing with the empty plan', () => {
    const [decision, plan] = Faults.take(charge)(Faults.empty)
    expect(decision).toEqual({ latencyMs: 0, failure: undefined })
    expect(plan.rules).toEqual([])
  })

  it('applies a fault to every matching request until cleared when no count is given', () => {
    let plan = pipe(
      Faults.empty,
      Faults.inject(Faults.status500, { method: 'post', path: '/charges' }),
    )
    for (let i = 0; i < 3; i++) {
      const [decision, next] = Faults.take(charge)(plan)
      expect(decision.failure).toEqual(Faults.status500)
      plan = next
    }
    expect(Faults.take(token)(plan)[0].failure).toBeUndefined()
    expect(Faults.take(charge)(Faults.clear(plan))[0].failure).toBeUndefined()
  })

  test.prop([fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 30 })])(
    'a fault for the next N requests applies to exactly N of them',
    (times, extra) => {
      let plan = pipe(Faults.empty, Faults.inject(Faults.connectionReset, { times }))
      let applied = 0
      for (let i = 0; i < times + extra; i++) {
        const [decision, next] = Faults.take(i % 2 === 0 ? charge : token)(plan)
        if (decision.failure !== undefined) applied++
        plan = next
      }
      expect(applied).toBe(times)
      expect(plan.rules).toEqual([])
    },
  )

  it('uses a counted rule only on requests that match it', () => {
    const plan = pipe(Faults.empty, Faults.inject(Faults.hang, { path: '/charges', times: 1 }))
    const [onToken, after] = Faults.take(token)(plan)
    expect(onToken.failure).toBeUndefined()
    expect(after).toEqual(plan)
    expect(Faults.take(charge)(after)[0].failure).toEqual(Faults.hang)
  })

  it('applies the first matching failure and the first matching latency together', () => {
    const plan = pipe(
      Faults.empty,
      Faults.inject(Faults.latency(50), { times: 1 }),
      Faults.inject(Faults.latency(999)),
      Faults.inject(Faults.malformedBody, { path: '/charges', times: 1 }),
      Faults.inject(Faults.truncatedBody),
    )
    const [first, next] = Faults.take(charge)(plan)
    expect(first).toEqual({ latencyMs: 50, failure: Faults.malformedBody })
    const [second] = Faults.take(charge)(next)
    expect(second).toEqual({ latencyMs: 999, failure: Faults.truncatedBody })
  })

  it('ignores a count that is not a positive integer', () => {
    expect(pipe(Faults.empty, Faults.inject(Faults.hang, { times: 0 })).rules).toEqual([])
    expect(pipe(Faults.empty, Faults.inject(Faults.hang, { times: 1.5 })).rules).toEqual([])
  })
})

describe('matches', () => {
  it.each([
    ['/charges', '/charges', true],
    ['/charges', '/charges?x=1', true],
    ['/charges', '/chargesx', false],
    ['/paymentlink/order/*', '/paymentlink/order/ABC123', true],
    ['/paymentlink/order/*', '/paymentlink/order/ABC/x', false],
    ['/paymentlink/**', '/paymentlink/order/ABC/x', true],
    ['/3ds/*', '/3ds/auth_1?result=success', true],
    ['/a.b', '/axb', false],
  ])('pattern %s on %s: %s', (path, requestPath, expected) => {
    expect(Faults.matches({ method: 'GET', path: requestPath })({ path })).toBe(expected)
  })

  it('compares methods case-insensitively and treats a missing method as any', () => {
    expect(Faults.matches(charge)({ method: 'post' })).toBe(true)
    expect(Faults.matches(charge)({ method: 'GET' })).toBe(false)
    expect(Faults.matches(charge)({})).toBe(true)
  })
})

describe('FaultInjection', () => {
  it('decodes every fault kind into a rule', () => {
    const decoded = validate(Faults.FaultInjection)({
      fault: 'latency',
      ms: 120,
      method: 'GET',
      path: '/x',
      times: 2,
    })
    expect(pipe(decoded, E.map(Faults.ruleOf))).toEqual(
      E.right({ fault: Faults.latency(120), method: 'GET', path: '/x', remaining: 2 }),
    )
    for (const kind of Faults.failures.map((f) => f.kind))
      expect(pipe(validate(Faults.FaultInjection)({ fault: kind }), E.map(Faults.ruleOf))).toEqual(
        E.right({ fault: { kind } }),
      )
  })

  it.each([
    [{ fault: 'explode' }, 'fault'],
    [{}, 'fault'],
    [{ fault: 'hang', times: 0 }, 'times'],
    [{ fault: 'latency', ms: -1 }, 'ms'],
    [{ fault: 'hang', path: 3 }, 'path'],
  ])('refuses %j naming %s', (input, path) => {
    const decoded = validate(Faults.FaultInjection)(input)
    expect(E.isLeft(decoded) && decoded.left.map((e) => e.path)).toContain(path)
  })
})

describe('failures', () => {
  // One entry per kind of `Failure`: the compiler refuses this record when a kind is added
  // without a line here, and the test refuses `failures` without it.
  const processed: Readonly<Record<Faults.Failure['kind'], boolean>> = {
    status500: false,
    processedThen500: true,
    malformedBody: true,
    offContractBody: true,
    truncatedBody: true,
    connectionReset: true,
    hang: true,
  }

  it('lists every failure once, and says which of them the service processes', () => {
    const kinds = Faults.failures.map((f) => f.kind)
    expect([...kinds].sort()).toEqual(Object.keys(processed).sort())
    expect(new Set(kinds).size).toBe(kinds.length)
    for (const failure of Faults.failures)
      expect(Faults.processesRequest(failure), failure.kind).toBe(processed[failure.kind])
  })

  it('every failure constant of the module is in the list (and decodes from JSON)', () => {
    const constants = (Object.values(Faults) as ReadonlyArray<unknown>).filter(
      (v): v is Faults.Failure =>
        typeof v === 'object' &&
        v !== null &&
        typeof (v as { kind?: unknown }).kind === 'string' &&
        (v as { kind?: unknown }).kind !== 'latency',
    )
    // an alias (processedThenReset, processedThenTimeout) is the same constant
    expect([...new Set(constants)].map((f) => f.kind).sort()).toEqual(
      [...Faults.failures.map((f) => f.kind)].sort(),
    )
    for (const { kind } of constants)
      expect(E.isRight(validate(Faults.FaultInjection)({ fault: kind })), kind).toBe(true)
  })
})

describe('answerOf', () => {
  const answer = {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ orderCode: 'OC00001001', orderId: 1001, paymentLinkUrl: 'x' }),
  }

  it('processedThen500 and status500 answer the same server problem', () => {
    expect(Faults.answerOf(Faults.processedThen500)(answer)).toEqual(Faults.serverProblem)
    expect(Faults.answerOf(Faults.status500)(answer)).toEqual(Faults.serverProblem)
  })

  it('offContractBody keeps status and headers, with JSON that names no member of the answer', () => {
    const spoilt = Faults.answerOf(Faults.offContractBody)(answer)
    expect([spoilt.status, spoilt.headers]).toEqual([answer.status, answer.headers])
    const json = JSON.parse(spoilt.body) as Record<string, unknown>
    for (const member of ['orderCode', 'accessToken', 'id', 'status', 'orderId', 'title'])
      expect(member in json, member).toBe(false)
  })

  it('malformedBody breaks the JSON; the others leave the answer to the adapter', () => {
    expect(
      () => JSON.parse(Faults.answerOf(Faults.malformedBody)(answer).body) as unknown,
    ).toThrow()
    for (const failure of [Faults.truncatedBody, Faults.connectionReset, Faults.hang, undefined])
      expect(Faults.answerOf(failure)(answer)).toBe(answer)
  })
})

describe('responses', () => {
  it('status500 answers the 7.2 server problem and is not processed', () => {
    expect(Faults.serverProblem.status).toBe(500)
    expect(JSON.parse(Faults.serverProblem.body)).toEqual({
      type: 'https://tools.ietf.org/html/rfc7231#section-6.6.1',
      title: expect.any(String),
      status: 500,
    })
    expect(Faults.processesRequest(Faults.status500)).toBe(false)
    expect(Faults.processesRequest(Faults.connectionReset)).toBe(true)
    expect(Faults.processesRequest(undefined)).toBe(true)
  })

  it('malformed keeps the status and breaks the JSON', () => {
    const spoiled = Faults.malformed({ status: 201, headers: {}, body: '{"a":1}' })
    expect(spoiled.status).toBe(201)
    expect(() => JSON.parse(spoiled.body) as unknown).toThrow()
  })

  test.prop([fc.string()])('the truncated part is a strict prefix of a non-empty body', (body) => {
    const full = Buffer.from(body, 'utf8')
    const part = Faults.truncatedPart(body)
    expect(full.subarray(0, part.length).equals(part)).toBe(true)
    expect(part.length).toBeLessThan(Math.max(full.length, 1))
  })

  it('negative latencies count as none', () => {
    expect(Faults.latency(-5).ms).toBe(0)
    expect(Faults.latency(Number.NaN).ms).toBe(0)
  })
})

describe('targeting by predicate and probability', () => {
  const chargeOf = (orderId: string, authenticationId: string | null = null) => ({
    method: 'POST',
    path: '/charges',
    body: JSON.stringify({ order: { id: orderId, amount: 5 }, cardId: 'pm_1', authenticationId }),
  })
  const failuresOf = (
    plan: Faults.FaultPlan,
    requests: ReadonlyArray<Faults.RequestLine>,
  ): ReadonlyArray<string | undefined> => {
    const out: Array<string | undefined> = []
    let p = plan
    for (const request of requests) {
      const [decision, next] = Faults.take(request)(p)
      out.push(decision.failure?.kind)
      p = next
    }
    return out
  }

  it('the 3DS retry of order o1, and only it', () => {
    const plan = Faults.inject(Faults.processedThen500, {
      operation: 'chargeAfter3ds',
      orderId: 'o1',
    })(Faults.empty)
    expect(
      failuresOf(plan, [
        chargeOf('o1'),
        chargeOf('o2', 'auth_1'),
        chargeOf('o1', 'auth_2'),
        { method: 'POST', path: '/paymentlink/checkout', body: '{"orderReference":"o1"}' },
      ]),
    ).toEqual([undefined, undefined, 'processedThen500', undefined])
  })

  it('the nth matching call: earlier ones pass, later ones too once `times` is used up', () => {
    const plan = Faults.inject(Faults.processedThenReset, {
      operation: 'charge',
      nth: 2,
      times: 1,
    })(Faults.empty)
    const token = { method: 'POST', path: '/token', body: '{}' }
    expect(failuresOf(plan, [chargeOf('a'), token, chargeOf('b'), chargeOf('c')])).toEqual([
      undefined,
      undefined,
      'connectionReset',
      undefined,
    ])
  })

  test.prop([fc.integer(), fc.double({ min: 0, max: 1, noNaN: true })])(
    'a probability replays with its seed and fires about as often as it says',
    (seed, probability) => {
      const plan = Faults.inject(Faults.hang, { operation: 'charge', probability })(
        Faults.seeded(seed)(Faults.empty),
      )
      const requests = Array.from({ length: 400 }, (_, i) => chargeOf(`o${i}`))
      const once = failuresOf(plan, requests)
      expect(failuresOf(plan, requests)).toEqual(once)
      const rate = once.filter((k) => k === 'hang').length / requests.length
      expect(Math.abs(rate - probability)).toBeLessThan(0.12)
      if (probability === 0) expect(rate).toBe(0)
      if (probability === 1) expect(rate).toBe(1)
    },
  )

  it('the names of "processed, then 500 / reset / timeout" all process the request', () => {
    expect(
      [Faults.processedThen500, Faults.processedThenReset, Faults.processedThenTimeout].map(
        Faults.processesRequest,
      ),
    ).toEqual([true, true, true])
    expect(Faults.processedThenTimeout).toBe(Faults.hang)
  })

  it('the JSON form carries the targeting into the rule', () => {
    const decoded = Faults.FaultInjection.decode({
      fault: 'processedThen500',
      operation: 'createPaymentLink',
      orderId: 'o9',
      nth: 2,
      probability: 0.5,
      times: 1,
    })
    expect(E.isRight(decoded) && Faults.ruleOf(decoded.right)).toEqual({
      fault: Faults.processedThen500,
      operation: 'createPaymentLink',
      orderId: 'o9',
      nth: 2,
      probability: 0.5,
      remaining: 1,
    })
  })
})
