// Live memory of the service over N payment links, without HTTP: creates links through
// the live service the sandbox runs (`makeLiveService`), moves its clock past expiry plus
// retention every `--advance-every` links, and prints every 10,000 the heap in use after a
// full GC (the live data: flat when nothing accumulates) and the RSS (which also holds
// what the allocator keeps after it grew). `node --expose-gc packages/testkit/bench/heap.mjs
// [--links 100000] [--advance-every 1000]` (`--advance-every 0` keeps every link). The last
// line is the growth from 10,000 links. The sandbox CLI caps V8's young generation at
// 16 MB; add `--max-semi-space-size=8` to see the RSS it has (V8 grows it to 128 MB here).
import { parseArgs } from 'node:util'
import { makeLiveService } from '../dist/LiveService.js'

const { values: o } = parseArgs({
  options: {
    links: { type: 'string', default: '100000' },
    'advance-every': { type: 'string', default: '1000' },
  },
})
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc')
const every = Number(o['advance-every'])
const service = makeLiveService({ baseUrl: 'http://sandbox.test' })
const request = {
  method: 'POST',
  path: '/paymentlink/checkout',
  headers: { 'content-type': 'application/json', authorization: 'Bearer sandbox-api-key' },
  body: JSON.stringify({ amount: 10, orderName: 'bench', expirationMinutes: 1 }),
}
const mb = (n) => Math.round(n / 1e6)
const pct = (from, to) => `${to >= from ? '+' : ''}${Math.round((100 * (to - from)) / from)}%`
const rows = []
for (let i = 1; i <= Number(o.links); i++) {
  service.exchange(request)
  if (every > 0 && i % every === 0) service.advanceClock((60 + 24 * 3600 + 1) * 1000)
  if (i % 10_000 === 0) {
    globalThis.gc()
    const m = process.memoryUsage()
    rows.push(m)
    console.log(
      `${String(i).padStart(7)} links  heap used ${mb(m.heapUsed)} MB  RSS ${mb(m.rss)} MB  orders held ${Object.keys(service.state().orders).length}`,
    )
  }
}
const [first, last] = [rows[0], rows[rows.length - 1]]
if (first !== undefined && last !== undefined) {
  const live = (m) => m.heapUsed + m.external
  console.log(
    `growth 10000 -> ${rows.length * 10_000} links: heap used + external ${mb(live(first))} -> ${mb(live(last))} MB (${pct(live(first), live(last))}), RSS ${mb(first.rss)} -> ${mb(last.rss)} MB (${pct(first.rss, last.rss)})`,
  )
}
