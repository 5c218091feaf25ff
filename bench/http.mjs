// The sandbox beside Stoplight Prism: GET /paymentlink/order/{code} and POST
// /paymentlink/checkout under autocannon (64 connections), each server in its own
// process: the `paykit-sandbox` CLI (built dist) and `prism mock openapi.yaml` (the
// document generated from the core's codecs, tools/openapi: its first example of the
// order and the link, the simulator's real answers). Rounds alternate sandbox, Prism; each
// figure is the median of the runs; peak RSS (VmHWM) of each server process.
//
//   node bench/http.mjs [--duration 5] [--connections 64] [--runs 3] [--cpu-prof]
//
// --cpu-prof writes the sandbox's CPU profile under ./cpu-profiles.
// SANDBOX_BIN=<path of another paykit-sandbox.js> measures another build.
/* global fetch, setTimeout, clearTimeout */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { spawnSandbox } from '../packages/testkit/dist/sandbox/spawnSandbox.js'
import { freePort } from '@paykit/tools/lib/freePort'
import { measure as load } from '@paykit/tools/lib/load'
import { API_KEY, CORES, ROOT, medians } from './support.mjs'

const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '64' },
    runs: { type: 'string', default: '3' },
    'cpu-prof': { type: 'boolean', default: false },
  },
  strict: true,
})
const DURATION = Number(flags.duration)
const CONNECTIONS = Number(flags.connections)
const RUNS = Number(flags.runs)

const require = createRequire(join(ROOT, 'package.json'))
const PRISM = require.resolve('@stoplight/prism-cli/dist/index.js')
const SANDBOX =
  process.env.SANDBOX_BIN ?? join(ROOT, 'packages', 'testkit', 'dist', 'bin', 'paykit-sandbox.js')

/** Spawns `node args` (Prism); resolves once stdout matches `ready` (its first group: the URL). */
const startServer = (args, ready, nodeArgs = []) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let found = false
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${args.join(' ')} did not start:\n${out}`))
    }, 60_000)
    child.on('error', reject)
    child.once('exit', (code) =>
      reject(new Error(`${args.join(' ')} exited with ${code}:\n${out}`)),
    )
    // Read (and drop) everything it logs, as a terminal would.
    child.stderr.on('data', (d) => {
      if (!found) out += d
    })
    child.stdout.on('data', (d) => {
      if (found) return
      out += d
      const match = ready.exec(out)
      if (match !== null) {
        found = true
        clearTimeout(timer)
        resolve({ url: match[1], pid: child.pid, child })
      }
    })
  })

const stop = (server) =>
  new Promise((resolve) => {
    server.child.removeAllListeners('exit')
    server.child.once('exit', () => resolve())
    server.child.kill('SIGINT')
  })

/** Peak resident memory of a process so far (Linux VmHWM), in MB. */
const peakRssMb = (pid) => {
  const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1])
  return kb / 1024
}

/** A run's req/s and latency; a non-2xx answer, an error or a timeout fails the bench. */
const measure = async (url, request, duration) => {
  const m = await load({ url, ...request, connections: CONNECTIONS, duration })
  if (m.non2xx > 0 || m.errors > 0)
    throw new Error(`${url}${request.path}: ${m.non2xx} non-2xx, ${m.errors} errors or timeouts`)
  return { rps: m.rps, p50: m.p50, p99: m.p99 }
}

const auth = { authorization: `Bearer ${API_KEY}` }
const json = { 'content-type': 'application/json' }
const checkoutBody = JSON.stringify({ amount: 10, orderName: 'bench' })

const sandbox = await spawnSandbox({
  bin: SANDBOX,
  nodeArgs: flags['cpu-prof']
    ? ['--cpu-prof', '--cpu-prof-dir', join(process.cwd(), 'cpu-profiles')]
    : [],
  timeoutMs: 60_000,
}).then((s) => ({ ...s, pid: s.child.pid }))
const prismPort = await freePort()
const prism = await startServer(
  [PRISM, 'mock', join(ROOT, 'openapi.yaml'), '-p', String(prismPort)],
  /Prism is listening on (http:\/\/\S+?)\/?\s/,
)

const created = await fetch(`${sandbox.url}/paymentlink/checkout`, {
  method: 'POST',
  headers: { ...json, ...auth },
  body: JSON.stringify({ amount: 10 }),
}).then((r) => r.json())

const scenarios = {
  getOrder: { path: `/paymentlink/order/${created.orderCode}`, headers: auth },
  postCheckout: {
    path: '/paymentlink/checkout',
    method: 'POST',
    headers: { ...json, ...auth },
    body: checkoutBody,
  },
}
const servers = { sandbox, prism }

const result = {
  bench: 'http',
  cores: CORES,
  connections: CONNECTIONS,
  durationS: DURATION,
  runs: RUNS,
}
try {
  for (const [name, request] of Object.entries(scenarios)) {
    for (const server of Object.values(servers)) await measure(server.url, request, 1) // warm-up
    const runs = { sandbox: [], prism: [] }
    for (let r = 0; r < RUNS; r++)
      for (const [label, server] of Object.entries(servers)) {
        const m = await measure(server.url, request, DURATION)
        runs[label].push(m)
        console.log(`${name} ${label} run ${r + 1}: ${JSON.stringify(m)}`)
      }
    const sandboxMedian = medians(runs.sandbox)
    const prismMedian = medians(runs.prism)
    result[name] = {
      sandbox: sandboxMedian,
      prism: prismMedian,
      ratio: sandboxMedian.rps / prismMedian.rps,
    }
  }
  result.peakRssMb = { sandbox: peakRssMb(sandbox.pid), prism: peakRssMb(prism.pid) }
} finally {
  await stop(sandbox)
  await stop(prism)
}
console.log(JSON.stringify(result))
process.exit(0)
