import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { pipe } from 'fp-ts/lib/function.js'
import { describe, expect, it } from 'vitest'
import type { AuthenticationStatus, FrameMessageType } from '../../src/machines/Authentication.js'
import { FrameMessage } from '../../src/machines/Authentication.js'
import { ChargeRequest, ChargeResponse } from '../../src/model/Charge.js'
import type { ChargeFlowEvent, ChargeFlowState } from '../../src/machines/ChargeFlow.js'
import {
  chargeResponded,
  frameMessageReceived,
  isTerminal,
  nextRequest,
  reduce,
  start,
  transition,
} from '../../src/machines/ChargeFlow.js'
import { decoded } from '../fixtures.js'

const request = decoded(ChargeRequest, {
  order: { id: 'ORD-1001', amount: 25.5, description: 'Two coffees', name: 'Coffee order' },
  cardId: 'pm_8f3a',
  authenticationId: null,
  billingInfo: { countryCode: 'USA', stateCode: 'CA', zipCode: '94105' },
})

const createdAt = '2026-11-22T00:10:00.123Z'
const failedResponse = decoded(ChargeResponse, {
  status: 'FAILED',
  message: 'Charge under review',
  error: { code: 'FRAUD_PREVENT', message: 'The charge is under review' },
  authentication: null,
  order: null,
  createdAt,
})
const succeededResponse = decoded(ChargeResponse, {
  status: 'SUCCEEDED',
  message: 'Charge succeeded',
  error: null,
  authentication: null,
  order: {
    id: 'ch_1',
    reference: 'ORD-1001',
    amount: 25.5,
    currency: 'USD',
    authorizationCode: 'A1',
  },
  createdAt,
})
const authRequired = (id: string) =>
  decoded(ChargeResponse, {
    status: 'AUTHENTICATION_REQUIRED',
    message: 'Authentication required',
    error: null,
    authentication: { url: `https://sandbox.example/3ds/${id}`, id },
    order: null,
    createdAt,
  })

const frame = (MessageType: FrameMessageType, Status: AuthenticationStatus, id = 'auth_1') =>
  frameMessageReceived(
    decoded(FrameMessage, {
      MessageType,
      Status,
      AuthenticationId: id,
      OrderId: 'ORD-1001',
      OrderAmount: 25.5,
    }),
  )

const responded = {
  FAILED: chargeResponded(failedResponse),
  SUCCEEDED: chargeResponded(succeededResponse),
  AUTHENTICATION_REQUIRED: chargeResponded(authRequired('auth_1')),
}

const right = (r: E.Either<unknown, ChargeFlowState>): ChargeFlowState => {
  if (E.isLeft(r)) throw new Error(`expected Right, got ${JSON.stringify(r.left)}`)
  return r.right
}

const idle = start(request)
const awaiting = right(reduce(idle, responded.AUTHENTICATION_REQUIRED))
const ready = right(reduce(awaiting, frame('authentication.complete', 'SUCCESS')))
const failed = right(reduce(idle, responded.FAILED))
const succeeded = right(reduce(idle, responded.SUCCEEDED))
const authFailed = right(reduce(awaiting, frame('authentication.failed', 'FAILED')))

const allEvents: ReadonlyArray<[string, ChargeFlowEvent]> = [
  ['FAILED response', responded.FAILED],
  ['SUCCEEDED response', responded.SUCCEEDED],
  ['AUTHENTICATION_REQUIRED response', responded.AUTHENTICATION_REQUIRED],
  ['complete + SUCCESS', frame('authentication.complete', 'SUCCESS')],
  ['complete + PENDING', frame('authentication.complete', 'PENDING')],
  ['failed + FAILED', frame('authentication.failed', 'FAILED')],
]

const expectLeft = (state: ChargeFlowState, event: ChargeFlowEvent): void => {
  const r = reduce(state, event)
  expect(E.isLeft(r)).toBe(true)
  if (E.isLeft(r))
    expect(r.left).toMatchObject({ _tag: 'TransitionError', state: state._tag, event: event._tag })
}

describe('ChargeFlow reducer', () => {
  it('Idle: a response moves to Failed, Succeeded or AwaitingAuthentication', () => {
    expect(reduce(idle, responded.FAILED)).toEqual(
      E.right({
        _tag: 'Failed',
        request,
        error: { code: 'FRAUD_PREVENT', message: 'The charge is under review' },
      }),
    )
    expect(succeeded).toMatchObject({
      _tag: 'Succeeded',
      request,
      order: { reference: 'ORD-1001' },
    })
    expect(awaiting).toEqual({
      _tag: 'AwaitingAuthentication',
      request,
      url: 'https://sandbox.example/3ds/auth_1',
      authenticationId: 'auth_1',
    })
  })

  it('Idle: a frame message is refused (nothing is awaited)', () => {
    expectLeft(idle, frame('authentication.complete', 'SUCCESS'))
  })

  it('AwaitingAuthentication: complete + SUCCESS for its id moves to ReadyToRetry, holding the retry', () => {
    expect(ready).toEqual({
      _tag: 'ReadyToRetry',
      request: { ...request, authenticationId: 'auth_1' },
      authenticationId: 'auth_1',
    })
  })

  it('AwaitingAuthentication: a message for another authentication id is refused', () => {
    expectLeft(awaiting, frame('authentication.complete', 'SUCCESS', 'auth_2'))
    expectLeft(awaiting, frame('authentication.failed', 'FAILED', 'auth_2'))
  })

  it.each<FrameMessageType>(['authentication.complete', 'authentication.failed'])(
    'AwaitingAuthentication: Status PENDING keeps it awaiting, unchanged (%s)',
    (type) => {
      const r = reduce(awaiting, frame(type, 'PENDING'))
      expect(E.isRight(r) && r.right).toBe(awaiting)
    },
  )

  it.each<[FrameMessageType, AuthenticationStatus, AuthenticationStatus]>([
    ['authentication.complete', 'FAILED', 'FAILED'],
    ['authentication.complete', 'ERROR', 'ERROR'],
    ['authentication.complete', 'EXPIRED', 'EXPIRED'],
    ['authentication.failed', 'FAILED', 'FAILED'],
    ['authentication.failed', 'ERROR', 'ERROR'],
    ['authentication.failed', 'EXPIRED', 'EXPIRED'],
    ['authentication.failed', 'SUCCESS', 'FAILED'],
  ])('AwaitingAuthentication: %s + %s -> AuthenticationFailed(%s)', (type, status, expected) => {
    const event = frame(type, status)
    expect(reduce(awaiting, event)).toEqual(
      E.right({
        _tag: 'AuthenticationFailed',
        request,
        authenticationId: 'auth_1',
        status: expected,
        message: event._tag === 'FrameMessageReceived' ? event.message : undefined,
      }),
    )
  })

  it.each(Object.entries(responded))(
    'AwaitingAuthentication: a %s response is refused (the frame must answer first)',
    (_, event) => expectLeft(awaiting, event),
  )

  it('ReadyToRetry: the retry response moves it again, the state holding the retry request', () => {
    const retry = { ...request, authenticationId: 'auth_1' }
    expect(reduce(ready, responded.SUCCEEDED)).toEqual(
      E.right({ _tag: 'Succeeded', request: retry, order: succeededResponse.order }),
    )
    expect(reduce(ready, responded.FAILED)).toEqual(
      E.right({ _tag: 'Failed', request: retry, error: failedResponse.error }),
    )
    expect(reduce(ready, chargeResponded(authRequired('auth_2')))).toEqual(
      E.right({
        _tag: 'AwaitingAuthentication',
        request: retry,
        url: 'https://sandbox.example/3ds/auth_2',
        authenticationId: 'auth_2',
      }),
    )
  })

  it('a flow that succeeds after 3DS holds the request sent with the authentication id', () => {
    const end = pipe(
      E.right(start(request)),
      E.chain(transition(responded.AUTHENTICATION_REQUIRED)),
      E.chain(transition(frame('authentication.complete', 'SUCCESS'))),
      E.chain((s) => {
        // the request the state holds is the one sent
        expect(nextRequest(s)).toEqual(O.some(s.request))
        return transition(responded.SUCCEEDED)(s)
      }),
    )
    expect(E.isRight(end) && end.right._tag === 'Succeeded' && end.right.request).toEqual({
      ...request,
      authenticationId: 'auth_1',
    })
  })

  it('a second 3DS after a retry: the next retry carries the new authentication id', () => {
    const again = pipe(
      E.right(ready),
      E.chain(transition(chargeResponded(authRequired('auth_2')))),
      E.chain(transition(frame('authentication.complete', 'SUCCESS', 'auth_2'))),
    )
    expect(E.map(nextRequest)(again)).toEqual(
      E.right(O.some({ ...request, authenticationId: 'auth_2' })),
    )
  })

  it('ReadyToRetry: a further frame message is refused', () => {
    expectLeft(ready, frame('authentication.complete', 'SUCCESS'))
  })

  const terminals: ReadonlyArray<[string, ChargeFlowState]> = [
    ['Failed', failed],
    ['Succeeded', succeeded],
    ['AuthenticationFailed', authFailed],
  ]
  it.each(terminals.flatMap(([name, s]) => allEvents.map(([e, ev]) => [name, e, s, ev] as const)))(
    '%s is terminal: %s is refused',
    (_, __, state, event) => {
      expect(isTerminal(state)).toBe(true)
      expectLeft(state, event)
    },
  )

  it('transition is reduce, pipe-first: the whole 3DS flow', () => {
    const end = pipe(
      E.right(start(request)),
      E.chain(transition(responded.AUTHENTICATION_REQUIRED)),
      E.chain(transition(frame('authentication.complete', 'PENDING'))),
      E.chain(transition(frame('authentication.complete', 'SUCCESS'))),
      E.chain(transition(responded.SUCCEEDED)),
    )
    expect(E.map((s: ChargeFlowState) => s._tag)(end)).toEqual(E.right('Succeeded'))
  })
})

describe('nextRequest', () => {
  it('Idle: the first charge with authenticationId null', () => {
    expect(nextRequest(idle)).toEqual(O.some({ ...request, authenticationId: null }))
  })

  it('start drops an authenticationId the request carried', () => {
    expect(nextRequest(start({ ...request, authenticationId: 'stale' }))).toEqual(
      O.some({ ...request, authenticationId: null }),
    )
  })

  it('ReadyToRetry: the same order, cardId and billingInfo with the authenticationId', () => {
    expect(nextRequest(ready)).toEqual(O.some({ ...request, authenticationId: 'auth_1' }))
  })

  it.each<[string, ChargeFlowState]>([
    ['AwaitingAuthentication', awaiting],
    ['Failed', failed],
    ['Succeeded', succeeded],
    ['AuthenticationFailed', authFailed],
  ])('%s: nothing to send', (_, state) => {
    expect(nextRequest(state)).toEqual(O.none)
  })

  it('the retry request encodes to the spec 2.4 JSON', () => {
    const next = nextRequest(ready)
    expect(O.map(ChargeRequest.encode)(next)).toEqual(
      O.some({
        order: { id: 'ORD-1001', amount: 25.5, description: 'Two coffees', name: 'Coffee order' },
        cardId: 'pm_8f3a',
        authenticationId: 'auth_1',
        billingInfo: { countryCode: 'USA', stateCode: 'CA', zipCode: '94105' },
      }),
    )
  })
})

// fp-ts/io-ts deep imports pass vitest but can fail under plain Node ESM: run the built
// dist of the card/charge/3DS modules as a user's program would.
describe('built dist under plain Node ESM', () => {
  const script = `
import * as core from '@paykit/core/codecs'
import { ChargeFlow, FrameMessage } from '@paykit/core/machines'
const { ChargeRequest, ChargeResponse, validate } = core
const ok = (r) => { if (r._tag === 'Left') throw new Error(JSON.stringify(r.left)); return r.right }
const request = ok(validate(ChargeRequest)({ order: { id: 'O', amount: 5 }, cardId: 'pm' }))
const auth = ok(validate(ChargeResponse)({ status: 'AUTHENTICATION_REQUIRED', message: 'm', error: null,
  authentication: { url: 'https://x.example/a', id: 'a1' }, order: null, createdAt: '2026-01-01T00:00:00.000Z' }))
const msg = ok(validate(FrameMessage)({ MessageType: 'authentication.complete', Status: 'SUCCESS',
  AuthenticationId: 'a1', OrderId: 'O', OrderAmount: 5 }))
let s = ChargeFlow.start(request)
s = ok(ChargeFlow.reduce(s, ChargeFlow.chargeResponded(auth)))
s = ok(ChargeFlow.reduce(s, ChargeFlow.frameMessageReceived(msg)))
const next = ChargeFlow.nextRequest(s)
const card = validate(core.paymentMethodRequestAt(new Date('2026-01-01T00:00:00Z')))({
  card: { number: '4242424242424241', expirationMonth: '01', expirationYear: '2026', cvv: '123' } })
console.log(JSON.stringify({ tag: s._tag, retry: ChargeRequest.encode(next.value), card: card.left,
  luhn: core.luhn('4242424242424242'), brand: core.cardBrand('5555555555554444') }))
`

  it('runs the 3DS flow and the card rules from the package root', async () => {
    const packageRoot = fileURLToPath(new URL('../..', import.meta.url))
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', script],
      { cwd: packageRoot },
    )
    expect(JSON.parse(stdout)).toEqual({
      tag: 'ReadyToRetry',
      retry: { order: { id: 'O', amount: 5 }, cardId: 'pm', authenticationId: 'a1' },
      card: [{ path: 'card.number', message: 'fails the Luhn check', code: 'luhn' }],
      luhn: true,
      brand: 'MASTERCARD',
    })
  })
})
