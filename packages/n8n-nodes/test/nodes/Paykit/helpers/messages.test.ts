import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import type { PaykitError, TransportFailure } from '@paykit/core/pure'
import {
  decodeError,
  httpError,
  networkError,
  timeoutError,
  unauthorizedError,
  validationError,
} from '@paykit/core/pure'
import {
  messageOf,
  sentences,
  unknownOutcomeAdviceOf,
} from '../../../../nodes/Paykit/v1/helpers/messages.js'

const LINK = 'POST /paymentlink/checkout'

describe('sentences', () => {
  test.prop([
    fc.array(
      fc.tuple(fc.stringMatching(/^[A-Za-z][A-Za-z ,:()]{0,20}$/), fc.integer({ min: 0, max: 3 })),
      { maxLength: 5 },
    ),
  ])('ends each sentence with exactly one full stop, whatever stops it had', (parts) => {
    const text = sentences(...parts.map(([words, stops]) => `${words}${'.'.repeat(stops)} `))
    expect(text).not.toMatch(/\.\./)
    if (text !== '') expect(text).toMatch(/[^.]\.$/)
  })

  it('leaves out empty parts and keeps a question or exclamation mark', () => {
    expect(sentences('One.', '', '  ', 'Two', 'Three?')).toBe('One. Two. Three?')
  })
})

describe('messageOf', () => {
  it('joins a problem title that ends with a full stop with one stop (no "request.. The")', () => {
    expect(
      messageOf(
        httpError('GET /paymentlink/order/OC1', 500, {
          title: 'An error occurred while processing your request.',
          status: 500,
        }),
      ),
    ).toBe(
      'GET /paymentlink/order/OC1 failed with HTTP 500: An error occurred while processing your request. The service failed; try again later.',
    )
    expect(
      messageOf(
        httpError(LINK, 400, {
          title: 'One or more validation errors occurred.',
          status: 400,
          errors: { amount: ['The amount must be greater than 0.'] },
        }),
      ),
    ).toBe(
      'POST /paymentlink/checkout failed with HTTP 400: One or more validation errors occurred. amount: The amount must be greater than 0. Fix the fields named and run it again.',
    )
  })

  it('a 404 on an order says to check the order code', () => {
    expect(
      messageOf(httpError('GET /paymentlink/order/OC1', 404, { title: 'Not Found', status: 404 })),
    ).toBe(
      'GET /paymentlink/order/OC1 failed with HTTP 404: Not Found. Check the order code (the orderCode returned when the link was created).',
    )
  })

  it("names the credential's Base URL and the node's Request Timeout (Seconds), not baseUrl and timeoutMs", () => {
    expect(
      messageOf(
        decodeError('POST /token', 200, [{ path: 'expiresIn', message: 'must be a number' }]),
      ),
    ).toBe(
      'POST /token answered HTTP 200 with an answer that does not match the service contract (expiresIn: must be a number). Check that the Base URL of the Paykit API credential points at the payment service.',
    )
    expect(
      messageOf(networkError('GET /paymentlink/order/OC1', 'no', 'refused', 'ECONNREFUSED')),
    ).toBe(
      'GET /paymentlink/order/OC1 got no response: the connection was refused. It was not sent; check the Base URL of the Paykit API credential and the network, then try again.',
    )
    expect(messageOf(timeoutError('POST /token', 30_000))).toBe(
      'POST /token did not finish within 30 s. Try again later, or raise Options → Request Timeout (Seconds).',
    )
  })

  it('a wait that runs out names Wait Timeout (Seconds) and the last status seen', () => {
    expect(
      messageOf(timeoutError('waiting for order OC1 to be PAID', 1500, 'last status PENDING')),
    ).toBe(
      'Stopped waiting for order OC1 to be PAID after 1.5 s (last status PENDING). Raise Wait Timeout (Seconds) to wait longer.',
    )
  })

  it('a link creation answered with a body that is not JSON: the link may exist, its order code is unknown', () => {
    const error = decodeError(LINK, 200, [{ path: '', message: 'is not valid JSON' }])
    expect(messageOf(error)).toBe(
      'POST /paymentlink/checkout answered HTTP 200 with a body that is not valid JSON. The link may have been created, and its order code is unknown.',
    )
    const advice = unknownOutcomeAdviceOf(error)
    expect(advice).toMatch(/^Its order code never arrived, so nobody can be sent that link/)
    expect(advice).toContain('Retry Uncertain Link Creation')
    expect(advice).not.toMatch(/try again|baseUrl/i)
  })

  it.each<[string, PaykitError]>([
    ['a 5xx', httpError(LINK, 502)],
    ['a dropped connection', networkError(LINK, 'maybe', 'reset')],
    ['a time limit', timeoutError(LINK, 30_000)],
    [
      'an answer off the contract',
      decodeError(LINK, 200, [{ path: 'orderCode', message: 'is required' }]),
    ],
  ])('a link creation that may have gone through (%s) says the link may exist', (_, error) => {
    expect(messageOf(error)).toMatch(
      /\. The link may have been created, and its order code is unknown\.$/,
    )
    expect(unknownOutcomeAdviceOf(error)).toBeDefined()
  })

  it('what the service refused, or what never left, changed nothing', () => {
    for (const error of [
      httpError(LINK, 400),
      networkError(LINK, 'no', 'refused'),
      httpError('GET /paymentlink/order/OC1', 503),
      timeoutError('waiting for order OC1 to be PAID', 1000),
    ]) {
      expect(messageOf(error)).not.toContain('may have been')
      expect(unknownOutcomeAdviceOf(error)).toBeUndefined()
    }
  })

  it('a charge and a card that may have gone through say what may have happened', () => {
    const charge = networkError('POST /charges', 'maybe', 'reset')
    expect(messageOf(charge)).toBe(
      'POST /charges got no response: the connection dropped. The charge may have been processed.',
    )
    expect(unknownOutcomeAdviceOf(charge)).toMatch(/same Order ID, never a new one/)
    expect(messageOf(timeoutError('POST /paymentmethods', 30_000))).toBe(
      'POST /paymentmethods did not finish within 30 s. The card may have been registered, and its payment method ID is unknown.',
    )
  })

  it('an error the core marks outcomeUnknown after an uncertain attempt was repeated says so', () => {
    const refused = { ...httpError(LINK, 400), outcomeUnknown: true } as PaykitError
    expect(messageOf(refused)).toBe(
      'POST /paymentlink/checkout failed with HTTP 400. An earlier attempt may have reached the service. The link may have been created, and its order code is unknown.',
    )
  })

  it('a 401 names what the Paykit API credential sends', () => {
    expect(messageOf(unauthorizedError(LINK, 'apiKey', 'transport'))).toBe(
      'POST /paymentlink/checkout was refused (HTTP 401) with the API Key of the Paykit API credential (its access token when API Key is empty), also after n8n fetched a new token: check the credential and its permissions. It was not processed.',
    )
    expect(messageOf(unauthorizedError('POST /token', 'clientCredentials'))).toBe(
      'POST /token was refused (HTTP 401): check the Client ID and Client Secret of the Paykit API credential. It was not processed.',
    )
  })

  it("a validation error keeps the core's message", () => {
    const error = validationError([{ path: 'amount', message: 'must be greater than 0' }], 'x')
    expect(messageOf(error)).toBe(error.message)
  })

  const operations = fc.constantFrom(
    LINK,
    'POST /charges',
    'POST /paymentmethods',
    'POST /token',
    'GET /paymentlink/order/OC1',
  )
  const failures = fc.constantFrom<TransportFailure>(
    'refused',
    'dns',
    'reset',
    'timeout',
    'aborted',
    'body',
    'other',
  )
  const title = fc.stringMatching(/^[A-Z][a-z ]{0,20}\.{0,2}$/)
  const anyError: fc.Arbitrary<PaykitError> = fc.oneof(
    fc
      .tuple(operations, fc.integer({ min: 300, max: 599 }), fc.option(title, { nil: undefined }))
      .map(([op, status, t]) =>
        httpError(op, status, t === undefined ? undefined : { title: t, status }),
      ),
    fc
      .tuple(operations, fc.integer({ min: 200, max: 299 }))
      .map(([op, status]) =>
        decodeError(op, status, [{ path: 'x', message: 'must be a string.' }]),
      ),
    fc
      .tuple(operations, fc.constantFrom<'no' | 'maybe'>('no', 'maybe'), failures)
      .map(([op, sent, failure]) => networkError(op, sent, failure, 'detail')),
    fc
      .tuple(
        fc.oneof(operations, fc.constant('waiting for order OC1 to be PAID')),
        fc.integer({ min: 1, max: 600_000 }),
      )
      .map(([op, ms]) => timeoutError(op, ms)),
    fc
      .tuple(operations, fc.constantFrom('clientCredentials', 'accessToken', 'apiKey' as const))
      .map(([op, credential]) => unauthorizedError(op, credential, 'transport')),
  )

  test.prop([anyError])(
    "no message names the core's options or doubles a full stop; every one ends with one",
    (error) => {
      const message = messageOf(error)
      expect(message).not.toMatch(/timeoutMs|intervalMs|baseUrl|\.\./)
      expect(message).toMatch(/[^.]\.$/)
    },
  )
})
