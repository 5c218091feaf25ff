// The model kit's speed (issue 19): runs per second of 25-step stories of
// `@paykit/testkit/model` against the example's fixed checkout service, on the in-memory
// service (the default world) and on the nock mock (the core's fetch transport through
// nock's interceptors), the same stories on both. A run is one story: a fresh world and
// integration, the 25 steps with the invariants checked after each, and the "eventually"
// step. On nock a fault that makes the client wait (a hang, a latency past the timeout)
// costs the world's socket timeout (250 ms) of real time; in memory it costs nothing.
// Stories run one after the other (one core); each figure is the median of --runs runs.
//
//   node bench/model.mjs [--stories 300] [--nock-stories 60] [--runs 3] [--seed 19]
//
// Needs the built packages (`pnpm run build`).
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import fc from 'fast-check'
import { stories } from '@paykit/testkit/model'
import { fixedCheckout } from '../packages/testkit/examples/checkout/checkoutService.ts'
import { CORES, median } from './support.mjs'

const { values: flags } = parseArgs({
  options: {
    stories: { type: 'string', default: '300' },
    'nock-stories': { type: 'string', default: '60' },
    runs: { type: 'string', default: '3' },
    seed: { type: 'string', default: '19' },
  },
  strict: true,
})
const STEPS = 25
const RUNS = Number(flags.runs)
// The same seed draws the same steps whatever the service: story i is the same on both.
const storiesOf = (service, n, seed) =>
  fc.sample(stories({ integration: fixedCheckout, service, minSteps: STEPS, maxSteps: STEPS }), {
    numRuns: n,
    seed,
  })

/** Plays every story (each on the service it was drawn for); resolves with runs per second. */
const measure = async (played) => {
  const started = performance.now()
  for (const story of played) await story.play()
  return played.length / ((performance.now() - started) / 1000)
}

const seed = Number(flags.seed)
const NOCK = Number(flags['nock-stories'])
const memoryStories = storiesOf('memory', Number(flags.stories), seed)
const onNock = storiesOf('nock', Number(flags.stories), seed)
const nockStories = onNock.slice(0, NOCK)
await measure(storiesOf('memory', 50, seed + 1)) // warm-up
// The same stories without the steps that make a socket client wait (hang, latency): what
// the transport itself costs.
const waits = (step) => /never answers|is answered after/.test(String(step))
const noWaitAt = memoryStories
  .map((s, i) => (s.steps.some(waits) ? -1 : i))
  .filter((i) => i >= 0)
  .slice(0, NOCK)
const noWait = noWaitAt.map((i) => memoryStories[i])
const nockNoWait = []
const memory = []
const nock = []
const sameStories = []
const noWaitOnNock = noWaitAt.map((i) => onNock[i])
const memoryNoWait = []
for (let r = 0; r < RUNS; r++) {
  memory.push(await measure(memoryStories))
  nock.push(await measure(nockStories))
  sameStories.push(await measure(memoryStories.slice(0, NOCK)))
  nockNoWait.push(await measure(noWaitOnNock))
  memoryNoWait.push(await measure(noWait))
  console.log(
    `run ${r + 1}: memory ${memory.at(-1).toFixed(0)} runs/s, nock ${nock.at(-1).toFixed(1)} runs/s ` +
      `(memory on those ${sameStories.at(-1).toFixed(0)}); no waiting fault: nock ${nockNoWait.at(-1).toFixed(1)}, memory ${memoryNoWait.at(-1).toFixed(0)} runs/s`,
  )
}
const result = {
  steps: STEPS,
  cores: CORES,
  seed,
  memory: { stories: memoryStories.length, runsPerSecond: median(memory) },
  nock: { stories: nockStories.length, runsPerSecond: median(nock) },
  memoryOnNockStories: median(sameStories),
  ratio: median(sameStories) / median(nock),
  noWait: {
    stories: noWait.length,
    nockRunsPerSecond: median(nockNoWait),
    memoryRunsPerSecond: median(memoryNoWait),
    ratio: median(memoryNoWait) / median(nockNoWait),
  },
}
console.log(JSON.stringify(result))
