import { REDACTED } from '@paykit/core'
import { describe, expect, it } from 'vitest'
import { logEntry } from '../src/RequestLog.js'

describe('logEntry', () => {
  it('redacts the request and keeps method, path, status and fault', () => {
    const entry = logEntry(
      {
        method: 'POST',
        path: '/paymentmethods',
        headers: { authorization: 'Bearer t' },
        body: '{"card":{"number":"4242424242424242"}}',
      },
      new Date('2026-01-01T00:00:00.000Z'),
      undefined,
      'connectionReset',
    )
    expect(entry).toEqual({
      at: '2026-01-01T00:00:00.000Z',
      method: 'POST',
      path: '/paymentmethods',
      headers: { authorization: `Bearer ${REDACTED}` },
      body: `{"card":{"number":"${REDACTED}"}}`,
      status: undefined,
      fault: 'connectionReset',
    })
  })
})
