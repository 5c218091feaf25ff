// Summarises a V8 CPU profile (`node --cpu-prof`): self time by function and by package
// (node_modules package, or the project file), the biggest first.
//
//   node --cpu-prof --cpu-prof-dir=cpu-profiles bench/n8n.mjs --only paykit --runs 1
//   node bench/profile.mjs cpu-profiles/<file>.cpuprofile [--top 25]
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'

const { values: flags, positionals } = parseArgs({
  options: { top: { type: 'string', default: '25' } },
  allowPositionals: true,
  strict: true,
})
const TOP = Number(flags.top)
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'))

const byId = new Map(profile.nodes.map((node) => [node.id, node]))
// A sample lasts until the next one (as Chrome DevTools counts): timeDeltas[i] is the gap
// before sample i, and the first one is the profiler's own start-up (hundreds of ms when
// started through the inspector), not time spent in that sample's function.
const selfUs = new Map()
const deltas = profile.timeDeltas
const { samples } = profile
const lastAt = profile.startTime + deltas.reduce((a, b) => a + b, 0)
for (let i = 0; i < samples.length; i++) {
  const us = i + 1 < samples.length ? deltas[i + 1] : Math.max(0, profile.endTime - lastAt)
  selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + us)
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0)

const packageOf = (url) => {
  if (url === '') return '(native / engine)'
  const parts = url.split('node_modules/')
  if (parts.length > 1) {
    const rest = parts.at(-1).split('/')
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]
  }
  if (url.startsWith('node:')) return 'node internals'
  return url.replace(/^file:\/\//, '').replace(/^.*\/work\/main\//, '')
}

const parentOf = new Map()
for (const node of profile.nodes)
  for (const child of node.children ?? []) parentOf.set(child, node.id)
/** Packages anywhere on the stack of a sample (inclusive time). */
const onStack = new Map()
for (const [id, us] of selfUs) {
  const seen = new Set()
  for (let at = id; at !== undefined; at = parentOf.get(at)) {
    const { url, functionName } = byId.get(at).callFrame
    if (url !== '') seen.add(packageOf(url))
    else if (functionName === '(idle)' || functionName === '(garbage collector)')
      seen.add(functionName)
  }
  for (const key of seen) onStack.set(key, (onStack.get(key) ?? 0) + us)
}

const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us)
const byFunction = new Map()
const byPackage = new Map()
for (const [id, us] of selfUs) {
  const { callFrame } = byId.get(id)
  const name = callFrame.functionName || '(anonymous)'
  add(byFunction, `${name}  ${packageOf(callFrame.url)}:${callFrame.lineNumber + 1}`, us)
  add(byPackage, packageOf(callFrame.url), us)
}
const print = (title, map) => {
  console.log(`\n${title}`)
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(
      `${((us / total) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`,
    )
}
console.log(`total sampled: ${(total / 1000).toFixed(0)} ms`)
print('self time by package / file', byPackage)
print('self time by function', byFunction)
print('time with the package on the stack (inclusive)', onStack)
