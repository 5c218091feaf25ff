/**
 * The process's access tokens, so that the executions of one n8n process (the main one or a
 * queue-mode worker) share one `POST /token` per token lifetime. n8n reads the credential
 * once per execution, and every execution that starts before a token is saved, or that
 * gets a 401, calls `preAuthentication`: here those calls share one request in flight and
 * reuse its token until shortly before it expires. The module's state is per process: n8n
 * `require`s the credential file once (its vm context shares the host's module cache).
 */
import { createHash } from 'node:crypto'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** A token `POST /token` gave, with its lifetime in seconds (spec 2.1 `expiresIn`). */
interface IssuedToken {
  readonly accessToken: string
  readonly expiresIn: number
}

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

interface Entry {
  readonly pending: Promise<string>
  /** Set once `pending` resolved. */
  token?: string
  expiresAt: number
  /** Hashes of the tokens whose 401 this token answers (refused or held before it was issued). */
  readonly supersedes: Set<string>
}

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

const MAX_SUPERSEDED = 16

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex')

/**
 * The cache key of a credential: a SHA-256 of base URL, client id and secret, so a changed
 * secret is a new key (the Test button checks it for real) and no secret is in clear.
 */
export const credentialKey = (baseUrl: string, clientId: string, clientSecret: string): string =>
  sha256(JSON.stringify([baseUrl, clientId, clientSecret]))

/**
 * How long before `expiresIn` a cached token stops being handed out: a tenth of its
 * lifetime, at most 60 s, so a request sent with it still arrives before it lapses.
 */
export const expiryMarginMs = (expiresIn: number): number => Math.min(60_000, expiresIn * 100)

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A token cache with single flight. `rejected` is the token the caller holds: n8n passes
 * the credential as it was, so on its 401 path that is the token just refused (on the empty
 * path it is empty; on the Test button it is the stored one, refused or not). A cached
 * token answers a refused one only when it was issued after that refusal, so a rejected
 * token is never handed back; a failed request is never cached.
 */
export const tokenCache = (options: TokenCacheOptions = {}): TokenCache => {
  const now = options.now ?? Date.now
  const maxEntries = options.maxEntries ?? 8
  const entries = new Map<string, Entry>()

  const usable = (entry: Entry, at: number): boolean =>
    entry.token === undefined || at < entry.expiresAt

  const remember = (key: string, entry: Entry): void => {
    // Re-inserting keeps the Map's order least recently used first.
    entries.delete(key)
    entries.set(key, entry)
    const at = now()
    for (const [k, e] of entries) if (!usable(e, at)) entries.delete(k)
    for (const k of entries.keys()) {
      if (entries.size <= maxEntries) break
      entries.delete(k)
    }
  }

  const start = (
    key: string,
    supersedes: Set<string>,
    fetch: () => Promise<IssuedToken>,
  ): Entry => {
    const startedAt = now()
    const entry: Entry = {
      pending: fetch().then(
        (issued) => {
          entry.token = issued.accessToken
          entry.expiresAt = startedAt + issued.expiresIn * 1000 - expiryMarginMs(issued.expiresIn)
          return issued.accessToken
        },
        (error: unknown) => {
          if (entries.get(key) === entry) entries.delete(key)
          throw error
        },
      ),
      expiresAt: Number.POSITIVE_INFINITY,
      supersedes,
    }
    remember(key, entry)
    return entry
  }

  return {
    token: (key, rejected, fetch) => {
      const entry = entries.get(key)
      const refused = rejected === undefined || rejected === '' ? undefined : sha256(rejected)
      if (entry !== undefined && usable(entry, now())) {
        if (entry.token === undefined) {
          // In flight: issued after the refusal the caller saw, or at the same time.
          if (refused !== undefined && entry.supersedes.size < MAX_SUPERSEDED)
            entry.supersedes.add(refused)
          remember(key, entry)
          return entry.pending
        }
        if (refused === undefined || entry.supersedes.has(refused)) {
          remember(key, entry)
          return entry.pending
        }
      }
      // The new token is issued after every token this process held before it.
      const carried = [
        ...(entry?.supersedes ?? []),
        ...(entry?.token === undefined ? [] : [sha256(entry.token)]),
        ...(refused === undefined ? [] : [refused]),
      ]
      return start(key, new Set(carried.slice(-MAX_SUPERSEDED)), fetch).pending
    },
    keys: () => [...entries.keys()],
  }
}

/** The cache of this process, shared by every execution that uses the credential. */
export const processTokenCache: TokenCache = tokenCache()
