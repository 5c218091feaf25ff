import {
  REDACTED,
  httpError,
  networkError,
  unauthorizedError,
  validationError,
} from '@paykit/core/pure'
import { NodeApiError, NodeOperationError, type INode } from 'n8n-workflow'
import { describe, expect, it } from 'vitest'
import { errorJson, redactedNode, toNodeError } from '../../../../nodes/Paykit/v1/helpers/errors.js'

const CARD = '4111111111111111'

const nodeWith = (parameters: INode['parameters']): INode => ({
  id: '1',
  name: 'Paykit',
  type: 'n8n-nodes-paykit.paykit',
  typeVersion: 1,
  position: [0, 0],
  parameters,
})

describe('redactedNode', () => {
  it('replaces card data typed into a card parameter, and keeps field names and the rest', () => {
    const node = nodeWith({
      cardNumber: CARD,
      cvv: '123',
      cardNumberField: 'card.number',
      cvvField: ' 987 ',
      amount: 12,
      orderName: CARD,
    })
    expect(redactedNode(node).parameters).toEqual({
      cardNumber: REDACTED,
      cvv: REDACTED,
      cardNumberField: 'card.number',
      cvvField: REDACTED,
      amount: 12,
      // Not a card parameter: the core's messages, not this, keep it out.
      orderName: CARD,
    })
    expect(node.parameters['cardNumber']).toBe(CARD) // the node itself is left as it was
  })
})

describe('toNodeError', () => {
  const node = nodeWith({ cardNumber: CARD })

  it('bad input: a NodeOperationError naming each field, for its item', () => {
    const error = toNodeError(
      node,
      validationError([{ path: 'amount', message: 'must be greater than 0' }]),
      3,
    )
    expect(error).toBeInstanceOf(NodeOperationError)
    expect(error.description).toBe('amount: must be greater than 0')
    expect(error.context['itemIndex']).toBe(3)
    expect(JSON.stringify(error.node)).not.toContain(CARD)
  })

  it("the service's 400: a NodeApiError with its status and the problem's field messages", () => {
    const error = toNodeError(
      node,
      httpError('POST /paymentlink/checkout', 400, {
        title: 'One or more validation errors occurred.',
        status: 400,
        errors: { orderName: ['The field orderName must be at most 255 characters.'] },
      }),
      0,
    )
    expect(error).toBeInstanceOf(NodeApiError)
    expect((error as NodeApiError).httpCode).toBe('400')
    expect(error.description).toBe('orderName: The field orderName must be at most 255 characters.')
  })

  it('no token could be had: the credential failure, not "no response", as a 401', () => {
    const failure = 'Paykit API credential: Base URL must be an absolute http(s) URL'
    const error = toNodeError(node, networkError('GET /order', 'no', 'refused'), 0, failure)
    expect(error.message).toBe(failure)
    expect((error as NodeApiError).httpCode).toBe('401')
    expect(error.description).toBe('Nothing was sent (GET /order).')
  })
})

describe('errorJson', () => {
  it('holds only error and details: the tag, the fields, the status', () => {
    const cause = httpError('POST /paymentlink/checkout', 400, {
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: { amount: ['The field amount must be greater than 0.'] },
    })
    const json = errorJson(toNodeError(nodeWith({}), cause, 0), cause)
    expect(Object.keys(json)).toEqual(['error', 'details'])
    expect(json['details']).toEqual({
      errorType: 'HttpError',
      fieldErrors: [{ path: 'amount', message: 'The field amount must be greater than 0.' }],
      httpCode: '400',
    })
  })

  it('says outcomeUnknown for a request that may have gone through', () => {
    const cause = networkError('POST /charges', 'maybe', 'reset')
    const json = errorJson(toNodeError(nodeWith({}), cause, 0), cause)
    expect(json['details']).toMatchObject({ errorType: 'NetworkError', outcomeUnknown: true })
  })

  it('a refused credential: its status, no outcomeUnknown', () => {
    const cause = unauthorizedError('GET /order', 'accessToken')
    const json = errorJson(toNodeError(nodeWith({}), cause, 0), cause)
    expect(json['details']).toEqual({ errorType: 'Unauthorized', httpCode: '401' })
  })
})
