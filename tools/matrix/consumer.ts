/**
 * A cell of the matrix as a user's project: a temporary folder that installs the packed
 * tarballs with npm (no workspace links, no `--legacy-peer-deps`: a peer range that refuses
 * a version fails the install, as it would for a user) and the cell's Node, TypeScript,
 * vitest, msw and n8n, then runs the cell's checks with that Node.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { childEnv, run, type RunResult } from '@paykit/tools/lib/run'
import { readmeSnippets, writeSnippetProject } from '@paykit/tools/docs-check/readme-snippets'
import { toSourceLocations } from '@paykit/tools/docs-check/snippets'
import { ROOT } from '@paykit/tools/lib/root'
import { pack } from '@paykit/tools/package-check'
import { packagesOf, type Cell, type Check } from '@paykit/tools/matrix/cells'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** One check's outcome: passed or not, how long, and what it printed when it failed. */
export interface CheckResult {
  readonly check: Check | 'install'
  readonly ok: boolean
  readonly ms: number
  /** On failure, the output (trimmed); on success, a short note (counts). */
  readonly detail: string
}

/** The packed tarballs by package folder name. */
export type Tarballs = Readonly<Partial<Record<'core' | 'testkit' | 'n8n-nodes', string>>>

// -------------------------------------------------------------------------------------
// Node
// -------------------------------------------------------------------------------------

/** The environment of a cell's processes: its Node first on PATH, nothing from pnpm's store. */
const cellEnv = (node: string): NodeJS.ProcessEnv => {
  const env = childEnv()
  return { ...env, PATH: `${dirname(node)}:${env['PATH'] ?? ''}` }
}

// -------------------------------------------------------------------------------------
// the project
// -------------------------------------------------------------------------------------

/** Packs the packages the cells need (once per run) into `destination`. */
export const packFor = async (
  cells: ReadonlyArray<Cell>,
  destination: string,
): Promise<Tarballs> => {
  const names = [...new Set(cells.flatMap(packagesOf))]
  const out: Record<string, string> = {}
  for (const name of names) out[name] = await pack(name, destination)
  return out
}

/** The package.json of a cell's project. */
export const manifestOf = (cell: Cell, tarballs: Tarballs): Record<string, unknown> => {
  const tarball = (name: keyof Tarballs): string => {
    const t = tarballs[name]
    if (t === undefined) throw new Error(`${name} was not packed`)
    return `file:${t}`
  }
  const packages = packagesOf(cell)
  const major = cell.node.split('.')[0] ?? '24'
  const dependencies: Record<string, string> = {
    '@paykit/core': tarball('core'),
    'fp-ts': '2.16.11',
    'io-ts': '2.2.22',
    '@types/node': `^${major}`,
  }
  if (packages.includes('testkit'))
    Object.assign(dependencies, {
      '@paykit/testkit': tarball('testkit'),
      'fast-check': '4.10.2',
      '@fast-check/vitest': '0.5.0',
    })
  if (packages.includes('n8n-nodes')) dependencies['n8n-nodes-paykit'] = tarball('n8n-nodes')
  if (cell.typescript !== undefined) dependencies['typescript'] = cell.typescript
  if (cell.vitest !== undefined) dependencies['vitest'] = cell.vitest
  if (cell.msw !== undefined) dependencies['msw'] = cell.msw
  if (cell.n8n !== undefined)
    Object.assign(dependencies, {
      'n8n-core': cell.n8n.core,
      'n8n-workflow': cell.n8n.workflow,
      'n8n-nodes-base': cell.n8n.nodesBase,
    })
  return {
    name: `paykit-matrix-${cell.id}`,
    private: true,
    type: 'module',
    dependencies,
    // The testkit's `@paykit/core: ^0.1.0` is not on the registry yet: take the tarball.
    overrides: { '@paykit/core': tarball('core') },
  }
}

/** Creates the cell's project and installs it with npm; the folder and the install's result. */
export const installProject = async (
  cell: Cell,
  tarballs: Tarballs,
): Promise<{ readonly dir: string; readonly result: CheckResult }> => {
  const dir = mkdtempSync(join(tmpdir(), `paykit-matrix-${cell.id}-`))
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifestOf(cell, tarballs), null, 2))
  // n8n-nodes-base's optional native addons (Kafka, Oracle, ...) do not build here and no
  // check needs them: without install scripts, as the workspace (pnpm-workspace.yaml) and
  // tools/n8n/install.sh install n8n. The other cells run them, as a user's npm does.
  const scripts = cell.n8n === undefined ? [] : ['--ignore-scripts']
  const r = await run(
    'npm',
    ['install', ...scripts, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
    { cwd: dir, env: childEnv(), timeoutMs: 600_000 },
  )
  return { dir, result: resultOf('install', r, 'npm install') }
}

const resultOf = (check: CheckResult['check'], r: RunResult, note: string): CheckResult => ({
  check,
  ok: r.code === 0,
  ms: r.ms,
  detail: r.code === 0 ? note : `${note}: exit ${String(r.code)}\n${r.stdout}\n${r.stderr}`.trim(),
})

// -------------------------------------------------------------------------------------
// checks
// -------------------------------------------------------------------------------------

/** The testkit's `exports`, read from its package.json (the entries the type check imports). */
const testkitExports = (
  JSON.parse(readFileSync(join(ROOT, 'packages', 'testkit', 'package.json'), 'utf8')) as {
    readonly exports: Readonly<Record<string, unknown>>
  }
).exports

/**
 * `types`: a file importing every entry of the installed packages, using a few of their
 * types, and `@ts-expect-error` lines that must stay errors; tsc with `skipLibCheck` off,
 * so the packages' own `.d.ts` are checked. An error in another package's declarations
 * (a dependency's, not ours) is reported in the note but does not fail the cell.
 */
export const checkTypes = async (cell: Cell, dir: string, node: string): Promise<CheckResult> => {
  const packages = packagesOf(cell)
  const lines = [
    "import * as E from 'fp-ts/lib/Either.js'",
    "import * as core from '@paykit/core'",
    "import * as client from '@paykit/core/client'",
    "import * as codecs from '@paykit/core/codecs'",
    "import * as money from '@paykit/core/money'",
    "import * as machines from '@paykit/core/machines'",
    "import * as pure from '@paykit/core/pure'",
    "import * as webhook from '@paykit/core/webhook'",
    "import * as browser from '@paykit/core/browser'",
    'const link = core.validate(codecs.PaymentLinkRequest)({ amount: 10 })',
    'export const decoded: boolean = E.isRight(link)',
    "export const header: string = webhook.signWebhook({ secret: 's', body: '{}', timestamp: new Date() })",
    '// @ts-expect-error baseUrl is a string',
    'core.createClient({ baseUrl: 1, credentials: { clientId: "c", clientSecret: "s" } })',
    'export const entries = [core, client, codecs, money, machines, pure, webhook, browser]',
  ]
  if (packages.includes('testkit'))
    lines.push(
      "import type { HttpHandler } from 'msw'",
      "import * as testkit from '@paykit/testkit'",
      "import * as testkitVitest from '@paykit/testkit/vitest'",
      "import * as testkitMsw from '@paykit/testkit/msw'",
      "import * as testkitModel from '@paykit/testkit/model'",
      // The handlers are this msw's own type: setupServer(...handlers) type-checks.
      "export const handlers: ReadonlyArray<HttpHandler> = testkitMsw.paykitHandlers({ baseUrl: 'https://x.test' }).handlers",
      'export const card: string = testkit.testCards.success.number',
      '// @ts-expect-error paykitHandlers needs a baseUrl',
      'testkitMsw.paykitHandlers({})',
      'export const more = [testkitVitest, testkitModel]',
      // The testkit's other entries by concept, as its package.json lists them.
      ...Object.keys(testkitExports)
        .map((subpath) => subpath.slice(2))
        .filter(
          (entry) => /^[a-z]+$/.test(entry) && !['vitest', 'msw', 'model', 'n8n'].includes(entry),
        )
        .flatMap((entry) => [
          `import * as testkit_${entry} from '@paykit/testkit/${entry}'`,
          `export const ${entry} = testkit_${entry}`,
        ]),
    )
  if (packages.includes('n8n-nodes'))
    lines.push(
      "import * as testkitN8n from '@paykit/testkit/n8n'",
      'export const n8n = testkitN8n.runWorkflow',
    )
  writeFileSync(join(dir, 'entries.ts'), `${lines.join('\n')}\n`)
  writeFileSync(
    join(dir, 'tsconfig.entries.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2023',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: ['node'],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
      },
      files: ['entries.ts'],
    }),
  )
  const tsc = join(dir, 'node_modules', 'typescript', 'bin', 'tsc')
  const r = await run(node, [tsc, '-p', 'tsconfig.entries.json'], {
    cwd: dir,
    env: cellEnv(node),
    timeoutMs: 300_000,
  })
  const errors = `${r.stdout}${r.stderr}`.split('\n').filter((l) => /error TS\d+/.test(l))
  const ours = errors.filter(
    (l) => !/node_modules\//.test(l) || /node_modules\/(@paykit|n8n-nodes-paykit)\//.test(l),
  )
  const theirs = errors.length - ours.length
  const where = [
    ...new Set(
      errors
        .filter((l) => !ours.includes(l))
        .map((l) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(l)?.[1] ?? '?'),
    ),
  ]
  const version = JSON.parse(
    readFileSync(join(dir, 'node_modules', 'typescript', 'package.json'), 'utf8'),
  ) as { readonly version: string }
  const note = `tsc ${version.version}: ${errors.length === 0 ? 'no error' : `${theirs} error(s) in other packages' declarations only (${where.join(', ')})`}`
  return {
    check: 'types',
    ok: ours.length === 0 && (r.code === 0 || theirs > 0),
    ms: r.ms,
    detail: ours.length === 0 ? note : `${note}\n${ours.join('\n')}`,
  }
}

/** Runs `tasks` with at most `limit` at a time. */
const pool = async <A>(
  tasks: ReadonlyArray<() => Promise<A>>,
  limit: number,
): Promise<ReadonlyArray<A>> => {
  const out: Array<A> = []
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++
      const task = tasks[i]
      if (task !== undefined) out[i] = await task()
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker))
  return out
}

/**
 * `snippets` and `vitest`: the READMEs' snippets (`tools/docs-check/readme-snippets.ts`)
 * written into the project, type-checked with its tsc, the Node ones run with its Node and
 * the vitest ones with its vitest.
 */
export const checkSnippets = async (
  cell: Cell,
  dir: string,
  node: string,
): Promise<ReadonlyArray<CheckResult>> => {
  const snippets = readmeSnippets(ROOT)
  writeSnippetProject(dir, snippets)
  const cwd = join(dir, 'snippets')
  const env = cellEnv(node)
  const tsc = join(dir, 'node_modules', 'typescript', 'bin', 'tsc')
  const located = (r: RunResult): RunResult => ({
    ...r,
    stdout: toSourceLocations(r.stdout, snippets),
    stderr: toSourceLocations(r.stderr, snippets),
  })
  const vitestRun = cell.checks.includes('vitest')
    ? run(
        node,
        [join(dir, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', 'vitest.config.mjs'],
        {
          cwd,
          env,
          timeoutMs: 300_000,
        },
      )
    : undefined
  const out: Array<CheckResult> = []
  if (cell.checks.includes('snippets')) {
    const nodeSnippets = snippets.filter((s) => s.mode === 'node')
    const started = Date.now()
    const [types, browserTypes, ...runs] = await Promise.all([
      run(node, [tsc, '-p', 'tsconfig.json'], { cwd, env, timeoutMs: 300_000 }),
      run(node, [tsc, '-p', 'tsconfig.browser.json'], { cwd, env, timeoutMs: 300_000 }),
      ...(await pool(
        nodeSnippets.map(
          (s) => () => run(node, [s.fileName], { cwd, env, timeoutMs: 120_000 }).then(located),
        ),
        3,
      )),
    ])
    const failed = [
      ...(types !== undefined && types.code !== 0 ? [located(types)] : []),
      ...(browserTypes !== undefined && browserTypes.code !== 0 ? [located(browserTypes)] : []),
      ...runs.filter((r) => r.code !== 0),
    ]
    out.push({
      check: 'snippets',
      ok: failed.length === 0,
      ms: Date.now() - started,
      detail:
        failed.length === 0
          ? `${snippets.length - snippets.filter((s) => s.mode === 'n8n').length} snippets type-checked, ${nodeSnippets.length} run`
          : failed
              .map((r) => `exit ${String(r.code)}\n${r.stdout}\n${r.stderr}`.trim())
              .join('\n---\n')
              .slice(0, 8000),
    })
  }
  if (vitestRun !== undefined) {
    const files = snippets.filter((s) => s.mode === 'vitest').length
    out.push(resultOf('vitest', located(await vitestRun), `${files} vitest snippet files`))
  }
  return out
}

/** The core's work, as CommonJS (`load` = require) or an ES module (`load` = await import). */
const coreWork = (load: string): string => `
const core = ${load}('@paykit/core')
const codecs = ${load}('@paykit/core/codecs')
const webhook = ${load}('@paykit/core/webhook')
const main = async () => {
  const bad = core.validate(codecs.PaymentLinkRequest)({ lineItems: [{ sku: 'A', quantity: 0 }] })
  const client = core.createClient({
    baseUrl: process.env.PAYKIT_URL,
    credentials: { clientId: process.env.PAYKIT_CLIENT_ID, clientSecret: process.env.PAYKIT_CLIENT_SECRET },
  })
  const link = await client.createPaymentLink({ amount: 12.5 })()
  if (link._tag !== 'Right') throw new Error(link.left.message)
  const order = await client.getOrder(link.right.orderCode)()
  if (order._tag !== 'Right') throw new Error(order.left.message)
  const now = new Date()
  const header = webhook.signWebhook({ secret: 'whsec', body: '{}', timestamp: now })
  const verified = webhook.verifyWebhook({ secret: 'whsec', body: '{}', header, now })
  console.log(JSON.stringify({
    node: process.version,
    bad: bad.left.map((e) => e.path),
    status: order.right.orderStatus,
    verified: verified._tag,
  }))
}
main().catch((e) => { console.error(e); process.exit(1) })`

/**
 * `core`: the core alone on the cell's Node, required from CommonJS and imported from an ES
 * module: a field error, a payment link created and read back from a sandbox over HTTP
 * (`url`, started by the caller), a webhook signed and verified.
 */
export const checkCore = async (
  dir: string,
  node: string,
  sandbox: { readonly url: string; readonly clientId: string; readonly clientSecret: string },
): Promise<CheckResult> => {
  writeFileSync(join(dir, 'core.cjs'), coreWork('require'))
  writeFileSync(join(dir, 'core.mjs'), coreWork('await import'))
  const env = {
    ...cellEnv(node),
    PAYKIT_URL: sandbox.url,
    PAYKIT_CLIENT_ID: sandbox.clientId,
    PAYKIT_CLIENT_SECRET: sandbox.clientSecret,
  }
  const started = Date.now()
  const results = await Promise.all(
    ['core.cjs', 'core.mjs'].map((file) => run(node, [file], { cwd: dir, env })),
  )
  const expected = JSON.stringify({
    node: `v${node === process.execPath ? process.versions.node : (/node-(\d+\.\d+\.\d+)/.exec(node)?.[1] ?? '')}`,
    bad: ['lineItems[0].quantity'],
    status: 'PENDING',
    verified: 'Right',
  })
  const wrong = results.filter((r) => r.code !== 0 || r.stdout.trim() !== expected)
  return {
    check: 'core',
    ok: wrong.length === 0,
    ms: Date.now() - started,
    detail:
      wrong.length === 0
        ? 'require and import: validate, a link created and read back, a webhook verified'
        : `expected ${expected}\n${wrong.map((r) => `${r.stdout}\n${r.stderr}`).join('\n---\n')}`,
  }
}

/** The script the `n8n` check runs in the project (an ES module, as a node author's test). */
const N8N_SCRIPT = `
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { defaultCredentials } from '@paykit/testkit'
import { startSandbox } from '@paykit/testkit/sandbox'
import { baseNodeTypes, disposeExpressionEngine, runWorkflow } from '@paykit/testkit/n8n'

const require = createRequire(import.meta.url)
const { Paykit } = require('n8n-nodes-paykit/dist/nodes/Paykit/Paykit.node.js')
const { PaykitApi } = require('n8n-nodes-paykit/dist/credentials/PaykitApi.credentials.js')
const workflow = JSON.parse(readFileSync('orders-to-payment-links.json', 'utf8'))
const orders = Array.from({ length: 10 }, (_, i) => ({ orderReference: 'M-' + i, amount: 10 + i }))
const withOrders = {
  ...workflow,
  nodes: workflow.nodes.map((n) =>
    n.name === 'Orders' ? { ...n, parameters: { ...n.parameters, jsonOutput: JSON.stringify({ orders }) } } : n,
  ),
}
const sandbox = await startSandbox()
try {
  const options = {
    workflow: withOrders,
    nodeTypes: {
      'n8n-nodes-paykit.paykit': new Paykit(),
      ...baseNodeTypes(['ManualTrigger', 'Set', 'SplitOut'], { from: process.cwd() }),
    },
    credentialTypes: [new PaykitApi()],
    credentials: {
      'paykit-sandbox': {
        type: 'paykitApi',
        name: 'Paykit sandbox',
        data: { baseUrl: sandbox.url, ...defaultCredentials, apiKey: '', accessToken: '' },
      },
    },
  }
  const first = await runWorkflow(options)
  if (first.error !== undefined) throw new Error(first.error.message)
  const written = (first.nodes['Write Back']?.[0] ?? []).map((i) => i.json)
  const again = await runWorkflow(options)
  if (again.error !== undefined) throw new Error(again.error.message)
  console.log(JSON.stringify({
    created: written.filter((o) => String(o.paymentLinkUrl ?? '').includes('/pay/')).length,
    alreadyRequested: again.nodes['Already Requested']?.[0]?.length ?? 0,
  }))
} finally {
  await sandbox.close()
  await disposeExpressionEngine?.()
}
process.exit(0)
`

/**
 * `n8n`: the Paykit node of the n8n-nodes-paykit tarball through n8n's engine in-process
 * (`@paykit/testkit/n8n` over the cell's n8n-core): the example workflow
 * `orders-to-payment-links.json` makes 10 payment links against a sandbox, and the same 10
 * orders again go to Already Requested.
 */
export const checkN8n = async (dir: string, node: string): Promise<CheckResult> => {
  writeFileSync(
    join(dir, 'orders-to-payment-links.json'),
    readFileSync(join(ROOT, 'packages/n8n-nodes/examples/orders-to-payment-links.json')),
  )
  writeFileSync(join(dir, 'n8n.mjs'), N8N_SCRIPT)
  const r = await run(node, ['n8n.mjs'], { cwd: dir, env: cellEnv(node), timeoutMs: 300_000 })
  const expected = JSON.stringify({ created: 10, alreadyRequested: 10 })
  const ok = r.code === 0 && r.stdout.trim().endsWith(expected)
  return {
    check: 'n8n',
    ok,
    ms: r.ms,
    detail: ok
      ? '10 links created, the same 10 orders on Already Requested'
      : `expected ${expected}\n${r.stdout}\n${r.stderr}`.slice(0, 8000),
  }
}

/** A folder for the run's tarballs. */
export const packsFolder = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'paykit-matrix-packs-'))
  mkdirSync(dir, { recursive: true })
  return dir
}
