import { describe, expect, it } from 'vitest'
import { baseUrlOf, tokenRequest } from '../../shared/credential.js'

describe('the Paykit API credential names its fields as its form shows them', () => {
  it('Base URL', () => {
    expect(() => baseUrlOf({ baseUrl: 'ftp://paykit.example.com' })).toThrow(
      'Paykit API credential: Base URL must be an absolute http(s) URL',
    )
  })

  it('Client ID and Client Secret, before any request', async () => {
    const requests: unknown[] = []
    await expect(
      tokenRequest(
        (options) => {
          requests.push(options)
          return Promise.resolve({})
        },
        { baseUrl: 'http://127.0.0.1:9', clientId: '' },
      ),
    ).rejects.toThrow(/^Paykit API credential: Client ID: .+; Client Secret: is required$/)
    expect(requests).toEqual([])
  })
})
