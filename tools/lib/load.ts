/**
 * A server under load: autocannon against a URL, one request per connection at a time, and
 * the figures the benchmarks report. One definition for the root's `bench/http.mjs` and the
 * testkit's `bench/lib.mjs` (issue 38).
 */
import { createRequire } from 'node:module'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What to load: `url` + `path`, and autocannon's options (connections, duration or amount, method, headers, body). */
export interface LoadOptions {
  readonly url: string
  readonly path?: string
  readonly [option: string]: unknown
}

/** The figures of one load: requests per second (average), latency p50/p99 (ms), failures, total. */
export interface Measured {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
  /** Errors and timeouts. */
  readonly errors: number
  readonly total: number
}

/** What this module reads of autocannon's result (the package ships no types). */
interface Result {
  readonly requests: { readonly average: number; readonly total: number }
  readonly latency: { readonly p50: number; readonly p99: number }
  readonly non2xx: number
  readonly errors: number
  readonly timeouts: number
}

type Autocannon = (
  options: Readonly<Record<string, unknown>>,
  done: (error: Error | null, result: Result) => void,
) => unknown

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

// -------------------------------------------------------------------------------------
// load
// -------------------------------------------------------------------------------------

/** Loads `url` + `path` with autocannon and answers its figures. */
export const measure = async ({ url, path = '', ...options }: LoadOptions): Promise<Measured> => {
  const r = await new Promise<Result>((resolve, reject) =>
    autocannon({ pipelining: 1, ...options, url: `${url}${path}` }, (error, result) =>
      error === null ? resolve(result) : reject(error),
    ),
  )
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    total: r.requests.total,
  }
}
