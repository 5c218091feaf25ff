// @paykit-test own-worker: nock's interceptors, MSW's patched fetch
/**
 * Issue 18: `outcomeUnknown` means exactly "a request that changes state may have been
 * processed". The whole matrix, operation x failure point, measured against the
 * simulator's state: the public `@paykit/core` client with its real fetch transport, the
 * sandbox over real HTTP, the nock mock and MSW's setupServer in process.
 *
 * - If the simulator processed a request that changes state (a card, a charge or an order
 *   exists afterwards), the error says `outcomeUnknown: true`.
 * - If the request provably never left (bad input, a refused connection, a host name that
 *   does not resolve, a port fetch refuses), it says `false` and the service saw nothing.
 * - `POST /token` and a GET change no state: `false` whatever happened.
 * - The client never sent a request that changes state twice.
 *
 * `PAYKIT_PRINT_MATRIX=1` prints the measured matrix.
 */
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import * as E from 'fp-ts/lib/Either.js'
import { createClient, validate, type Client, type PaykitError } from '@paykit/core'
import { fetchTransport, unknownOutcomeAdvice, type Transport } from '@paykit/core/client'
import { ChargeRequest, PaymentLinkRequest } from '@paykit/core/codecs'
import { afterAll, describe, expect, it } from 'vitest'
import * as Faults from '../../src/service/Faults.js'
import type { LoggedRequest } from '../../src/service/RequestLog.js'
import { setupServer } from 'msw/node'
import { paykitHandlers } from '../../src/msw/paykitHandlers.js'
import { mockPaymentService } from '../../src/nock/mockPaymentService.js'
import { startSandbox } from '../../src/sandbox/startSandbox.js'
import type { Counters, SimulatorState } from '../../src/simulator/State.js'
import { defaultCredentials, testCards } from '../../src/simulator/TestCards.js'
import { adaCard, adaCustomer } from '../samples.js'

// ------------------------------------------------------------------ the fakes

/** What a case needs of a fake service: its address, state, log and faults. */
interface Fake {
  readonly baseUrl: string
  readonly state: () => SimulatorState
  readonly requests: () => ReadonlyArray<LoggedRequest>
  readonly injectFault: (fault: Faults.Fault, target?: Faults.Target) => void
  readonly advanceClock: (ms: number) => void
  readonly close: () => Promise<void>
}

let mockSeq = 0
const adapters: ReadonlyArray<readonly [string, () => Promise<Fake>]> = [
  [
    'sandbox (real HTTP)',
    async () => {
      const sandbox = await startSandbox({ expirySweepMs: 0 })
      return { ...sandbox, baseUrl: sandbox.url }
    },
  ],
  [
    'nock mock',
    async () => {
      const mock = mockPaymentService({ baseUrl: `https://paykit-${++mockSeq}.test` })
      return { ...mock, close: async () => mock.restore() }
    },
  ],
  [
    'MSW (setupServer)',
    async () => {
      const paykit = paykitHandlers({ baseUrl: `https://paykit-msw-${++mockSeq}.test` })
      const server = setupServer(...paykit.handlers)
      // The unreachable cases' requests go past MSW to the network, as in an app.
      server.listen({ onUnhandledRequest: 'bypass' })
      return {
        ...paykit,
        close: async () => {
          server.close()
          paykit.release()
        },
      }
    },
  ],
]

// ------------------------------------------------------------------ the operations

/** A closed port on 127.0.0.1: connecting is refused. */
const closedPort = async (): Promise<number> => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

const TIMEOUT_MS = 400
const RETRY = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 } as const

/**
 * The client under test. With `unreachable`, the operation's own request goes there
 * instead of to the fake (every other request, the token's included, still reaches it), so
 * that it is that request which cannot leave.
 */
const clientFor = (fake: Fake, op: Operation, unreachable?: string): Client => {
  const real = fetchTransport()
  const transport: Transport =
    unreachable === undefined
      ? real
      : (request) => {
          const url = new URL(request.url)
          return op.matches(request.method, url.pathname)
            ? real({ ...request, url: `${unreachable}${url.pathname}` })
            : real(request)
        }
  return createClient({
    baseUrl: fake.baseUrl,
    credentials: defaultCredentials,
    transport,
    // Where nothing answers, the time limit must not be what ends the call (a slow resolver).
    timeoutMs: unreachable === undefined ? TIMEOUT_MS : 10_000,
    retry: RETRY,
  })
}

const expirationYear = String(new Date().getUTCFullYear() + 2)
const cardOf = (number: string) => ({
  customer: adaCustomer,
  card: { ...adaCard(number), expirationYear },
})

let orderSeq = 0

interface Operation {
  readonly name: string
  readonly operation: string
  readonly matches: (method: string, path: string) => boolean
  readonly changesState: boolean
  /** What shows that the service processed it (none for a read). */
  readonly counter: keyof Counters | undefined
  /** What the call needs, made beforehand by a patient client. */
  readonly prepare: (setup: Client) => Promise<string>
  readonly send: (client: Client, prepared: string) => Promise<E.Either<PaykitError, unknown>>
  /** The same call with input the client refuses (none for a call given validated input). */
  readonly invalid?: (client: Client, prepared: string) => Promise<E.Either<PaykitError, unknown>>
}

const rightOf = <A>(r: E.Either<PaykitError, A>): A => {
  if (E.isLeft(r)) throw new Error(`expected a Right: ${r.left.message}`)
  return r.right
}

/** The value of a request that `validate` accepts. */
const validated = <A>(r: E.Either<unknown, A>): A => {
  if (E.isLeft(r)) throw new Error('expected a valid request')
  return r.right
}

const validating: ReadonlyArray<Operation> = [
  {
    name: 'createPaymentMethod',
    operation: 'POST /paymentmethods',
    matches: (m, p) => m === 'POST' && p.endsWith('/paymentmethods'),
    changesState: true,
    counter: 'paymentMethod',
    prepare: async () => '',
    send: (c) => c.createPaymentMethod(cardOf(testCards.success.number))(),
    invalid: (c) => c.createPaymentMethod(cardOf('4242424242424241'))(),
  },
  {
    name: 'charge',
    operation: 'POST /charges',
    matches: (m, p) => m === 'POST' && p.endsWith('/charges'),
    changesState: true,
    counter: 'charge',
    prepare: async (setup) =>
      rightOf(await setup.createPaymentMethod(cardOf(testCards.success.number))()).id,
    send: (c, cardId) =>
      c.charge({ order: { id: `ou-${++orderSeq}`, amount: 12.5, name: 'Tea' }, cardId })(),
    invalid: (c, cardId) => c.charge({ order: { id: 'ou-bad', amount: -1 }, cardId })(),
  },
  {
    name: 'createPaymentLink',
    operation: 'POST /paymentlink/checkout',
    matches: (m, p) => m === 'POST' && p.endsWith('/paymentlink/checkout'),
    changesState: true,
    counter: 'order',
    prepare: async () => '',
    send: (c) => c.createPaymentLink({ amount: 10, orderReference: `cart-${++orderSeq}` })(),
    invalid: (c) => c.createPaymentLink({ amount: 0 })(),
  },
  {
    name: 'getOrder',
    operation: 'GET /paymentlink/order/{orderCode}',
    matches: (m, p) => m === 'GET' && p.includes('/paymentlink/order/'),
    changesState: false,
    counter: undefined,
    prepare: async (setup) => rightOf(await setup.createPaymentLink({ amount: 10 })()).orderCode,
    send: (c, orderCode) => c.getOrder(orderCode)(),
    invalid: (c) => c.getOrder('')(),
  },
  {
    name: 'getToken',
    operation: 'POST /token',
    matches: (m, p) => m === 'POST' && p.endsWith('/token'),
    changesState: false,
    counter: 'token',
    prepare: async () => '',
    send: (c) => c.getToken()(),
    // A client without its secret refuses to ask for a token.
    invalid: (c) => c.getToken()(),
  },
]

/** The request, service and preparation of the operation `name`, without its invalid call. */
const sameCallAs = (name: string): Omit<Operation, 'invalid'> => {
  const { invalid: _, ...call } = validating.find((op) => op.name === name) as Operation
  return call
}

const operations: ReadonlyArray<Operation> = [
  ...validating,
  // The calls given a request the caller validated (the n8n node's): sent as they are.
  {
    ...sameCallAs('charge'),
    name: 'chargeValidated',
    send: (c, cardId) =>
      c.chargeValidated(
        validated(
          validate(ChargeRequest)({
            order: { id: `ou-${++orderSeq}`, amount: 12.5, name: 'Tea' },
            cardId,
          }),
        ),
      )(),
  },
  {
    ...sameCallAs('createPaymentLink'),
    name: 'createValidatedPaymentLink',
    send: (c) =>
      c.createValidatedPaymentLink(
        validated(
          validate(PaymentLinkRequest)({ amount: 10, orderReference: `cart-${++orderSeq}` }),
        ),
      )(),
  },
]

// ------------------------------------------------------------------ the failure points

type Point =
  | { readonly kind: 'validation' }
  | { readonly kind: 'unreachable'; readonly origin: () => Promise<string> }
  | { readonly kind: 'fault'; readonly fault: Faults.Failure }

const points: ReadonlyArray<readonly [string, Point]> = [
  ['validation before sending', { kind: 'validation' }],
  [
    'connection refused',
    { kind: 'unreachable', origin: async () => `http://127.0.0.1:${await closedPort()}` },
  ],
  // `.invalid` never resolves (RFC 6761).
  ['DNS failure', { kind: 'unreachable', origin: async () => 'http://paykit-matrix.invalid' }],
  // 6000 (X11) is on fetch's list of blocked ports: refused before any connection.
  ['bad port', { kind: 'unreachable', origin: async () => 'http://127.0.0.1:6000' }],
  ...Faults.failures.map((fault) => [fault.kind, { kind: 'fault', fault }] as const),
]

// What each failure point gives the client (the same for every operation).
const TAGS: Readonly<Record<string, PaykitError['_tag']>> = {
  'validation before sending': 'ValidationError',
  'connection refused': 'NetworkError',
  'DNS failure': 'NetworkError',
  'bad port': 'NetworkError',
  status500: 'HttpError',
  processedThen500: 'HttpError',
  malformedBody: 'DecodeError',
  offContractBody: 'DecodeError',
  truncatedBody: 'NetworkError',
  connectionReset: 'NetworkError',
  hang: 'Timeout',
}

// How the fetch transport sorts what never left: not a dropped connection, a timeout...
const NEVER_LEFT: Readonly<Record<string, readonly [string, RegExp]>> = {
  'connection refused': ['refused no', /\(ECONNREFUSED\)\. It was not sent/],
  'DNS failure': ['dns no', /\((ENOTFOUND|EAI_AGAIN|EAI_NONAME)\)\. It was not sent/],
  'bad port': ['other no', /\(bad port\)\. It was not sent/],
}

// ------------------------------------------------------------------ one cell

interface Cell {
  readonly adapter: string
  readonly operation: string
  readonly point: string
  readonly tag: PaykitError['_tag']
  /** The service's state shows the request's effect. */
  readonly processed: boolean
  /** Requests of the operation the service received. */
  readonly received: number
  readonly outcomeUnknown: boolean
  /** A NetworkError's `failure` and `sent`. */
  readonly network: string | undefined
  readonly message: string
}

const countOf = (fake: Fake, op: Operation): number =>
  fake.requests().filter((r) => op.matches(r.method, r.path.split('?')[0] ?? '')).length

const measure = async (
  adapter: readonly [string, () => Promise<Fake>],
  op: Operation,
  [pointName, point]: readonly [string, Point],
): Promise<Cell> => {
  const fake = await adapter[1]()
  try {
    const setup = createClient({
      baseUrl: fake.baseUrl,
      credentials: defaultCredentials,
      timeoutMs: 10_000,
    })
    const prepared = await op.prepare(setup)
    const client =
      point.kind === 'unreachable'
        ? clientFor(fake, op, await point.origin())
        : point.kind === 'validation' && op.name === 'getToken'
          ? createClient({
              baseUrl: fake.baseUrl,
              credentials: { clientId: defaultCredentials.clientId },
            })
          : clientFor(fake, op)
    // The client holds its token before anything fails (unless the token is the case).
    if (op.name !== 'getToken' && point.kind !== 'validation') rightOf(await client.getToken()())
    const before = op.counter === undefined ? 0 : fake.state().counters[op.counter]
    const sentBefore = countOf(fake, op)
    if (point.kind === 'fault') fake.injectFault(point.fault, { path: '/**' })
    const result =
      point.kind === 'validation' && op.invalid !== undefined
        ? await op.invalid(client, prepared)
        : await op.send(client, prepared)
    if (E.isRight(result)) throw new Error(`${op.name} under ${pointName}: expected an error`)
    const after = op.counter === undefined ? 0 : fake.state().counters[op.counter]
    return {
      adapter: adapter[0],
      operation: op.name,
      point: pointName,
      tag: result.left._tag,
      processed: after > before,
      received: countOf(fake, op) - sentBefore,
      outcomeUnknown: result.left.outcomeUnknown,
      network:
        result.left._tag === 'NetworkError'
          ? `${result.left.failure} ${result.left.sent}`
          : undefined,
      message: result.left.message,
    }
  } finally {
    await fake.close()
  }
}

// ------------------------------------------------------------------ the matrix

const cells: Array<Cell> = []

afterAll(() => {
  if (process.env['PAYKIT_PRINT_MATRIX'] === undefined) return
  const rows = cells.map(
    (c) =>
      `${c.adapter.padEnd(20)} ${c.operation.padEnd(20)} ${c.point.padEnd(26)} ` +
      `${c.tag.padEnd(16)} processed=${c.processed ? 'yes' : 'no '} received=${c.received} ` +
      `outcomeUnknown=${c.outcomeUnknown}${c.network === undefined ? '' : ` (${c.network})`}`,
  )
  console.log(rows.join('\n'))
})

describe.each(adapters)('outcomeUnknown against the %s', (...adapter) => {
  const cases = operations.flatMap((op) =>
    points
      .filter(([, point]) => point.kind !== 'validation' || op.invalid !== undefined)
      .map((point) => [op.name, point[0], op, point] as const),
  )

  it.each(cases)(
    '%s under %s',
    async (_op, pointName, op, point) => {
      const cell = await measure(adapter, op, point)
      cells.push(cell)
      expect(cell.tag, cell.message).toBe(TAGS[pointName])

      // The invariant: processed by the service => outcome unknown (for what changes state).
      if (op.changesState && cell.processed) expect(cell.outcomeUnknown, cell.message).toBe(true)

      if (point[1].kind === 'validation' || point[1].kind === 'unreachable') {
        // Provably never left: the service saw nothing, and the client says so.
        expect(cell.received).toBe(0)
        expect(cell.processed).toBe(false)
        if (point[1].kind === 'unreachable') {
          const [network, message] = NEVER_LEFT[pointName] ?? ['-', /-/]
          expect(cell.network).toBe(network)
          expect(cell.message).toMatch(message)
        }
        expect(cell.outcomeUnknown, cell.message).toBe(false)
      } else {
        // It reached the service: for what changes state, the outcome is unknown whether
        // or not the service processed it (a client cannot tell a 500 before processing
        // from one after), and the request was not repeated.
        expect(cell.received).toBeGreaterThan(0)
        expect(cell.processed).toBe(
          op.counter !== undefined && Faults.processesRequest(point[1].fault),
        )
        expect(cell.outcomeUnknown, cell.message).toBe(op.changesState)
        if (op.changesState) {
          expect(cell.received).toBe(1)
          expect(cell.message.endsWith(unknownOutcomeAdvice(op.operation) ?? '-')).toBe(true)
        }
      }
    },
    15_000,
  )
})

// ------------------------------------------------------------------ a link's opt-in retry

// `createPaymentLink(req, { retry: true })` is the one place the client repeats a request
// that may have been processed, because the caller asked: what it costs is unused links,
// which expire; and an error after such an attempt still says the outcome is unknown.
describe("a link's opt-in retry against the sandbox", () => {
  const linkCase = async (
    fault: Faults.Failure,
    times: number | undefined,
  ): Promise<readonly [E.Either<PaykitError, { readonly orderCode: string }>, Fake, Client]> => {
    const sandbox = await startSandbox({ expirySweepMs: 0 })
    const fake: Fake = { ...sandbox, baseUrl: sandbox.url }
    const client = clientFor(fake, operations[2] as Operation)
    fake.injectFault(fault, {
      path: '/paymentlink/checkout',
      ...(times === undefined ? {} : { times }),
    })
    const link = await client.createPaymentLink(
      { amount: 10, orderReference: 'cart-1' },
      { retry: true },
    )()
    return [link, fake, client]
  }

  it('after a 500 that followed processing, returns the second link; the first one expires unused', async () => {
    const [link, fake, client] = await linkCase(Faults.processedThen500, 1)
    try {
      const { orderCode } = rightOf(link)
      const orders = Object.values(fake.state().orders)
      expect(orders.map((o) => o.orderReference)).toEqual(['cart-1', 'cart-1'])
      const unused = orders.find((o) => o.orderCode !== orderCode)
      expect(unused?.status).toBe('PENDING')
      // Past its lifetime (1440 minutes by default) the unused link reads CANCELLED.
      fake.advanceClock(1441 * 60 * 1000)
      const read = rightOf(await client.getOrder(unused?.orderCode ?? '')())
      expect(read.orderStatus).toBe('CANCELLED')
    } finally {
      await fake.close()
    }
  })

  it('when every attempt is lost, the error says the outcome is unknown (links were created)', async () => {
    const [link, fake] = await linkCase(Faults.connectionReset, undefined)
    try {
      expect(E.isLeft(link) && link.left.outcomeUnknown).toBe(true)
      expect(fake.state().counters.order).toBe(RETRY.maxAttempts)
    } finally {
      await fake.close()
    }
  })
})
