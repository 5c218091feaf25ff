/**
 * The process's access tokens, so that the executions of one n8n process (the main one or a
 * queue-mode worker) share one `POST /token` per token lifetime. n8n reads the credential
 * once per execution, and every execution that starts before a token is saved, or that
 * gets a 401, calls `preAuthentication`: here those calls share one request in flight and
 * reuse its token until shortly before it expires. The module's state is per process: n8n
 * `require`s the credential file once (its vm context shares the host's module cache).
 *
 * Each credential's token is the core's token cache (`createTokenCache`: single flight, the
 * expiry margin, a refused token never handed back); what is the node's own is where those
 * caches live: a few per process, keyed by a hash of the credential, fetching with the
 * `httpRequest` helper of the execution that asks.
 */
import {
  createTokenCache,
  type IssuedToken,
  type TokenCache as CoreTokenCache,
} from '@paykit/core/pure'
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { createHash } from 'node:crypto'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The tokens of one process: `token(key, rejected, fetch)` resolves with a token for the
 * key, calling `fetch` only when no usable one is cached or in flight.
 */
export interface TokenCache {
  readonly token: (
    key: string,
    rejected: string | undefined,
    fetch: () => Promise<IssuedToken>,
  ) => Promise<string>
  /** The keys held (hashes, oldest first): no secret, base URL or token in them. */
  readonly keys: () => ReadonlyArray<string>
}

/** Options of {@link tokenCache}. */
interface TokenCacheOptions {
  /** The clock, in ms (tests pass their own). */
  readonly now?: () => number
  /** How many credentials are kept at most; the least recently used goes first. */
  readonly maxEntries?: number
}

/** One credential's cache, and the `POST /token` of the execution that asked last. */
interface Entry {
  readonly cache: CoreTokenCache<unknown>
  fetch: () => Promise<IssuedToken>
}

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/**
 * The cache key of a credential: a SHA-256 of base URL, client id and secret, so a changed
 * secret is a new key (the Test button checks it for real) and no secret is in clear.
 */
export const credentialKey = (baseUrl: string, clientId: string, clientSecret: string): string =>
  createHash('sha256')
    .update(JSON.stringify([baseUrl, clientId, clientSecret]))
    .digest('hex')

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A token cache with single flight. `rejected` is the token the caller holds: n8n passes
 * the credential as it was, so on its 401 path that is the token just refused (on the empty
 * path it is empty; on the Test button it is the stored one, refused or not). A cached
 * token answers a refused one only when it was requested after that refusal, so a rejected
 * token is never handed back; a failed request is never cached.
 */
export const tokenCache = (options: TokenCacheOptions = {}): TokenCache => {
  const maxEntries = options.maxEntries ?? 8
  const entries = new Map<string, Entry>()

  const remember = (key: string, entry: Entry): void => {
    // Re-inserting keeps the Map's order least recently used first.
    entries.delete(key)
    entries.set(key, entry)
    for (const k of entries.keys()) {
      if (entries.size <= maxEntries) break
      entries.delete(k)
    }
  }

  const entryOf = (key: string, fetch: () => Promise<IssuedToken>): Entry => {
    const known = entries.get(key)
    if (known !== undefined) {
      known.fetch = fetch
      return known
    }
    const entry: Entry = {
      fetch,
      cache: createTokenCache<unknown>({
        fetchToken: TE.tryCatch(
          () => entry.fetch(),
          (error) => {
            // A failed request leaves nothing behind, not even the credential's key.
            if (entries.get(key) === entry) entries.delete(key)
            return error
          },
        ),
        ...(options.now === undefined ? {} : { now: options.now }),
      }),
    }
    return entry
  }

  return {
    token: async (key, rejected, fetch) => {
      const entry = entryOf(key, fetch)
      remember(key, entry)
      if (rejected !== undefined && rejected !== '') entry.cache.invalidate(rejected)
      const token = await entry.cache.get()()
      if (E.isLeft(token)) throw token.left
      return token.right
    },
    keys: () => [...entries.keys()],
  }
}

/** The cache of this process, shared by every execution that uses the credential. */
export const processTokenCache: TokenCache = tokenCache()
