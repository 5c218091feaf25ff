// Creates N payment links (default 100,000) through the sandbox CLI (its own process) and
// prints, every 10,000, the creation throughput, p99, the sandbox's RSS and, after a full
// GC, its live heap and the memory outside the heap; then one line with the growth from
// 10,000 to N links (the target: within 20%):
//
//   node packages/testkit/bench/links.mjs [--links 100000] [--advance-seconds 86461]
//     [--advance-every 1000] [--connections 64]
//
// After each `--advance-every` links the sandbox clock moves `--advance-seconds` forward
// (default: the links' 1-minute expiry plus the default 24 h retention, so earlier links
// expire and are dropped, as in a long-running sandbox); `--advance-seconds 0` keeps every
// link. `SANDBOX_BIN=<path of another paykit-sandbox.js>` measures another build.
import { performance } from 'node:perf_hooks'
import { Agent, request } from 'node:http'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { spawnSandbox } from '../dist/sandbox/spawnSandbox.js'
import { API_KEY, flags, stop } from './lib.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const o = flags({
  links: { type: 'string', default: '100000' },
  'advance-seconds': { type: 'string', default: String(60 + 24 * 3600 + 1) },
  'advance-every': { type: 'string', default: '1000' },
})
const total = Number(o.links)
const advance = Number(o['advance-seconds'])
const every = Number(o['advance-every'])
const connections = Number(o.connections)
const report = 10_000

/** The CLI with --control, answering memory questions over IPC (sandbox-with-memory.mjs). */
const startSandbox = () =>
  spawnSandbox({
    bin: join(here, 'sandbox-with-memory.mjs'),
    nodeArgs: ['--expose-gc'],
    args: ['--control'],
    ipc: true,
    stderr: 'inherit',
  }).then((sandbox) => ({ ...sandbox, pid: sandbox.child.pid }))

const memoryOf = (sandbox) =>
  new Promise((resolve) => {
    sandbox.child.once('message', resolve)
    sandbox.child.send('memory')
  })

const agent = new Agent({ keepAlive: true, maxSockets: connections })
const send = (url, path, body, headers) =>
  new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': body.length, ...headers },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode))
      },
    )
    req.on('error', reject)
    req.end(body)
  })

const mb = (bytes) => Math.round(bytes / 2 ** 20)
const pct = (from, to) => `${to >= from ? '+' : ''}${Math.round((100 * (to - from)) / from)}%`

const sandbox = await startSandbox()
const body = JSON.stringify({ amount: 10, orderName: 'bench', expirationMinutes: 1 })
const clock = JSON.stringify({ advanceSeconds: advance })
const auth = { authorization: `Bearer ${API_KEY}` }
console.log(
  `creating ${total} links, ${connections} connections, clock +${advance} s every ${every}`,
)
const started = Date.now()
const rows = []
try {
  let sent = 0
  let done = 0
  let non2xx = 0
  let latencies = []
  let batchStart = Date.now()
  let checkpoint = Promise.resolve()
  const worker = async () => {
    while (sent < total) {
      sent += 1
      const t0 = performance.now()
      const status = await send(sandbox.url, '/paymentlink/checkout', body, auth)
      latencies.push(performance.now() - t0)
      if (status !== 200) non2xx += 1
      done += 1
      const n = done
      if (advance > 0 && every > 0 && n % every === 0)
        await send(sandbox.url, '/__sandbox/clock', clock, {})
      if (n % report === 0 || n === total) {
        const ms = Date.now() - batchStart
        const sorted = latencies.sort((a, b) => a - b)
        const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? 0
        const count = latencies.length
        latencies = []
        batchStart = Date.now()
        checkpoint = checkpoint.then(async () => {
          const m = await memoryOf(sandbox)
          rows.push({ n, m })
          console.log(
            `${String(n).padStart(7)} links  ${String(Math.round((count * 1000) / ms)).padStart(6)} req/s  p99 ${p99.toFixed(1).padStart(5)} ms  RSS ${mb(m.rss)} MB  heap used ${mb(m.heapUsed)} MB (held ${mb(m.heapTotal)})  external ${mb(m.external)} MB  non-2xx ${non2xx}`,
          )
        })
      }
    }
  }
  await Promise.all(Array.from({ length: connections }, worker))
  await checkpoint
  const first = rows.find((r) => r.n >= report) ?? rows[0]
  const last = rows[rows.length - 1]
  const live = (m) => m.heapUsed + m.external
  const rssGrowth = (last.m.rss - first.m.rss) / first.m.rss
  console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`)
  console.log(
    `growth ${first.n} -> ${last.n} links: RSS ${mb(first.m.rss)} -> ${mb(last.m.rss)} MB (${pct(first.m.rss, last.m.rss)}), heap used + external ${mb(live(first.m))} -> ${mb(live(last.m))} MB (${pct(live(first.m), live(last.m))}); target within 20%: ${Math.abs(rssGrowth) <= 0.2 ? 'met' : 'missed'}`,
  )
} finally {
  agent.destroy()
  await stop(sandbox)
}
