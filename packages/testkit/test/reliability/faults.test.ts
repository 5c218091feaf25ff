// Issue 10, faults: every fault the sandbox injects, on every client call, gives a typed
// error within the client's time limits, no unhandled rejection, POST /charges reaches the
// service exactly once per charge call, and a faulted request that changes state (a charge,
// a card, a link) says `outcomeUnknown: true` (issue 18). Each case has its own sandbox (real
// HTTP) and the core's client.
import type * as E from 'fp-ts/lib/Either.js'
import type { Client, PaykitError } from '@paykit/core'
import type { Authenticate } from '@paykit/core/client'
import type { ChargeFlowState } from '@paykit/core/machines'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testCards } from '../../src/index.js'
import { Faults, type Fault } from '../../src/service/index.js'
import type { Sandbox } from '../../src/sandbox/index.js'
import { authenticateHeadless } from '../../src/buyer/index.js'
import {
  RETRY,
  SLACK_MS,
  TIMEOUT_MS,
  cardOf,
  clientFor,
  countOf,
  leftOf,
  rightOf,
  sandboxWith,
  timed,
  watchUnhandledRejections,
} from './support.js'

// ------------------------------------------------------------------ the faults

/** Every fault of the `Faults` export, and the error tag the client must give for it. */
const faults: ReadonlyArray<readonly [string, Fault, PaykitError['_tag']]> = [
  ['status500', Faults.status500, 'HttpError'],
  ['processedThen500', Faults.processedThen500, 'HttpError'],
  ['malformedBody', Faults.malformedBody, 'DecodeError'],
  ['offContractBody', Faults.offContractBody, 'DecodeError'],
  ['truncatedBody', Faults.truncatedBody, 'NetworkError'],
  ['connectionReset', Faults.connectionReset, 'NetworkError'],
  ['hang', Faults.hang, 'Timeout'],
  // The names that say what the service did: the same faults as connectionReset and hang.
  ['processedThenReset', Faults.processedThenReset, 'NetworkError'],
  ['processedThenTimeout', Faults.processedThenTimeout, 'Timeout'],
  ['latency (a slow answer, 3 x timeoutMs)', Faults.latency(3 * TIMEOUT_MS), 'Timeout'],
]

// ------------------------------------------------------------------ the calls

interface Setup {
  /** The client under test: a small `timeoutMs` (TIMEOUT_MS), small retry delays. */
  readonly client: Client
  /** A patient client for the steps before the fault (a loaded machine is slow at first). */
  readonly setupClient: Client
  readonly sandbox: Sandbox
  /** Injects the case's fault (on the case's endpoint, or from inside the flow). */
  readonly inject: () => void
}

interface Call {
  readonly name: string
  /** Where the fault goes (`undefined`: the call injects it itself, mid-flow). */
  readonly target: { readonly method: string; readonly path: string } | undefined
  /** Longest the call may take under a fault. */
  readonly boundMs: number
  /** POST /charges the call must send, fault or not. */
  readonly charges: number
  /** The faulted request changes state (a charge, a card, a link): its outcome is unknown. */
  readonly changesState: boolean
  /** Other requests that must reach the service exactly once. */
  readonly once?: { readonly method: string; readonly path: string }
  readonly run: (setup: Setup) => Promise<E.Either<PaykitError, unknown>>
}

const oneAttempt = TIMEOUT_MS + SLACK_MS
/** The wait's own deadline: longer than getOrder's attempts, so their error ends it first. */
const WAIT_MS = RETRY.maxAttempts * (TIMEOUT_MS + RETRY.maxDelayMs) + 500
const retried = RETRY.maxAttempts * (TIMEOUT_MS + RETRY.maxDelayMs) + SLACK_MS

const newCard = async (setupClient: Client, number: string) =>
  rightOf(await setupClient.createPaymentMethod({ card: cardOf(number) })())

let orderSeq = 0
const chargeRequest = (cardId: string) => ({
  order: { id: `fault-${Date.now()}-${++orderSeq}`, amount: 12.5, name: 'Tea' },
  cardId,
})

const headless = authenticateHeadless('success', { timeoutMs: TIMEOUT_MS })
const patientHeadless = authenticateHeadless('success', { timeoutMs: 10_000 })

const calls: ReadonlyArray<Call> = [
  {
    name: 'getToken',
    target: { method: 'POST', path: '/token' },
    boundMs: retried,
    charges: 0,
    changesState: false,
    run: async ({ client, inject }) => {
      inject()
      return client.getToken()()
    },
  },
  {
    name: 'createPaymentMethod',
    target: { method: 'POST', path: '/paymentmethods' },
    boundMs: oneAttempt,
    charges: 0,
    changesState: true,
    once: { method: 'POST', path: '/paymentmethods' },
    run: async ({ client, inject }) => {
      inject()
      return client.createPaymentMethod({ card: cardOf(testCards.success.number) })()
    },
  },
  {
    name: 'charge',
    target: { method: 'POST', path: '/charges' },
    boundMs: oneAttempt,
    charges: 1,
    changesState: true,
    run: async ({ client, setupClient, inject }) => {
      const pm = await newCard(setupClient, testCards.success.number)
      inject()
      return client.charge(chargeRequest(pm.id), { paymentMethod: pm })()
    },
  },
  {
    name: 'createPaymentLink',
    target: { method: 'POST', path: '/paymentlink/checkout' },
    boundMs: oneAttempt,
    charges: 0,
    changesState: true,
    once: { method: 'POST', path: '/paymentlink/checkout' },
    run: async ({ client, inject }) => {
      inject()
      return client.createPaymentLink({ amount: 10, orderReference: 'fault-link' })()
    },
  },
  {
    name: 'getOrder',
    target: { method: 'GET', path: '/paymentlink/order/*' },
    boundMs: retried,
    charges: 0,
    changesState: false,
    run: async ({ client, setupClient, inject }) => {
      const link = rightOf(await setupClient.createPaymentLink({ amount: 10 })())
      inject()
      return client.getOrder(link.orderCode)()
    },
  },
  {
    name: 'waitForOrderStatus',
    target: { method: 'GET', path: '/paymentlink/order/*' },
    boundMs: WAIT_MS + SLACK_MS,
    charges: 0,
    changesState: false,
    run: async ({ client, setupClient, inject }) => {
      const link = rightOf(await setupClient.createPaymentLink({ amount: 10 })())
      inject()
      return client.waitForOrderStatus(link.orderCode, ['PAID'], {
        timeoutMs: WAIT_MS,
        intervalMs: 50,
      })()
    },
  },
  {
    name: 'chargeWith3ds (the first charge faulted)',
    target: { method: 'POST', path: '/charges' },
    boundMs: oneAttempt,
    charges: 1,
    changesState: true,
    run: async ({ client, setupClient, inject }) => {
      const pm = await newCard(setupClient, testCards.authentication.number)
      inject()
      return client.chargeWith3ds(chargeRequest(pm.id), headless, { paymentMethod: pm })()
    },
  },
  {
    name: 'chargeWith3ds (the charge after 3DS faulted)',
    target: undefined,
    boundMs: 3 * TIMEOUT_MS + SLACK_MS,
    charges: 2,
    changesState: true,
    run: async ({ client, setupClient, inject }) => {
      const pm = await newCard(setupClient, testCards.authentication.number)
      const authenticate: Authenticate = (url, id) => async () => {
        const message = await patientHeadless(url, id)()
        inject()
        return message
      }
      return client.chargeWith3ds(chargeRequest(pm.id), authenticate, { paymentMethod: pm })()
    },
  },
  {
    name: 'chargeWith3ds (the 3DS frame faulted)',
    target: { method: 'POST', path: '/3ds/*' },
    boundMs: 2 * TIMEOUT_MS + SLACK_MS,
    charges: 1,
    changesState: false,
    run: async ({ client, setupClient, inject }) => {
      const pm = await newCard(setupClient, testCards.authentication.number)
      inject()
      return client.chargeWith3ds(chargeRequest(pm.id), headless, { paymentMethod: pm })()
    },
  },
]

// ------------------------------------------------------------------ the suite

const unhandled = watchUnhandledRejections()
afterAll(() => unhandled.stop())

describe('the fault table covers every fault the sandbox can inject', () => {
  it('each failure constant of the Faults export has a case here', () => {
    const exported = Object.entries(Faults)
      .filter(
        ([, v]) =>
          typeof v === 'object' &&
          v !== null &&
          'kind' in v &&
          typeof (v as { kind: unknown }).kind === 'string',
      )
      .map(([name]) => name)
    expect(exported.length).toBeGreaterThan(0)
    const covered = new Set(faults.map(([name]) => name))
    for (const name of exported) expect(covered, `no fault case for Faults.${name}`).toContain(name)
  })
})

const cases = calls.flatMap((call) =>
  faults.map(([faultName, fault, tag]) => [call.name, faultName, call, fault, tag] as const),
)

describe.concurrent('every fault on every client call', () => {
  let sandboxes: Array<Sandbox> = []
  beforeAll(() => {
    sandboxes = []
  })
  afterAll(async () => {
    await Promise.all(sandboxes.map((s) => s.close()))
  })

  it.each(cases)(
    '%s under %s: a typed error in time, charges sent exactly once',
    async (_call, _fault, call, fault, tag) => {
      const sandbox = await sandboxWith()
      sandboxes.push(sandbox)
      const client = clientFor(sandbox)
      const setupClient = clientFor(sandbox, { timeoutMs: 10_000 })
      // The client under test holds its token before anything is faulted (except POST /token).
      if (call.target?.path !== '/token') rightOf(await client.getToken()())
      const before = countOf(sandbox, 'POST', '/charges')
      let injectedAt = 0
      const inject = (): void => {
        injectedAt = performance.now()
        sandbox.injectFault(fault, call.target ?? { method: 'POST', path: '/charges' })
      }
      const [result, totalMs] = await timed(() =>
        call.run({ client, setupClient, sandbox, inject }),
      )
      const e = leftOf(result as E.Either<unknown, unknown>)
      expect(e._tag, e.message).toBe(tag)
      expect(injectedAt, 'the fault was injected').toBeGreaterThan(0)
      // From the fault's injection to the typed error.
      const faultedMs = performance.now() - injectedAt
      expect(faultedMs, `${call.name} answered late (whole call ${totalMs} ms)`).toBeLessThan(
        call.boundMs,
      )
      expect(countOf(sandbox, 'POST', '/charges') - before, 'POST /charges sent').toBe(call.charges)
      if (call.once !== undefined)
        expect(countOf(sandbox, call.once.method, call.once.path), call.once.path).toBe(1)
      // Every fault here leaves the request's outcome unknown (status500 too: the client
      // cannot tell a 500 before processing from one after); a read or a token never is.
      expect(e.outcomeUnknown, `${e._tag}: ${e.message}`).toBe(call.changesState)
    },
    15_000,
  )
})

describe('after the fault runs', () => {
  it('no promise was rejected unhandled', async () => {
    await new Promise((r) => setTimeout(r, 50))
    expect(unhandled.seen()).toEqual([])
  })
})

// The 3DS success path still works when nothing is injected (so the cases above fail
// because of the fault, not the flow).
describe('without a fault', () => {
  it('chargeWith3ds succeeds after 3DS with two charges', async () => {
    const sandbox = await sandboxWith()
    try {
      const client = clientFor(sandbox, { timeoutMs: 10_000 })
      const pm = await newCard(client, testCards.authentication.number)
      const flow: ChargeFlowState = rightOf(
        await client.chargeWith3ds(chargeRequest(pm.id), patientHeadless, { paymentMethod: pm })(),
      )
      expect(flow._tag).toBe('Succeeded')
      expect(countOf(sandbox, 'POST', '/charges')).toBe(2)
    } finally {
      await sandbox.close()
    }
  })
})
