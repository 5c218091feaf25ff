import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { PaykitError } from '../../src/client/PaykitError.js'
import { networkError } from '../../src/client/PaykitError.js'
import type { AccessToken } from '../../src/model/Token.js'
import { createTokenCache, refreshMarginMs, usableUntil } from '../../src/client/TokenCache.js'

/** A scripted token endpoint: counts calls, answers after `delayMs`. */
const endpoint = (answers: ReadonlyArray<E.Either<PaykitError, AccessToken>>, delayMs = 5) => {
  let calls = 0
  const fetchToken = async () => {
    const answer = answers[Math.min(calls, answers.length - 1)]
    calls++
    await new Promise((r) => setTimeout(r, delayMs))
    if (answer === undefined) throw new Error('no answer scripted')
    return answer
  }
  return { fetchToken, calls: () => calls }
}

const token = (accessToken: string, expiresIn = 3600): E.Either<PaykitError, AccessToken> =>
  E.right({ accessToken, tokenType: 'Bearer', expiresIn })

describe('TokenCache', () => {
  it('fetches on first need and then serves the cached token', async () => {
    const ep = endpoint([token('t1'), token('t2')])
    const cache = createTokenCache({ fetchToken: ep.fetchToken })
    expect(ep.calls()).toBe(0)
    expect(await cache.get()()).toEqual(E.right('t1'))
    expect(await cache.get()()).toEqual(E.right('t1'))
    expect(ep.calls()).toBe(1)
  })

  it('shares ONE token request among concurrent callers', async () => {
    const ep = endpoint([token('t1')], 20)
    const cache = createTokenCache({ fetchToken: ep.fetchToken })
    const all = await Promise.all(Array.from({ length: 25 }, () => cache.get()()))
    expect(all.every((r) => E.isRight(r) && r.right === 't1')).toBe(true)
    expect(ep.calls()).toBe(1)
  })

  it('refreshes shortly before expiresIn', async () => {
    let now = 1_000_000
    const ep = endpoint([token('t1', 100), token('t2', 100)])
    const cache = createTokenCache({ fetchToken: ep.fetchToken, now: () => now })
    expect(await cache.get()()).toEqual(E.right('t1'))
    now += 100_000 - refreshMarginMs(100) - 1
    expect(await cache.get()()).toEqual(E.right('t1'))
    now += 1
    expect(await cache.get()()).toEqual(E.right('t2'))
    expect(ep.calls()).toBe(2)
  })

  it('keeps a margin of a tenth of the lifetime, at most a minute', () => {
    expect(refreshMarginMs(3600)).toBe(60_000)
    expect(refreshMarginMs(100)).toBe(10_000)
    expect(usableUntil(0, { accessToken: 'x', tokenType: 'Bearer', expiresIn: 3600 })).toBe(
      3_540_000,
    )
  })

  it('forgets an invalidated token, but not one a refresh already replaced', async () => {
    const ep = endpoint([token('t1'), token('t2'), token('t3')])
    const cache = createTokenCache({ fetchToken: ep.fetchToken })
    await cache.get()()
    cache.invalidate('t1')
    expect(await cache.get()()).toEqual(E.right('t2'))
    cache.invalidate('t1') // a late 401 for the old token
    expect(await cache.get()()).toEqual(E.right('t2'))
    expect(ep.calls()).toBe(2)
  })

  it('renews on the refusal of a token it never held, which it cannot tell older than its own', async () => {
    const ep = endpoint([token('t1'), token('t2'), token('t3')])
    const cache = createTokenCache({ fetchToken: ep.fetchToken })
    await cache.get()()
    cache.invalidate('another-holders-token')
    expect(await cache.get()()).toEqual(E.right('t2'))
    // t2 was requested after both refusals: a late 401 of either is answered by it.
    cache.invalidate('t1')
    cache.invalidate('another-holders-token')
    expect(await cache.get()()).toEqual(E.right('t2'))
    expect(ep.calls()).toBe(2)
  })

  it('answers a refusal seen while a request is in flight with that request’s token', async () => {
    const ep = endpoint([token('t1'), token('t2')], 20)
    const cache = createTokenCache({ fetchToken: ep.fetchToken })
    const first = cache.get()()
    cache.invalidate('t0')
    expect(await first).toEqual(E.right('t1'))
    cache.invalidate('t0')
    expect(await cache.get()()).toEqual(E.right('t1'))
    expect(ep.calls()).toBe(1)
  })

  it('fails with the error type of its fetch (the n8n node’s own errors)', async () => {
    const refused = new Error('POST /token answered 401')
    const cache = createTokenCache<Error>({ fetchToken: async () => E.left(refused) })
    expect(await cache.get()()).toEqual(E.left(refused))
  })

  it('does not cache a failure: the next call tries again', async () => {
    const failed = E.left(networkError('POST /token', 'no', 'refused'))
    const ep = endpoint([failed, token('t1')])
    const cache = createTokenCache({ fetchToken: ep.fetchToken })
    expect(E.isLeft(await cache.get()())).toBe(true)
    expect(await cache.get()()).toEqual(E.right('t1'))
  })

  it("lets one caller give up without cancelling the others' shared request", async () => {
    const ep = endpoint([token('t1')], 30)
    const cache = createTokenCache({ fetchToken: ep.fetchToken })
    const controller = new AbortController()
    const a = cache.get(controller.signal)()
    const b = cache.get()()
    controller.abort()
    const ra = await a
    expect(E.isLeft(ra) && ra.left._tag).toBe('NetworkError')
    expect(await b).toEqual(E.right('t1'))
    expect(ep.calls()).toBe(1)
  })
})
