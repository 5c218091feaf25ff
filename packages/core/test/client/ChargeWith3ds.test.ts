import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { describe, expect, it } from 'vitest'
import { FrameMessage } from '../../src/machines/Authentication.js'
import type { ChargeRequest as ChargeRequestType } from '../../src/model/Charge.js'
import { ChargeRequest, ChargeResponse } from '../../src/model/Charge.js'
import { chargeWith3ds } from '../../src/client/ChargeWith3ds.js'
import type { PaykitError } from '../../src/client/PaykitError.js'
import { decoded } from '../fixtures.js'

const request = decoded(ChargeRequest, {
  order: { id: 'ORD-7', amount: 12, name: 'Tea' },
  cardId: 'pm_1',
})
const createdAt = '2026-11-22T00:10:00.123Z'
const authRequired = (id: string) =>
  decoded(ChargeResponse, {
    status: 'AUTHENTICATION_REQUIRED',
    message: 'Authentication required',
    error: null,
    authentication: { url: `https://sandbox.example/3ds/${id}`, id },
    order: null,
    createdAt,
  })
const succeeded = decoded(ChargeResponse, {
  status: 'SUCCEEDED',
  message: 'Charge succeeded',
  error: null,
  authentication: null,
  order: { id: 'ch_1', reference: 'ORD-7', amount: 12, currency: 'USD', authorizationCode: 'A1' },
  createdAt,
})
const success = (id: string) =>
  decoded(FrameMessage, {
    MessageType: 'authentication.complete',
    Status: 'SUCCESS',
    AuthenticationId: id,
    OrderId: 'ORD-7',
    OrderAmount: 12,
  })

/** A service answering the given responses in turn, recording what was sent. */
const serviceOf = (answers: ReadonlyArray<Answer>) => {
  const sent: Array<ChargeRequestType> = []
  const charge = (r: ChargeRequestType) => {
    const answer = answers[sent.length]
    sent.push(r)
    return answer === undefined ? TE.left({} as PaykitError) : TE.right(answer)
  }
  return { sent, charge }
}
type Answer = typeof succeeded

const run = (answers: ReadonlyArray<Answer>) => {
  const service = serviceOf(answers)
  const flow = chargeWith3ds({
    charge: service.charge,
    authenticate: (_url, id) => TE.right(success(id)),
    invalid: () => () => TE.left({} as PaykitError),
    clean: () => (e) => e,
    maxAuthentications: 3,
    maxFrameMessages: 10,
  })(request)
  return { service, flow }
}

describe('chargeWith3ds', () => {
  it('a charge that succeeds after 3DS ends holding the retry it sent (with the authentication id)', async () => {
    const { service, flow } = run([authRequired('auth_1'), succeeded])
    const end = await flow()
    expect(service.sent.map((r) => r.authenticationId)).toEqual([null, 'auth_1'])
    expect(E.isRight(end) && end.right._tag).toBe('Succeeded')
    expect(E.isRight(end) && end.right.request).toEqual(service.sent[1])
  })

  it('after two authentications the state holds the last retry', async () => {
    const { service, flow } = run([authRequired('auth_1'), authRequired('auth_2'), succeeded])
    const end = await flow()
    expect(service.sent.map((r) => r.authenticationId)).toEqual([null, 'auth_1', 'auth_2'])
    expect(E.isRight(end) && end.right.request).toEqual(service.sent[2])
  })
})
