// Stories the model kit needs to find each bug seeded in its examples, on seeds 1-8, and
// the correct services' results over 1,000 stories (issue 37): the figures of
// docs/testkit/model-kit.md's table. Each bug is checked with up to --runs stories per seed;
// the figure is the story that failed first (fast-check's run count), '>N' if none did.
//
//   node packages/testkit/bench/model.mjs [--runs 1000] [--seeds 1-8] [--only name] [--correct]
//
// Needs the built packages (`pnpm run build`); the examples' TypeScript is run by Node's
// type stripping (their './x.js' imports resolved to './x.ts').
import { registerHooks } from 'node:module'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'

registerHooks({
  resolve: (specifier, context, next) => {
    try {
      return next(specifier, context)
    } catch (e) {
      if (!specifier.startsWith('.') || !specifier.endsWith('.js')) throw e
      return next(specifier.replace(/\.js$/, '.ts'), context)
    }
  },
})
const { checkModel } = await import('@paykit/testkit/model')
const checkout = await import('../examples/checkout/checkoutService.ts')
const orders = await import('../examples/orders/underTheKit.ts')
const billing = await import('../examples/billing/underTheKit.ts')

const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    seeds: { type: 'string', default: '1-8' },
    only: { type: 'string' },
    correct: { type: 'boolean', default: false },
  },
  strict: true,
})
const [from, to] = flags.seeds.split('-').map(Number)
const seeds = Array.from({ length: (to ?? from) - from + 1 }, (_, i) => from + i)
const RUNS = Number(flags.runs)

/** The seeded bugs: a name and the model options of the buggy service. */
const BILLING = [
  'floorCents',
  'trustsUnsigned',
  'acceptsStale',
  'renumbersOnRetry',
  'invoiceByIndex',
]
const bugs = [
  ...checkout.MISTAKES.map((m) => [
    `checkout ${m}`,
    { integration: checkout.checkoutService({ [m]: true }) },
  ]),
  ...BILLING.map((b) => [
    `billing ${b}`,
    { ...billing.billingModel, integration: billing.underTheKit({ [b]: true }) },
  ]),
]
const correct = [
  ['checkout fixedCheckout', { integration: checkout.fixedCheckout }],
  ['checkout readsBack', { integration: checkout.checkoutService({ readsBack: true }) }],
  ['orders', orders.orderServiceModel],
  ['billing', billing.billingModel],
]

const run = async (name, options, seed) => {
  const started = performance.now()
  const report = await checkModel({ ...options, numRuns: RUNS, seed })
  const s = (performance.now() - started) / 1000
  return {
    name,
    seed,
    ok: report.ok,
    found: report.ok ? `>${RUNS}` : report.numRuns,
    s,
    invariant: report.invariant,
  }
}

for (const [name, options] of flags.correct ? correct : bugs) {
  if (flags.only !== undefined && !name.includes(flags.only)) continue
  const rows = []
  for (const seed of seeds) rows.push(await run(name, options, seed))
  const found = rows.map((r) => r.found)
  const worst = Math.max(...rows.map((r) => (r.ok ? Infinity : r.found)))
  console.log(
    `${name}: ${found.join(', ')} (max ${worst}; ${rows.reduce((t, r) => t + r.s, 0).toFixed(1)} s) ${[...new Set(rows.map((r) => r.invariant ?? 'held'))].join(' | ')}`,
  )
}
