/* global fetch */
// Creates N payment links (default 100,000) in batches of 10,000 and prints, per batch, the
// creation throughput and the sandbox's RSS: `node packages/testkit/bench/links.mjs
// [--links 100000] [--advance-seconds 86461] [--advance-every 1000] [--connections 64]`.
// After each `--advance-every` links the sandbox clock moves `--advance-seconds` forward
// (default: the links' 1-minute expiry plus the default 24 h retention, so earlier links
// expire and are dropped, as in a long-running sandbox); `--advance-seconds 0` keeps
// every link.
import { auth, flags, json, measure, rssMb, startSandbox, stop } from './lib.mjs'

const o = flags({
  links: { type: 'string', default: '100000' },
  'advance-seconds': { type: 'string', default: String(60 + 24 * 3600 + 1) },
  'advance-every': { type: 'string', default: '1000' },
})
const total = Number(o.links)
const advance = Number(o['advance-seconds'])
const batch = 10_000
const step = Math.min(batch, Number(o['advance-every']))
const sandbox = await startSandbox()
const body = JSON.stringify({ amount: 10, orderName: 'bench', expirationMinutes: 1 })
const started = Date.now()
console.log(`creating ${total} links, ${o.connections} connections, clock +${advance} s per batch`)
try {
  for (let done = 0; done < total;) {
    const amount = Math.min(batch, total - done)
    const t0 = Date.now()
    let p99 = 0
    let non2xx = 0
    for (let sent = 0; sent < amount; sent += step) {
      const m = await measure({
        url: sandbox.url,
        method: 'POST',
        path: '/paymentlink/checkout',
        headers: { ...json, ...auth },
        body,
        connections: Number(o.connections),
        amount: Math.min(step, amount - sent),
      })
      p99 = Math.max(p99, m.p99)
      non2xx += m.non2xx
      if (advance > 0)
        await fetch(`${sandbox.url}/__sandbox/clock`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ advanceSeconds: advance }),
        })
    }
    done += amount
    const rps = Math.round((amount * 1000) / (Date.now() - t0))
    console.log(
      `${String(done).padStart(7)} links  ${String(rps).padStart(6)} req/s  p99 ${String(p99).padStart(4)} ms  RSS ${rssMb(sandbox.pid)} MB  non-2xx ${non2xx}`,
    )
  }
  console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`)
} finally {
  await stop(sandbox)
}
