/**
 * Shared helpers of the reliability suite (issue 10): the real sandbox over HTTP, the
 * core's real client, raw HTTP for what a client would never send, distinctive secrets,
 * the field paths of each request codec (spec section 2), and watchers for unhandled
 * rejections. Nothing here stands in for the sandbox or the client.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import * as E from 'fp-ts/lib/Either.js'
import { createClient, type Client, type ClientConfig, type PaykitError } from '@paykit/core'
import { isPaykitError, toError, type Exchange } from '@paykit/core/client'
import { expect } from 'vitest'
// Not the package root: it loads nock, whose interception holds a streamed request body
// until it ends and wraps raw sockets, which would hide the sandbox's own limits.
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/startSandbox.js'
import { defaultCredentials } from '../../src/simulator/TestCards.js'
import { cvvCopy, distinctiveCvv } from '../leaks.js'

// -------------------------------------------------------------------------------------
// time bounds
// -------------------------------------------------------------------------------------

/** The client's per-attempt timeout in this suite. */
export const TIMEOUT_MS = 500

/** Small retry delays, the default number of attempts. */
export const RETRY = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 } as const

/** Scheduling slack on a loaded 2-core machine. */
export const SLACK_MS = 1_000

/** Milliseconds `f` took, and what it gave. */
export const timed = async <A>(f: () => Promise<A>): Promise<readonly [A, number]> => {
  const started = performance.now()
  const a = await f()
  return [a, performance.now() - started]
}

// -------------------------------------------------------------------------------------
// sandbox and client
// -------------------------------------------------------------------------------------

/** A sandbox on a free port without the background expiry sweep. */
export const sandboxWith = (options: SandboxOptions = {}): Promise<Sandbox> =>
  startSandbox({ expirySweepMs: 0, ...options })

/** The core's client with its default fetch transport, against `sandbox`. */
export const clientFor = (sandbox: Sandbox, over: Partial<ClientConfig> = {}): Client =>
  createClient({
    baseUrl: sandbox.url,
    credentials: defaultCredentials,
    timeoutMs: TIMEOUT_MS,
    retry: RETRY,
    ...over,
  })

/** How many requests `method path` the sandbox received (its request log). */
export const countOf = (sandbox: Sandbox, method: string, path: string | RegExp): number =>
  sandbox
    .requests()
    .filter(
      (r) =>
        r.method === method &&
        (typeof path === 'string' ? r.path.split('?')[0] === path : path.test(r.path)),
    ).length

export const rightOf = <A>(r: E.Either<PaykitError, A>): A => {
  if (E.isLeft(r)) throw new Error(`expected a Right, got ${r.left._tag}: ${r.left.message}`)
  return r.right
}

export const leftOf = (r: E.Either<unknown, unknown>): PaykitError => {
  if (E.isRight(r)) throw new Error(`expected a Left, got ${JSON.stringify(r.right)}`)
  expect(isPaykitError(r.left), `a PaykitError: ${JSON.stringify(r.left)}`).toBe(true)
  return r.left as PaykitError
}

/** A card expiring in December, `yearsAhead` years from now. */
export const cardOf = (number: string, cvv = '123', yearsAhead = 3) => ({
  number,
  expirationMonth: '12',
  expirationYear: String(new Date().getUTCFullYear() + yearsAhead),
  cvv,
  cardHolder: 'Ada Lovelace',
})

// -------------------------------------------------------------------------------------
// unhandled rejections
// -------------------------------------------------------------------------------------

/** Collects every unhandled rejection from now until `stop()`. */
export const watchUnhandledRejections = (): {
  readonly seen: () => ReadonlyArray<unknown>
  readonly stop: () => void
} => {
  const seen: Array<unknown> = []
  const listener = (reason: unknown): void => {
    seen.push(reason)
  }
  process.on('unhandledRejection', listener)
  return { seen: () => [...seen], stop: () => process.off('unhandledRejection', listener) }
}

// -------------------------------------------------------------------------------------
// secrets
// -------------------------------------------------------------------------------------

/** Completes the Luhn check digit of `prefix` (digits only). */
export const luhn = (prefix: string): string => {
  let sum = 0
  const digits = [...prefix].map(Number).reverse()
  digits.forEach((d, i) => {
    const doubled = i % 2 === 0 ? d * 2 : d
    sum += doubled > 9 ? doubled - 9 : doubled
  })
  return `${prefix}${(10 - (sum % 10)) % 10}`
}

/** Credentials and card data distinctive enough that any copy of them is a leak. */
export const distinctive = {
  clientId: 'client_ZZ7Qx',
  clientSecret: 'cs_ZZ9f3Kq7wXv2Lp8Rt4Ym',
  apiKey: 'sk_live_ZZ4hT8nV2cR6pW9qK3xM',
  wrongSecret: 'cs_ZZwrongU5eG1bN7dJ0s',
  wrongApiKey: 'sk_live_ZZwrongA1sD5fG9hJ2k',
  cardNumber: luhn('491738562094718'),
  cvv: distinctiveCvv,
} as const

/**
 * The needles a leak is searched with: each credential, each token, the card number as
 * digits, grouped by four and without its last four digits (the last four may show), and
 * the CVV wherever it stands alone.
 */
export const needlesOf = (
  tokens: ReadonlyArray<string>,
  extra: ReadonlyArray<string> = [],
): ReadonlyArray<string | RegExp> => {
  const n = distinctive.cardNumber
  return [
    distinctive.clientSecret,
    distinctive.apiKey,
    distinctive.wrongSecret,
    distinctive.wrongApiKey,
    ...tokens,
    ...extra,
    n,
    n.replace(/(\d{4})(?=\d)/g, '$1 '),
    n.slice(0, -4),
    cvvCopy(distinctive.cvv),
  ]
}

/** Every text form of `value` a user may print: String, JSON, and an error's message. */
export const textsOf = (value: unknown): ReadonlyArray<string> => {
  const texts = [String(value), JSON.stringify(value) ?? '']
  if (isPaykitError(value)) {
    const error = toError(value)
    texts.push(value.message, String(error), error.stack ?? '')
  }
  return texts
}

/** Fails naming `where` when any text form of `value` holds a needle. */
export const expectNoSecret = (
  where: string,
  value: unknown,
  needles: ReadonlyArray<string | RegExp>,
): void => {
  for (const text of textsOf(value))
    for (const needle of needles) {
      const found = typeof needle === 'string' ? text.includes(needle) : needle.test(text)
      expect(found, `${where} holds ${String(needle)}: ${text.slice(0, 400)}`).toBe(false)
    }
}

/** An `onExchange` that keeps every record. */
export const exchangeLog = (): {
  readonly records: Array<Exchange>
  readonly onExchange: (x: Exchange) => void
} => {
  const records: Array<Exchange> = []
  return { records, onExchange: (x) => void records.push(x) }
}

// -------------------------------------------------------------------------------------
// raw HTTP
// -------------------------------------------------------------------------------------

/** An answer read whole: status, headers, body text and its JSON (undefined if none). */
export interface Answer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly text: string
  readonly json: unknown
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * One request over `node:http`, with the bytes and headers given as they are (no
 * content type added); rejects when no whole answer comes within `timeoutMs`.
 */
export const rawCall = (
  base: string,
  method: string,
  path: string,
  options: {
    readonly headers?: Readonly<Record<string, string>>
    readonly body?: string | Buffer
    readonly timeoutMs?: number
  } = {},
): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const url = new URL(base)
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      method,
      path,
      headers: {
        ...(options.body === undefined
          ? {}
          : { 'content-length': Buffer.byteLength(options.body) }),
        ...options.headers,
      },
      agent: false,
    })
    const timer = setTimeout(() => {
      req.destroy()
      reject(new Error(`no answer to ${method} ${path.slice(0, 80)} within the time limit`))
    }, options.timeoutMs ?? 5_000)
    req.on('error', (e) => {
      clearTimeout(timer)
      reject(e)
    })
    req.on('response', (res) => {
      const chunks: Array<Buffer> = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('error', (e) => {
        clearTimeout(timer)
        reject(e)
      })
      res.on('end', () => {
        clearTimeout(timer)
        const text = Buffer.concat(chunks).toString('utf8')
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parse(text) })
      })
    })
    req.end(options.body)
  })

/** JSON with a bearer credential, as a merchant's own code would send it. */
export const jsonCall = (
  base: string,
  method: string,
  path: string,
  body: unknown,
  bearer?: string,
): Promise<Answer> =>
  rawCall(base, method, path, {
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })

/** Problem details of spec 7.2 with a 4xx status (JSON or problem+json). */
export const expectProblem4xx = (answer: Answer, statuses?: ReadonlyArray<number>): void => {
  const context = `${answer.status} ${answer.text.slice(0, 300)}`
  if (statuses === undefined) {
    expect(answer.status, context).toBeGreaterThanOrEqual(400)
    expect(answer.status, context).toBeLessThan(500)
  } else expect(statuses, context).toContain(answer.status)
  expect(String(answer.headers['content-type']), context).toMatch(
    /^application\/(problem\+)?json\b/,
  )
  const json = answer.json as { status?: unknown; title?: unknown } | undefined
  expect(json?.status, context).toBe(answer.status)
  expect(typeof json?.title, context).toBe('string')
}

// -------------------------------------------------------------------------------------
// deep values
// -------------------------------------------------------------------------------------

/** `[[[ ... ]]]` nested `depth` times, built without recursion. */
export const deepArray = (depth: number): unknown => {
  let value: unknown = []
  for (let i = 1; i < depth; i++) value = [value]
  return value
}

/** `{ "a": { "a": ... } }` nested `depth` times, built without recursion. */
export const deepObject = (depth: number): unknown => {
  let value: unknown = {}
  for (let i = 1; i < depth; i++) value = { a: value }
  return value
}

/** The JSON text of `deepArray(depth)` (JSON.stringify would overflow the stack). */
export const deepArrayText = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`

// -------------------------------------------------------------------------------------
// field paths of the request codecs (spec section 2; `[]` stands for any index)
// -------------------------------------------------------------------------------------

/** Each request codec's fields, as the spec names them. */
export const fieldPaths = {
  PaymentLinkRequest: [
    'orderReference',
    'orderName',
    'orderDescription',
    'amount',
    'lineItems',
    'lineItems[]',
    'lineItems[].sku',
    'lineItems[].product',
    'lineItems[].product.name',
    'lineItems[].product.price',
    'lineItems[].product.imageUrl',
    'lineItems[].product.requiresShipping',
    'lineItems[].quantity',
    'successUrl',
    'cancelUrl',
    'locationCode',
    'metadata',
    'metadata[]',
    'metadata[].name',
    'metadata[].value',
    'expirationMinutes',
  ],
  PaymentMethodRequest: [
    'customer',
    'customer.id',
    'customer.name',
    'customer.email',
    'customer.phoneNumber',
    'card',
    'card.number',
    'card.expirationMonth',
    'card.expirationYear',
    'card.cvv',
    'card.cardHolder',
    'card.singleUse',
  ],
  ChargeRequest: [
    'order',
    'order.id',
    'order.amount',
    'order.description',
    'order.name',
    'cardId',
    'authenticationId',
    'billingInfo',
    'billingInfo.countryCode',
    'billingInfo.stateCode',
    'billingInfo.zipCode',
  ],
  TokenRequest: ['clientId', 'clientSecret'],
  FrameMessage: ['MessageType', 'Status', 'AuthenticationId', 'OrderId', 'OrderAmount'],
} as const

/** A path with its indexes generalised: `lineItems[3].sku` -> `lineItems[].sku`. */
export const generalPath = (path: string): string => path.replace(/\[\d+\]/g, '[]')

/** A plain JSON object (not null, not an array). */
export const isJsonObject = (u: unknown): boolean =>
  typeof u === 'object' && u !== null && !Array.isArray(u)
