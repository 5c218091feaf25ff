/**
 * The trigger's memory of the events it emitted, so that a replayed or redelivered event
 * (the same event id again within the tolerance window) starts nothing. It lives in the
 * n8n process, one list per trigger node, and the check and the record are one
 * synchronous step, so deliveries that arrive at once cannot both pass.
 *
 * Not in the workflow's static data: n8n 2.41 saves static data that a trigger's
 * `webhook()` changes only on the workflow's first call, and without a lock
 * (docs/decisions/0010-trigger-replay-protection.md), so a list kept there forgets every later event. This memory is a
 * first line only: it ends with the process and is not shared between n8n processes. The
 * guarantee that holds across restarts is the Paykit node's Order Event → Accept Once
 * step, backed by n8n's database (see the package README).
 *
 * - An entry is kept while it is at most the tolerance window old, so a signed event can
 *   neither be replayed (its signature expires with the window) nor slip through as a
 *   redelivery signed afresh within the window.
 * - At most `REPLAY_CACHE_MAX_IDS` entries are kept per node; past that the oldest are
 *   forgotten early (a burst of more events than that within one window).
 * - The key is the event id itself when it is short, otherwise a SHA-256 digest of it, so
 *   an unsigned sender cannot make the memory large.
 */
import { createHash } from 'node:crypto'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** One remembered event: its key and when it was seen (unix seconds). */
type SeenEntry = readonly [key: string, seconds: number]

/** The most event ids remembered at once. */
const REPLAY_CACHE_MAX_IDS = 1000

const MAX_VERBATIM_ID_LENGTH = 128

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** The stored key of an event id. */
const keyOf = (id: string): string =>
  id.length <= MAX_VERBATIM_ID_LENGTH
    ? id
    : `sha256:${createHash('sha256').update(id, 'utf8').digest('hex')}`

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/**
 * Whether `id` was seen within the window, and the entries to store afterwards: those
 * seen at most `toleranceSeconds` before `nowSeconds`, plus `id` at `stampSeconds` when it
 * is new, the newest `REPLAY_CACHE_MAX_IDS` of them.
 */
const remember = (
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

// -------------------------------------------------------------------------------------
// memory (the process's)
// -------------------------------------------------------------------------------------

const memories = new Map<string, ReadonlyArray<SeenEntry>>()

/**
 * Records event `id` for trigger `scope` (workflow and node id) and says whether it is new
 * within the window; `false` means a replay. Synchronous: nothing can come between the
 * check and the record.
 */
export const acceptOnce = (
  scope: string,
  id: string,
  stampSeconds: number,
  nowSeconds: number,
  toleranceSeconds: number,
): boolean => {
  const { duplicate, next } = remember(
    memories.get(scope) ?? [],
    id,
    stampSeconds,
    nowSeconds,
    toleranceSeconds,
  )
  memories.set(scope, next)
  return !duplicate
}

/** Whether event `id` was recorded for `scope` within the window (records nothing). */
export const seenRecently = (
  scope: string,
  id: string,
  nowSeconds: number,
  toleranceSeconds: number,
): boolean => {
  const key = keyOf(id)
  return (memories.get(scope) ?? []).some(
    ([k, seconds]) => k === key && nowSeconds - seconds <= toleranceSeconds,
  )
}
