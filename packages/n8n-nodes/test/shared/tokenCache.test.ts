import { describe, expect, it } from 'vitest'
import type { TokenCache } from '../../shared/tokenCache.js'
import { refreshMarginMs } from '@paykit/core/pure'
import { credentialKey, tokenCache } from '../../shared/tokenCache.js'
import { tokenRequest } from '../../shared/credential.js'

/**
 * A token endpoint that counts its calls; `ask` makes `n` calls at once for `rejected`,
 * lets the endpoint answer, and gives the distinct tokens the calls got.
 */
const endpoint = (cache: TokenCache, expiresIn = 3600) => {
  let calls = 0
  const waiting: Array<() => void> = []
  const fetch = () => {
    const n = ++calls
    return new Promise<{ accessToken: string; expiresIn: number }>((resolve) =>
      waiting.push(() => resolve({ accessToken: `tok-${n}`, expiresIn })),
    )
  }
  return {
    calls: () => calls,
    ask: async (rejected: string, n = 1): Promise<ReadonlyArray<string>> => {
      const pending = Array.from({ length: n }, () => cache.token('k', rejected, fetch))
      await new Promise((resolve) => setImmediate(resolve))
      waiting.splice(0).forEach((answer) => answer())
      return [...new Set(await Promise.all(pending))]
    },
  }
}

describe('the token cache of one process', () => {
  it('concurrent calls share one request in flight, later ones reuse its token', async () => {
    const service = endpoint(tokenCache())
    expect(await service.ask('', 50)).toEqual(['tok-1'])
    expect(await service.ask('')).toEqual(['tok-1'])
    expect(service.calls()).toBe(1)
  })

  it('a token is reused until its expiry less the margin, then fetched anew', async () => {
    let now = 0
    const service = endpoint(tokenCache({ now: () => now }), 30)
    expect(await service.ask('')).toEqual(['tok-1'])
    now = 30_000 - refreshMarginMs(30) - 1
    expect(await service.ask('')).toEqual(['tok-1'])
    now += 1
    expect(await service.ask('')).toEqual(['tok-2'])
    expect(service.calls()).toBe(2)
  })

  it('a 401 renews a refused token once, and never hands the refused one back', async () => {
    const service = endpoint(tokenCache())
    expect(await service.ask('')).toEqual(['tok-1'])
    // 20 requests sent with tok-1 answered 401 at once: one renewal.
    expect(await service.ask('tok-1', 20)).toEqual(['tok-2'])
    // A late 401 of tok-1 gets tok-2 without a request; a 401 of tok-2 renews again.
    expect(await service.ask('tok-1')).toEqual(['tok-2'])
    expect(await service.ask('tok-2')).toEqual(['tok-3'])
    expect(service.calls()).toBe(3)
  })

  it('a refused token the process did not issue (another worker saved it) is renewed, not answered with an older one', async () => {
    const service = endpoint(tokenCache())
    expect(await service.ask('')).toEqual(['tok-1'])
    expect(await service.ask('tok-of-another-worker')).toEqual(['tok-2'])
    // The token it replaced, refused later, is answered by the newer one.
    expect(await service.ask('tok-1')).toEqual(['tok-2'])
    expect(service.calls()).toBe(2)
  })

  it('a failed request is not kept: the next call asks again', async () => {
    const cache = tokenCache()
    let calls = 0
    const refused = () => {
      calls++
      return Promise.reject(new Error('POST /token answered 401'))
    }
    const both = [cache.token('k', '', refused), cache.token('k', '', refused)]
    await expect(Promise.all(both)).rejects.toThrow('answered 401')
    expect(calls).toBe(1) // the concurrent call shared the failure
    await expect(cache.token('k', '', refused)).rejects.toThrow('answered 401')
    expect(calls).toBe(2)
    expect(cache.keys()).toEqual([])
  })

  it('keeps a few credentials, the least recently used dropped first', async () => {
    const cache = tokenCache({ maxEntries: 2 })
    const issue = (accessToken: string) => () => Promise.resolve({ accessToken, expiresIn: 60 })
    await cache.token('a', '', issue('a1'))
    await cache.token('b', '', issue('b1'))
    await cache.token('a', '', issue('a2')) // a used again
    await cache.token('c', '', issue('c1'))
    expect(cache.keys()).toEqual(['a', 'c'])
    expect(await cache.token('a', '', issue('a3'))).toBe('a1')
  })
})

describe('the credential keys its token by a hash of base URL, client id and secret', () => {
  it('no secret in clear, and another secret is another key', async () => {
    const cache = tokenCache()
    const secret = 'sandbox-secret-Xy7'
    const requests: unknown[] = []
    const httpRequest = (options: unknown) => {
      requests.push(options)
      return Promise.resolve({
        accessToken: `tok-${requests.length}`,
        tokenType: 'Bearer',
        expiresIn: 3600,
      })
    }
    const credentials = { baseUrl: 'http://127.0.0.1:9/', clientId: 'c', clientSecret: secret }
    await tokenRequest(httpRequest, credentials, cache)
    await tokenRequest(httpRequest, { ...credentials, accessToken: '' }, cache)
    expect(requests).toHaveLength(1)
    expect(cache.keys()).toEqual([credentialKey('http://127.0.0.1:9', 'c', secret)])
    expect(cache.keys().join()).not.toContain(secret)
    const other = await tokenRequest(httpRequest, { ...credentials, clientSecret: 'wrong' }, cache)
    expect(other).toEqual({ accessToken: 'tok-2' })
    expect(requests).toHaveLength(2)
  })
})
