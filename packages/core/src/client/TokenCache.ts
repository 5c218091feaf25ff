/**
 * The access-token cache: fetches a token on first need, keeps it until shortly before
 * it expires, shares ONE token request among any number of concurrent callers, and
 * forgets a token the service refused (401), never handing a refused token back. The client
 * keeps one; the n8n node keeps one per credential in its process (issue 38).
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
 * What the cache needs of a `POST /token` answer: the token and its lifetime in seconds (an
 * `AccessToken` is one; its `tokenType` is not read).
 *
 * @category model
 * @since 0.2.0
 */
export type IssuedToken = Pick<AccessToken, 'accessToken' | 'expiresIn'> &
  Partial<Pick<AccessToken, 'tokenType'>>

/**
 * How the cache gets tokens and tells time. `fetchToken` is the `POST /token` call, failing
 * with `E` (the client's `PaykitError`; the n8n node's own errors, which n8n shows);
 * `now` is milliseconds since the epoch (`Date.now` by default).
 *
 * @category model
 * @since 0.2.0
 */
export interface TokenCacheOptions<E = PaykitError> {
  readonly fetchToken: TE.TaskEither<E, IssuedToken>
  readonly now?: () => number
}

/**
 * A token cache. `get` gives a valid token, fetching one only when none is cached and
 * none is being fetched; a caller's `signal` abandons only that caller's wait, never the
 * shared request. `invalidate(token)` says the service refused `token`: the cached token
 * answers that refusal only if it was requested after this cache held or saw `token` (a
 * late 401 of a token a refresh already replaced); otherwise it is forgotten, so a refused
 * token, or one older than it, is never handed back.
 *
 * @category model
 * @since 0.2.0
 */
export interface TokenCache<E = PaykitError> {
  readonly get: (signal?: AbortSignal) => TE.TaskEither<E | PaykitError, string>
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
 * import { refreshMarginMs } from '@paykit/core/client'
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
 * import { usableUntil } from '@paykit/core/client'
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
export const usableUntil = (requestedAt: number, token: IssuedToken): number =>
  requestedAt + token.expiresIn * 1000 - refreshMarginMs(token.expiresIn)

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const abandoned = (): PaykitError => networkError('POST /token', 'maybe', 'aborted')

// How many earlier tokens a token answers for (the refusals of one lifetime, bounded).
const MAX_SUPERSEDED = 16

/** A token and the tokens it answers the refusal of (all requested before it). */
interface Held {
  readonly token: string
  readonly until: number
  readonly supersedes: ReadonlySet<string>
}

/**
 * A token cache over `fetchToken`. A failed fetch is not cached: the next `get` tries again.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import * as TE from 'fp-ts/lib/TaskEither.js'
 * import { createTokenCache } from '@paykit/core/client'
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
export const createTokenCache = <E = PaykitError>(options: TokenCacheOptions<E>): TokenCache<E> => {
  const now = options.now ?? Date.now
  let cached: Held | undefined
  let inFlight:
    { readonly result: Promise<E.Either<E, string>>; readonly supersedes: Set<string> } | undefined
  // Every token this cache held or saw refused (the last few): the next token answers for them.
  let earlier: ReadonlyArray<string> = []
  const remember = (token: string): void => {
    earlier = [...earlier.filter((t) => t !== token), token].slice(-MAX_SUPERSEDED)
  }

  const fetchShared = (): Promise<E.Either<E, string>> => {
    if (inFlight !== undefined) return inFlight.result
    const requestedAt = now()
    const supersedes = new Set(earlier)
    const request = (async (): Promise<E.Either<E, string>> => {
      try {
        const result = await options.fetchToken()
        if (E.isRight(result)) {
          const token = result.right.accessToken
          cached = { token, until: usableUntil(requestedAt, result.right), supersedes }
          remember(token)
          return E.right(token)
        }
        return result
      } finally {
        inFlight = undefined
      }
    })()
    inFlight = { result: request, supersedes }
    return request
  }

  const get =
    (signal?: AbortSignal): TE.TaskEither<E | PaykitError, string> =>
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
    if (inFlight !== undefined) {
      // The token in flight is issued after this refusal, or at the same time.
      if (inFlight.supersedes.size < MAX_SUPERSEDED) inFlight.supersedes.add(token)
    } else if (cached !== undefined && !cached.supersedes.has(token)) cached = undefined
    remember(token)
  }

  return { get, invalidate }
}
