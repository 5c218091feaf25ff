import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import { describe, expect, it } from 'vitest'
import {
  AUTHENTICATION_STATUSES,
  AuthenticationStatus,
  FRAME_MESSAGE_TYPES,
  FrameMessage,
  isAuthenticationSuccess,
  isFinal,
  reduce,
  transition,
} from '../../src/machines/Authentication.js'
import { validate } from '../../src/model/FieldError.js'

const paths = (r: E.Either<ReadonlyArray<{ path: string }>, unknown>): ReadonlyArray<string> =>
  E.isLeft(r) ? r.left.map((e) => e.path) : []

const message = {
  MessageType: 'authentication.complete',
  Status: 'SUCCESS',
  AuthenticationId: 'auth_1',
  OrderId: 'ORD-1001',
  OrderAmount: 25.5,
}

const status = fc.constantFrom(...AUTHENTICATION_STATUSES)

const validMessage = fc.record({
  MessageType: fc.constantFrom(...FRAME_MESSAGE_TYPES),
  Status: status,
  AuthenticationId: fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''),
  OrderId: fc.string(),
  OrderAmount: fc.integer({ min: 0, max: 10 ** 11 }).map((c) => c / 100),
})

describe('AuthenticationStatus', () => {
  it.each(AUTHENTICATION_STATUSES)('decodes %s', (s) => {
    expect(validate(AuthenticationStatus)(s)).toEqual(E.right(s))
  })

  it.each(['SUCCEEDED', 'pending', 3])('refuses %s', (s) => {
    expect(validate(AuthenticationStatus)(s)).toEqual(
      E.left([
        {
          path: '',
          message: 'must be one of PENDING, SUCCESS, FAILED, ERROR, EXPIRED',
          code: 'oneOf',
          values: AUTHENTICATION_STATUSES,
        },
      ]),
    )
  })

  it.each(['', ' ', undefined])('says %j is required (nothing chosen)', (s) => {
    expect(validate(AuthenticationStatus)(s)).toEqual(
      E.left([{ path: '', message: 'is required', code: 'required' }]),
    )
  })
})

describe('FrameMessage', () => {
  it('decodes the spec 6.1 shape, OrderAmount as Money', () => {
    const r = validate(FrameMessage)(message)
    expect(E.map((m: FrameMessage) => m.OrderAmount.toFixed(2))(r)).toEqual(E.right('25.50'))
    expect(E.map(FrameMessage.encode)(r)).toEqual(E.right(message))
  })

  it('tolerates extra fields a browser message may carry', () => {
    expect(E.isRight(validate(FrameMessage)({ ...message, source: 'sandbox-3ds' }))).toBe(true)
  })

  it.each([
    ['MessageType', 'authentication.pending'],
    ['Status', 'SUCCEEDED'],
    ['AuthenticationId', ''],
    ['OrderId', 7],
    ['OrderAmount', '25.50'],
  ])('refuses a bad %s naming it', (field, value) => {
    expect(paths(validate(FrameMessage)({ ...message, [field]: value }))).toEqual([field])
  })

  it.each(Object.keys(message))('names a missing %s', (field) => {
    const { [field as keyof typeof message]: _, ...rest } = message
    expect(paths(validate(FrameMessage)(rest))).toEqual([field])
  })

  test.prop([validMessage])('decode . encode . decode = decode', (m) => {
    const once = validate(FrameMessage)(m)
    expect(E.isRight(once)).toBe(true)
    if (E.isRight(once))
      expect(validate(FrameMessage)(FrameMessage.encode(once.right))).toEqual(once)
  })

  test.prop([fc.anything()])('validate never throws', (u) => {
    const r = validate(FrameMessage)(u)
    if (E.isLeft(r)) expect(r.left.length).toBeGreaterThan(0)
  })
})

describe('isAuthenticationSuccess', () => {
  const combos = FRAME_MESSAGE_TYPES.flatMap((type) =>
    AUTHENTICATION_STATUSES.map((s) => [type, s] as const),
  )
  it.each(combos)('%s + %s', (type, s) => {
    const r = validate(FrameMessage)({ ...message, MessageType: type, Status: s })
    expect(E.map(isAuthenticationSuccess)(r)).toEqual(
      E.right(type === 'authentication.complete' && s === 'SUCCESS'),
    )
  })
})

describe('authentication status reducer', () => {
  it.each(AUTHENTICATION_STATUSES)('PENDING -> %s', (next) => {
    expect(reduce('PENDING', next)).toEqual(E.right(next))
    expect(pipe('PENDING' as const, transition(next))).toEqual(E.right(next))
  })

  const finals = AUTHENTICATION_STATUSES.filter((s) => s !== 'PENDING')
  const pairs = finals.flatMap((from) => AUTHENTICATION_STATUSES.map((to) => [from, to] as const))
  it.each(pairs)('%s is final: %s is refused', (from, to) => {
    const r = reduce(from, to)
    expect(E.isLeft(r)).toBe(true)
    if (E.isLeft(r)) {
      expect(r.left).toMatchObject({ _tag: 'TransitionError', state: from, event: to })
      expect(r.left.message).toContain(from)
    }
  })

  test.prop([fc.array(status, { maxLength: 12 })])(
    'once final, the status never changes again',
    (events) => {
      let state: AuthenticationStatus = 'PENDING'
      let settled: AuthenticationStatus | undefined
      for (const event of events) {
        const next = reduce(state, event)
        if (settled !== undefined) expect(E.isLeft(next)).toBe(true)
        if (E.isRight(next)) state = next.right
        if (isFinal(state)) settled ??= state
        if (settled !== undefined) expect(state).toBe(settled)
      }
    },
  )
})
