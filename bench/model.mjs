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
import { runStory, steps } from '@paykit/testkit/model'
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
const storiesOf = (n, seed) =>
  fc.sample(fc.array(fc.oneof(...steps(['o1', 'o2'])), { minLength: STEPS, maxLength: STEPS }), {
    numRuns: n,
    seed,
  })

/** Plays every story on `service`; resolves with runs per second. */
const measure = async (service, stories) => {
  const play = runStory({ integration: fixedCheckout, service })
  const started = performance.now()
  for (const story of stories) await play(story)
  return stories.length / ((performance.now() - started) / 1000)
}

const seed = Number(flags.seed)
const memoryStories = storiesOf(Number(flags.stories), seed)
const nockStories = memoryStories.slice(0, Number(flags['nock-stories']))
await measure('memory', storiesOf(50, seed + 1)) // warm-up
// The same stories without the steps that make a socket client wait (hang, latency): what
// the transport itself costs.
const waits = (step) => /never answers|is answered after/.test(String(step))
const noWait = memoryStories.filter((s) => !s.some(waits)).slice(0, Number(flags['nock-stories']))
const memory = []
const nock = []
const sameStories = []
const nockNoWait = []
const memoryNoWait = []
for (let r = 0; r < RUNS; r++) {
  memory.push(await measure('memory', memoryStories))
  nock.push(await measure('nock', nockStories))
  sameStories.push(await measure('memory', nockStories))
  nockNoWait.push(await measure('nock', noWait))
  memoryNoWait.push(await measure('memory', noWait))
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
