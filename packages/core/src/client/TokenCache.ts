/**
 * The access-token cache: fetches a token on first need, keeps it until shortly before
 * it expires, shares ONE token request among any number of concurrent callers, and
 * forgets a token the service refused (401).
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { PaykitError } from './PaykitError.js'
import { networkError } from './PaykitError.js'
import type { AccessToken } from '../model/Token.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * How the cache gets tokens and tells time. `fetchToken` is the `POST /token` call;
 * `now` is milliseconds since the epoch (`Date.now` by default).
 *
 * @category model
 * @since 0.2.0
 */
export interface TokenCacheOptions {
  readonly fetchToken: TE.TaskEither<PaykitError, AccessToken>
  readonly now?: () => number
}

/**
 * A token cache. `get` gives a valid token, fetching one only when none is cached and
 * none is being fetched; a caller's `signal` abandons only that caller's wait, never the
 * shared request. `invalidate(token)` forgets `token` if it is still the cached one (a
 * token that a concurrent refresh already replaced is left alone).
 *
 * @category model
 * @since 0.2.0
 */
export interface TokenCache {
  readonly get: (signal?: AbortSignal) => TE.TaskEither<PaykitError, string>
  readonly invalidate: (token: string) => void
}

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/**
 * How long before `expiresIn` a token counts as expired: a tenth of its lifetime, at most
 * one minute, so a request sent with it does not arrive after it lapsed.
 *
 * @example
 * ```ts
 * import { refreshMarginMs } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(refreshMarginMs(3600), 60_000) // an hour's token: one minute early
 * assert.equal(refreshMarginMs(300), 30_000) // five minutes': a tenth, 30 s early
 * ```
 *
 * @category rules
 * @since 0.2.0
 */
export const refreshMarginMs = (expiresInSeconds: number): number =>
  Math.min(60_000, (expiresInSeconds * 1000) / 10)

/**
 * The time (ms since the epoch) after which a token obtained by a request sent at
 * `requestedAt` must not be used any more. Counted from the request, not the answer,
 * since the service's clock started no later than that.
 *
 * @example
 * ```ts
 * import { usableUntil } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * const token = { accessToken: 'tok_1', tokenType: 'Bearer', expiresIn: 3600 }
 * // Requested at t = 0: one hour, less the one-minute margin.
 * assert.equal(usableUntil(0, token), 3_540_000)
 * ```
 *
 * @category rules
 * @since 0.2.0
 */
export const usableUntil = (requestedAt: number, token: AccessToken): number =>
  requestedAt + token.expiresIn * 1000 - refreshMarginMs(token.expiresIn)

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const abandoned = (): PaykitError => networkError('POST /token', 'maybe', 'aborted')

/**
 * A token cache over `fetchToken`. A failed fetch is not cached: the next `get` tries again.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import * as TE from 'fp-ts/lib/TaskEither.js'
 * import { createTokenCache } from '@paykit/core'
 * import assert from 'node:assert/strict'
 *
 * let requests = 0
 * let clock = 0
 * const cache = createTokenCache({
 *   // Stands in for the POST /token call.
 *   fetchToken: TE.fromIO(() => ({
 *     accessToken: `tok_${++requests}`,
 *     tokenType: 'Bearer',
 *     expiresIn: 3600,
 *   })),
 *   now: () => clock,
 * })
 * // Two concurrent callers share one request.
 * const both = await Promise.all([cache.get()(), cache.get()()])
 * assert.deepEqual(both, [E.right('tok_1'), E.right('tok_1')])
 * assert.equal(requests, 1)
 * cache.invalidate('tok_1') // the service answered 401 with it
 * assert.deepEqual(await cache.get()(), E.right('tok_2'))
 * clock = 3_540_000 // past its lifetime less the margin
 * assert.deepEqual(await cache.get()(), E.right('tok_3'))
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const createTokenCache = (options: TokenCacheOptions): TokenCache => {
  const now = options.now ?? Date.now
  let cached: { readonly token: string; readonly until: number } | undefined
  let inFlight: Promise<E.Either<PaykitError, string>> | undefined

  const fetchShared = (): Promise<E.Either<PaykitError, string>> => {
    if (inFlight !== undefined) return inFlight
    const requestedAt = now()
    const request = (async (): Promise<E.Either<PaykitError, string>> => {
      try {
        const result = await options.fetchToken()
        if (E.isRight(result)) {
          cached = {
            token: result.right.accessToken,
            until: usableUntil(requestedAt, result.right),
          }
          return E.right(result.right.accessToken)
        }
        return result
      } finally {
        inFlight = undefined
      }
    })()
    inFlight = request
    return request
  }

  const get =
    (signal?: AbortSignal): TE.TaskEither<PaykitError, string> =>
    async () => {
      if (signal?.aborted === true) return E.left(abandoned())
      if (cached !== undefined && now() < cached.until) return E.right(cached.token)
      const shared = fetchShared()
      if (signal === undefined) return shared
      // Race the shared request against this caller's cancel, without cancelling it.
      let onAbort: (() => void) | undefined
      const aborted = new Promise<E.Either<PaykitError, string>>((resolve) => {
        onAbort = () => resolve(E.left(abandoned()))
        signal.addEventListener('abort', onAbort, { once: true })
      })
      try {
        return await Promise.race([shared, aborted])
      } finally {
        if (onAbort !== undefined) signal.removeEventListener('abort', onAbort)
      }
    }

  const invalidate = (token: string): void => {
    if (cached?.token === token) cached = undefined
  }

  return { get, invalidate }
}
