// Helpers the benchmark scripts share: medians, the service child
// process, running a script that prints one JSON result, and number formatting.
/* global setTimeout, clearTimeout */
import { fork, spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url))
export const ROOT = join(BENCH_DIR, '..')
// The sandbox's default credentials (testkit `defaultCredentials`), written here because
// importing the testkit's root also loads nock, which intercepts the process's requests.
export const API_KEY = 'sandbox-api-key'
export const CLIENT_ID = 'sandbox-client'
export const CLIENT_SECRET = 'sandbox-secret'
export const CORES = availableParallelism()

/** The median of numbers (the middle one of 3). */
export const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** `runs` objects of numbers -> one object of the medians, field by field. */
export const medians = (runs) =>
  Object.fromEntries(
    Object.keys(runs[0]).map((k) => [
      k,
      typeof runs[0][k] === 'number' ? median(runs.map((r) => r[k])) : runs[0][k],
    ]),
  )

/** Rounds to a few significant figures, for tables. */
export const fmt = (x, digits = 3) => {
  if (typeof x !== 'number' || !Number.isFinite(x)) return String(x)
  if (Math.abs(x) >= 10 ** digits) return String(Math.round(x))
  return String(Number(x.toPrecision(digits)))
}

/**
 * Starts bench/service.mjs (the sandbox, optionally with injected latency, behind a
 * counting proxy) in its own process, so that the process measured shares its event loop
 * with neither. Resolves with its URLs and `stats()` / `reset()` / `close()` over IPC.
 */
export const startService = ({ latencyMs = 0 } = {}) =>
  new Promise((resolve, reject) => {
    const child = fork(join(BENCH_DIR, 'service.mjs'), [String(latencyMs)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    let seq = 0
    const pending = new Map()
    const ask = (command) =>
      new Promise((res) => {
        const id = ++seq
        pending.set(id, res)
        child.send({ id, command })
      })
    child.on('error', reject)
    child.once('exit', (code) => reject(new Error(`bench/service.mjs exited with ${code}`)))
    child.on('message', (message) => {
      if (message.ready !== undefined)
        resolve({
          ...message.ready,
          stats: () => ask('stats'),
          reset: () => ask('reset'),
          close: () =>
            new Promise((res) => {
              child.removeAllListeners('exit')
              child.once('exit', () => res())
              child.kill('SIGTERM')
            }),
        })
      else pending.get(message.id)?.(message.result)
    })
  })

/** The scripts `runJson` has running; once stopping, it starts no more. */
const running = new Set()
let stopping = false

/**
 * Sends SIGTERM to every script `runJson` has running, starts no more, and waits until each
 * has exited: a
 * script that started servers (queue.mjs: n8n, Postgres, Redis in process groups of their
 * own) stops them on SIGTERM, where a plain exit would leave them running.
 */
export const stopRunning = () => {
  stopping = true
  return Promise.all(
    [...running].map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve()
          child.once('exit', () => resolve())
          child.kill('SIGTERM')
        }),
    ),
  )
}

/**
 * Runs `node <script> ...args` and resolves with the JSON object its last stdout line
 * holds, and the whole output; rejects when it fails or prints no JSON.
 */
export const runJson = (script, args = [], { nodeArgs = [], timeoutMs = 600_000 } = {}) =>
  new Promise((resolve, reject) => {
    if (stopping) return reject(new Error(`${script}: not started, the run is stopping`))
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    running.add(child)
    child.once('exit', () => running.delete(child))
    let out = ''
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs)
    child.stdout.on('data', (d) => (out += d))
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      const last = out.trim().split('\n').at(-1) ?? ''
      try {
        if (code !== 0)
          throw new Error(signal === null ? `exit code ${code}` : `killed by ${signal}`)
        resolve(JSON.parse(last))
      } catch (error) {
        reject(new Error(`${script} ${args.join(' ')}: ${error.message}\n${out}`))
      }
    })
  })
