// n8n: N orders become N payment links, through the in-process n8n engine (n8n-core 2.41
// WorkflowExecute) with n8n's default expression engine ('vm', as a user gets it), against
// the sandbox with injected latency, behind a counting proxy (bench/service.mjs, its own
// process). Two workflows on the same engine and sandbox, run in turn (A B A B ...):
//
//   paykit: Manual Trigger -> Paykit (Payment Link, Create, Order Source "From Input Item",
//           Options -> Concurrency), the credential with client id/secret (token requests
//           counted)
//   http:   Manual Trigger -> n8n's HTTP Request node (n8n-nodes-base, latest version):
//           POST {sandbox}/paymentlink/checkout, body "Using JSON" `={{ JSON.stringify($json) }}`,
//           header Authorization: Bearer <API key>, its defaults otherwise
//
//   node bench/n8n.mjs [--items 1000] [--runs 3] [--latency 20] [--concurrency 64]
//                      [--engine vm|legacy] [--only paykit|http] [--cpu-prof]
//
// --cpu-prof: a V8 CPU profile of the measured runs only (not of loading the engine),
// one per workflow, written to cpu-profiles/n8n-<workflow>.cpuprofile (summarise it with
// `node bench/profile.mjs <file>`).
// Prints a line per run, then one JSON line: the median of each figure per workflow.
// Needs the built packages (`pnpm run build`).
import { mkdirSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { baseNodeTypes, runWorkflow, useExpressionEngine } from '@paykit/testkit/n8n'
import {
  API_KEY,
  CLIENT_ID,
  CLIENT_SECRET,
  CORES,
  ROOT,
  medians,
  startService,
} from './support.mjs'

const { values: flags } = parseArgs({
  options: {
    items: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '3' },
    latency: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '64' },
    engine: { type: 'string', default: 'vm' },
    only: { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
  },
  strict: true,
})
const ITEMS = Number(flags.items)
const RUNS = Number(flags.runs)
const LATENCY = Number(flags.latency)
const CONCURRENCY = Number(flags.concurrency)

// The built package as n8n loads it (CommonJS dist), as packages/n8n-nodes/test/support.ts.
const NODES_DIR = join(ROOT, 'packages', 'n8n-nodes')
const require = createRequire(join(NODES_DIR, 'package.json'))
const { Paykit } = require('./dist/nodes/Paykit/Paykit.node.js')
const { PaykitApi } = require('./dist/credentials/PaykitApi.credentials.js')

const PAYKIT = 'n8n-nodes-paykit.paykit'
const nodeTypes = {
  [PAYKIT]: new Paykit(),
  ...baseNodeTypes(['ManualTrigger', 'HttpRequest'], { from: NODES_DIR }),
}

const service = await startService({ latencyMs: LATENCY })

const trigger = { name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} }
const workflowOf = (node) => ({
  nodes: [trigger, node],
  connections: { Start: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
})

const workflows = {
  paykit: workflowOf({
    name: 'Links',
    type: PAYKIT,
    parameters: {
      resource: 'paymentLink',
      operation: 'create',
      orderSource: 'item',
      options: { concurrency: CONCURRENCY },
    },
    credentials: { paykitApi: { id: 'paykit-1', name: 'Paykit sandbox' } },
  }),
  http: workflowOf({
    name: 'Links',
    type: 'n8n-nodes-base.httpRequest',
    parameters: {
      method: 'POST',
      url: `${service.url}/paymentlink/checkout`,
      sendHeaders: true,
      headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${API_KEY}` }] },
      sendBody: true,
      specifyBody: 'json',
      jsonBody: '={{ JSON.stringify($json) }}',
      options: {},
    },
  }),
}

const credentials = () => ({
  'paykit-1': {
    type: 'paykitApi',
    name: 'Paykit sandbox',
    data: {
      baseUrl: service.url,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      apiKey: '',
      accessToken: '',
    },
  },
})

const orders = (n) =>
  Array.from({ length: n }, (_, i) => ({
    json: {
      amount: 10 + (i % 90),
      orderReference: `bench-${i}`,
      orderName: `Bench order ${i}`,
    },
  }))

/** One run of `kind` over `n` orders: wall time and what the proxy saw. */
const runOnce = async (kind, n) => {
  await service.reset()
  const input = orders(n)
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  const result = await runWorkflow({
    workflow: workflows[kind],
    nodeTypes,
    credentialTypes: [new PaykitApi()],
    credentials: credentials(),
    input,
    expressionEngine: flags.engine,
  })
  const wallMs = performance.now() - started
  const cpu = process.cpuUsage(cpuBefore)
  const out = result.nodes['Links']?.[0] ?? []
  const links = out.filter((item) => typeof item.json.paymentLinkUrl === 'string').length
  if (result.error !== undefined || links !== n)
    throw new Error(
      `${kind}: ${links} of ${n} links; error: ${JSON.stringify(result.error)}; first: ${JSON.stringify(out[0]?.json)}`,
    )
  const seen = await service.stats()
  return {
    itemsPerSecond: (n / wallMs) * 1000,
    wallMs,
    // CPU of this process (every thread: the engine, isolated-vm) per item, in ms.
    cpuMsPerItem: (cpu.user + cpu.system) / 1000 / n,
    maxInFlight: seen.maxInFlight,
    maxInFlightFirst64: seen.maxInFlightEarly,
    connections: seen.connections,
    requests: seen.requests,
    tokenRequests: seen.tokenRequests,
  }
}

const kinds = flags.only === undefined ? ['paykit', 'http'] : [flags.only]
await useExpressionEngine(flags.engine)
// Warm-up: the engine, node code and expression engine loaded and compiled once.
for (const kind of kinds) await runOnce(kind, Math.min(ITEMS, 50))

const session = flags['cpu-prof'] ? new Session() : undefined
session?.connect()
await session?.post('Profiler.enable')
const runs = Object.fromEntries(kinds.map((k) => [k, []]))
for (let r = 0; r < RUNS; r++)
  for (const kind of kinds) {
    await session?.post('Profiler.start')
    const figures = await runOnce(kind, ITEMS)
    if (session !== undefined) {
      const { profile } = await session.post('Profiler.stop')
      mkdirSync('cpu-profiles', { recursive: true })
      writeFileSync(join('cpu-profiles', `n8n-${kind}.cpuprofile`), JSON.stringify(profile))
    }
    runs[kind].push(figures)
    console.log(`run ${r + 1} ${kind}: ${JSON.stringify(figures)}`)
  }
session?.disconnect()
await service.close()

const result = {
  bench: 'n8n',
  cores: CORES,
  items: ITEMS,
  runs: RUNS,
  latencyMs: LATENCY,
  concurrency: CONCURRENCY,
  engine: flags.engine,
  floorMs: (ITEMS * LATENCY) / CONCURRENCY,
  ...Object.fromEntries(kinds.map((k) => [k, medians(runs[k])])),
}
console.log(JSON.stringify(result))
process.exit(0)
