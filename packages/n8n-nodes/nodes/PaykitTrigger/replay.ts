/**
 * The trigger's memory of the events it emitted, so that a replayed or redelivered event
 * (the same event id again within the tolerance window) is dropped. It lives in the node's
 * workflow static data, which n8n saves with the workflow after each production webhook
 * call, as a list of `[key, unix seconds]` pairs: JSON keeps the order of a list (not of
 * an object whose keys look like integers), and the list stays small.
 *
 * - An entry is kept while it is at most the tolerance window old, so a signed event can
 *   neither be replayed (its signature expires with the window) nor slip through as a
 *   redelivery signed afresh within the window.
 * - At most `REPLAY_CACHE_MAX_IDS` entries are kept; past that the oldest are forgotten
 *   early (a burst of more events than that within one window).
 * - The key is the event id itself when it is short, otherwise a SHA-256 digest of it, so
 *   an unsigned sender cannot make the stored data large.
 */
import { createHash } from 'node:crypto'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** One remembered event: its key and when it was seen (unix seconds). */
export type SeenEntry = readonly [key: string, seconds: number]

/** Where the entries live inside the node's static data. */
export const SEEN_EVENTS_KEY = 'seenEventIds'

/** The most event ids remembered at once. */
export const REPLAY_CACHE_MAX_IDS = 1000

const MAX_VERBATIM_ID_LENGTH = 128

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** The stored key of an event id. */
export const keyOf = (id: string): string =>
  id.length <= MAX_VERBATIM_ID_LENGTH
    ? id
    : `sha256:${createHash('sha256').update(id, 'utf8').digest('hex')}`

/** The entries found in static data; anything that is not an entry is ignored. */
export const readSeen = (value: unknown): ReadonlyArray<SeenEntry> =>
  Array.isArray(value)
    ? value.filter(
        (entry): entry is SeenEntry =>
          Array.isArray(entry) &&
          entry.length === 2 &&
          typeof entry[0] === 'string' &&
          typeof entry[1] === 'number' &&
          Number.isFinite(entry[1]),
      )
    : []

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/**
 * Whether `id` was seen within the window, and the entries to store afterwards: those
 * seen at most `toleranceSeconds` before `nowSeconds`, plus `id` at `stampSeconds` when it
 * is new, the newest `REPLAY_CACHE_MAX_IDS` of them.
 */
export const remember = (
  seen: ReadonlyArray<SeenEntry>,
  id: string,
  stampSeconds: number,
  nowSeconds: number,
  toleranceSeconds: number,
): { readonly duplicate: boolean; readonly next: ReadonlyArray<SeenEntry> } => {
  const key = keyOf(id)
  const live = seen.filter(([, seconds]) => nowSeconds - seconds <= toleranceSeconds)
  if (live.some(([k]) => k === key)) return { duplicate: true, next: live }
  const next = [...live, [key, stampSeconds] as const]
    .sort((a, b) => a[1] - b[1])
    .slice(-REPLAY_CACHE_MAX_IDS)
  return { duplicate: false, next }
}
