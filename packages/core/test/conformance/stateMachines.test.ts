// Conformance: the three state machines of issue 2 as pure reducers
// `(state, event) => Either<TransitionError, State>`, worded as the issue words them.
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { describe, expect, it } from 'vitest'
import { ChargeRequest, ChargeResponse } from '@paykit/core/codecs'
import {
  Authentication,
  ChargeFlow,
  FrameMessage,
  OrderFlow,
  type ChargeFlowEvent,
  type ChargeFlowState,
} from '@paykit/core/machines'
import * as S from './samples.js'

const request = S.decodeRight(ChargeRequest, S.chargeRequest)
const respond = (r: unknown): ChargeFlowEvent =>
  ChargeFlow.chargeResponded(S.decodeRight(ChargeResponse, r))
const frame = (status: string, id = 'auth-1', type?: string): ChargeFlowEvent =>
  ChargeFlow.frameMessageReceived(S.decodeRight(FrameMessage, S.frameMessage(status, id, type)))
const authRequired = (id: string) => ({
  ...S.chargeAuthRequired,
  authentication: { url: `https://3ds.example.com/auth/${id}`, id },
})

/** Runs events from Idle, failing on any Left. */
const run = (...events: ReadonlyArray<ChargeFlowEvent>): ChargeFlowState =>
  events.reduce((s, e) => {
    const r = ChargeFlow.reduce(s, e)
    if (E.isLeft(r)) expect.fail(`unexpected Left in ${s._tag}: ${r.left.message}`)
    return r.right
  }, ChargeFlow.start(request))

const expectLeftUnchanged = (state: ChargeFlowState, event: ChargeFlowEvent): void => {
  const before = JSON.stringify(state)
  const r = ChargeFlow.reduce(state, event)
  expect(E.isLeft(r)).toBe(true)
  if (E.isLeft(r)) {
    expect(r.left._tag).toBe('TransitionError')
    expect(r.left.message.length).toBeGreaterThan(0)
  }
  expect(JSON.stringify(state)).toBe(before)
}

describe('charge flow', () => {
  it('Idle: the next request is the first charge, with authenticationId null', () => {
    const idle = ChargeFlow.start(request)
    expect(idle._tag).toBe('Idle')
    const next = ChargeFlow.nextRequest(idle)
    expect(O.isSome(next) && next.value).toEqual({ ...request, authenticationId: null })
  })
  it('a FAILED response -> Failed(error)', () => {
    const s = run(respond(S.chargeFailed))
    expect(s._tag === 'Failed' && s.error).toEqual({
      code: 'FRAUD_PREVENT',
      message: 'Charge under review',
    })
  })
  it('a SUCCEEDED response -> Succeeded(order)', () => {
    const s = run(respond(S.chargeSucceeded))
    expect(s._tag === 'Succeeded' && s.order.id).toBe('svc-9001')
  })
  it('an AUTHENTICATION_REQUIRED response -> AwaitingAuthentication(url, id)', () => {
    const s = run(respond(S.chargeAuthRequired))
    expect(s).toMatchObject({
      _tag: 'AwaitingAuthentication',
      url: 'https://3ds.example.com/auth/auth-1',
      authenticationId: 'auth-1',
    })
    expect(O.isNone(ChargeFlow.nextRequest(s))).toBe(true)
  })
  it('authentication.complete + SUCCESS for that id -> ReadyToRetry(authenticationId)', () => {
    const s = run(respond(S.chargeAuthRequired), frame('SUCCESS'))
    expect(s).toMatchObject({ _tag: 'ReadyToRetry', authenticationId: 'auth-1' })
  })
  it('the retry is the same order and cardId with the authenticationId', () => {
    const s = run(respond(S.chargeAuthRequired), frame('SUCCESS'))
    const next = ChargeFlow.nextRequest(s)
    expect(O.isSome(next) && next.value).toEqual({ ...request, authenticationId: 'auth-1' })
  })
  it.each(['FAILED', 'ERROR', 'EXPIRED'])('Status %s -> AuthenticationFailed(status)', (status) => {
    for (const type of ['authentication.failed', 'authentication.complete']) {
      const s = run(respond(S.chargeAuthRequired), frame(status, 'auth-1', type))
      expect(s).toMatchObject({ _tag: 'AuthenticationFailed', status })
      expect(O.isNone(ChargeFlow.nextRequest(s))).toBe(true)
    }
  })
  it('authentication.failed (even with Status SUCCESS) -> AuthenticationFailed, no retry', () => {
    const s = run(
      respond(S.chargeAuthRequired),
      frame('SUCCESS', 'auth-1', 'authentication.failed'),
    )
    expect(s._tag).toBe('AuthenticationFailed')
    expect(O.isNone(ChargeFlow.nextRequest(s))).toBe(true)
  })
  it('Status PENDING keeps it awaiting', () => {
    const awaiting = run(respond(S.chargeAuthRequired))
    for (const type of ['authentication.complete', 'authentication.failed']) {
      const r = ChargeFlow.reduce(awaiting, frame('PENDING', 'auth-1', type))
      expect(E.isRight(r) && r.right).toMatchObject({
        _tag: 'AwaitingAuthentication',
        authenticationId: 'auth-1',
      })
    }
  })
  it('a message for another authentication id -> Left, state unchanged', () => {
    const awaiting = run(respond(S.chargeAuthRequired))
    for (const status of ['SUCCESS', 'FAILED', 'PENDING'])
      expectLeftUnchanged(awaiting, frame(status, 'auth-2'))
  })
  it("the retry's response moves it again (same three outcomes)", () => {
    const ready = [respond(S.chargeAuthRequired), frame('SUCCESS')] as const
    expect(run(...ready, respond(S.chargeSucceeded))._tag).toBe('Succeeded')
    expect(run(...ready, respond(S.chargeFailed))._tag).toBe('Failed')
    const again = run(...ready, respond(authRequired('auth-2')))
    expect(again).toMatchObject({ _tag: 'AwaitingAuthentication', authenticationId: 'auth-2' })
    // the old id no longer applies
    expectLeftUnchanged(again, frame('SUCCESS', 'auth-1'))
    const retry2 = run(...ready, respond(authRequired('auth-2')), frame('SUCCESS', 'auth-2'))
    const next = ChargeFlow.nextRequest(retry2)
    expect(O.isSome(next) && next.value).toEqual({ ...request, authenticationId: 'auth-2' })
  })
  it('any event in a terminal state -> Left, state unchanged (no charge after a success)', () => {
    const terminals = [
      run(respond(S.chargeFailed)),
      run(respond(S.chargeSucceeded)),
      run(respond(S.chargeAuthRequired), frame('EXPIRED')),
      run(respond(S.chargeAuthRequired), frame('SUCCESS'), respond(S.chargeSucceeded)),
    ]
    const events = [
      respond(S.chargeSucceeded),
      respond(S.chargeFailed),
      respond(S.chargeAuthRequired),
      frame('SUCCESS'),
      frame('FAILED'),
      frame('PENDING'),
    ]
    for (const s of terminals) {
      expect(ChargeFlow.isTerminal(s)).toBe(true)
      expect(O.isNone(ChargeFlow.nextRequest(s))).toBe(true)
      for (const e of events) expectLeftUnchanged(s, e)
    }
  })
  it('events that do not apply: a frame message before any charge', () => {
    expectLeftUnchanged(ChargeFlow.start(request), frame('SUCCESS'))
  })
  it('transition is the pipe-first form of reduce', () => {
    const idle = ChargeFlow.start(request)
    expect(ChargeFlow.transition(respond(S.chargeSucceeded))(idle)).toEqual(
      ChargeFlow.reduce(idle, respond(S.chargeSucceeded)),
    )
  })
})

describe('authentication status: PENDING -> SUCCESS | FAILED | ERROR | EXPIRED, terminal after', () => {
  const finals = ['SUCCESS', 'FAILED', 'ERROR', 'EXPIRED'] as const
  it.each(finals)('PENDING -> %s', (to) => {
    expect(Authentication.reduce('PENDING', to)).toEqual(E.right(to))
  })
  it.each(finals)('%s is terminal', (from) => {
    for (const to of ['PENDING', ...finals] as const) {
      const r = Authentication.reduce(from, to)
      expect(E.isLeft(r) && r.left._tag).toBe('TransitionError')
    }
  })
})

describe('order status: PENDING -> PAID | CANCELLED, PAID -> FINALIZED', () => {
  const all = ['PENDING', 'PAID', 'CANCELLED', 'FINALIZED'] as const
  const allowed = new Set(['PENDING>PAID', 'PENDING>CANCELLED', 'PAID>FINALIZED'])
  for (const from of all)
    for (const to of all) {
      if (from === to) continue
      const ok = allowed.has(`${from}>${to}`)
      it(`${from} -> ${to} ${ok ? 'is allowed' : 'is a TransitionError'}`, () => {
        const r = OrderFlow.reduce(from, to)
        if (ok) expect(r).toEqual(E.right(to))
        else expect(E.isLeft(r) && r.left._tag).toBe('TransitionError')
      })
    }
})
