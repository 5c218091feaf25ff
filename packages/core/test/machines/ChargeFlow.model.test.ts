/**
 * Model-based test of the charge flow: random sequences of charge responses, 3DS frame
 * messages (right and wrong authentication ids, every type and status) and "send the next
 * request" steps, checked against a small independent model and against the safety
 * properties a merchant depends on.
 */
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { expect } from 'vitest'
import type { AuthenticationStatus, FrameMessageType } from '../../src/machines/Authentication.js'
import {
  AUTHENTICATION_STATUSES,
  FRAME_MESSAGE_TYPES,
  FrameMessage,
} from '../../src/machines/Authentication.js'
import type { ChargeStatus } from '../../src/model/Charge.js'
import { CHARGE_STATUSES, ChargeRequest, ChargeResponse } from '../../src/model/Charge.js'
import type { ChargeFlowEvent, ChargeFlowState } from '../../src/machines/ChargeFlow.js'
import {
  chargeResponded,
  frameMessageReceived,
  nextRequest,
  reduce,
  start,
} from '../../src/machines/ChargeFlow.js'
import { decoded } from '../fixtures.js'

const request = decoded(ChargeRequest, {
  order: { id: 'ORD-7', amount: 99.99 },
  cardId: 'pm_7',
  authenticationId: null,
})

const IDS = ['auth_1', 'auth_2', 'auth_3'] as const

const response = (status: ChargeStatus, id: string): ChargeResponse =>
  decoded(ChargeResponse, {
    status,
    message: status,
    error: status === 'FAILED' ? { code: 'CARD_DECLINED', message: 'declined' } : null,
    authentication:
      status === 'AUTHENTICATION_REQUIRED'
        ? { url: `https://sandbox.example/3ds/${id}`, id }
        : null,
    order:
      status === 'SUCCEEDED'
        ? { id: 'ch_7', reference: 'ORD-7', amount: 99.99, currency: 'USD', authorizationCode: 'A' }
        : null,
    createdAt: '2026-11-22T00:10:00.000Z',
  })

// -------------------------------------------------------------------------------------
// model and real system
// -------------------------------------------------------------------------------------

type Phase = 'Idle' | 'Awaiting' | 'Ready' | 'Failed' | 'Succeeded' | 'AuthFailed'

interface Model {
  phase: Phase
  awaitingId: string | undefined
  readyId: string | undefined
  /** Authentication ids some AUTHENTICATION_REQUIRED response handed out. */
  readonly issuedIds: Set<string>
  /** Authentication ids for which an `authentication.complete` + SUCCESS message arrived. */
  readonly successMessageIds: Set<string>
  succeededOutcomes: number
}

interface Real {
  state: ChargeFlowState
}

/** Feeds one event; checks that a Left leaves the caller's state exactly as it was. */
const feed = (real: Real, event: ChargeFlowEvent): boolean => {
  const before = real.state
  const snapshot = JSON.stringify(before)
  const r = reduce(before, event)
  if (E.isLeft(r)) {
    expect(real.state).toBe(before)
    expect(JSON.stringify(before)).toBe(snapshot)
    expect(r.left).toMatchObject({ _tag: 'TransitionError', state: before._tag, event: event._tag })
    return false
  }
  // The previous state is never mutated either (it is a value the caller may keep).
  expect(JSON.stringify(before)).toBe(snapshot)
  real.state = r.right
  return true
}

const countSuccess = (m: Model, real: Real): void => {
  if (real.state._tag === 'Succeeded') m.succeededOutcomes++
  // Never two SUCCEEDED outcomes for one order.
  expect(m.succeededOutcomes).toBeLessThanOrEqual(1)
}

class Respond implements fc.Command<Model, Real> {
  constructor(
    readonly status: ChargeStatus,
    readonly id: string,
  ) {}
  check = (): boolean => true
  run(m: Model, real: Real): void {
    if (this.status === 'AUTHENTICATION_REQUIRED') m.issuedIds.add(this.id)
    const accepted = feed(real, chargeResponded(response(this.status, this.id)))
    const applies = m.phase === 'Idle' || m.phase === 'Ready'
    expect(accepted).toBe(applies)
    if (!applies) return
    m.readyId = undefined
    m.phase =
      this.status === 'FAILED' ? 'Failed' : this.status === 'SUCCEEDED' ? 'Succeeded' : 'Awaiting'
    m.awaitingId = this.status === 'AUTHENTICATION_REQUIRED' ? this.id : undefined
    expect(real.state._tag).toBe(
      { Failed: 'Failed', Succeeded: 'Succeeded', Awaiting: 'AwaitingAuthentication' }[m.phase],
    )
    countSuccess(m, real)
  }
  toString = (): string => `Respond(${this.status}, ${this.id})`
}

class Frame implements fc.Command<Model, Real> {
  constructor(
    readonly type: FrameMessageType,
    readonly status: AuthenticationStatus,
    readonly id: string,
  ) {}
  check = (): boolean => true
  run(m: Model, real: Real): void {
    const message = decoded(FrameMessage, {
      MessageType: this.type,
      Status: this.status,
      AuthenticationId: this.id,
      OrderId: 'ORD-7',
      OrderAmount: 99.99,
    })
    const success = this.type === 'authentication.complete' && this.status === 'SUCCESS'
    if (success) m.successMessageIds.add(this.id)
    const before = real.state
    const accepted = feed(real, frameMessageReceived(message))
    const applies = m.phase === 'Awaiting' && this.id === m.awaitingId
    expect(accepted).toBe(applies)
    if (!applies) return
    if (success) {
      m.phase = 'Ready'
      m.readyId = this.id
      m.awaitingId = undefined
      expect(real.state).toMatchObject({ _tag: 'ReadyToRetry', authenticationId: this.id })
    } else if (this.status !== 'PENDING') {
      m.phase = 'AuthFailed'
      m.awaitingId = undefined
      expect(real.state._tag).toBe('AuthenticationFailed')
    } else {
      expect(real.state).toBe(before)
    }
  }
  toString = (): string => `Frame(${this.type}, ${this.status}, ${this.id})`
}

class SendNext implements fc.Command<Model, Real> {
  check = (): boolean => true
  run(m: Model, real: Real): void {
    const next = nextRequest(real.state)
    if (O.isNone(next)) {
      expect(m.phase === 'Idle' || m.phase === 'Ready').toBe(false)
      return
    }
    // The same order and card on every attempt.
    expect(next.value.order).toEqual(request.order)
    expect(next.value.cardId).toBe(request.cardId)
    const id = next.value.authenticationId
    if (id === null) {
      expect(m.phase).toBe('Idle')
      return
    }
    // Never a retry without a SUCCESS message for that same authentication id, issued by
    // an AUTHENTICATION_REQUIRED response of this flow.
    expect(m.successMessageIds.has(id)).toBe(true)
    expect(m.issuedIds.has(id)).toBe(true)
    expect(m.phase).toBe('Ready')
    expect(id).toBe(m.readyId)
  }
  toString = (): string => 'SendNext'
}

// -------------------------------------------------------------------------------------
// property
// -------------------------------------------------------------------------------------

const id = fc.constantFrom(...IDS)

const commands = fc.commands(
  [
    fc.tuple(fc.constantFrom(...CHARGE_STATUSES), id).map(([status, i]) => new Respond(status, i)),
    fc
      .tuple(
        fc.constantFrom(...FRAME_MESSAGE_TYPES),
        fc.constantFrom(...AUTHENTICATION_STATUSES),
        id,
      )
      .map(([type, status, i]) => new Frame(type, status, i)),
    // Weighted towards the success message, so that retries happen often.
    id.map((i) => new Frame('authentication.complete', 'SUCCESS', i)),
    fc.constant(new SendNext()),
  ],
  { maxCommands: 40 },
)

test.prop([commands], { numRuns: 500 })(
  'charge flow: at most one SUCCEEDED, retries only after SUCCESS for that id, Left changes nothing',
  (cmds) => {
    fc.modelRun(
      () => ({
        model: {
          phase: 'Idle' as Phase,
          awaitingId: undefined,
          readyId: undefined,
          issuedIds: new Set<string>(),
          successMessageIds: new Set<string>(),
          succeededOutcomes: 0,
        },
        real: { state: start(request) },
      }),
      cmds,
    )
  },
)
