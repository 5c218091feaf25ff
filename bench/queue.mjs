// queue: N orders become payment links through a published webhook workflow (Webhook ->
// Split Out -> Paykit Payment Link Create, scripts/n8n/batch.ts) in the real n8n 2.41.1:
//
//   queue, 2 workers:  scripts/n8n/queue.ts (Postgres, Redis, main, 2 workers, a webhook
//                      processor), the batches posted to the main and the webhook
//                      processor in turn
//   queue, 1 worker:   the same stack once worker-2 is stopped
//   regular:           scripts/n8n/stack.ts (one n8n process, SQLite), the same workflow
//
// Each run posts the N orders at once in batches of --batch (one execution each); the
// sandbox answers at once (no injected latency): on 2 cores the ratios are what matter.
//
//   node bench/queue.mjs [--items 1000] [--batch 50] [--runs 3]
//
// Prints a line per run, then one JSON line: the median of each configuration, the boot
// times and the resident memory of every process of the queue stack.
import { execFileSync } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { startQueueStack } from '../scripts/n8n/queue.ts'
import { startStack, stopGroup } from '../scripts/n8n/stack.ts'
import {
  batchOrders,
  batchWorkflow,
  createLinkNode,
  postJson,
  publishWorkflow,
} from '../scripts/n8n/batch.ts'
import { median } from './support.mjs'

const { values: flags } = parseArgs({
  options: {
    items: { type: 'string', default: '1000' },
    batch: { type: 'string', default: '50' },
    runs: { type: 'string', default: '3' },
  },
  strict: true,
})
const ITEMS = Number(flags.items)
const BATCH = Number(flags.batch)
const RUNS = Number(flags.runs)
const quiet = { log: (line) => process.stderr.write(`  ${line}\n`) }

/** One run: every batch posted at once, to `urls` in turn; items/s of the whole. */
const measure = async (label, urls, run) => {
  const batches = Array.from({ length: Math.ceil(ITEMS / BATCH) }, (_, b) =>
    batchOrders(`${label}-${run}-${b}`, Math.min(BATCH, ITEMS - b * BATCH)),
  )
  const started = performance.now()
  const answers = await Promise.all(
    batches.map((orders, b) => postJson(`${urls[b % urls.length]}webhook/bench-links`, { orders })),
  )
  const ms = performance.now() - started
  const links = answers.reduce((n, a) => n + (Array.isArray(a.json) ? a.json.length : 0), 0)
  if (links !== ITEMS) throw new Error(`${label}: ${links} links of ${ITEMS}`)
  const itemsPerSecond = ITEMS / (ms / 1000)
  process.stderr.write(
    `${label} run ${run}: ${ms.toFixed(0)} ms, ${itemsPerSecond.toFixed(0)} items/s\n`,
  )
  return itemsPerSecond
}

/** Warm-up (the token, n8n's caches), then the median of RUNS runs. */
const figure = async (label, urls) => {
  await measure(label, urls, 'warm-up')
  const runs = []
  for (let r = 1; r <= RUNS; r++) runs.push(await measure(label, urls, r))
  return { itemsPerSecond: median(runs), runs }
}

/** Resident memory of a process and all its descendants (n8n's task runner, Postgres's backends). */
const treeRssMb = (root) => {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,rss='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
  const inTree = new Set([root])
  for (let grew = true; grew;) {
    grew = false
    for (const [pid, ppid] of table)
      if (inTree.has(ppid) && !inTree.has(pid)) grew = inTree.add(pid) !== undefined
  }
  return table.filter(([pid]) => inTree.has(pid)).reduce((kb, [, , rss]) => kb + rss, 0) / 1024
}

const workflow = batchWorkflow('bench-links', 'lastNode', [createLinkNode(0)])
const result = { items: ITEMS, batch: BATCH, runs: RUNS }

// The stack running now, or the one starting, stopped on SIGTERM or SIGINT (the runner giving
// up): its processes are in process groups of their own and would outlive this one.
let current
const stopCurrent = async () => (await current?.catch(() => undefined))?.stop()
for (const [signal, code] of [
  ['SIGTERM', 143],
  ['SIGINT', 130],
])
  process.on(signal, () => void stopCurrent().finally(() => process.exit(code)))

let booted = performance.now()
current = startQueueStack({ workers: 2, ...quiet })
const queue = await current
try {
  result.queueBootSeconds = (performance.now() - booted) / 1000
  const urls = [queue.editorUrl, queue.webhook.url]
  await publishWorkflow(queue, workflow, urls)
  result.twoWorkers = await figure('queue, 2 workers', urls)
  result.rssMb = Object.fromEntries([
    ...queue.processes.map((p) => [p.name, Math.round(treeRssMb(p.child.pid))]),
    ['postgres', Math.round(treeRssMb(queue.postgres.pid))],
    ['redis', Math.round(treeRssMb(queue.redis.child.pid))],
  ])
  result.rssMb.total = Object.values(result.rssMb).reduce((a, b) => a + b, 0)
  await stopGroup(queue.workers[1]?.child)
  result.oneWorker = await figure('queue, 1 worker', urls)
} finally {
  await queue.stop()
  current = undefined
}

booted = performance.now()
current = startStack(quiet)
const regular = await current
try {
  result.regularBootSeconds = (performance.now() - booted) / 1000
  await publishWorkflow(regular, workflow, [regular.editorUrl])
  result.regular = await figure('regular (one process)', [regular.editorUrl])
} finally {
  await regular.stop()
}
result.twoWorkersVsOne = result.twoWorkers.itemsPerSecond / result.oneWorker.itemsPerSecond
result.queueVsRegular = result.twoWorkers.itemsPerSecond / result.regular.itemsPerSecond
console.log(JSON.stringify(result))
