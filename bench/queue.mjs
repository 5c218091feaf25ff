// queue: N orders become payment links through a published webhook workflow (Webhook ->
// Split Out -> Paykit Payment Link Create, tools/n8n/batch.ts) in the real n8n 2.41.1:
//
//   queue, 2 workers:  tools/n8n/queue.ts (Postgres, Redis, main, 2 workers, a webhook
//                      processor), the batches posted to the main and the webhook
//                      processor in turn
//   queue, 1 worker:   the same stack once worker-2 is stopped
//   regular:           tools/n8n/stack.ts (one n8n process, SQLite), the same workflow
//
// Each run posts the N orders at once in batches of --batch (one execution each); the
// sandbox answers at once (no injected latency): on 2 cores the ratios are what matter.
//
//   node bench/queue.mjs [--items 1000] [--batch 50] [--runs 3]
//
// Prints a line per run, then one JSON line: the median of each configuration, the boot
// times, the resident memory of every process of the queue stack, and where the CPU went
// during each configuration's measured runs: CPU ms per item of each n8n process (with its
// task runner), Postgres and Redis, and the machine's busy share of its cores (from
// /proc/stat: every process, the sandbox and this one too), which says whether a second
// worker had a core to run on.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { startQueueStack } from '@paykit/tools/n8n/queue'
import { startStack, stopGroup } from '@paykit/tools/n8n/stack'
import {
  batchOrders,
  batchWorkflow,
  createLinkNode,
  postJson,
  publishWorkflow,
} from '@paykit/tools/n8n/batch'
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

/** The machine's busy and total CPU seconds since boot, over all cores (/proc/stat). */
const machineSeconds = () => {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/)
  const [user, nice, system, idle, iowait, irq, softirq, steal] = ticks.map(Number)
  const busy = user + nice + system + irq + softirq + steal
  // USER_HZ is 100 on Linux.
  return { busy: busy / 100, total: (busy + idle + iowait) / 100 }
}

/** CPU seconds (user + system, /proc/<pid>/stat) of a process and all its descendants so far. */
const treeCpuSeconds = (root) => {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
  let ticks = 0
  for (const pid of descendantsOf(root, table)) {
    try {
      // The fields after the command's closing parenthesis; utime and stime are 14 and 15.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // The process ended between ps and the read: its time is gone with it.
    }
  }
  return ticks / 100
}

/**
 * Warm-up (the token, n8n's caches), then the median of RUNS runs, and the CPU that each of
 * `processes` (name -> pid) and the machine spent over the measured runs.
 */
const figure = async (label, urls, processes) => {
  await measure(label, urls, 'warm-up')
  const cpuBefore = processes.map(([, pid]) => treeCpuSeconds(pid))
  const machineBefore = machineSeconds()
  const runs = []
  for (let r = 1; r <= RUNS; r++) runs.push(await measure(label, urls, r))
  const machine = machineSeconds()
  const items = ITEMS * RUNS
  const cpuMsPerItem = Object.fromEntries(
    processes.map(([name, pid], i) => [
      name,
      Number((((treeCpuSeconds(pid) - cpuBefore[i]) * 1000) / items).toFixed(2)),
    ]),
  )
  const busyShare =
    (machine.busy - machineBefore.busy) / Math.max(machine.total - machineBefore.total, 1e-9)
  return {
    itemsPerSecond: median(runs),
    runs,
    cpuMsPerItem,
    machineCpuMsPerItem: Number((((machine.busy - machineBefore.busy) * 1000) / items).toFixed(2)),
    machineBusyShare: Number(busyShare.toFixed(3)),
  }
}

/** `root` and every process under it, in a `ps` table of [pid, ppid, ...] rows. */
const descendantsOf = (root, table) => {
  const inTree = new Set([root])
  for (let grew = true; grew;) {
    grew = false
    for (const [pid, ppid] of table)
      if (inTree.has(ppid) && !inTree.has(pid)) grew = inTree.add(pid) !== undefined
  }
  return inTree
}

/** Resident memory of a process and all its descendants (n8n's task runner, Postgres's backends). */
const treeRssMb = (root) => {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,rss='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
  const inTree = descendantsOf(root, table)
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
  const queueProcesses = [
    ...queue.processes.map((p) => [p.name, p.child.pid]),
    ['postgres', queue.postgres.pid],
    ['redis', queue.redis.child.pid],
  ]
  result.twoWorkers = await figure('queue, 2 workers', urls, queueProcesses)
  result.rssMb = Object.fromEntries([
    ...queue.processes.map((p) => [p.name, Math.round(treeRssMb(p.child.pid))]),
    ['postgres', Math.round(treeRssMb(queue.postgres.pid))],
    ['redis', Math.round(treeRssMb(queue.redis.child.pid))],
  ])
  result.rssMb.total = Object.values(result.rssMb).reduce((a, b) => a + b, 0)
  await stopGroup(queue.workers[1]?.child)
  result.oneWorker = await figure(
    'queue, 1 worker',
    urls,
    queueProcesses.filter(([name]) => name !== 'worker-2'),
  )
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
  result.regular = await figure(
    'regular (one process)',
    [regular.editorUrl],
    regular.processes.map((p) => [p.name, p.child.pid]),
  )
} finally {
  await regular.stop()
}
result.twoWorkersVsOne = result.twoWorkers.itemsPerSecond / result.oneWorker.itemsPerSecond
result.queueVsRegular = result.twoWorkers.itemsPerSecond / result.regular.itemsPerSecond
console.log(JSON.stringify(result))
