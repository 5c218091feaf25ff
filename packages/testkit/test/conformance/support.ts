// Black-box helpers for the conformance suite: start the built `paykit-sandbox` CLI as a
// child process and talk to it with plain fetch, as someone with curl and the spec would.
import type { ChildProcess } from 'node:child_process'
import type { IncomingHttpHeaders } from 'node:http'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect } from 'vitest'
import { spawnSandbox } from '../../src/sandbox/spawnSandbox.js'
import { startWebhookReceiver } from '../../src/sandbox/startWebhookReceiver.js'

/** The built CLI, as a user runs it (`node packages/testkit/dist/bin/paykit-sandbox.js`). */
export const cliPath = fileURLToPath(new URL('../../dist/bin/paykit-sandbox.js', import.meta.url))

/** A running sandbox process and its base URL. */
export interface Cli {
  readonly url: string
  readonly port: number
  readonly process: ChildProcess
  readonly stderr: () => string
  readonly stop: () => Promise<void>
}

/** Starts the CLI with `--port 0` plus `args`; resolves once it prints its listening line. */
export const startCli = async (args: ReadonlyArray<string> = []): Promise<Cli> => {
  const front = await frontOf()
  // The project's Node (the one running vitest), as DESIGN asks for child processes.
  const sandbox = await spawnSandbox({
    bin: cliPath,
    // Behind a front, the links and 3DS addresses the sandbox gives are the front's.
    args:
      front === undefined || args.includes('--base-url')
        ? args
        : [...args, '--base-url', front.url],
  })
  if (front === undefined) return { ...sandbox, process: sandbox.child }
  await front.connect(sandbox.url)
  // The tests' URL is the front's; `port` stays the sandbox's (raw-socket tests).
  return {
    ...sandbox,
    url: front.url,
    process: sandbox.child,
    stop: async () => {
      await front.close()
      await sandbox.stop()
    },
  }
}

interface Front {
  readonly url: string
  readonly connect: (target: string) => Promise<void>
  readonly close: () => Promise<void>
}

/**
 * A front before each sandbox when PAYKIT_CONFORMANCE_FRONT names a module exporting
 * `startFront()`: the Prism contract check of tools/openapi runs this suite through it.
 */
const frontOf = async (): Promise<Front | undefined> => {
  const module = process.env['PAYKIT_CONFORMANCE_FRONT']
  if (module === undefined) return undefined
  const { startFront } = (await import(module)) as { startFront: () => Promise<Front> }
  return startFront()
}

/**
 * Starts the CLI with `args` before the file's tests and stops it after them. The answer
 * reads through to the running sandbox, so it is only usable inside hooks and tests.
 */
export const useCli = (args: ReadonlyArray<string> = []): Cli => {
  let started: Cli | undefined
  const running = (): Cli => {
    if (started === undefined) throw new Error('the sandbox is not started yet')
    return started
  }
  beforeAll(async () => {
    started = await startCli(args)
  })
  afterAll(async () => {
    await started?.stop()
  })
  return {
    get url() {
      return running().url
    },
    get port() {
      return running().port
    },
    get process() {
      return running().process
    },
    stderr: () => running().stderr(),
    stop: () => running().stop(),
  }
}

/** A local HTTP server standing in for a merchant's webhook endpoint. */
export interface Receiver {
  readonly port: number
  readonly close: () => Promise<void>
}

/**
 * Listens on 127.0.0.1:`port` (0: any free port); every request is read whole and
 * answered with the status `onRequest` returns for its headers and body.
 */
export const startReceiver = async (
  onRequest: (headers: IncomingHttpHeaders, body: string) => number,
  port = 0,
): Promise<Receiver> => {
  const receiver = await startWebhookReceiver({
    port,
    answer: (webhook) => onRequest(webhook.headers, webhook.body),
  })
  return { port: receiver.port, close: receiver.close }
}

/** The sandbox store of docs/service.md, written out as a conformance author would. */
export const expectedStore = {
  name: 'Paykit Sandbox Store',
  countryCode: 'CRI',
  currencyCode: 'USD',
  currencySymbol: '$',
  locale: 'es_CR',
  timezone: 'America/Costa_Rica',
} as const

/** Default credentials of docs/service.md, written out as a conformance author would. */
export const credentials = {
  clientId: 'sandbox-client',
  clientSecret: 'sandbox-secret',
  apiKey: 'sandbox-api-key',
} as const

/** A parsed answer: status, headers and the JSON (or text) body. */
export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly json: any
}

/** Sends one request with fetch and reads the whole answer. */
export const call = async (
  base: string,
  method: string,
  path: string,
  options: {
    readonly bearer?: string
    readonly body?: unknown
    readonly rawBody?: string
    readonly contentType?: string
    readonly headers?: Record<string, string>
  } = {},
): Promise<Answer> => {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
  if (options.bearer !== undefined) headers['authorization'] = `Bearer ${options.bearer}`
  let body: string | undefined
  if (options.rawBody !== undefined) body = options.rawBody
  else if (options.body !== undefined) body = JSON.stringify(options.body)
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json'
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    redirect: 'manual',
    ...(body === undefined ? {} : { body }),
  })
  const text = await res.text()
  let json: unknown = undefined
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: res.status, headers: res.headers, text, json }
}

/** POST /token with the default credentials; the access token. */
export const token = async (base: string): Promise<string> => {
  const res = await call(base, 'POST', '/token', {
    body: { clientId: credentials.clientId, clientSecret: credentials.clientSecret },
  })
  expect(res.status).toBe(200)
  return res.json.accessToken as string
}

/** A payment-method request body for `number`, with an expiry years ahead. */
export const cardBody = (number: string, cvv = '737') => ({
  customer: {
    id: 'cust-1',
    name: 'Ana Mora',
    email: 'ana@example.com',
    phoneNumber: '+50670000000',
  },
  card: {
    number,
    expirationMonth: '12',
    expirationYear: String(new Date().getUTCFullYear() + 3),
    cvv,
    cardHolder: 'Ana Mora',
    singleUse: false,
  },
})

/** POST /paymentmethods for `number`; the answer. */
export const createCard = (base: string, bearer: string, number: string, cvv?: string) =>
  call(base, 'POST', '/paymentmethods', { bearer, body: cardBody(number, cvv) })

/** A US billing address. */
export const usBilling = { countryCode: 'US', stateCode: 'CA', zipCode: '94105' }

/** POST /charges; the answer. */
export const charge = (
  base: string,
  bearer: string,
  cardId: string,
  orderId: string,
  options: { amount?: number; authenticationId?: string | null; billingInfo?: unknown } = {},
) =>
  call(base, 'POST', '/charges', {
    bearer,
    body: {
      order: { id: orderId, amount: options.amount ?? 25.5, description: 'Coffee', name: 'Order' },
      cardId,
      authenticationId: options.authenticationId ?? null,
      ...(options.billingInfo === undefined ? {} : { billingInfo: options.billingInfo }),
    },
  })

/** POST /paymentmethods for `number`, expecting 200; the new card's id. */
export const cardId = async (base: string, bearer: string, number: string): Promise<string> => {
  const res = await createCard(base, bearer, number)
  expect(res.status).toBe(200)
  return res.json.id as string
}

/** POST /paymentlink/checkout with the API key, expecting 200; the orderCode. */
export const createLink = async (base: string, body: unknown): Promise<string> => {
  const res = await call(base, 'POST', '/paymentlink/checkout', {
    bearer: credentials.apiKey,
    body,
  })
  expect(res.status).toBe(200)
  return res.json.orderCode as string
}

/** Moves the sandbox clock `seconds` ahead through the control endpoint, expecting 200. */
export const advanceClock = async (base: string, seconds: number): Promise<void> => {
  const res = await call(base, 'POST', '/__sandbox/clock', { body: { advanceSeconds: seconds } })
  expect(res.status).toBe(200)
}

/**
 * Submits the hosted checkout form at `url` as a buyer would: action=pay with a
 * 4242 4242 4242 4242 card expiring 12/(this year + `yearsAhead`); the raw answer.
 */
export const payByForm = (url: string, yearsAhead: number): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      action: 'pay',
      number: '4242424242424242',
      expirationMonth: '12',
      expirationYear: String(new Date().getUTCFullYear() + yearsAhead),
      cvv: '123',
    }).toString(),
    redirect: 'manual',
  })

/** Problem details of spec 7.2 with `status`. */
export const expectProblem = (res: Answer, status: number): void => {
  expect(res.status).toBe(status)
  expect(res.headers.get('content-type') ?? '').toMatch(/json/)
  expect(typeof res.json?.type).toBe('string')
  expect(typeof res.json?.title).toBe('string')
  expect(res.json?.status).toBe(status)
}

/** A 400 of spec 7.2 whose `errors` names `field` (a map to arrays of strings). */
export const expectFieldError = (res: Answer, field: string | RegExp): void => {
  expectProblem(res, 400)
  expect(res.json.type).toMatch(/7231.*6\.5\.1/)
  const errors = res.json.errors as Record<string, unknown>
  expect(typeof errors).toBe('object')
  for (const messages of Object.values(errors)) {
    expect(Array.isArray(messages)).toBe(true)
    for (const m of messages as unknown[]) expect(typeof m).toBe('string')
  }
  const keys = Object.keys(errors)
  if (typeof field === 'string') expect(keys).toContain(field)
  else
    expect(
      keys.some((k) => field.test(k)),
      `errors ${keys.join(', ')}`,
    ).toBe(true)
}

/** The 6.1 frame message inside a 3DS page (the object literal carrying MessageType). */
export const frameMessageIn = (html: string): Record<string, unknown> => {
  const match = /\{[^{}]*"MessageType"[^{}]*\}/.exec(html)
  expect(match, 'frame message in the page').not.toBeNull()
  return JSON.parse(match?.[0] ?? '{}') as Record<string, unknown>
}

/** Completes the Luhn check digit of `prefix` (digits only). */
export const luhn = (prefix: string): string => {
  const digits = [...prefix].map(Number)
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    // Doubling starts at the rightmost digit of the prefix (the check digit goes after it).
    let d = digits[digits.length - 1 - i] ?? 0
    if (i % 2 === 0) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return `${prefix}${(10 - (sum % 10)) % 10}`
}

/** ISO 8601 UTC with fractional seconds and a trailing Z. */
export const isoFractionalZ = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+Z$/

/** ISO 8601 UTC with milliseconds and a trailing Z. */
export const isoMillisZ = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
