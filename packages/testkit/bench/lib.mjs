/* global fetch */
// Shared helpers of the sandbox benchmarks: start the sandbox and a bare node:http server
// returning the same bytes (each in its own process), load them with autocannon from this
// process, and read each server's resident memory.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { measure } from '@paykit/tools/lib/load'
import { spawnSandbox } from '../dist/sandbox/spawnSandbox.js'

export { measure }

const here = dirname(fileURLToPath(import.meta.url))
export const API_KEY = 'sandbox-api-key'
export const auth = { authorization: `Bearer ${API_KEY}` }
export const json = { 'content-type': 'application/json' }

/** Common flags: --duration (s), --connections, --cpu-prof (profile the sandbox), extra ones. */
export const flags = (extra = {}) =>
  parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '64' },
      'cpu-prof': { type: 'boolean', default: false },
      ...extra,
    },
    strict: true,
  }).values

/**
 * Spawns `node <nodeArgs> <script> --port 0 <args>` (the testkit's `spawnSandbox`) and
 * resolves once it prints `listening on <url>`, with its pid for the memory figures.
 */
const startProcess = (script, args, nodeArgs = []) =>
  spawnSandbox({ bin: script, args, nodeArgs, stderr: 'inherit' }).then((server) => ({
    ...server,
    pid: server.child.pid,
  }))

/**
 * The sandbox CLI (built: run `pnpm run build` first) with `--control` and `args`;
 * `SANDBOX_BIN=<path of another paykit-sandbox.js>` compares another build.
 */
export const startSandbox = (args = [], { cpuProf = false } = {}) =>
  startProcess(
    process.env.SANDBOX_BIN ?? join(here, '..', 'dist', 'bin', 'paykit-sandbox.js'),
    ['--control', ...args],
    cpuProf ? ['--cpu-prof', '--cpu-prof-dir', join(process.cwd(), 'cpu-profiles')] : [],
  )

/** A bare node:http server answering every request with `status`, `headers`, `body`. */
export const startBare = (response) =>
  startProcess(join(here, 'bare-server.mjs'), [JSON.stringify(response)])

export const stop = (server) => server.stop('SIGINT')

/** Resident memory of a process, in MB (Linux /proc). */
export const rssMb = (pid) => {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1])
    return Math.round(kb / 1024)
  } catch {
    return NaN
  }
}

/** CPU time a process has used so far (user + system), in ms (Linux /proc). */
export const cpuMs = (pid) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return NaN
  }
}

/**
 * Loads a server and measures, besides `measure`'s figures, the server's CPU time per
 * request (µs): a figure that holds on a busy machine, where req/s also depend on others.
 */
export const measureServer = async (server, opts) => {
  const cpu0 = cpuMs(server.pid)
  const m = await measure({ url: server.url, ...opts })
  const served = m.total
  return { ...m, cpuUsPerRequest: Math.round(((cpuMs(server.pid) - cpu0) * 1000) / served) }
}

/** One fetch, answering status, headers and body text. */
export const call = async (url, init = {}) => {
  const res = await fetch(url, init)
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() }
}

/** The answer as the bare server should repeat it (same status, content type and bytes). */
export const sameBytes = (answer) => ({
  status: answer.status,
  headers: { 'content-type': answer.headers['content-type'] },
  body: answer.body,
})

export const line = (label, m, rss) =>
  `${label.padEnd(28)} ${String(Math.round(m.rps)).padStart(7)} req/s  p50 ${String(m.p50).padStart(4)} ms  p99 ${String(m.p99).padStart(4)} ms  RSS ${String(rss).padStart(4)} MB${m.cpuUsPerRequest === undefined ? '' : `  CPU ${String(m.cpuUsPerRequest).padStart(4)} µs/req`}  non-2xx ${m.non2xx}  errors ${m.errors}`

/** Runs a bench scenario: `f(sandboxUrl)` gives the request options and the answer to copy. */
export const compare = async ({ name, prepare, args = [] }) => {
  const o = flags()
  const duration = Number(o.duration)
  const connections = Number(o.connections)
  const sandbox = await startSandbox(args, { cpuProf: o['cpu-prof'] })
  try {
    const { request, answer } = await prepare(sandbox.url)
    const bare = await startBare(sameBytes(answer))
    try {
      await measure({ url: bare.url, ...request, connections, duration: 2 }) // warm-up
      const b = await measureServer(bare, { ...request, connections, duration })
      const bareRss = rssMb(bare.pid)
      await measure({ url: sandbox.url, ...request, connections, duration: 2 }) // warm-up
      const s = await measureServer(sandbox, { ...request, connections, duration })
      const sandboxRss = rssMb(sandbox.pid)
      console.log(`${name}: ${connections} connections, ${duration} s each`)
      console.log(line('bare node:http (same bytes)', b, bareRss))
      console.log(line('sandbox', s, sandboxRss))
      console.log(
        `ratio sandbox/bare: ${(s.rps / b.rps).toFixed(2)} req/s, ${(s.cpuUsPerRequest / b.cpuUsPerRequest).toFixed(2)} CPU per request`,
      )
    } finally {
      await stop(bare)
    }
  } finally {
    await stop(sandbox)
  }
}
