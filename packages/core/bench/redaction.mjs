// Throughput of header and empty-body redaction, as an exchange record needs them.
// Runs against the built dist (`pnpm run build` first):
//
//   node packages/core/bench/redaction.mjs
//
// Prints calls per second of CPU time (median of 3 runs).
import { redactBody, redactHeaders } from '../dist/Redaction.js'

const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}
const headers = {
  accept: 'application/json',
  'content-type': 'application/json',
  authorization: 'Bearer tok_abc',
  date: 'Mon, 23 Nov 2026 01:00:00 GMT',
  'content-length': '512',
  'x-request-id': 'req-8f3a2c',
  connection: 'keep-alive',
}
const secrets = ['secret-1', 'tok_abc']
const MS = Number(process.env.BENCH_MS ?? 1000)

const perSecond = (f) => {
  const start = cpuMs()
  let n = 0
  while (cpuMs() - start < MS) {
    for (let i = 0; i < 100; i++) f()
    n += 100
  }
  return (n * 1000) / (cpuMs() - start)
}
const median = (xs) => [...xs].sort((a, b) => a - b)[1]

for (const [name, f] of [
  ['redactHeaders (7 headers)', () => redactHeaders(headers, secrets)],
  ['redactBody("")', () => redactBody('', secrets)],
]) {
  perSecond(f) // warm up
  const r = median([perSecond(f), perSecond(f), perSecond(f)])
  console.log(`${name.padEnd(26)} ${(r / 1000).toFixed(1).padStart(10)} k/s`)
}
