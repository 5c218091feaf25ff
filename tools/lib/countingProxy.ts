/**
 * A pass-through HTTP proxy in front of a service that counts what a client does on the
 * wire: the most requests in flight at once (overall, and while the first `early` API
 * requests arrived), the requests, the token requests and the TCP connections. Shared by
 * the benchmarks (bench/service.mjs, imported as .ts by Node) and the n8n-nodes tests.
 * Plain erasable TypeScript with only `node:` imports, so Node runs it as it is.
 */
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A request as it reached the proxy. */
export interface SeenRequest {
  readonly method: string
  readonly path: string
  readonly authorization: string | undefined
  /** Requests in flight when this one arrived, itself included. */
  readonly inFlight: number
}

export interface CountingProxyOptions {
  /** How many API requests (token requests aside) count as early (default 64). */
  readonly early?: number
  /** Keeps every request for `seen()` (default false: a benchmark sends many). */
  readonly record?: boolean
  /** Called as each request arrives, before it is forwarded (`n` counts from 1). */
  readonly onRequest?: (n: number, path: string) => void
}

export interface ProxyStats {
  readonly maxInFlight: number
  readonly maxInFlightEarly: number
  readonly requests: number
  readonly connections: number
  readonly tokenRequests: number
}

export interface CountingProxy {
  readonly url: string
  readonly stats: () => ProxyStats
  /** Every request's method, path and Authorization header (with `record: true`). */
  readonly seen: () => ReadonlyArray<SeenRequest>
  /** Starts counting again (the requests in flight stay counted as in flight). */
  readonly reset: () => void
  readonly close: () => Promise<void>
}

/** Starts a counting proxy in front of `target` on 127.0.0.1. */
export const startCountingProxy = async (
  target: string,
  options: CountingProxyOptions = {},
): Promise<CountingProxy> => {
  const early = options.early ?? 64
  let inFlight = 0
  let maxInFlight = 0
  let maxInFlightEarly = 0
  let apiRequests = 0
  let requests = 0
  let connections = 0
  let tokenRequests = 0
  const seen: Array<SeenRequest> = []
  const server = createServer((req, res) => {
    const path = req.url ?? '/'
    if (options.record === true)
      seen.push({
        method: req.method ?? '',
        path,
        authorization: req.headers.authorization,
        inFlight: inFlight + 1,
      })
    options.onRequest?.(requests + 1, path)
    inFlight++
    requests++
    if (path.startsWith('/token')) tokenRequests++
    else apiRequests++
    maxInFlight = Math.max(maxInFlight, inFlight)
    if (apiRequests <= early) maxInFlightEarly = Math.max(maxInFlightEarly, inFlight)
    const upstream = request(
      new URL(path, target),
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
        answer.on('end', () => inFlight--)
      },
    )
    upstream.on('error', () => {
      inFlight--
      res.destroy()
    })
    req.pipe(upstream)
  })
  server.on('connection', () => connections++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats: () => ({ maxInFlight, maxInFlightEarly, requests, connections, tokenRequests }),
    seen: () => [...seen],
    reset: () => {
      maxInFlight = inFlight
      maxInFlightEarly = inFlight
      apiRequests = 0
      requests = 0
      connections = 0
      tokenRequests = 0
      seen.length = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
