// Prints the functions with the most self time in a V8 .cpuprofile (from `--cpu-prof`):
// `node packages/testkit/bench/profile-top.mjs cpu-profiles/<file>.cpuprofile [--top 25]`.
// The benchmarks write the sandbox's profile under ./cpu-profiles with `--cpu-prof`.
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'

const { values, positionals } = parseArgs({
  options: { top: { type: 'string', default: '25' } },
  allowPositionals: true,
})
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'))
const dt = new Map()
const { samples, timeDeltas } = profile
for (let i = 0; i < samples.length; i++)
  dt.set(samples[i], (dt.get(samples[i]) ?? 0) + (timeDeltas[i] ?? 0))
const self = new Map()
let total = 0
for (const node of profile.nodes) {
  const t = dt.get(node.id) ?? 0
  total += t
  const f = node.callFrame
  const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(packages|node_modules)\//, '$1/')}:${f.lineNumber + 1}`
  self.set(key, (self.get(key) ?? 0) + t)
}
const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))
for (const [key, t] of rows) console.log(`${((100 * t) / total).toFixed(1).padStart(5)}%  ${key}`)
