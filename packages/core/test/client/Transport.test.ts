import { describe, expect, it } from 'vitest'
import { isTransportError, transportError } from '../../src/client/Transport.js'

describe('Transport', () => {
  it('marks a refused connection and an unknown host as not sent', () => {
    expect(transportError('refused', 'ECONNREFUSED').sent).toBe('no')
    expect(transportError('dns', 'ENOTFOUND').sent).toBe('no')
  })

  it('marks a reset, a timeout, a body failure and a cancel as maybe sent', () => {
    for (const failure of ['reset', 'timeout', 'body', 'aborted', 'other'] as const)
      expect(transportError(failure).sent).toBe('maybe')
  })

  it('lets a transport say a failure was not sent when it knows better', () => {
    expect(transportError('other', 'invalid URL', 'no')).toEqual({
      _tag: 'TransportError',
      failure: 'other',
      sent: 'no',
      detail: 'invalid URL',
    })
  })

  it('recognises a transport error', () => {
    expect(isTransportError(transportError('reset'))).toBe(true)
    expect(isTransportError({ _tag: 'HttpError' })).toBe(false)
    expect(isTransportError(null)).toBe(false)
  })
})
