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
//                      [--baseline <dir>] [--helpers]
//
// --helpers: instead of the HTTP Request workflow, the same N requests (POST
// /paymentlink/checkout with the API key, the same bodies, --concurrency in flight) sent
// straight through the path n8n 2.41's request helpers take
// (`Container.get(OutboundHttp).requests().request`, a new HTTP agent per request), through
// axios with a new agent per request, and through axios with one kept-alive agent, in turn
// with the paykit workflow: what n8n's request path costs per request, how much of it is
// the new TCP connection a node cannot avoid, and the Paykit node's wall time against the
// first (`pnpm bench`'s "Paykit node wall / n8n raw request path").
//
// --baseline <dir>: a third workflow, "baseline", the same as paykit with the Paykit node
// loaded from <dir>/dist (a copy of an earlier build of packages/n8n-nodes), run in turn
// with the others: before/after figures of a change from the same run.
//
// --cpu-prof: a V8 CPU profile of the measured runs only (not of loading the engine),
// one per workflow, written to cpu-profiles/n8n-<workflow>.cpuprofile (summarise it with
// `node bench/profile.mjs <file>`).
// Prints a line per run, then one JSON line: the median of each figure per workflow.
// Needs the built packages (`pnpm run build`).
import { mkdirSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { Buffer } from 'node:buffer'
import { Agent } from 'node:http'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import {
  baseNodeTypes,
  disposeExpressionEngine,
  runWorkflow,
  useExpressionEngine,
} from '@paykit/testkit/n8n'
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
    baseline: { type: 'string' },
    helpers: { type: 'boolean', default: false },
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
const BASELINE = 'n8n-nodes-paykit-baseline.paykit'
const nodeTypes = {
  [PAYKIT]: new Paykit(),
  ...(flags.baseline === undefined
    ? {}
    : {
        [BASELINE]: new (createRequire(resolve(flags.baseline, 'package.json'))(
          './dist/nodes/Paykit/Paykit.node.js',
        ).Paykit)(),
      }),
  ...baseNodeTypes(['ManualTrigger', 'HttpRequest'], { from: NODES_DIR }),
}

const service = await startService({ latencyMs: LATENCY })

const trigger = { name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} }
const workflowOf = (node) => ({
  nodes: [trigger, node],
  connections: { Start: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
})

const paykitNode = (type) => ({
  name: 'Links',
  type,
  parameters: {
    resource: 'paymentLink',
    operation: 'create',
    orderSource: 'item',
    options: { concurrency: CONCURRENCY },
  },
  credentials: { paykitApi: { id: 'paykit-1', name: 'Paykit sandbox' } },
})

const workflows = {
  paykit: workflowOf(paykitNode(PAYKIT)),
  baseline: workflowOf(paykitNode(BASELINE)),
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

// References new in every run: the node (1.1) creates one link per order reference.
let round = 0
const orders = (n) => {
  round += 1
  return Array.from({ length: n }, (_, i) => ({
    json: {
      amount: 10 + (i % 90),
      orderReference: `bench-${round}-${i}`,
      orderName: `Bench order ${i}`,
    },
  }))
}

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
    ...figuresOf(n, wallMs, cpu, seen),
    maxInFlightFirst64: seen.maxInFlightEarly,
    tokenRequests: seen.tokenRequests,
  }
}

/** The figures every run reports, from its wall time, this process's CPU and the service's counts. */
const figuresOf = (n, wallMs, cpu, seen) => ({
  itemsPerSecond: (n / wallMs) * 1000,
  wallMs,
  // CPU of this process (every thread: the engine, isolated-vm) per item, in ms.
  cpuMsPerItem: (cpu.user + cpu.system) / 1000 / n,
  // CPU of the service process (sandbox and counting proxy) per item, in ms: with it,
  // what the run asks of the machine's cores.
  serviceCpuMsPerItem: seen.cpuMs / n,
  maxInFlight: seen.maxInFlight,
  connections: seen.connections,
  requests: seen.requests,
})

// --helpers: n8n's request path and axios, as n8n-core 2.41 resolves them.
const n8nRequire = createRequire(require.resolve('n8n-core'))
const networkRequire = createRequire(n8nRequire.resolve('@n8n/backend-network'))
const requests = {
  helper: () => {
    const { Container } = n8nRequire('@n8n/di')
    const { OutboundHttp } = n8nRequire('@n8n/backend-network')
    return (options) => Container.get(OutboundHttp).requests().request(options)
  },
  axiosNewAgent: () => {
    const axios = networkRequire('axios')
    return (options) => axios({ ...axiosOf(options), httpAgent: new Agent() })
  },
  axiosKeepAlive: () => {
    const axios = networkRequire('axios')
    const agent = new Agent({ keepAlive: true })
    const send = (options) => axios({ ...axiosOf(options), httpAgent: agent })
    // Its idle connections closed after the run, so each run starts with none.
    send.close = () => agent.destroy()
    return send
  },
}
const axiosOf = (options) => ({
  method: options.method,
  url: options.url,
  headers: options.headers,
  data: options.body,
  responseType: 'text',
  maxRedirects: 0,
  timeout: options.timeout,
  validateStatus: () => true,
})

/** `n` link requests, `CONCURRENCY` at a time, through `requests[kind]`. */
const requestsOnce = async (kind, n) => {
  await service.reset()
  const send = requests[kind]()
  const bodies = orders(n).map(({ json }) => Buffer.from(JSON.stringify(json)))
  let next = 0
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  const worker = async () => {
    while (next < n) {
      const body = bodies[next++]
      const response = await send({
        method: 'POST',
        url: `${service.url}/paymentlink/checkout`,
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          authorization: `Bearer ${API_KEY}`,
        },
        body,
        encoding: 'text',
        json: false,
        returnFullResponse: true,
        ignoreHttpStatusErrors: true,
        disableFollowRedirect: true,
        timeout: 30_000,
      })
      const status = response.statusCode ?? response.status
      if (status !== 200) throw new Error(`${kind}: HTTP ${status}`)
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, n) }, worker))
  const wallMs = performance.now() - started
  const cpu = process.cpuUsage(cpuBefore)
  send.close?.()
  return figuresOf(n, wallMs, cpu, await service.stats())
}

const kinds = flags.helpers
  ? ['paykit', ...Object.keys(requests)]
  : [
      ...(flags.only === undefined ? ['paykit', 'http'] : [flags.only]),
      ...(flags.baseline === undefined ? [] : ['baseline']),
    ]
const measure = (kind, n) =>
  Object.hasOwn(requests, kind) ? requestsOnce(kind, n) : runOnce(kind, n)
await useExpressionEngine(flags.engine)
// Warm-up: the engine, node code and expression engine loaded and compiled once.
for (const kind of kinds) await measure(kind, Math.min(ITEMS, 50))

const session = flags['cpu-prof'] ? new Session() : undefined
session?.connect()
await session?.post('Profiler.enable')
const runs = Object.fromEntries(kinds.map((k) => [k, []]))
for (let r = 0; r < RUNS; r++)
  for (const kind of kinds) {
    await session?.post('Profiler.start')
    const figures = await measure(kind, ITEMS)
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
// isolated-vm's isolates torn down by process exit crash it now and then (SIGSEGV after
// the result was printed): stop the vm evaluator first.
await disposeExpressionEngine()
process.exit(0)
