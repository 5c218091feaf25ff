/**
 * The invariants the model checks after every step of a story and once the world is quiet
 * (faults off, every pending webhook delivered, the integration's reconcile run): what a
 * payment integration must never do, judged against the service's own records.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import { redactValue } from '@paykit/core/client'
import type { OrderStatus } from '@paykit/core/codecs'
import { Money } from '@paykit/core/money'
import type { IntegrationOrder } from './Integration.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One shop order as the service has it: the kit's `reference` and the integration's own ids
 * for it seen on the wire (`ownIds`: charge order ids and link references other than the
 * reference), its `amount` and `currency` (the shop order's; `undefined` for an id the kit
 * cannot relate to any of its orders), every charge sent for it (`charges`, any status,
 * with its amount), the ids of those that succeeded, its payment links (order codes, with
 * status and total), `total`: what the service took for it (its successful charges and
 * paid links, decimal major units), and its status (`PAID` after a successful charge, else
 * the status of its link, else `PENDING`). A charge or a link counts for the order whose
 * id it carries, or whose card it charges, or, when new, for the order the integration was
 * working on: in every step, "eventually" included.
 *
 * @category model
 * @since 0.2.0
 */
export interface ServiceOrder {
  readonly reference: string
  readonly ownIds: ReadonlyArray<string>
  readonly amount: number | undefined
  readonly currency: string
  readonly charges: ReadonlyArray<{
    readonly id: string
    readonly status: 'FAILED' | 'SUCCEEDED' | 'AUTHENTICATION_REQUIRED'
    readonly amount: number
  }>
  readonly succeededCharges: ReadonlyArray<string>
  readonly links: ReadonlyArray<{
    readonly orderCode: string
    readonly status: OrderStatus
    readonly total: number
  }>
  readonly total: number
  readonly status: OrderStatus
}

/**
 * One order of the integration's view with the kit's order it stands for (`order`: the
 * reference itself, or the shop order whose id it is on the wire) and what its status
 * means at the service (`means`: the service statuses it stands for, through the
 * `statuses` option; by default the status itself).
 *
 * @category model
 * @since 0.2.0
 */
export interface ViewedOrder extends IntegrationOrder {
  readonly order: string
  readonly means: ReadonlyArray<OrderStatus>
}

/**
 * A webhook the service did not send, just delivered (a forged, stale, tampered or
 * replayed one): what it was, and the integration's view just before.
 *
 * @category model
 * @since 0.2.0
 */
export interface ForgedDelivery {
  readonly what: string
  readonly before: ReadonlyArray<ViewedOrder>
}

/**
 * What an invariant looks at: the service's orders, the integration's view and log (its
 * lines, then the messages of what it threw and their causes), the secrets in play,
 * whether the world is quiet (the final check) and, after a step that delivered a webhook
 * the service did not send, that delivery (`forged`).
 *
 * @category model
 * @since 0.2.0
 */
export interface Observation {
  readonly service: ReadonlyArray<ServiceOrder>
  readonly view: ReadonlyArray<ViewedOrder>
  readonly log: ReadonlyArray<string>
  readonly secrets: ReadonlyArray<string>
  readonly quiet: boolean
  readonly forged?: ForgedDelivery
}

/**
 * A named check: `undefined` when it holds, else what is wrong, in a sentence.
 *
 * @category model
 * @since 0.2.0
 */
export interface Invariant {
  readonly name: string
  readonly check: (observation: Observation) => string | undefined
}

// -------------------------------------------------------------------------------------
// destructors
// -------------------------------------------------------------------------------------

/**
 * How many times the service took money for an order: its successful charges and its
 * links paid (`PAID` or `FINALIZED`).
 *
 * @example
 * ```ts
 * import { Invariants, type ServiceOrder } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const order: ServiceOrder = {
 *   reference: 'o1',
 *   ownIds: [],
 *   amount: 19.99,
 *   currency: 'USD',
 *   charges: [{ id: 'ch_000001', status: 'SUCCEEDED', amount: 19.99 }],
 *   succeededCharges: ['ch_000001'],
 *   links: [{ orderCode: 'OC00001001', status: 'PAID', total: 19.99 }],
 *   total: 39.98,
 *   status: 'PAID',
 * }
 * assert.equal(Invariants.timesPaidAtService(order), 2)
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const timesPaidAtService = (order: ServiceOrder): number =>
  order.succeededCharges.length + order.links.filter((l) => PAID_AT_SERVICE.has(l.status)).length

/**
 * Every status an order has had at the service: `PENDING`, `PAID` once a charge succeeded,
 * and each status its links went through (a link moves `PENDING`, then `PAID` or
 * `CANCELLED`, then `FINALIZED` from `PAID`).
 *
 * @example
 * ```ts
 * import { Invariants, type ServiceOrder } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const order: ServiceOrder = {
 *   reference: 'o1',
 *   ownIds: ['inv_0001'],
 *   amount: 0.3,
 *   currency: 'USD',
 *   charges: [],
 *   succeededCharges: [],
 *   links: [{ orderCode: 'OC00001001', status: 'FINALIZED', total: 0.3 }],
 *   total: 0.3,
 *   status: 'FINALIZED',
 * }
 * assert.deepEqual([...Invariants.statusesHad(order)], ['PENDING', 'PAID', 'FINALIZED'])
 * assert.deepEqual([...Invariants.statusesHad(undefined)], ['PENDING'])
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const statusesHad = (order: ServiceOrder | undefined): ReadonlySet<OrderStatus> => {
  const had = new Set<OrderStatus>(['PENDING'])
  if (order === undefined) return had
  if (order.succeededCharges.length > 0) had.add('PAID')
  for (const link of order.links) for (const s of LINK_PATH[link.status]) had.add(s)
  return had
}

const first = <A>(
  items: ReadonlyArray<A>,
  problem: (a: A) => string | undefined,
): string | undefined => {
  for (const item of items) {
    const found = problem(item)
    if (found !== undefined) return found
  }
  return undefined
}

const PAID_AT_SERVICE: ReadonlySet<OrderStatus> = new Set(['PAID', 'FINALIZED'])
const LINK_PATH: Readonly<Record<OrderStatus, ReadonlyArray<OrderStatus>>> = {
  PENDING: ['PENDING'],
  PAID: ['PENDING', 'PAID'],
  CANCELLED: ['PENDING', 'CANCELLED'],
  FINALIZED: ['PENDING', 'PAID', 'FINALIZED'],
}

// Checked after every step: each amount's cents are computed once (a story has few).
const CENTS_KEPT = 10_000
const cents = new Map<number, bigint | undefined>()

/** An amount in whole minor units (half to even), `undefined` for what is not a number. */
const centsOf = (amount: number): bigint | undefined => {
  if (cents.has(amount)) return cents.get(amount)
  const money = Money.fromNumber(amount)
  const found = E.isRight(money) ? Money.toCents(money.right) : undefined
  if (cents.size >= CENTS_KEPT) cents.clear()
  cents.set(amount, found)
  return found
}

/** `19.99 USD` (the exact decimal; two decimals at least). */
const shownAmount = (amount: number, currency: string): string => {
  const money = Money.fromNumber(amount)
  if (E.isLeft(money)) return `${String(amount)} ${currency}`
  const exact = Money.toString(money.right)
  const decimals = exact.split('.')[1]?.length ?? 0
  return `${Money.toString(money.right, Math.max(2, decimals))} ${currency}`
}

/** The order as a problem names it: the kit's reference, and the integration's ids. */
const named = (order: Pick<ServiceOrder, 'reference' | 'ownIds'>): string =>
  order.ownIds.length === 0
    ? order.reference
    : `${order.reference} (the integration's ${order.ownIds.join(', ')})`

/** An order of the view as a problem names it: the kit's order, and its own id. */
const viewed = (v: ViewedOrder): string =>
  v.reference === v.order ? v.order : `${v.order} (the integration's ${v.reference})`

// -------------------------------------------------------------------------------------
// invariants
// -------------------------------------------------------------------------------------

/**
 * No order paid twice at the service, by card or by link.
 *
 * @example
 * ```ts
 * import { Invariants, type ServiceOrder } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const twice: ServiceOrder = {
 *   reference: 'o1',
 *   ownIds: ['inv_0001', 'inv_0002'],
 *   amount: 10,
 *   currency: 'USD',
 *   charges: [
 *     { id: 'ch_000001', status: 'SUCCEEDED', amount: 10 },
 *     { id: 'ch_000002', status: 'SUCCEEDED', amount: 10 },
 *   ],
 *   succeededCharges: ['ch_000001', 'ch_000002'],
 *   links: [],
 *   total: 20,
 *   status: 'PAID',
 * }
 * const observation = { service: [twice], view: [], log: [], secrets: [], quiet: false }
 * assert.equal(
 *   Invariants.noOrderChargedTwice.check(observation),
 *   "order o1 (the integration's inv_0001, inv_0002) was paid 2 times at the service (ch_000001, ch_000002)",
 * )
 * ```
 *
 * @category invariants
 * @since 0.2.0
 */
export const noOrderChargedTwice: Invariant = {
  name: 'no order charged twice',
  check: ({ service }) =>
    first(service, (o) => {
      const n = timesPaidAtService(o)
      if (n < 2) return undefined
      const paid = [
        ...o.succeededCharges,
        ...o.links.filter((l) => PAID_AT_SERVICE.has(l.status)).map((l) => l.orderCode),
      ]
      return `order ${named(o)} was paid ${n} times at the service (${paid.join(', ')})`
    }),
}

/**
 * No second payment link for one order.
 *
 * @example
 * ```ts
 * import { Invariants, type ServiceOrder } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const o1: ServiceOrder = {
 *   reference: 'o1',
 *   ownIds: [],
 *   amount: 5,
 *   currency: 'USD',
 *   charges: [],
 *   succeededCharges: [],
 *   links: [
 *     { orderCode: 'OC00001001', status: 'PENDING', total: 5 },
 *     { orderCode: 'OC00001002', status: 'PENDING', total: 5 },
 *   ],
 *   total: 0,
 *   status: 'PENDING',
 * }
 * const observation = { service: [o1], view: [], log: [], secrets: [], quiet: false }
 * assert.equal(
 *   Invariants.oneLinkPerOrder.check(observation),
 *   'order o1 has 2 payment links (OC00001001, OC00001002)',
 * )
 * ```
 *
 * @category invariants
 * @since 0.2.0
 */
export const oneLinkPerOrder: Invariant = {
  name: 'one link per order reference',
  check: ({ service }) =>
    first(service, (o) =>
      o.links.length < 2
        ? undefined
        : `order ${named(o)} has ${o.links.length} payment links (${o.links.map((l) => l.orderCode).join(', ')})`,
    ),
}

/**
 * Every charge sent for an order (whatever its outcome) and every payment link created
 * for it is for the order's amount, to the minor unit: no cent lost or added converting,
 * summing or rounding.
 *
 * @example
 * ```ts
 * import { Invariants, type ServiceOrder } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * // Math.floor(19.99 * 100) / 100 is 19.98
 * const o1: ServiceOrder = {
 *   reference: 'o1',
 *   ownIds: [],
 *   amount: 19.99,
 *   currency: 'USD',
 *   charges: [{ id: 'ch_000001', status: 'SUCCEEDED', amount: 19.98 }],
 *   succeededCharges: ['ch_000001'],
 *   links: [],
 *   total: 19.98,
 *   status: 'PAID',
 * }
 * assert.equal(
 *   Invariants.amountsAsOrdered.check({ service: [o1], view: [], log: [], secrets: [], quiet: false }),
 *   'order o1 is 19.99 USD, the integration charged 19.98 USD (ch_000001)',
 * )
 * ```
 *
 * @category invariants
 * @since 0.2.0
 */
export const amountsAsOrdered: Invariant = {
  name: "every amount sent is the order's",
  check: ({ service }) =>
    first(service, (o) => {
      if (o.amount === undefined) return undefined
      const owed = centsOf(o.amount)
      const of = (): string => `order ${named(o)} is ${shownAmount(o.amount ?? 0, o.currency)}`
      const charge = o.charges.find((c) => centsOf(c.amount) !== owed)
      if (charge !== undefined)
        return `${of()}, the integration charged ${shownAmount(charge.amount, o.currency)} (${charge.id})`
      const link = o.links.find((l) => centsOf(l.total) !== owed)
      return link === undefined
        ? undefined
        : `${of()}, the integration created a payment link of ${shownAmount(link.total, o.currency)} (${link.orderCode})`
    }),
}

/**
 * The integration's view never changes because of a webhook the service did not send
 * (unsigned, signed with another secret, stale, altered after signing, about an order
 * the shop never made, or an old one replayed): after such a delivery, an order whose
 * record changed must stand for a status the service has given it, and must not be
 * recorded paid more often than the service was paid. An integration that refuses the
 * event passes; so does one that confirms every event by reading the order back.
 *
 * @example
 * ```ts
 * import { Invariants, type ViewedOrder } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const pending: ViewedOrder = { reference: 'o1', order: 'o1', status: 'PENDING', means: ['PENDING'], timesPaid: 0 }
 * const paid: ViewedOrder = { ...pending, status: 'PAID', means: ['PAID'], timesPaid: 1 }
 * const forged = { what: 'an unsigned order.paid of o1', before: [pending] }
 * assert.equal(
 *   Invariants.noForgedChange.check({ service: [], view: [paid], log: [], secrets: [], quiet: false, forged }),
 *   'an unsigned order.paid of o1 changed the integration\'s view: order o1 is PAID (before: PENDING), a status the service never gave it',
 * )
 * ```
 *
 * @category invariants
 * @since 0.2.0
 */
export const noForgedChange: Invariant = {
  name: 'no change from a webhook the service did not send',
  check: ({ forged, service, view }) => {
    if (forged === undefined) return undefined
    return first(view, (v) => {
      const before = forged.before.find((b) => b.reference === v.reference)
      if (
        before !== undefined &&
        before.status === v.status &&
        before.timesPaid === v.timesPaid &&
        before.amountPaid === v.amountPaid
      )
        return undefined
      const at = service.find((o) => o.reference === v.order)
      const was = before === undefined ? 'no record' : shownStatus(before)
      const changed = `${forged.what} changed the integration's view: order ${viewed(v)}`
      const had = statusesHad(at)
      if (!v.means.some((s) => had.has(s)))
        return `${changed} is ${shownStatus(v)} (before: ${was}), a status the service never gave it`
      const paidThere = at === undefined ? 0 : timesPaidAtService(at)
      return v.timesPaid > (before?.timesPaid ?? 0) && v.timesPaid > paidThere
        ? `${changed} is recorded paid ${v.timesPaid} times (before: ${before?.timesPaid ?? 0}), the service was paid ${paidThere}`
        : undefined
    })
  },
}

/**
 * Every paid order seen paid by the integration exactly once: never twice, never for an
 * order the service has not been paid for, and, once the world is quiet, once for each
 * order the service has paid (the view's records of one order, under any of its ids,
 * counted together).
 *
 * @example
 * ```ts
 * import { Invariants } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const view = [{ reference: 'o1', order: 'o1', status: 'PAID', means: ['PAID' as const], timesPaid: 2 }]
 * const observation = { service: [], view, log: [], secrets: [], quiet: false }
 * assert.equal(Invariants.paidSeenOnce.check(observation), 'the integration recorded order o1 as paid 2 times')
 * ```
 *
 * @category invariants
 * @since 0.2.0
 */
export const paidSeenOnce: Invariant = {
  name: 'every paid order seen once',
  check: ({ service, view, quiet }) => {
    const seen = new Map<string, { times: number; ids: Array<string> }>()
    for (const v of view) {
      const entry = seen.get(v.order) ?? { times: 0, ids: [] }
      entry.times += v.timesPaid
      if (v.reference !== v.order && !entry.ids.includes(v.reference)) entry.ids.push(v.reference)
      seen.set(v.order, entry)
    }
    const twice = first([...seen], ([order, { times, ids }]) =>
      times > 1
        ? `the integration recorded order ${named({ reference: order, ownIds: ids })} as paid ${times} times`
        : undefined,
    )
    if (twice !== undefined) return twice
    // a payment recorded (goods shipped) for an order the service was never paid for
    const unpaid = first([...seen], ([order, { times, ids }]) => {
      const there = service.find((o) => o.reference === order)
      return times > 0 && (there === undefined || timesPaidAtService(there) === 0)
        ? `the integration recorded order ${named({ reference: order, ownIds: ids })} as paid, the service has not been paid for it`
        : undefined
    })
    if (unpaid !== undefined || !quiet) return unpaid
    return first(service, (o) => {
      if (timesPaidAtService(o) === 0) return undefined
      const times = seen.get(o.reference)?.times ?? 0
      return times === 1
        ? undefined
        : `order ${named(o)} is paid at the service, the integration recorded it as paid ${times} times`
    })
  },
}

/**
 * What the integration recorded as paid (`amountPaid`, when its view gives it) is what the
 * service charged for the order, to the minor unit.
 *
 * @example
 * ```ts
 * import { Invariants, type ServiceOrder } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const o1: ServiceOrder = {
 *   reference: 'o1',
 *   ownIds: [],
 *   amount: 0.3,
 *   currency: 'USD',
 *   charges: [{ id: 'ch_000001', status: 'SUCCEEDED', amount: 0.3 }],
 *   succeededCharges: ['ch_000001'],
 *   links: [],
 *   total: 0.3,
 *   status: 'PAID',
 * }
 * // the paid amount kept as Math.floor(0.29 * 100) cents, then read back
 * const view = [{ reference: 'o1', order: 'o1', status: 'PAID', means: ['PAID' as const], timesPaid: 1, amountPaid: 0.28 }]
 * assert.equal(
 *   Invariants.paidAmountRecorded.check({ service: [o1], view, log: [], secrets: [], quiet: false }),
 *   'the integration recorded 0.28 USD paid for order o1, the service charged 0.30 USD',
 * )
 * ```
 *
 * @category invariants
 * @since 0.2.0
 */
export const paidAmountRecorded: Invariant = {
  name: 'the amount recorded paid is the amount charged',
  check: ({ service, view }) =>
    first(view, (v) => {
      if (typeof v.amountPaid !== 'number' || v.timesPaid < 1) return undefined
      const at = service.find((o) => o.reference === v.order)
      if (at === undefined || at.total === 0) return undefined
      return centsOf(v.amountPaid) === centsOf(at.total)
        ? undefined
        : `the integration recorded ${shownAmount(v.amountPaid, at.currency)} paid for order ${viewed(v)}, the service charged ${shownAmount(at.total, at.currency)}`
    }),
}

// The patterns of a list of secrets, built once for each list (a world keeps its list
// until it learns a new access token).
const patternCache = new WeakMap<
  ReadonlyArray<string>,
  ReadonlyArray<{ test: (l: string) => boolean }>
>()
const patternsOf = (
  secrets: ReadonlyArray<string>,
): ReadonlyArray<{ test: (l: string) => boolean }> => {
  const cached = patternCache.get(secrets)
  if (cached !== undefined) return cached
  const patterns = secrets
    .filter((s) => s.length > 0)
    .map((s) =>
      /^\d+$/.test(s) ? new RegExp(`(?<!\\d)${s}(?!\\d)`) : { test: (l: string) => l.includes(s) },
    )
  patternCache.set(secrets, patterns)
  return patterns
}

/**
 * No secret (client secret, API key, webhook secret, an access token the service issued),
 * card number or CVV in what the integration logged or in an error it threw (its message
 * or a `cause`'s). The problem quotes the line with every secret redacted.
 *
 * @example
 * ```ts
 * import { Invariants } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const log = ['charging card 4242424242424242 for o1']
 * const observation = { service: [], view: [], log, secrets: ['4242424242424242'], quiet: false }
 * assert.equal(
 *   Invariants.noSecretLogged.check(observation),
 *   'the integration logged a secret or card datum: "charging card [redacted] for o1"',
 * )
 * ```
 *
 * @category invariants
 * @since 0.2.0
 */
export const noSecretLogged: Invariant = {
  name: 'no secret or card datum logged',
  check: ({ log, secrets }) => {
    const patterns = patternsOf(secrets)
    return first(log, (line) =>
      patterns.some((p) => p.test(line))
        ? `the integration logged a secret or card datum: "${redactValue(line, secrets) as string}"`
        : undefined,
    )
  },
}

/** The order's status as the problem shows it: with its meaning when that is not itself. */
const shownStatus = (v: Pick<ViewedOrder, 'status' | 'means'>): string =>
  v.means.length === 1 && v.means[0] === v.status
    ? v.status
    : `"${v.status}" (${v.means.join(' or ') || 'no status of the service'})`

/**
 * The integration's view of each order agrees with the service: it never says paid what
 * the service has not paid (a status that means only `PAID` or `FINALIZED`), and once
 * the world is quiet each order's status means the service's (strict by default: the
 * same status; the `statuses` option says what the integration's own statuses mean).
 *
 * @example
 * ```ts
 * import { Invariants, type ServiceOrder } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const o1: ServiceOrder = {
 *   reference: 'o1',
 *   ownIds: [],
 *   amount: 25.5,
 *   currency: 'USD',
 *   charges: [],
 *   succeededCharges: [],
 *   links: [{ orderCode: 'OC00001001', status: 'FINALIZED', total: 25.5 }],
 *   total: 25.5,
 *   status: 'FINALIZED',
 * }
 * const service = [o1]
 * const strict = [{ reference: 'o1', order: 'o1', status: 'PAID', means: ['PAID' as const], timesPaid: 1 }]
 * assert.equal(Invariants.viewAgrees.check({ service, view: strict, log: [], secrets: [], quiet: false }), undefined)
 * assert.equal(
 *   Invariants.viewAgrees.check({ service, view: strict, log: [], secrets: [], quiet: true }),
 *   'the integration has order o1 PAID, the service FINALIZED',
 * )
 * // its PAID means paid, and maybe finalized since
 * const paid = [{ ...strict[0]!, means: ['PAID' as const, 'FINALIZED' as const] }]
 * assert.equal(Invariants.viewAgrees.check({ service, view: paid, log: [], secrets: [], quiet: true }), undefined)
 * ```
 *
 * @category invariants
 * @since 0.2.0
 */
export const viewAgrees: Invariant = {
  name: "the integration's view agrees with the service",
  check: ({ service, view, quiet }) => {
    const at = (order: string): ServiceOrder | undefined =>
      service.find((o) => o.reference === order)
    const falsePaid = first(view, (v) => {
      if (v.means.length === 0 || !v.means.every((s) => PAID_AT_SERVICE.has(s))) return undefined
      const there = at(v.order)
      return there === undefined || timesPaidAtService(there) === 0
        ? `the integration has order ${viewed(v)} ${shownStatus(v)}, the service has not been paid for it`
        : undefined
    })
    if (falsePaid !== undefined || !quiet) return falsePaid
    const orders = [...new Set([...view.map((v) => v.order), ...service.map((o) => o.reference)])]
    return first(orders, (order) => {
      const theirs = at(order)?.status ?? 'PENDING'
      const mine = view.filter((v) => v.order === order)
      const wrong =
        mine.length === 0
          ? theirs === 'PENDING'
            ? undefined
            : { status: 'PENDING', means: ['PENDING' as const], name: order }
          : mine.map((v) => ({ ...v, name: viewed(v) })).find((v) => !v.means.includes(theirs))
      const name =
        mine.length === 0 && at(order) !== undefined
          ? named(at(order) as ServiceOrder)
          : wrong?.name
      return wrong === undefined
        ? undefined
        : `the integration has order ${name ?? order} ${shownStatus(wrong)}, the service ${theirs}`
    })
  },
}

/**
 * The built-in invariants, in the order they are checked.
 *
 * @example
 * ```ts
 * import { Invariants } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * assert.deepEqual(Invariants.builtInInvariants.map((i) => i.name), [
 *   'no order charged twice',
 *   'one link per order reference',
 *   "every amount sent is the order's",
 *   'no change from a webhook the service did not send',
 *   'every paid order seen once',
 *   'the amount recorded paid is the amount charged',
 *   'no secret or card datum logged',
 *   "the integration's view agrees with the service",
 * ])
 * ```
 *
 * @category invariants
 * @since 0.2.0
 */
export const builtInInvariants: ReadonlyArray<Invariant> = [
  noOrderChargedTwice,
  oneLinkPerOrder,
  amountsAsOrdered,
  noForgedChange,
  paidSeenOnce,
  paidAmountRecorded,
  noSecretLogged,
  viewAgrees,
]
