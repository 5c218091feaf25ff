/**
 * The expiry that runs before every request and every control, at the simulator time:
 * PENDING 3DS authentications past 10 minutes become EXPIRED, PENDING payment links past
 * `expirationMinutes` become CANCELLED (emitting `order.cancelled` once), and orders and
 * access tokens `retentionSeconds` past their expiry are dropped. Tokens are also checked
 * when used.
 *
 * Only the deadlines due are read, from the state's time index (`TimeIndex`): the cost
 * depends on what falls due, not on how many records are stored.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import { insert, remove } from './HashTrie.js'
import { moveOrder } from './Orders.js'
import { dropTimeOf, own, type SimulatorState } from './State.js'
import type { Deadline } from './TimeIndex.js'

// -------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------

const bySeq = (a: Deadline, b: Deadline): number => a.seq - b.seq

const runDue = (
  state: SimulatorState,
  due: ReadonlyArray<Deadline>,
  atMs: number,
): SimulatorState => {
  let s = state
  // Authentications first, then links by order id (the order the events come out in).
  for (const d of due) {
    if (d.kind !== 'expireAuthentication') continue
    const a = own(s.authentications, d.key)
    if (a !== undefined && a.status === 'PENDING')
      s = { ...s, authentications: insert(s.authentications, a.id, { ...a, status: 'EXPIRED' }) }
  }
  for (const d of due.filter((x) => x.kind === 'expireOrder').sort(bySeq)) {
    const order = own(s.orders, d.key)
    if (order === undefined) continue
    if (order.status === 'PENDING')
      s = E.getOrElse(() => s)(moveOrder(s, order.orderCode, 'CANCELLED', atMs))
    const dropAt = dropTimeOf(s, order.expiresAtMs)
    if (dropAt !== undefined)
      s = { ...s, deadlines: s.deadlines.add({ ...d, atMs: dropAt, kind: 'dropOrder' }) }
  }
  for (const d of due) {
    if (d.kind === 'dropOrder') s = { ...s, orders: remove(s.orders, d.key) }
    else if (d.kind === 'dropToken') s = { ...s, tokens: remove(s.tokens, d.key) }
  }
  return s
}

/**
 * Runs every deadline due at simulator time `atMs`, and trims the event log to its size
 * (the events this step emits are all kept until the next step). O(1) when nothing is
 * due.
 *
 * @category combinators
 * @since 0.2.0
 */
export const expire = (state: SimulatorState, atMs: number): SimulatorState => {
  const events = state.events.trim(state.config.eventLogSize)
  let s = events === state.events ? state : { ...state, events }
  for (;;) {
    const [due, deadlines] = s.deadlines.takeDue(atMs)
    // A drop scheduled by this step may itself be due: loop until nothing is.
    if (due.length === 0) return s
    s = runDue({ ...s, deadlines }, due, atMs)
  }
}
