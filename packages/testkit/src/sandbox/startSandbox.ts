/**
 * The simulator behind a real `node:http` server (127.0.0.1 unless told otherwise): the
 * API and hosted pages, fault injection on real sockets, webhooks to a configured URL and,
 * when enabled, the control endpoints under `/__sandbox/`.
 *
 * @since 0.2.0
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { truncatedPart } from '../service/Faults.js'
import { makeLiveService, type Exchange, type LiveService } from '../service/LiveService.js'
import { controlsOf, type ServiceControls } from '../service/ServiceControls.js'
import type { SimRequest, SimResponse } from '../simulator/Http.js'
import { internalError, problem } from '../simulator/Responses.js'
import { DEFAULT_MAX_BODY_BYTES, type SimulatorOptions } from '../simulator/State.js'
import { handleControl, isControlPath } from './Control.js'
import { makeWebhookDispatcher, type Delivery, type WebhookDispatcher } from './Webhooks.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Options of {@link startSandbox}. Everything is optional.
 *
 * @category model
 * @since 0.2.0
 */
export interface SandboxOptions extends Omit<SimulatorOptions, 'baseUrl'> {
  /** Port to listen on; 0 (the default) picks a free one. */
  readonly port?: number
  /** Address to listen on (default `127.0.0.1`: not reachable from other machines). */
  readonly host?: string
  /** The base URL the service calls itself (hosted-page links); default the bound address. */
  readonly baseUrl?: string
  /**
   * Where order events are POSTed: one URL or several (each event goes to each, with its
   * own retries); no webhooks without it (or with an empty list).
   */
  readonly webhookUrl?: string | ReadonlyArray<string>
  /** Signs webhooks (`Paykit-Signature`); unsigned without it. */
  readonly webhookSecret?: string
  /** Webhook attempts per event (default 5). */
  readonly webhookAttempts?: number
  /** Wait before the first webhook retry, doubled for each later one (default 500 ms). */
  readonly webhookRetryDelayMs?: number
  /** Webhook requests in flight to one URL at most, the others in turn (default: no limit). */
  readonly webhookConcurrency?: number
  /** Serves the `/__sandbox/` control endpoints (default false). */
  readonly control?: boolean
  /** Largest request body in bytes; larger ones get 413 (default 1 MiB). */
  readonly maxBodyBytes?: number
  /** The wall clock (default `() => new Date()`); the sandbox clock adds its offset. */
  readonly now?: () => Date
  /**
   * How often expiry runs without any request, so that a link expiring in wall time
   * emits `order.cancelled` on time (default 1000 ms; 0 turns it off: expiry then runs on
   * requests and clock advances only).
   */
  readonly expirySweepMs?: number
  /** How many requests `requests()` keeps, the latest (default 1000). */
  readonly requestLogSize?: number
  /**
   * How long a client may take to send the request headers (default 10000 ms); then it
   * gets 408 and the connection is closed. Checked every second at most.
   */
  readonly headersTimeoutMs?: number
  /** How long a client may take to send a whole request (default 30000 ms); then 408. */
  readonly requestTimeoutMs?: number
}

/**
 * How long a client may take to send the request headers, by default.
 *
 * @example
 * ```ts
 * import { DEFAULT_HEADERS_TIMEOUT_MS, startSandbox } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(DEFAULT_HEADERS_TIMEOUT_MS, 10_000)
 * // A slower client (a debugger stepping through a request) gets more time:
 * const sandbox = await startSandbox({ headersTimeoutMs: 6 * DEFAULT_HEADERS_TIMEOUT_MS })
 * try {
 *   assert.equal((await fetch(`${sandbox.url}/token`, { method: 'POST' })).status, 415)
 * } finally {
 *   await sandbox.close()
 * }
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000

/**
 * How long a client may take to send a whole request, by default.
 *
 * @example
 * ```ts
 * import { DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(DEFAULT_REQUEST_TIMEOUT_MS, 30_000)
 * assert.ok(DEFAULT_REQUEST_TIMEOUT_MS > DEFAULT_HEADERS_TIMEOUT_MS) // the body gets the rest
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000

/**
 * A running sandbox. Control methods throw an `Error` saying why when the simulator
 * refuses the move.
 *
 * @category model
 * @since 0.2.0
 */
export interface Sandbox extends ServiceControls {
  /** `http://<host>:<port>`, the base URL to give a client. */
  readonly url: string
  readonly port: number
  readonly host: string
  /** Stops listening, closes every socket (held ones too), and cancels webhook retries. */
  readonly close: () => Promise<void>
  /** Every webhook delivery attempt. */
  readonly deliveries: () => ReadonlyArray<Delivery>
  /** Resolves once no webhook is in flight or waiting for a retry. */
  readonly webhooksIdle: () => Promise<void>
  /** Back to the initial state; the webhook log and pending retries are dropped too. */
  readonly reset: () => void
  /**
   * Sends the recorded event `eventId` again, freshly signed, to every webhook URL, each
   * with its own retries (a replay, as the service's retry sends it). Throws when there
   * is no such event or no webhook URL.
   */
  readonly resendEvent: (eventId: string) => void
}

// -------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------

type Body =
  | { readonly _tag: 'body'; readonly text: string }
  | { readonly _tag: 'tooLarge' }
  | { readonly _tag: 'notUtf8' }

// A body that is not UTF-8 is refused, not read with replacement characters in it.
const utf8 = new TextDecoder('utf-8', { fatal: true })

const bodyOf = (chunks: ReadonlyArray<Buffer>): Body => {
  if (chunks.length === 0) return { _tag: 'body', text: '' }
  try {
    return { _tag: 'body', text: utf8.decode(Buffer.concat(chunks)) }
  } catch {
    return { _tag: 'notUtf8' }
  }
}

/** How long the rest of a body refused with 413 is read (and dropped) before the connection is closed. */
const LINGER_MS = 2000

/**
 * Reads the body up to `limit` bytes. Past it (or when the declared length is past it)
 * it stops keeping it and answers `tooLarge`: the 413 goes out before the client has
 * finished sending.
 */
const readBody = (req: IncomingMessage, limit: number): Promise<Body> =>
  new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'])
    if (Number.isFinite(declared) && declared > limit) {
      resolve({ _tag: 'tooLarge' })
      return
    }
    const chunks: Array<Buffer> = []
    let size = 0
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      if (size > limit) {
        chunks.length = 0
        req.off('data', onData)
        req.pause()
        resolve({ _tag: 'tooLarge' })
      } else chunks.push(chunk)
    }
    req.on('data', onData)
    req.on('end', () => {
      if (size <= limit) resolve(bodyOf(chunks))
    })
    req.on('error', reject)
  })

// node:http gives header names in lower case already.
const headersOf = (req: IncomingMessage): Record<string, string> => {
  const headers: Record<string, string> = {}
  const raw = req.headers
  for (const name in raw) {
    const value = raw[name]
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return headers
}

/** A complete raw HTTP/1.1 answer with problem details, closing the connection. */
const rawProblem = (status: number, reason: string, detail: string): string => {
  const body = problem(status, detail).body
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
}

/**
 * Whether the request has no body (neither `Content-Length` nor `Transfer-Encoding`, RFC
 * 9112 6.3, or a length of 0): it can be answered without waiting for its end.
 */
const hasNoBody = (req: IncomingMessage): boolean => {
  const { 'content-length': length, 'transfer-encoding': coding } = req.headers
  return coding === undefined && (length === undefined || length === '0')
}

// The body goes to `end` as a string: node:http then writes the head and the body in one
// write (a Buffer would go out as a second chunk of a writev).
const send = (res: ServerResponse, response: SimResponse, close = false): void => {
  if (res.headersSent || res.destroyed) return
  const headers: Record<string, string> = { ...response.headers }
  headers['content-length'] = String(Buffer.byteLength(response.body, 'utf8'))
  if (close) headers['connection'] = 'close'
  res.writeHead(response.status, headers)
  res.end(response.body, 'utf8')
}

const urlHost = (host: string): string => {
  const visible = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host
  return visible.includes(':') ? `[${visible}]` : visible
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Starts a sandbox and resolves once it listens. Close it with `close()` (for example in
 * `afterEach`).
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { createClient } from '@paykit/core'
 * import { defaultCredentials } from '@paykit/testkit'
 * import { startSandbox } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * const sandbox = await startSandbox() // port 0: a free port on 127.0.0.1
 * try {
 *   const client = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
 *   const link = await client.createPaymentLink({ amount: 19.99 })()
 *   assert.ok(E.isRight(link))
 *   assert.equal(link.right.paymentLinkUrl, `${sandbox.url}/pay/${link.right.orderCode}`)
 *   sandbox.payOrder(link.right.orderCode) // as the buyer on the hosted checkout
 *   assert.deepEqual(sandbox.events().map((e) => e.type), ['order.paid'])
 *   assert.deepEqual(sandbox.requests().map((r) => r.status), [200])
 * } finally {
 *   await sandbox.close()
 * }
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const startSandbox = async (options: SandboxOptions = {}): Promise<Sandbox> => {
  const host = options.host ?? '127.0.0.1'
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()
  let service: LiveService | undefined = undefined
  let webhooks: WebhookDispatcher | undefined
  let closing = false

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer)
        resolve()
      }, ms)
      timers.add(timer)
    })

  // Answers a request whose body has been read; synchronous unless latency is injected.
  const answer = (
    live: LiveService,
    req: IncomingMessage,
    res: ServerResponse,
    body: string,
  ): Promise<void> | undefined => {
    const request: SimRequest = {
      method: (req.method ?? 'GET').toUpperCase(),
      path: req.url ?? '/',
      headers: headersOf(req),
      body,
    }
    if (options.control === true && isControlPath(request.path)) {
      send(res, handleControl(live, webhooks, request))
      return undefined
    }
    const { decision, response } = live.exchange(request)
    if (decision.latencyMs > 0)
      return sleep(decision.latencyMs).then(() => deliver(req, res, decision, response))
    deliver(req, res, decision, response)
    return undefined
  }

  // Reads the body, then answers; a request without a body is answered at once.
  const serve = (req: IncomingMessage, res: ServerResponse): Promise<void> | undefined => {
    const live = service
    if (live === undefined) {
      send(res, problem(503, 'The sandbox is starting.'), true)
      return undefined
    }
    if (hasNoBody(req)) return answer(live, req, res, '')
    return readBody(req, limit).then((read) => {
      if (read._tag === 'tooLarge') {
        // As a lingering close (RFC 9112 9.6): the answer goes out now, and the rest of the
        // body is read and dropped for up to LINGER_MS, so a client or proxy still sending
        // reads the 413 instead of a reset. A body that ends in time leaves the connection
        // open for the next request; one still coming after that loses its connection.
        send(res, problem(413, `The body is larger than ${limit} bytes.`))
        const linger = setTimeout(() => req.socket.destroy(), LINGER_MS)
        req.socket.once('close', () => clearTimeout(linger))
        req.once('end', () => clearTimeout(linger))
        req.resume()
        return undefined
      }
      if (read._tag === 'notUtf8') {
        send(res, problem(400, 'The body is not valid UTF-8 (JSON text must be UTF-8).'))
        return undefined
      }
      return answer(live, req, res, read.text)
    })
  }

  const deliver = (
    req: IncomingMessage,
    res: ServerResponse,
    decision: Exchange['decision'],
    response: SimResponse,
  ): void => {
    if (closing) return
    switch (decision.failure?.kind) {
      case 'connectionReset':
        req.socket.resetAndDestroy()
        return
      case 'hang':
        // Hold the socket: close() destroys it.
        return
      case 'truncatedBody': {
        res.writeHead(response.status, {
          ...response.headers,
          'content-length': String(Buffer.byteLength(response.body, 'utf8')),
        })
        res.write(truncatedPart(response.body), () => req.socket.destroy())
        return
      }
      default:
        return send(res, response)
    }
  }

  const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS
  const requestTimeout = Math.max(
    options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    headersTimeout,
  )
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      // Node checks both timeouts on this period (30 s by default): check often enough.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeout / 4))),
    },
    (req, res) => {
      // Nothing a request does may take the sandbox down: answer 500 and keep serving.
      const failed = (): void => {
        if (!res.headersSent) send(res, internalError(), true)
        else res.destroy()
      }
      try {
        serve(req, res)?.catch(failed)
      } catch {
        failed()
      }
    },
  )
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy()
    socket.end(
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? rawProblem(408, 'Request Timeout', 'The request did not arrive in time.')
        : rawProblem(400, 'Bad Request', 'The request is not valid HTTP.'),
    )
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const url = `http://${urlHost(host)}:${port}`
  const {
    port: _port,
    host: _host,
    webhookUrl,
    webhookSecret,
    webhookAttempts,
    webhookRetryDelayMs,
    webhookConcurrency,
    control: _control,
    expirySweepMs = 1000,
    headersTimeoutMs: _headersTimeoutMs,
    requestTimeoutMs: _requestTimeoutMs,
    ...simulatorOptions
  } = options
  const live = makeLiveService({
    ...simulatorOptions,
    baseUrl: options.baseUrl ?? url,
    secrets: webhookSecret === undefined ? [] : [webhookSecret],
  })
  service = live
  if (webhookUrl !== undefined && webhookUrl.length > 0) {
    webhooks = makeWebhookDispatcher(live, {
      url: webhookUrl,
      ...(webhookSecret === undefined ? {} : { secret: webhookSecret }),
      ...(webhookAttempts === undefined ? {} : { maxAttempts: webhookAttempts }),
      ...(webhookRetryDelayMs === undefined ? {} : { initialDelayMs: webhookRetryDelayMs }),
      ...(webhookConcurrency === undefined ? {} : { concurrency: webhookConcurrency }),
      ...(options.now === undefined ? {} : { now: options.now }),
    })
  }
  const sweep =
    expirySweepMs > 0 ? setInterval(() => live.advanceClock(0), expirySweepMs) : undefined
  sweep?.unref()

  return {
    url,
    port,
    host,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true
        clearInterval(sweep)
        webhooks?.close()
        for (const timer of timers) clearTimeout(timer)
        timers.clear()
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
        server.closeAllConnections()
      }),
    ...controlsOf(live),
    deliveries: () => webhooks?.deliveries() ?? [],
    webhooksIdle: () => webhooks?.idle() ?? Promise.resolve(),
    reset: () => {
      live.reset()
      webhooks?.reset()
    },
    resendEvent: (eventId) => {
      if (webhooks === undefined) throw new Error('no webhook URL is set: nowhere to resend to')
      if (!webhooks.resend(eventId)) throw new Error(`no event has id ${eventId}`)
    },
  }
}
