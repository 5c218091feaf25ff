// Client vs raw fetch: the same N `GET /paymentlink/order/{code}` calls through the core's
// client (`createClient`, API key credential, its fetch transport: validation, timeout
// signal, response decoding into exact-decimal `OrderDetails`) and through bare `fetch`
// with the same headers and `response.json()`, at 1 and at 16 in flight, against the
// sandbox in its own process (bench/service.mjs, no injected latency). Each run makes
// all the calls of each side in rotating blocks of 100 (client, fetch, reference; fetch,
// reference, client; ...); a run's ratio is the median over its rounds of client time /
// fetch time in the round (a burst of load from another process then skews one round,
// not the run), and the median of the runs is reported. CPU per call likewise.
//
// Beside them, as a reference and not part of the ratio, the same `fetch` with what the
// client's transport adds for its guarantees (a per-attempt timeout: an `AbortController`
// aborted by a cleared `setTimeout`, `redirect: 'manual'`, the body read as text for the
// error and log paths, then `JSON.parse`): `fetchTimeout*` in the result. The client's
// time over it is its own work (validation, decoding into exact `Money`, plumbing); its
// time over bare fetch also holds what undici does for any request given a signal.
//
//   node bench/client.mjs [--calls 2000] [--runs 3] [--inflight 1,16]
//
// Needs the built packages (`pnpm run build`).
/* global fetch, AbortController, setTimeout, clearTimeout */
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { createClient } from '@paykit/core'
import { API_KEY, CLIENT_ID, CLIENT_SECRET, CORES, median, startService } from './support.mjs'

const { values: flags } = parseArgs({
  options: {
    calls: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '3' },
    inflight: { type: 'string', default: '1,16' },
  },
  strict: true,
})
const CALLS = Number(flags.calls)
const RUNS = Number(flags.runs)
const LEVELS = flags.inflight.split(',').map(Number)

const service = await startService()
const base = service.sandboxUrl

const created = await fetch(`${base}/paymentlink/checkout`, {
  method: 'POST',
  headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
  body: JSON.stringify({
    orderReference: 'bench-order',
    lineItems: [
      { sku: 'MUG-LOGO', quantity: 2 },
      { product: { name: 'Poster', price: 12.6 }, quantity: 3 },
    ],
  }),
}).then((r) => r.json())
const code = created.orderCode
if (typeof code !== 'string') throw new Error(`no order created: ${JSON.stringify(created)}`)

const client = createClient({
  baseUrl: base,
  credentials: {
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    apiKey: API_KEY,
  },
})

const viaClient = async () => {
  const result = await client.getOrder(code)()
  if (result._tag !== 'Right') throw new Error(`client: ${result.left.message}`)
}
// The headers the client sends on this call (accept, the API key as bearer).
const headers = { accept: 'application/json', authorization: `Bearer ${API_KEY}` }
const url = `${base}/paymentlink/order/${encodeURIComponent(code)}`
const viaFetch = async () => {
  const response = await fetch(url, { headers })
  const body = await response.json()
  if (response.status !== 200 || body.orderCode !== code)
    throw new Error(`fetch: ${response.status}`)
}
/** The reference: `viaFetch` with a per-request timeout, as the client's transport does it. */
const viaFetchTimeout = async () => {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), 30_000)
  try {
    const response = await fetch(url, { headers, signal: controller.signal, redirect: 'manual' })
    const body = JSON.parse(await response.text())
    if (response.status !== 200 || body.orderCode !== code)
      throw new Error(`fetch with timeout: ${response.status}`)
  } finally {
    clearTimeout(timer)
  }
}

let cpuUs = 0
/** `n` calls of `call`, `inFlight` at a time; resolves with the wall time in ms. */
const timed = async (call, n, inFlight) => {
  let next = 0
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < n) {
        next++
        await call()
      }
    }),
  )
  const wall = performance.now() - started
  const cpu = process.cpuUsage(cpuBefore)
  cpuUs = cpu.user + cpu.system
  return wall
}

/**
 * One run: `CALLS` calls of each side, in rounds of one block of `BLOCK` calls per side,
 * the order rotating from round to round (client, fetch, reference; fetch, reference,
 * client; ...), so that a change of the machine's speed weighs on all sides. Ratios and
 * CPU per call are the medians over the rounds.
 */
const BLOCK = 100
const pairedRun = async (inFlight) => {
  const sides = [viaClient, viaFetch, viaFetchTimeout]
  // rounds[r][side] = { ms, cpuUs, n }
  const rounds = []
  for (let done = 0; done < CALLS; done += BLOCK) {
    const n = Math.min(BLOCK, CALLS - done)
    const round = []
    for (let i = 0; i < sides.length; i++) {
      const side = (rounds.length + i) % sides.length
      const ms = await timed(sides[side], n, inFlight)
      round[side] = { ms, cpuUs, n }
    }
    rounds.push(round)
  }
  const total = (side) => rounds.reduce((sum, round) => sum + round[side].ms, 0)
  const ratio = (a, b) => median(rounds.map((round) => round[a].ms / round[b].ms))
  const cpuPerCall = (side) => median(rounds.map((round) => round[side].cpuUs / round[side].n))
  return {
    clientMs: total(0),
    fetchMs: total(1),
    fetchTimeoutMs: total(2),
    ratio: ratio(0, 1),
    ratioToFetchTimeout: ratio(0, 2),
    clientCpuUsPerCall: cpuPerCall(0),
    fetchCpuUsPerCall: cpuPerCall(1),
    fetchTimeoutCpuUsPerCall: cpuPerCall(2),
    cpuRatio: median(rounds.map((round) => round[0].cpuUs / round[1].cpuUs)),
  }
}

const result = { bench: 'client', cores: CORES, calls: CALLS, runs: RUNS }
for (const inFlight of LEVELS) {
  // Warm-up: enough calls for the JIT to have compiled the longer path (the client's) too,
  // so that its compilation is not charged to the first blocks of the first run.
  for (const call of [viaClient, viaFetch, viaFetchTimeout])
    await timed(call, Math.min(CALLS, 500), inFlight)
  const pairs = []
  for (let r = 0; r < RUNS; r++) {
    pairs.push(await pairedRun(inFlight))
    console.log(`in flight ${inFlight} run ${r + 1}: ${JSON.stringify(pairs.at(-1))}`)
  }
  result[`inflight${inFlight}`] = {
    clientPerSecond: (CALLS / median(pairs.map((p) => p.clientMs))) * 1000,
    fetchPerSecond: (CALLS / median(pairs.map((p) => p.fetchMs))) * 1000,
    ratio: median(pairs.map((p) => p.ratio)),
    // CPU of this process per call (less sensitive to a busy machine than wall time).
    clientCpuUsPerCall: median(pairs.map((p) => p.clientCpuUsPerCall)),
    fetchCpuUsPerCall: median(pairs.map((p) => p.fetchCpuUsPerCall)),
    cpuRatio: median(pairs.map((p) => p.cpuRatio)),
    // The reference (fetch with a per-request timeout, as the transport sends).
    fetchTimeoutPerSecond: (CALLS / median(pairs.map((p) => p.fetchTimeoutMs))) * 1000,
    ratioToFetchTimeout: median(pairs.map((p) => p.ratioToFetchTimeout)),
    fetchTimeoutCpuUsPerCall: median(pairs.map((p) => p.fetchTimeoutCpuUsPerCall)),
  }
}
await service.close()
console.log(JSON.stringify(result))
process.exit(0)
