// `pnpm bench`: every benchmark of the project in one run, one table of figures with the
// ratio to the peer measured in the same run, the target and whether it is met; the
// machine's core count printed. Each figure is the median of 3 runs (the scripts below
// do the repeating). Writes the table into BENCHMARKS.md (between its bench markers)
// with the date, the machine, the commands and inputs.
//
//   node bench/run.mjs            # the full run (a few minutes on 2 cores)
//   node bench/run.mjs --smoke    # a few items, one run each, seconds; BENCHMARKS.md untouched
//
// Sections: bench/n8n.mjs (Paykit node vs n8n's HTTP Request node), bench/client.mjs
// (client vs raw fetch), bench/model.mjs (the model kit's stories, in memory vs nock),
// packages/core/bench/validate.mjs (when present),
// packages/testkit/bench/sandbox.mjs (when present), bench/http.mjs (sandbox vs Prism), and
// packages/testkit/bench/stored-orders.mjs and links.mjs (the sandbox at scale).
// Needs the built packages (`pnpm run build`; `pnpm bench` builds first).
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join, relative } from 'node:path'
import { parseArgs } from 'node:util'
import { CORES, ROOT, fmt, runJson, stopRunning } from './support.mjs'

// Told to stop (the smoke test's end, Ctrl-C): the running section stops what it started first.
for (const [signal, code] of [
  ['SIGTERM', 143],
  ['SIGINT', 130],
])
  process.on(signal, () => void stopRunning().finally(() => process.exit(code)))

const { values: flags } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    write: { type: 'boolean' },
  },
  strict: true,
})
const SMOKE = flags.smoke
const WRITE = flags.write ?? !SMOKE
const bench = (name) => join(ROOT, 'bench', name)
const VALIDATE = join(ROOT, 'packages', 'core', 'bench', 'validate.mjs')
const SANDBOX_BENCH = join(ROOT, 'packages', 'testkit', 'bench', 'sandbox.mjs')

const args = {
  n8n: SMOKE ? ['--items', '20', '--runs', '1'] : [],
  queue: SMOKE ? ['--items', '100', '--runs', '1'] : [],
  client: SMOKE ? ['--calls', '50', '--runs', '1'] : [],
  model: SMOKE ? ['--stories', '20', '--nock-stories', '4', '--runs', '1'] : [],
  http: SMOKE ? ['--duration', '1', '--runs', '1'] : [],
  sandbox: ['--duration', SMOKE ? '1' : '5'],
  stored: SMOKE
    ? ['--orders', '300', '--duration', '1']
    : ['--orders', '100000', '--duration', '5'],
  links: SMOKE ? ['--links', '1000', '--advance-every', '100'] : ['--links', '100000'],
}
const validateEnv = SMOKE ? { BENCH_MS: '40' } : {}

const machine = {
  cores: CORES,
  cpu: cpus()[0]?.model ?? 'unknown',
  node: process.version,
  loadBefore: loadavg()[0],
}
console.log(
  `machine: ${machine.cores} cores (${machine.cpu}), Node ${machine.node}, load average ${machine.loadBefore.toFixed(1)}${SMOKE ? ' [smoke run: figures not meaningful]' : ''}`,
)

// -------------------------------------------------------------------------------------
// running the sections
// -------------------------------------------------------------------------------------

/** Runs `node script args` and resolves with what it printed (stdout) and its exit code. */
const runText = (script, scriptArgs, env = {}) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...scriptArgs], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.on('error', (error) => resolve({ out, err: String(error), code: -1 }))
    child.on('exit', (code) => resolve({ out, err, code }))
  })

/** Runs a script `runs` times and resolves with each run's figures, as `read` finds them. */
const runTimes = async (runs, script, scriptArgs, read) => {
  const results = []
  for (let i = 0; i < runs; i++) {
    const { out, err, code } = await runText(script, scriptArgs)
    if (code !== 0) throw new Error(`${relative(ROOT, script)} exited with ${code}: ${err.trim()}`)
    results.push(read(out))
  }
  return results
}
/** The median of one figure over the runs of `runTimes`. */
const medianOf = (results, key) => {
  const sorted = results.map((r) => r[key]).sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

const failures = []
/**
 * Runs one section and reports its time; a section that fails is run once more (a
 * process killed by the busy machine), and the table says when it failed twice.
 */
const section = async (name, task) => {
  const started = Date.now()
  process.stdout.write(`${name} ... `)
  for (let attempt = 1; ; attempt++) {
    try {
      const value = await task()
      console.log(`${((Date.now() - started) / 1000).toFixed(1)} s`)
      return value
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      console.log(attempt === 1 ? `failed, once more (${message.split('\n')[0]}) ... ` : 'FAILED')
      if (attempt === 1) continue
      console.error(message)
      failures.push(name)
      return { error: message.split('\n')[0] }
    }
  }
}

const n8n = await section('n8n', () => runJson(bench('n8n.mjs'), args.n8n))
const n8nHelpers = await section('n8n --helpers', () =>
  runJson(bench('n8n.mjs'), [...args.n8n, '--helpers']),
)
// n8n's queue mode (Postgres, Redis, workers: minutes, most of them booting n8n twice).
const queue = await section('n8n queue mode', () =>
  runJson(bench('queue.mjs'), args.queue, { timeoutMs: 1_200_000 }),
)
const client = await section('client', () => runJson(bench('client.mjs'), args.client))
const model = await section('model kit', () => runJson(bench('model.mjs'), args.model))

/**
 * validate.mjs prints `valid:` / `invalid:` blocks of `  <peer>  <n> M/s|k/s|/s  <r>x validate`
 * (`r`: the peer's figure over validate's, the median of the rounds' ratios): the figures,
 * and the ratios under `ratios`.
 */
const parseValidate = (text) => {
  const out = { ratios: {} }
  let kind
  for (const line of text.split('\n')) {
    const head = /^(valid|invalid):\s*$/.exec(line.trim())
    if (head !== null) {
      kind = head[1]
      out[kind] = {}
      out.ratios[kind] = {}
      continue
    }
    const row = /^\s+(\S.*?)\s{2,}([\d.]+)\s*(M|k)?\/s(?:\s+([\d.]+)x validate)?/.exec(line)
    if (kind !== undefined && row !== null) {
      out[kind][row[1].trim()] = Number(row[2]) * (row[3] === 'M' ? 1e6 : row[3] === 'k' ? 1e3 : 1)
      if (row[4] !== undefined) out.ratios[kind][row[1].trim()] = Number(row[4])
    }
  }
  return out
}
const validation = existsSync(VALIDATE)
  ? await section('validation', async () => {
      const { out, err, code } = await runText(VALIDATE, [], validateEnv)
      if (code !== 0) throw new Error(`validate.mjs exited with ${code}: ${err.trim()}`)
      return { text: out.trim(), figures: parseValidate(out) }
    })
  : { missing: true }

// The testkit's sandbox benchmark: sandbox.mjs when it exists, else its per-endpoint
// scripts (each prints `ratio sandbox/bare: <x>`).
const TESTKIT_SCRIPTS = existsSync(SANDBOX_BENCH)
  ? [SANDBOX_BENCH]
  : ['get-order.mjs', 'post-checkout.mjs']
      .map((name) => join(ROOT, 'packages', 'testkit', 'bench', name))
      .filter((path) => existsSync(path))
const sandboxBench = SMOKE
  ? { skipped: true }
  : TESTKIT_SCRIPTS.length > 0
    ? await section('sandbox vs bare (testkit)', async () => {
        const texts = []
        for (const script of TESTKIT_SCRIPTS) {
          const { out, err, code } = await runText(script, args.sandbox)
          if (code !== 0)
            throw new Error(`${relative(ROOT, script)} exited with ${code}: ${err.trim()}`)
          texts.push(`$ node ${relative(ROOT, script)} ${args.sandbox.join(' ')}\n${out.trim()}`)
        }
        return { text: texts.join('\n\n') }
      })
    : { missing: true }
const http = await section('sandbox vs Prism', () => runJson(bench('http.mjs'), args.http))

// The sandbox at scale (issue 10): the same requests with 100,000 orders stored as with
// one, and the memory over 100,000 links, each the median of 3 runs of the testkit's own
// scripts (the smoke run: a few hundred orders, once).
const SCALE_RUNS = SMOKE ? 1 : 3
const storedOrders = await section('sandbox with stored orders', () =>
  runTimes(
    SCALE_RUNS,
    join(ROOT, 'packages', 'testkit', 'bench', 'stored-orders.mjs'),
    args.stored,
    (out) => {
      const rps = (label) => Number(new RegExp(`^${label}\\s+(\\d+) req/s`, 'm').exec(out)?.[1])
      const ratio = (kind) =>
        Number(new RegExp(`ratio ${kind} \\d+/1 orders: ([\\d.]+) req/s`).exec(out)?.[1])
      return {
        get: ratio('GET'),
        post: ratio('POST'),
        getOne: rps('GET order, 1 order'),
        postOne: rps('POST checkout, ~1 order'),
        getMany: rps('GET order, \\d+ orders'),
        postMany: rps('POST checkout, \\d+ orders'),
      }
    },
  ),
)
const links = await section('sandbox memory over many links', () =>
  runTimes(
    SCALE_RUNS,
    join(ROOT, 'packages', 'testkit', 'bench', 'links.mjs'),
    args.links,
    (out) => {
      const m =
        /growth (\d+) -> (\d+) links: RSS (\d+) -> (\d+) MB \(([+-]\d+)%\), heap used \+ external (\d+) -> (\d+) MB/.exec(
          out,
        )
      if (m === null) throw new Error(`links.mjs printed no growth line: ${out.slice(-300)}`)
      const [from, to, rssFrom, rssTo, , liveFrom, liveTo] = m.slice(1).map(Number)
      return { from, to, rssFrom, rssTo, rssGrowth: (rssTo - rssFrom) / rssFrom, liveFrom, liveTo }
    },
  ),
)

// -------------------------------------------------------------------------------------
// the table
// -------------------------------------------------------------------------------------

const rows = []
/** `ok`: a boolean, or `[[what, boolean], ...]` for a row with several targets. */
const verdict = (ok) =>
  ok === undefined
    ? ''
    : Array.isArray(ok)
      ? ok.map(([what, met]) => `${what}: ${met ? 'met' : 'missed'}`).join(', ')
      : ok
        ? 'met'
        : 'missed'
/** One row: figure, value, the peer's value, ratio, target, met/missed. */
const row = (figure, value, peer = '', ratio = '', target = '', ok = undefined) =>
  rows.push([figure, value, peer, ratio, target, verdict(ok)])
const x = (r) => `${fmt(r)}x`
const failed = (name, result) =>
  row(
    name,
    result.missing
      ? 'script missing: not run'
      : result.skipped
        ? 'not run in a smoke run (fixed 2 s warm-ups)'
        : `failed: ${result.error}`,
  )

if (n8n.error === undefined) {
  const p = n8n.paykit
  const h = n8n.http
  const tag = `${n8n.items} items, ${n8n.latencyMs} ms latency`
  const speedup = p.itemsPerSecond / h.itemsPerSecond
  row(
    `n8n Paykit node items/s (${tag})`,
    `${fmt(p.itemsPerSecond)}/s (${fmt(p.wallMs)} ms)`,
    `HTTP Request node ${fmt(h.itemsPerSecond)}/s (${fmt(h.wallMs)} ms)`,
    x(speedup),
    '>= 3x (One Link per Order Reference on)',
    speedup >= 3,
  )
  row(
    'n8n Paykit node, most requests in flight',
    fmt(p.maxInFlight),
    `HTTP Request node ${fmt(h.maxInFlight)}`,
    '',
    `<= ${n8n.concurrency}`,
    p.maxInFlight <= n8n.concurrency,
  )
  row(
    'n8n Paykit node, most in flight during its first 64 requests',
    fmt(p.maxInFlightFirst64),
    `HTTP Request node ${fmt(h.maxInFlightFirst64)}`,
    '',
    'report (64 expected)',
  )
  row(
    `n8n Paykit node wall vs floor (${n8n.items} x ${n8n.latencyMs} ms / ${n8n.concurrency})`,
    `${fmt(p.wallMs)} ms`,
    `floor ${fmt(n8n.floorMs)} ms`,
    x(p.wallMs / n8n.floorMs),
    '<= 2x',
    p.wallMs / n8n.floorMs <= 2,
  )
  // The credential keeps its token per process: the first run fetches it, the others reuse it.
  row(
    'n8n Paykit node token requests (median run; one token per process)',
    fmt(p.tokenRequests),
    '',
    '',
    '<= 1',
    p.tokenRequests <= 1,
  )
  if (n8nHelpers.error === undefined) {
    const wall = n8nHelpers.paykit.wallMs
    const raw = n8nHelpers.helper.wallMs
    row(
      `n8n Paykit node wall / n8n raw request path (--helpers, ${n8nHelpers.items} requests)`,
      `${fmt(wall)} ms`,
      `n8n request helpers ${fmt(raw)} ms`,
      x(wall / raw),
      '<= 1.2x',
      wall / raw <= 1.2,
    )
  } else failed('n8n --helpers', n8nHelpers)
  row(
    'n8n CPU of the n8n process per item',
    `Paykit ${fmt(p.cpuMsPerItem)} ms`,
    `HTTP Request node ${fmt(h.cpuMsPerItem)} ms`,
    x(p.cpuMsPerItem / h.cpuMsPerItem),
  )
  row(
    'n8n new TCP connections (Paykit node)',
    fmt(p.connections),
    `HTTP Request node ${fmt(h.connections)}`,
    '',
    'report (n8n 2.41 helpers: new agent per request)',
  )
} else failed('n8n', n8n)

if (queue.error === undefined) {
  const tag = `${queue.items} links, batches of ${queue.batch} through a webhook workflow`
  const two = queue.twoWorkers.itemsPerSecond
  row(
    `n8n queue mode, 2 workers vs 1 (${tag})`,
    `${fmt(two)}/s`,
    `1 worker ${fmt(queue.oneWorker.itemsPerSecond)}/s`,
    x(queue.twoWorkersVsOne),
  )
  row(
    'n8n queue mode (2 workers) vs regular mode, the same workflow',
    `${fmt(two)}/s`,
    `one process ${fmt(queue.regular.itemsPerSecond)}/s`,
    x(queue.queueVsRegular),
  )
  if (n8n.error === undefined)
    row(
      'n8n queue mode (2 workers) vs the in-process engine (bench/n8n.mjs)',
      `${fmt(two)}/s`,
      `${fmt(n8n.paykit.itemsPerSecond)}/s`,
      x(two / n8n.paykit.itemsPerSecond),
    )
  row(
    'n8n queue mode: boot, resident memory of every process',
    `${fmt(queue.queueBootSeconds)} s, ${fmt(queue.rssMb.total)} MB`,
    `regular mode ${fmt(queue.regularBootSeconds)} s`,
  )
  // Where the CPU went: whether a second worker had a core to run on.
  const cpuOf = (f) =>
    f.cpuMsPerItem === undefined
      ? 'not measured'
      : `${Object.entries(f.cpuMsPerItem)
          .map(([name, ms]) => `${name} ${fmt(ms)}`)
          .join(', ')} ms/item; machine ${fmt(f.machineCpuMsPerItem)} ms/item, ${fmt(
          f.machineBusyShare * 100,
        )} % of ${CORES} cores busy`
  row('n8n queue mode, 2 workers: CPU per item by process', cpuOf(queue.twoWorkers), '')
  row('n8n queue mode, 1 worker: CPU per item by process', cpuOf(queue.oneWorker), '')
  row('n8n regular mode: CPU per item', cpuOf(queue.regular), '')
} else failed('n8n queue mode', queue)

if (client.error === undefined) {
  for (const level of [1, 16]) {
    const c = client[`inflight${level}`]
    if (c === undefined) continue
    row(
      `client getOrder vs raw fetch, ${level} in flight (${client.calls} calls)`,
      `${fmt(c.clientPerSecond)}/s`,
      `fetch ${fmt(c.fetchPerSecond)}/s`,
      `${x(c.ratio)} time`,
      '<= 1.05x',
      c.ratio <= 1.05,
    )
    // The reference: bare fetch with the per-request timeout the transport needs (an
    // AbortController's signal, which undici follows with listeners and a finalizer).
    row(
      `client getOrder vs fetch with a timeout signal, ${level} in flight`,
      `${fmt(c.clientPerSecond)}/s`,
      `fetch + signal ${fmt(c.fetchTimeoutPerSecond)}/s`,
      `${x(c.ratioToFetchTimeout)} time`,
      'report',
    )
    row(
      `client vs raw fetch, CPU per call, ${level} in flight`,
      `client ${fmt(c.clientCpuUsPerCall)} µs`,
      `fetch ${fmt(c.fetchCpuUsPerCall)} µs`,
      x(c.clientCpuUsPerCall / c.fetchCpuUsPerCall),
    )
  }
} else failed('client vs fetch', client)

if (model.error === undefined) {
  row(
    `model kit: runs/s of ${model.steps}-step stories, in memory vs nock (the same ${model.nock.stories} stories)`,
    `${fmt(model.memory.runsPerSecond)}/s (${model.memory.stories} stories)`,
    `nock ${fmt(model.nock.runsPerSecond)}/s`,
    x(model.ratio),
    '>= 150 runs/s in memory',
    model.memory.runsPerSecond >= 150,
  )
  row(
    `model kit: the same without a fault that makes a socket client wait (${model.noWait.stories} stories)`,
    `${fmt(model.noWait.memoryRunsPerSecond)}/s`,
    `nock ${fmt(model.noWait.nockRunsPerSecond)}/s`,
    x(model.noWait.ratio),
  )
} else failed('model kit', model)

if (validation.figures !== undefined) {
  for (const kind of ['valid', 'invalid']) {
    const f = validation.figures[kind] ?? {}
    const mine = f['validate']
    const zod = Object.entries(f).find(([name]) => /zod/i.test(name))?.[1]
    const ajv = Object.entries(f).find(([name]) => /ajv/i.test(name))?.[1]
    // Paired: the median of the rounds' ratios when printed, else the figures' ratio.
    const ajvOverMine = Object.entries(validation.figures.ratios?.[kind] ?? {}).find(([name]) =>
      /ajv/i.test(name),
    )?.[1]
    const ofAjv =
      ajvOverMine !== undefined && ajvOverMine > 0
        ? 1 / ajvOverMine
        : ajv === undefined
          ? undefined
          : mine / ajv
    if (mine === undefined) continue
    const peers = Object.entries(f)
      .filter(([name]) => name !== 'validate')
      .map(([name, v]) => `${name} ${fmt(v)}/s`)
      .join(', ')
    row(
      `validate(PaymentLinkRequest), ${kind} inputs`,
      `${fmt(mine)}/s`,
      peers,
      [
        ofAjv === undefined ? '' : `${x(ofAjv)} ajv 8`,
        zod === undefined ? '' : `${x(mine / zod)} zod 4`,
      ]
        .filter((r) => r !== '')
        .join(', '),
      kind === 'valid' ? '>= 1x ajv 8' : '>= 0.5x ajv 8',
      ofAjv === undefined ? undefined : ofAjv >= (kind === 'valid' ? 1 : 0.5),
    )
  }
  if (validation.figures.valid === undefined && validation.figures.invalid === undefined)
    row('validation', 'output not understood: see below')
} else failed('validation (packages/core/bench/validate.mjs)', validation)

if (http.error === undefined) {
  const g = http.getOrder
  const c = http.postCheckout
  row(
    `sandbox GET order, ${http.connections} connections`,
    `${fmt(g.sandbox.rps)} req/s, p50 ${g.sandbox.p50} ms, p99 ${g.sandbox.p99} ms`,
    `Prism ${fmt(g.prism.rps)} req/s, p99 ${g.prism.p99} ms`,
    x(g.ratio),
    '>= 10,000 req/s, p99 < 10 ms, >= 5x Prism',
    [
      ['req/s', g.sandbox.rps >= 10_000],
      ['p99', g.sandbox.p99 < 10],
      ['Prism', g.ratio >= 5],
    ],
  )
  row(
    `sandbox POST checkout, ${http.connections} connections`,
    `${fmt(c.sandbox.rps)} req/s, p50 ${c.sandbox.p50} ms, p99 ${c.sandbox.p99} ms`,
    `Prism ${fmt(c.prism.rps)} req/s, p99 ${c.prism.p99} ms`,
    x(c.ratio),
    '>= 3,000 req/s, >= 5x Prism',
    [
      ['req/s', c.sandbox.rps >= 3_000],
      ['Prism', c.ratio >= 5],
    ],
  )
  row(
    'peak RSS of the server process',
    `sandbox ${fmt(http.peakRssMb.sandbox)} MB`,
    `Prism ${fmt(http.peakRssMb.prism)} MB`,
    x(http.peakRssMb.sandbox / http.peakRssMb.prism),
    'report (Prism reference 487 MB)',
  )
} else failed('sandbox vs Prism', http)
if (storedOrders.error === undefined) {
  for (const kind of ['get', 'post']) {
    const ratio = medianOf(storedOrders, kind)
    const run = storedOrders.find((r) => r[kind] === ratio) ?? storedOrders[0]
    row(
      `sandbox ${kind === 'get' ? 'GET order' : 'POST checkout'} req/s, ${args.stored[1]} orders stored vs 1`,
      `${fmt(run[`${kind}Many`])} req/s`,
      `1 order stored ${fmt(run[`${kind}One`])} req/s`,
      x(ratio),
      '>= 0.9x (within 10%)',
      ratio >= 0.9,
    )
  }
} else failed('sandbox with stored orders (packages/testkit/bench/stored-orders.mjs)', storedOrders)
if (links.error === undefined) {
  const growth = medianOf(links, 'rssGrowth')
  const run = links.find((r) => r.rssGrowth === growth) ?? links[0]
  row(
    `sandbox RSS, ${fmt(run.from)} -> ${fmt(run.to)} links (expired links dropped)`,
    `${fmt(run.rssFrom)} -> ${fmt(run.rssTo)} MB (heap + external ${fmt(run.liveFrom)} -> ${fmt(run.liveTo)} MB)`,
    '',
    `${growth >= 0 ? '+' : ''}${fmt(Math.round(growth * 100))}%`,
    'within 20%',
    Math.abs(growth) <= 0.2,
  )
} else failed('sandbox memory over many links (packages/testkit/bench/links.mjs)', links)
if (sandboxBench.text === undefined)
  failed('sandbox vs bare node:http (packages/testkit/bench)', sandboxBench)
else {
  // `<name>: ...` headings, each followed (later) by `ratio sandbox/bare: <x>`.
  let name = 'sandbox'
  let found = false
  for (const line of sandboxBench.text.split('\n')) {
    const heading = /^((?:GET|POST) \S+)/.exec(line)
    if (heading !== null) name = heading[1].replace(/:$/, '')
    const ratio = /ratio sandbox\/bare:\s*([\d.]+)/.exec(line)
    if (ratio !== null) {
      found = true
      row(
        `sandbox vs bare node:http, ${name} (testkit bench)`,
        '',
        'bare node:http',
        x(Number(ratio[1])),
        'report',
      )
    }
  }
  if (!found) row('sandbox vs bare node:http (testkit bench)', 'see its output below')
}

const header = ['figure', 'value', 'peer (same run)', 'ratio', 'target', 'verdict']
const markdown = [
  `| ${header.join(' | ')} |`,
  `| ${header.map(() => '---').join(' | ')} |`,
  ...rows.map((r) => `| ${r.map((cell) => String(cell).replaceAll('|', '\\|')).join(' | ')} |`),
].join('\n')

console.log(`\nmachine: ${CORES} cores; median of ${SMOKE ? 1 : 3} runs per figure\n`)
console.log(markdown)
for (const [name, result] of [
  ['packages/core/bench/validate.mjs', validation],
  ['packages/testkit/bench', sandboxBench],
])
  if (result.text !== undefined) console.log(`\n${name}:\n${result.text}`)

// -------------------------------------------------------------------------------------
// BENCHMARKS.md
// -------------------------------------------------------------------------------------

const BEGIN = '<!-- bench:begin (written by bench/run.mjs) -->'
const END = '<!-- bench:end -->'
if (WRITE) {
  const file = join(ROOT, 'BENCHMARKS.md')
  const rel = (p) => relative(ROOT, p)
  const generated = [
    BEGIN,
    '',
    `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${machine.cores} cores (${machine.cpu}), Node ${machine.node}, load average ${machine.loadBefore.toFixed(1)} at the start. Each figure is the median of 3 runs; ratios are against the peer measured in the same run.`,
    '',
    'Commands and inputs:',
    '',
    `- \`node bench/n8n.mjs\`: ${n8n.items ?? 1000} orders (\`{ amount, orderReference, orderName }\`) through n8n-core 2.41 \`WorkflowExecute\` in-process, expression engine '${n8n.engine ?? 'vm'}', sandbox with ${n8n.latencyMs ?? 20} ms latency behind a counting proxy (own process); Paykit node (Payment Link, Create, From Input Item, concurrency ${n8n.concurrency ?? 64}) vs HTTP Request node (latest version, POST /paymentlink/checkout, Using JSON \`={{ JSON.stringify($json) }}\`, Authorization header).`,
    `- \`node bench/n8n.mjs --helpers\`: the same ${n8nHelpers.items ?? 1000} link requests sent straight through n8n 2.41's request path (\`OutboundHttp\`'s request, a new HTTP agent per request, as n8n's request helpers), in turn with the Paykit node's workflow in the same process: the Paykit node's wall time against n8n's raw request path.`,
    `- \`node bench/queue.mjs\`: ${queue.items ?? 1000} orders posted at once in batches of ${queue.batch ?? 50} to a published webhook workflow (Webhook, Split Out, Paykit Payment Link Create) in the real n8n 2.41.1: queue mode (\`npm run n8n -- --queue\`: Postgres 18, Redis 7, main, workers of concurrency 5, a webhook processor; the batches to the main and the webhook processor in turn) with 2 workers, then 1, then regular mode (one process, SQLite); the sandbox answers at once. Boot and the resident memory of every process of the queue stack.`,
    `- \`node bench/client.mjs\`: ${client.calls ?? 2000} \`GET /paymentlink/order/{code}\` through \`createClient\` (API key) vs bare \`fetch\` + \`json()\`, same headers, at 1 and 16 in flight; ratio = client time / fetch time.`,
    `- \`node ${rel(VALIDATE)}\`: ${validation.missing ? 'not present at this run' : 'validate vs io-ts decode, ajv 8, zod 4 (its own inputs; output below)'}.`,
    `- ${TESTKIT_SCRIPTS.length === 0 ? `\`${rel(SANDBOX_BENCH)}\`: not present at this run` : `${TESTKIT_SCRIPTS.map((p) => `\`node ${rel(p)} ${args.sandbox.join(' ')}\``).join(', ')}: the testkit's sandbox vs a bare node:http server (output below)`}.`,
    `- \`node packages/testkit/bench/stored-orders.mjs ${args.stored.join(' ')}\`: GET order and POST checkout (autocannon, 64 connections) with one order stored, then after filling that many through the API; \`node packages/testkit/bench/links.mjs ${args.links.join(' ')}\`: that many links (64 keep-alive connections, 1-minute expiry, the clock moved past expiry and the 24 h retention every 1,000), the sandbox's RSS and live heap after a GC from 10,000 links on. Median of 3 runs each.`,
    `- \`node bench/http.mjs\`: autocannon, ${http.connections ?? 64} connections, ${http.durationS ?? 5} s per run, against \`paykit-sandbox\` and \`prism mock openapi.yaml\` (Prism 5.16, the generated document's static examples), each its own process; GET order of \`{ amount: 10 }\`, POST checkout \`{ amount: 10, orderName: 'bench' }\`.`,
    '',
    markdown,
    '',
    ...[
      ['packages/core/bench/validate.mjs', validation],
      ['packages/testkit/bench', sandboxBench],
    ]
      .filter(([, r]) => r.text !== undefined)
      .flatMap(([name, r]) => [`Output of \`${name}\`:`, '', '```text', r.text, '```', '']),
    END,
  ].join('\n')
  const before = existsSync(file)
    ? readFileSync(file, 'utf8')
    : `# Benchmarks\n\n${BEGIN}\n${END}\n`
  const start = before.indexOf(BEGIN)
  const end = before.indexOf(END)
  const next =
    start >= 0 && end > start
      ? `${before.slice(0, start)}${generated}${before.slice(end + END.length)}`
      : `${before.trimEnd()}\n\n${generated}\n`
  // Formatted as `prettier --check` expects (aligned table columns).
  const prettier = await import('prettier')
  const options = (await prettier.resolveConfig(file)) ?? {}
  writeFileSync(file, await prettier.format(next, { ...options, filepath: file }))
  console.log('\nwrote BENCHMARKS.md')
}
process.exit(
  failures.some((f) => !f.startsWith('validation') && !f.startsWith('sandbox vs bare')) ? 1 : 0,
)
