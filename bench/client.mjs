// Client vs raw fetch: the same N `GET /paymentlink/order/{code}` calls through the core's
// client (`createClient`, API key credential, its fetch transport: validation, timeout
// signal, response decoding into exact-decimal `OrderDetails`) and through bare `fetch`
// with the same headers and `response.json()`, at 1 and at 16 in flight, against the
// sandbox in its own process (bench/service.mjs, no injected latency). Each run makes
// all the calls of both in alternating blocks of 100; the ratio is client time / fetch
// time of the run, the median of the runs reported.
//
//   node bench/client.mjs [--calls 2000] [--runs 3] [--inflight 1,16]
//
// Needs the built packages (`pnpm run build`).
/* global fetch */
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
 * One run: `CALLS` calls of each, in alternating blocks of `BLOCK` (client, fetch, fetch,
 * client, ...), so that a change of the machine's speed during the run weighs on both.
 */
const BLOCK = 100
const pairedRun = async (inFlight) => {
  let clientMs = 0
  let fetchMs = 0
  let clientCpuUs = 0
  let fetchCpuUs = 0
  const client = async (n) => {
    clientMs += await timed(viaClient, n, inFlight)
    clientCpuUs += cpuUs
  }
  const raw = async (n) => {
    fetchMs += await timed(viaFetch, n, inFlight)
    fetchCpuUs += cpuUs
  }
  for (let done = 0, b = 0; done < CALLS; done += BLOCK, b++) {
    const n = Math.min(BLOCK, CALLS - done)
    if (b % 2 === 0) {
      await client(n)
      await raw(n)
    } else {
      await raw(n)
      await client(n)
    }
  }
  return {
    clientMs,
    fetchMs,
    ratio: clientMs / fetchMs,
    clientCpuUsPerCall: clientCpuUs / CALLS,
    fetchCpuUsPerCall: fetchCpuUs / CALLS,
  }
}

const result = { bench: 'client', cores: CORES, calls: CALLS, runs: RUNS }
for (const inFlight of LEVELS) {
  await timed(viaClient, Math.min(CALLS, 200), inFlight)
  await timed(viaFetch, Math.min(CALLS, 200), inFlight)
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
  }
}
await service.close()
console.log(JSON.stringify(result))
process.exit(0)
