/**
 * The invariants the model checks after every step of a story and once the world is quiet
 * (faults off, every pending webhook delivered, the integration's reconcile run): what a
 * payment integration must never do, judged against the service's own records.
 *
 * @since 0.2.0
 */
import { redactValue, type OrderStatus } from '@paykit/core'
import type { IntegrationOrder } from './Integration.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One order reference as the service has it: the charges that succeeded for it, the
 * payment links created for it (order codes) and the status it has at the service
 * (`PAID` after a successful charge, else the status of its link, else `PENDING`).
 * Charges and links made while the integration worked on a reference count for that
 * reference even when sent under another order id.
 *
 * @category model
 * @since 0.2.0
 */
export interface ServiceOrder {
  readonly reference: string
  readonly succeededCharges: ReadonlyArray<string>
  readonly links: ReadonlyArray<{ readonly orderCode: string; readonly status: OrderStatus }>
  readonly status: OrderStatus
}

/**
 * One order of the integration's view with what its status means at the service
 * (`means`: the service statuses it stands for, through the `statuses` option; by
 * default the status itself).
 *
 * @category model
 * @since 0.2.0
 */
export interface ViewedOrder extends IntegrationOrder {
  readonly means: ReadonlyArray<OrderStatus>
}

/**
 * What an invariant looks at: the service's orders, the integration's view and log (its
 * lines, then the messages of what it threw and their causes), the secrets in play, and
 * whether the world is quiet (the final check).
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
 * import { Invariants } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const order = {
 *   reference: 'o1',
 *   succeededCharges: ['ch_000001'],
 *   links: [{ orderCode: 'OC00001001', status: 'PAID' as const }],
 *   status: 'PAID' as const,
 * }
 * assert.equal(Invariants.timesPaidAtService(order), 2)
 * ```
 *
 * @category destructors
 * @since 0.2.0
 */
export const timesPaidAtService = (order: ServiceOrder): number =>
  order.succeededCharges.length +
  order.links.filter((l) => l.status === 'PAID' || l.status === 'FINALIZED').length

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

// -------------------------------------------------------------------------------------
// invariants
// -------------------------------------------------------------------------------------

/**
 * No order paid twice at the service, by card or by link.
 *
 * @example
 * ```ts
 * import { Invariants } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const twice = {
 *   reference: 'o1',
 *   succeededCharges: ['ch_000001', 'ch_000002'],
 *   links: [],
 *   status: 'PAID' as const,
 * }
 * const observation = { service: [twice], view: [], log: [], secrets: [], quiet: false }
 * assert.equal(
 *   Invariants.noOrderChargedTwice.check(observation),
 *   'order o1 was paid 2 times at the service (ch_000001, ch_000002)',
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
        ...o.links
          .filter((l) => l.status === 'PAID' || l.status === 'FINALIZED')
          .map((l) => l.orderCode),
      ]
      return `order ${o.reference} was paid ${n} times at the service (${paid.join(', ')})`
    }),
}

/**
 * No second payment link for one order reference.
 *
 * @example
 * ```ts
 * import { Invariants } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const links = [
 *   { orderCode: 'OC00001001', status: 'PENDING' as const },
 *   { orderCode: 'OC00001002', status: 'PENDING' as const },
 * ]
 * const o1 = { reference: 'o1', succeededCharges: [], links, status: 'PENDING' as const }
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
        : `order ${o.reference} has ${o.links.length} payment links (${o.links.map((l) => l.orderCode).join(', ')})`,
    ),
}

/**
 * Every paid order seen paid by the integration exactly once: never twice, and, once the
 * world is quiet, once for each order the service has paid.
 *
 * @example
 * ```ts
 * import { Invariants } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const view = [{ reference: 'o1', status: 'PAID', means: ['PAID' as const], timesPaid: 2 }]
 * const observation = { service: [], view, log: [], secrets: [], quiet: false }
 * assert.equal(Invariants.paidSeenOnce.check(observation), 'the integration recorded order o1 as paid 2 times')
 * ```
 *
 * @category invariants
 * @since 0.2.0
 */
export const paidSeenOnce: Invariant = {
  name: 'every paid order seen once',
  check: ({ service, view, quiet }) =>
    first(view, (o) =>
      o.timesPaid > 1
        ? `the integration recorded order ${o.reference} as paid ${o.timesPaid} times`
        : undefined,
    ) ??
    (quiet
      ? first(service, (o) => {
          if (timesPaidAtService(o) === 0) return undefined
          const seen = view.find((v) => v.reference === o.reference)?.timesPaid ?? 0
          return seen === 1
            ? undefined
            : `order ${o.reference} is paid at the service, the integration recorded it as paid ${seen} times`
        })
      : undefined),
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
    const patterns = secrets
      .filter((s) => s.length > 0)
      .map((s) =>
        /^\d+$/.test(s)
          ? new RegExp(`(?<!\\d)${s}(?!\\d)`)
          : { test: (l: string) => l.includes(s) },
      )
    return first(log, (line) =>
      patterns.some((p) => p.test(line))
        ? `the integration logged a secret or card datum: "${redactValue(line, secrets) as string}"`
        : undefined,
    )
  },
}

const PAID_AT_SERVICE: ReadonlySet<OrderStatus> = new Set(['PAID', 'FINALIZED'])

/** The order's status as the problem shows it: with its meaning when that is not itself. */
const shownStatus = (v: ViewedOrder): string =>
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
 * import { Invariants } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const service = [
 *   { reference: 'o1', succeededCharges: [], links: [{ orderCode: 'OC00001001', status: 'FINALIZED' as const }], status: 'FINALIZED' as const },
 * ]
 * const strict = [{ reference: 'o1', status: 'PAID', means: ['PAID' as const], timesPaid: 1 }]
 * assert.equal(Invariants.viewAgrees.check({ service, view: strict, log: [], secrets: [], quiet: false }), undefined)
 * assert.equal(
 *   Invariants.viewAgrees.check({ service, view: strict, log: [], secrets: [], quiet: true }),
 *   'the integration has order o1 PAID, the service FINALIZED',
 * )
 * // its PAID means paid, and maybe finalized since
 * const paid = [{ reference: 'o1', status: 'PAID', means: ['PAID' as const, 'FINALIZED' as const], timesPaid: 1 }]
 * assert.equal(Invariants.viewAgrees.check({ service, view: paid, log: [], secrets: [], quiet: true }), undefined)
 * ```
 *
 * @category invariants
 * @since 0.2.0
 */
export const viewAgrees: Invariant = {
  name: "the integration's view agrees with the service",
  check: ({ service, view, quiet }) => {
    const at = (reference: string): ServiceOrder | undefined =>
      service.find((o) => o.reference === reference)
    const falsePaid = first(view, (v) =>
      v.means.length > 0 &&
      v.means.every((s) => PAID_AT_SERVICE.has(s)) &&
      timesPaidAtService(
        at(v.reference) ?? { reference: '', succeededCharges: [], links: [], status: 'PENDING' },
      ) === 0
        ? `the integration has order ${v.reference} ${shownStatus(v)}, the service has not been paid for it`
        : undefined,
    )
    if (falsePaid !== undefined || !quiet) return falsePaid
    const references = [
      ...new Set([...view.map((v) => v.reference), ...service.map((o) => o.reference)]),
    ]
    return first(references, (reference) => {
      const mine: ViewedOrder = view.find((v) => v.reference === reference) ?? {
        reference,
        status: 'PENDING',
        means: ['PENDING'],
        timesPaid: 0,
      }
      const theirs = at(reference)?.status ?? 'PENDING'
      return mine.means.includes(theirs)
        ? undefined
        : `the integration has order ${reference} ${shownStatus(mine)}, the service ${theirs}`
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
 *   'every paid order seen once',
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
  paidSeenOnce,
  noSecretLogged,
  viewAgrees,
]
