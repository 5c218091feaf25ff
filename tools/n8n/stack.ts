/**
 * A real n8n (the pinned full app in `.tools/n8n`, see `install.sh`) with `n8n-nodes-paykit`
 * installed as n8n installs a community package, next to a `paykit-sandbox` that signs its
 * order webhooks and sends them to the Paykit Trigger's production URL. Used by
 * `npm run n8n` (`tools/n8n/start.ts`) and by the real-n8n and browser tests
 * (`packages/n8n-nodes/test/real-n8n/`).
 *
 * Why the community-package folder and not `N8N_CUSTOM_EXTENSIONS`: n8n loads loose
 * custom files under the type prefix `CUSTOM.`, so the example workflows (which name
 * `n8n-nodes-paykit.paykit`, as a user who installed the package from npm has it) would
 * show "node not installed". Unpacked into `<N8N_USER_FOLDER>/.n8n/nodes/node_modules/
 * n8n-nodes-paykit` from the packed tarball (what `npm publish` would ship), the package
 * loads under its own name, exactly as after _Settings -> Community Nodes -> Install_.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { DatabaseSync } from 'node:sqlite'
import pg from 'pg'
import { spawnSandbox, type SandboxProcess } from '@paykit/testkit/sandbox'
import { freePort } from '@paykit/tools/lib/freePort'
import { ROOT } from '@paykit/tools/lib/root'
import { startMail, type Mail } from '@paykit/tools/n8n/mail'
import {
  startScriptedModel,
  type Script,
  type ScriptedModel,
} from '@paykit/tools/n8n/scriptedModel'
import { startPostgres, type Postgres } from '@paykit/tools/n8n/postgres'
import { needsTaskRunner, startTaskRunner, type TaskRunner } from '@paykit/tools/n8n/taskRunner'
import {
  ensureShop,
  ensureShopTables,
  loginOf,
  serverLogin,
  type Shop,
} from '@paykit/tools/n8n/shop'

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

export const N8N_VERSION = '2.41.1'
export const N8N_DIR = join(ROOT, '.tools/n8n')
export const N8N_BIN = join(N8N_DIR, 'node_modules/n8n/bin/n8n')
const NODES_PACKAGE = join(ROOT, 'packages/n8n-nodes')
const SANDBOX_BIN = join(ROOT, 'packages/testkit/dist/bin/paykit-sandbox.js')

/** The owner account the stack sets up (a local instance on 127.0.0.1 only). */
export const OWNER = {
  email: 'owner@paykit.test',
  password: 'Paykit-sandbox-1',
  firstName: 'Paykit',
  lastName: 'Owner',
} as const

/** The webhook signing secret shared by the sandbox and the `Paykit Webhook` credential. */
export const WEBHOOK_SECRET = 'whsec-paykit-n8n-sandbox'

/** Fixed ids of the example workflows once imported (n8n accepts at most 21 characters). */
export const WORKFLOW_IDS: Readonly<Record<string, string>> = {
  'payment-link-from-form.json': 'paykitFormToLink',
  'orders-to-payment-links.json': 'paykitOrdersToLinks',
  'order-paid-read-back.json': 'paykitOrderPaid',
  'charge-3ds-completion.json': 'paykit3dsCompletion',
  'sell-with-a-form.json': 'paykitSellWithForm',
  'remind-and-renew.json': 'paykitRemindAndRenew',
}

/** The templates' tables' source: the template whose sticky note _Tables_ gives their SQL. */
export const TABLES_TEMPLATE = 'invoices-to-payment-links.json'

/** The example whose Paykit Trigger reads a paid order back. */
const EXAMPLE_TRIGGER = 'order-paid-read-back.json'

/** The exactly-once example: its claim table is in its own sticky note _Table_. */
export const CLAIM_EXAMPLE = 'orders-to-links-claimed-in-postgres.json'

/** How long the stack waits for n8n to report a workflow published (it publishes in the background). */
const PUBLICATION_TIMEOUT_MS = 120_000

/** The sales assistant template: an AI Agent on the stack's scripted model. */
export const AGENT_TEMPLATE = 'sales-assistant-in-chat.json'

/** The script the stack's scripted model answers from (docs/n8n/agent.md says how to write one). */
export const AGENT_SCRIPT = join(ROOT, 'tools/n8n/salesAssistantScript.json')

/** What `npm run n8n` publishes on a new instance: the examples and templates that need no input. */
export const PUBLISHED_ON_START: ReadonlyArray<string> = [
  'order-paid-read-back.json',
  'payment-link-from-form.json',
  'charge-3ds-completion.json',
  CLAIM_EXAMPLE,
  'sell-with-a-form.json',
  'invoices-to-payment-links.json',
  'mark-paid-send-receipt.json',
  'remind-and-renew.json',
  'daily-payments-summary.json',
  AGENT_TEMPLATE,
]

/** Browser id header: n8n binds its session cookie to it (any fixed value for API calls). */
const BROWSER_ID = 'paykit-stack'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

export interface StackOptions {
  /** n8n's user folder (`N8N_USER_FOLDER`); default a new temporary folder, removed on stop. */
  readonly userFolder?: string
  /** n8n's port; default a free one. */
  readonly n8nPort?: number
  /** The sandbox's port; default a free one. */
  readonly sandboxPort?: number
  /** Example workflows to publish (activate) on a new instance, by file name; default the Paykit Trigger's. */
  readonly publish?: ReadonlyArray<string>
  /** The service URL the credential gives the nodes, from the sandbox's (default the sandbox's own; a counting proxy in front of it). */
  readonly serviceUrl?: (sandboxUrl: string) => Promise<string>
  /** More `paykit-sandbox` options (`--token-lifetime 10`, `--request-log-size 20000`). */
  readonly sandboxArgs?: ReadonlyArray<string>
  /** Progress lines (default: stderr). */
  readonly log?: (line: string) => void
  /** n8n's own log lines and the process's name (also written to `<userFolder>/logs/<name>.log`; the last ones are shown if it fails to start). */
  readonly n8nLog?: (line: string, from: string) => void
  /** More environment for every n8n process and CLI call (queue mode's database and Redis). */
  readonly env?: Readonly<Record<string, string>>
  /** Whether n8n's data is new (examples imported, workflows published); default: no SQLite file yet. */
  readonly firstStart?: boolean
  /** n8n processes started beside the main one (queue mode's workers and webhook processor). */
  readonly beside?: ReadonlyArray<SideProcess>
  /** Port of the shop's own Postgres in regular mode (queue mode uses n8n's server); default a free one. */
  readonly shopPostgresPort?: number
  /** MailDev's SMTP port; default a free one. */
  readonly smtpPort?: number
  /** MailDev's web page and API port; default a free one. */
  readonly mailPort?: number
  /** The scripted chat model's port (the sales assistant's model); default a free one. */
  readonly modelPort?: number
}

/** An n8n process beside the main one: `n8n <args>`, ready when it logs `ready`. */
export interface SideProcess {
  readonly name: string
  readonly args: ReadonlyArray<string>
  /** The log line that says it is ready. */
  readonly ready: string
}

/** A running n8n process of the stack. */
export interface N8nProcess {
  readonly name: string
  readonly child: ChildProcess
  /** Its HTTP address (`N8N_PORT`), where it serves webhooks. */
  readonly url: string
}

/** A workflow n8n reports published: its file and id (its executions: `<editor>/workflow/<id>/executions`). */
export interface PublishedWorkflow {
  readonly file: string
  readonly id: string
  readonly name: string
}

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export interface Stack {
  readonly editorUrl: string
  readonly sandboxUrl: string
  readonly userFolder: string
  /** Where each process's output goes, `<name>.log` (`main`, `sandbox`, ...), from its last start. */
  readonly logsDir: string
  /** `Cookie` header of the owner's session. */
  readonly cookie: string
  /** The example's Paykit Trigger's production URL (`order-paid-read-back.json`). */
  readonly triggerUrl: string
  /** The sandbox's order-event targets: every Paykit Trigger's production URL, the example's first. */
  readonly triggerUrls: ReadonlyArray<string>
  /** The workflows published and reported so by n8n (on this start, or kept from an earlier one). */
  readonly published: ReadonlyArray<PublishedWorkflow>
  /** n8n's REST API as the logged-in owner (`/rest/...`), JSON in and out. */
  readonly rest: (path: string, init?: RequestInit) => Promise<unknown>
  /** Runs an n8n CLI command on this instance's folder and database. */
  readonly cli: (args: ReadonlyArray<string>) => Promise<CliResult>
  /** Every n8n process: the main one (`main`) first, then those of `beside`. */
  readonly processes: ReadonlyArray<N8nProcess>
  /** The shop's own database (`shop`), which the credential `shop-postgres` reaches. */
  readonly shop: Shop
  /** The captured mail (MailDev), which the credential `shop-smtp` sends to. */
  readonly mail: Omit<Mail, 'stop'>
  /** The scripted chat model (OpenAI-compatible) that the credential `scripted-model` reaches. */
  readonly model: Pick<ScriptedModel, 'url' | 'requests' | 'setScript'>
  readonly stop: () => Promise<void>
}

// -------------------------------------------------------------------------------------
// install and build
// -------------------------------------------------------------------------------------

/** Installs the pinned n8n into `.tools/n8n` unless present (`install.sh`, about 5 min cold). */
export const ensureN8n = (): void => {
  const result = spawnSync('bash', [join(ROOT, 'tools/n8n/install.sh')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`installing n8n failed (exit ${String(result.status)})`)
}

/** Builds the workspace unless the package's and the sandbox's `dist` are there. */
export const ensureBuilt = (): void => {
  const built =
    existsSync(join(NODES_PACKAGE, 'dist/nodes/Paykit/Paykit.node.js')) && existsSync(SANDBOX_BIN)
  if (built) return
  for (const args of [
    ['install', '--frozen-lockfile', '--reporter=append-only'],
    ['run', 'build'],
  ]) {
    const result = spawnSync('pnpm', args, { cwd: ROOT, stdio: ['ignore', 2, 2] })
    if (result.status !== 0) throw new Error(`pnpm ${args.join(' ')} failed`)
  }
}

/**
 * Installs the package into `<userFolder>/.n8n/nodes/node_modules/n8n-nodes-paykit` as n8n
 * does for a community package: the packed tarball unpacked, its dev, peer and optional
 * dependencies removed from `package.json`, then `npm install --ignore-scripts
 * --install-strategy=shallow` in it (nothing to fetch: the package has no dependency).
 */
export const installPackage = (userFolder: string): string => {
  const work = mkdtempSync(join(tmpdir(), 'paykit-pack-'))
  try {
    // pnpm's pack, as the release publishes it (`workspace:` ranges resolved); npm's walks the
    // workspace's node_modules for bundled dependencies and took 6 s of each stack's start.
    const packed = spawnSync('pnpm', ['pack', '--pack-destination', work], {
      cwd: NODES_PACKAGE,
      encoding: 'utf8',
    })
    if (packed.status !== 0) throw new Error(`pnpm pack failed: ${packed.stderr}`)
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))
    if (tarball === undefined) throw new Error(`pnpm pack wrote no tarball: ${packed.stdout}`)
    const target = join(userFolder, '.n8n/nodes/node_modules/n8n-nodes-paykit')
    rmSync(target, { recursive: true, force: true })
    mkdirSync(target, { recursive: true })
    const untar = spawnSync('tar', [
      '-xzf',
      join(work, tarball),
      '-C',
      target,
      '--strip-components=1',
    ])
    if (untar.status !== 0) throw new Error(`unpacking ${tarball} failed`)
    const manifestPath = join(target, 'package.json')
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>
    delete manifest.devDependencies
    delete manifest.peerDependencies
    delete manifest.optionalDependencies
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2))
    // n8n then runs `npm install` in the folder for the package's dependencies; this package
    // has none (the core is bundled), so there is nothing to install unless that changes.
    if (Object.keys((manifest.dependencies as object | undefined) ?? {}).length > 0) {
      const npm = spawnSync(
        'npm',
        [
          'install',
          '--ignore-scripts',
          '--install-strategy=shallow',
          '--no-audit',
          '--no-fund',
          '--no-package-lock',
          '--loglevel=error',
        ],
        { cwd: target, encoding: 'utf8' },
      )
      if (npm.status !== 0) throw new Error(`npm install in ${target} failed: ${npm.stderr}`)
    }
    return String(manifest.version)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

// -------------------------------------------------------------------------------------
// log files
// -------------------------------------------------------------------------------------

/** A process's log file: its lines written in order; lines after `close` are dropped. */
export interface LogFile {
  readonly path: string
  readonly write: (line: string) => void
  readonly close: () => Promise<void>
}

/** Opens `<logsDir>/<name>.log`, emptied: each start of the stack writes its own. */
export const openLogFile = (logsDir: string, name: string): LogFile => {
  mkdirSync(logsDir, { recursive: true })
  const path = join(logsDir, `${name}.log`)
  const stream = createWriteStream(path, { flags: 'w' })
  let open = true
  return {
    path,
    write: (line) => {
      if (open) stream.write(`${line}\n`)
    },
    close: () =>
      new Promise((resolve) => {
        if (!open) return resolve()
        open = false
        stream.end(resolve)
      }),
  }
}

/** Each line of a readable (a child's stdout or stderr) to `onLine`. */
const eachLine = (input: NodeJS.ReadableStream | null, onLine: (line: string) => void) => {
  if (input !== null) createInterface({ input }).on('line', onLine)
}

// -------------------------------------------------------------------------------------
// processes
// -------------------------------------------------------------------------------------

/** Stops a child started with `detached: true`: its whole process group, TERM then KILL. */
export const stopGroup = async (
  child: ChildProcess | undefined,
  graceMs = 10_000,
): Promise<void> => {
  if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), sig)
    } catch {
      // already gone
    }
  }
  signal('SIGTERM')
  const timer = setTimeout(() => signal('SIGKILL'), graceMs)
  await exited
  clearTimeout(timer)
  signal('SIGKILL') // anything the group left behind (n8n's task runner)
}

/**
 * The environment n8n runs with: this folder, 127.0.0.1 only, nothing phoned home, and what
 * n8n 2.41 documents in place of what it deprecates, so that no process starts with a
 * deprecation notice (n8n's DeprecationService names each setting at every start).
 */
export const n8nEnv = (
  userFolder: string,
  port: number,
  brokerPort: number,
  more: Readonly<Record<string, string>> = {},
): NodeJS.ProcessEnv => ({
  ...process.env,
  N8N_USER_FOLDER: userFolder,
  N8N_PORT: String(port),
  N8N_LISTEN_ADDRESS: '127.0.0.1',
  N8N_HOST: '127.0.0.1',
  N8N_PROTOCOL: 'http',
  N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
  // The base of the webhook URLs n8n shows and registers, test and production alike
  // (`WEBHOOK_URL`, production only, is deprecated for it).
  N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/`,
  N8N_SECURE_COOKIE: 'false',
  // Code nodes run in a task runner that the stack starts beside the process (taskRunner.ts):
  // n8n deprecates its internal mode, where each process starts its runners itself (and
  // warns, without Python 3, that its Python runner failed to start).
  N8N_RUNNERS_MODE: 'external',
  N8N_RUNNERS_AUTH_TOKEN: randomBytes(24).toString('hex'),
  N8N_RUNNERS_BROKER_PORT: String(brokerPort),
  // n8n's current defaults, set: each one left unset is a notice that its default will change.
  // Unverified community packages allowed: n8n-nodes-paykit is one.
  N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
  N8N_RUNNERS_TASK_TIMEOUT: '300',
  N8N_COMPRESSION_NODE_MAX_DECOMPRESSED_SIZE_BYTES: String(2 * 1024 ** 3),
  N8N_COMPRESSION_NODE_MAX_ZIP_ENTRIES: '5000',
  N8N_DIAGNOSTICS_ENABLED: 'false',
  N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
  N8N_TEMPLATES_ENABLED: 'false',
  N8N_PERSONALIZATION_ENABLED: 'false',
  N8N_HIRING_BANNER_ENABLED: 'false',
  N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
  N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
  N8N_LOG_LEVEL: 'info',
  N8N_LOG_OUTPUT: 'console',
  DB_SQLITE_POOL_SIZE: '2',
  NODE_ENV: 'production',
  // Node's on-disk cache of compiled code (Node >= 22.1) for n8n's thousands of modules: each
  // later start of a main, a worker or the CLI compiles less (a CLI command 3.4 s -> 2.7 s).
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(N8N_DIR, '.compile-cache'),
  ...more,
})

/** Runs the n8n CLI (`n8n <args>`) to completion. */
export const runN8nCli = (
  env: NodeJS.ProcessEnv,
  args: ReadonlyArray<string>,
): Promise<CliResult> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [N8N_BIN, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })

const cliOrThrow = async (
  env: NodeJS.ProcessEnv,
  args: ReadonlyArray<string>,
): Promise<CliResult> => {
  const result = await runN8nCli(env, args)
  const failed = /An error occurred|Error /.test(result.stdout + result.stderr)
  if (result.code !== 0 || failed)
    throw new Error(
      `n8n ${args.join(' ')} failed (exit ${String(result.code)}):\n${result.stdout}\n${result.stderr}`,
    )
  return result
}

/**
 * The sandbox's id offset for a start now: the milliseconds since 2026-01-01. The sandbox
 * keeps nothing across starts and would number its events and orders from 1 again, but the
 * shop's database and n8n keep the ids they saw (template 3's `payment_events`, Accept Once):
 * a kept instance took the new start's `evt_000001` for a replay and its `OC00001001` for an
 * invoice linked before. With this offset each start's ids are past the last one's (unless it
 * gave more than 1,000 ids a second).
 */
const idOffset = (): number => Date.now() - Date.UTC(2026, 0, 1)

/**
 * Order events in flight to one trigger at most, the others in turn, as payment services
 * hold back: 300 events at once made queue mode's main stall on 2 cores (every delivery
 * timed out, and each retry added to the burst). 2, not 4: queue.test's burst (600
 * deliveries, a core kept busy beside it) settled in 136 s with 2 and 143 s with 4, so each
 * answer waited half as long for the same throughput; with 4, loaded full runs saw 6 and 9
 * answers pass the sandbox's 5 s.
 */
export const WEBHOOK_CONCURRENCY = 2

/** Starts the sandbox, its order events to each of `webhookUrls`; its output goes to `log` (what it wrote before listening first). */
const startSandbox = async (
  port: number,
  webhookUrls: ReadonlyArray<string>,
  more: ReadonlyArray<string>,
  log: LogFile,
): Promise<SandboxProcess> => {
  const sandbox = await spawnSandbox({
    bin: SANDBOX_BIN,
    port,
    args: [
      ...webhookUrls.flatMap((url) => ['--webhook-url', url]),
      '--webhook-secret',
      WEBHOOK_SECRET,
      '--webhook-concurrency',
      String(WEBHOOK_CONCURRENCY),
      '--control',
      '--id-offset',
      String(idOffset()),
      ...more,
    ],
    stderr: 'pipe',
    detached: true,
  })
  for (const line of sandbox
    .stderr()
    .split('\n')
    .filter((l) => l !== ''))
    log.write(line)
  log.write(`listening on ${sandbox.url}`)
  eachLine(sandbox.child.stdout, log.write)
  eachLine(sandbox.child.stderr, log.write)
  return sandbox
}

// -------------------------------------------------------------------------------------
// workflows and credentials
// -------------------------------------------------------------------------------------

interface ExampleNode {
  readonly name: string
  readonly type: string
  readonly webhookId?: string
  readonly parameters: Record<string, unknown>
}

/**
 * The example workflows and the templates (`examples/`, `templates/`) as imported: file
 * name -> workflow JSON with its fixed id.
 */
export const exampleWorkflows = (): ReadonlyArray<{
  file: string
  id: string
  json: Record<string, unknown>
}> =>
  ['examples', 'templates']
    .flatMap((dir) =>
      existsSync(join(NODES_PACKAGE, dir))
        ? readdirSync(join(NODES_PACKAGE, dir))
            .filter((file) => file.endsWith('.json'))
            .sort()
            .map((file) => ({ dir, file }))
        : [],
    )
    .map(({ dir, file }) => {
      const json = JSON.parse(readFileSync(join(NODES_PACKAGE, dir, file), 'utf8')) as Record<
        string,
        unknown
      >
      const id = WORKFLOW_IDS[file] ?? `paykit${file.replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 21)
      return { file, id, json: { ...json, id, active: false } }
    })

/** The SQL block of the sticky note `note` of the workflow `file`, as the user reads it there. */
const noteSql = (file: string, note: string): string => {
  const workflow = exampleWorkflows().find((w) => w.file === file)
  const nodes = (workflow?.json.nodes ?? []) as ReadonlyArray<ExampleNode>
  const content = nodes.find((n) => n.name === note)?.parameters.content
  const sql = /```sql\n([\s\S]*?)```/.exec(String(content))?.[1]
  if (sql === undefined) throw new Error(`${file}: its note ${note} has no SQL block`)
  return sql
}

/**
 * The SQL of the templates' tables (`invoices`, `payment_events`, ...) as template 2's sticky
 * note _Tables_ shows it to the user: read from the note, so the stack and the note never differ.
 */
export const shopTablesSql = (): string => noteSql(TABLES_TEMPLATE, 'Tables')

/**
 * The exactly-once example's claim table, from its note _Table_ ("run once"), made safe to
 * run at each start: a `CREATE TABLE` without `IF NOT EXISTS` gets it.
 */
export const claimTableSql = (): string =>
  noteSql(CLAIM_EXAMPLE, 'Table').replace(
    /CREATE TABLE (?!IF NOT EXISTS)/gi,
    'CREATE TABLE IF NOT EXISTS ',
  )

/** The tables a script creates (`CREATE TABLE [IF NOT EXISTS] <name>`), in order. */
export const tablesOf = (sql: string): ReadonlyArray<string> =>
  [...sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?("?)(\w+)\1/gi)].map((m) => m[2] ?? '')

/**
 * Every Paykit Trigger of the examples and templates with its production URL
 * (`<editor>/webhook/<webhookId>/webhook`), `order-paid-read-back.json`'s first.
 */
export const paykitTriggers = (
  editorUrl: string,
): ReadonlyArray<{ readonly file: string; readonly id: string; readonly url: string }> =>
  exampleWorkflows()
    .flatMap(({ file, id, json }) =>
      ((json.nodes ?? []) as ReadonlyArray<ExampleNode>)
        .filter((n) => n.type === 'n8n-nodes-paykit.paykitTrigger' && n.webhookId !== undefined)
        .map((n) => ({ file, id, url: `${editorUrl}webhook/${String(n.webhookId)}/webhook` })),
    )
    .sort((a, b) => Number(b.file === EXAMPLE_TRIGGER) - Number(a.file === EXAMPLE_TRIGGER))

/** The production URL of the Paykit Trigger in `order-paid-read-back.json`. */
export const triggerProductionUrl = (editorUrl: string): string => {
  const trigger = paykitTriggers(editorUrl).find((t) => t.file === EXAMPLE_TRIGGER)
  if (trigger === undefined) throw new Error(`${EXAMPLE_TRIGGER} has no Paykit Trigger webhookId`)
  return trigger.url
}

/** The two credentials the examples name, for `n8n import:credentials` (data in clear; n8n encrypts it). */
export const exampleCredentials = (sandboxUrl: string) => [
  {
    id: 'paykit-sandbox',
    name: 'Paykit sandbox',
    type: 'paykitApi',
    data: {
      baseUrl: sandboxUrl,
      clientId: 'sandbox-client',
      clientSecret: 'sandbox-secret',
      apiKey: '',
      accessToken: '',
    },
  },
  {
    id: 'paykit-webhook',
    name: 'Paykit webhook secret',
    type: 'paykitWebhookApi',
    data: { signingSecret: WEBHOOK_SECRET },
  },
]

/**
 * The sales assistant's model credential: the scripted model, any API key (it checks none;
 * a placeholder, local only). Point it at a real model by editing it (docs/n8n/agent.md).
 */
export const modelCredentials = (modelUrl: string) => [
  {
    id: 'scripted-model',
    name: 'Scripted model (local)',
    type: 'openAiApi',
    data: { apiKey: 'sk-scripted-local-only', url: modelUrl },
  },
]

/** The templates' credentials: the shop's database and its captured SMTP (no TLS, no login). */
export const shopCredentials = (shop: Shop, smtpPort: number) => [
  {
    id: 'shop-postgres',
    name: 'Shop database',
    type: 'postgres',
    data: {
      host: shop.host,
      port: shop.port,
      database: shop.database,
      user: shop.user,
      password: shop.password,
      ssl: 'disable',
      allowUnauthorizedCerts: false,
      maxConnections: 10,
    },
  },
  {
    id: 'shop-smtp',
    name: 'Shop mail (captured)',
    type: 'smtp',
    data: {
      user: '',
      password: '',
      host: '127.0.0.1',
      port: smtpPort,
      secure: false,
      disableStartTls: true,
      hostName: '',
    },
  },
]

/**
 * Which of `ids` have no row in n8n's `credentials_entity` yet: all of them before n8n's
 * first start (no database, or no table). Read from the database itself (SQLite in the user
 * folder, or Postgres from the `DB_POSTGRESDB_*` settings) so that a start with them all
 * there costs no n8n CLI call.
 */
export const missingCredentials = async (
  userFolder: string,
  env: Readonly<Record<string, string>>,
  ids: ReadonlyArray<string>,
): Promise<ReadonlyArray<string>> => {
  let present: ReadonlyArray<string> = []
  if (env.DB_TYPE === 'postgresdb') {
    const client = new pg.Client({
      host: env.DB_POSTGRESDB_HOST,
      port: Number(env.DB_POSTGRESDB_PORT),
      user: env.DB_POSTGRESDB_USER,
      password: env.DB_POSTGRESDB_PASSWORD,
      database: env.DB_POSTGRESDB_DATABASE,
    })
    await client.connect()
    try {
      const rows = await client.query<{ id: string }>(
        'SELECT id FROM credentials_entity WHERE id = ANY($1)',
        [ids],
      )
      present = rows.rows.map((r) => r.id)
    } catch (error) {
      // 42P01: no such table (n8n has not run its migrations yet)
      if ((error as { code?: string }).code !== '42P01') throw error
    } finally {
      await client.end()
    }
  } else {
    const file = join(userFolder, '.n8n/database.sqlite')
    if (existsSync(file)) {
      const db = new DatabaseSync(file, { readOnly: true })
      try {
        const hasTable = db
          .prepare(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'credentials_entity'",
          )
          .get()
        if (hasTable !== undefined)
          present = db
            .prepare(
              `SELECT id FROM credentials_entity WHERE id IN (${ids.map(() => '?').join(', ')})`,
            )
            .all(...ids)
            .map((r) => String(r.id))
      } finally {
        db.close()
      }
    }
  }
  return ids.filter((id) => !present.includes(id))
}

// -------------------------------------------------------------------------------------
// the stack
// -------------------------------------------------------------------------------------

/**
 * Starts `n8n <args>` in its own process group, its output to `log`; keeps its last log
 * lines for errors.
 */
const spawnN8n = (
  name: string,
  args: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv,
  onLine: (line: string, from: string) => void,
  log: LogFile,
) => {
  const tail: Array<string> = []
  const child = spawn(process.execPath, [N8N_BIN, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  for (const stream of [child.stdout, child.stderr])
    eachLine(stream, (line) => {
      log.write(line)
      tail.push(line)
      if (tail.length > 40) tail.shift()
      onLine(line, name)
    })
  const exitedEarly = () =>
    child.exitCode !== null || child.signalCode !== null
      ? `n8n ${name} exited (${String(child.exitCode ?? child.signalCode)}):\n${tail.join('\n')}`
      : undefined
  return { child, exitedEarly }
}

/**
 * Polls `GET /rest/workflows/<id>/publication-status` until n8n reports `published`; throws
 * naming the trigger's error when it reports `failed` or `partial`.
 */
export const waitPublished = async (
  rest: (path: string) => Promise<unknown>,
  id: string,
  timeoutMs = PUBLICATION_TIMEOUT_MS,
): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { data } = (await rest(`/workflows/${id}/publication-status`)) as {
      data: {
        status: string
        triggers?: ReadonlyArray<{ nodeId: string; errorMessage: string | null }>
      }
    }
    if (data.status === 'published') return
    if (data.status === 'failed' || data.status === 'partial')
      throw new Error(
        `workflow ${id}: n8n reports its publication ${data.status}: ${(data.triggers ?? [])
          .filter((t) => t.errorMessage !== null)
          .map((t) => `${t.nodeId}: ${String(t.errorMessage)}`)
          .join('; ')}`,
      )
    if (Date.now() > deadline)
      throw new Error(`workflow ${id}: not published after ${timeoutMs / 1000} s (${data.status})`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

const waitFor = async (
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  failed?: () => string | undefined,
) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const reason = failed?.()
    if (reason !== undefined) throw new Error(`${what}: ${reason}`)
    if (await check().catch(() => false)) return
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${timeoutMs / 1000} s`)
    await new Promise((r) => setTimeout(r, 500))
  }
}

/**
 * Starts the sandbox and n8n (package installed, the credentials imported when missing, the
 * examples on a new instance, the Paykit Trigger workflow published, the owner set up and
 * logged in), each process's output in `<userFolder>/logs/<name>.log`. Installs n8n and
 * builds the workspace first when needed.
 */
export const startStack = async (options: StackOptions = {}): Promise<Stack> => {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  ensureN8n()
  ensureBuilt()
  const temporary = options.userFolder === undefined
  const userFolder = options.userFolder ?? mkdtempSync(join(tmpdir(), 'paykit-n8n-'))
  const n8nPort = options.n8nPort ?? (await freePort())
  const sandboxPort = options.sandboxPort ?? (await freePort())
  const editorUrl = `http://127.0.0.1:${n8nPort}/`
  const triggerUrl = triggerProductionUrl(editorUrl)
  const triggerUrls = paykitTriggers(editorUrl).map((t) => t.url)
  const cliEnv = async (port = n8nPort) => n8nEnv(userFolder, port, await freePort(), options.env)
  let sandbox: SandboxProcess | undefined
  let shopServer: Postgres | undefined
  let mail: Mail | undefined
  let model: ScriptedModel | undefined
  let shopTemp: string | undefined
  const processes: Array<N8nProcess> = []
  // The task runners beside the processes that run Code nodes.
  const runners: Array<TaskRunner> = []
  const logsDir = join(userFolder, 'logs')
  const logFiles: Array<LogFile> = []
  const logFile = (name: string) => {
    const file = openLogFile(logsDir, name)
    logFiles.push(file)
    return file
  }
  // The side processes that have logged their ready line.
  const readySides = new Set<string>()
  const onLine = (line: string, from: string) => {
    const side = options.beside?.find((p) => p.name === from)
    if (side !== undefined && line.includes(side.ready)) readySides.add(from)
    options.n8nLog?.(line, from)
  }
  const stop = async () => {
    await Promise.all([
      ...processes.map((p) => stopGroup(p.child)),
      ...runners.map((r) => r.stop()),
      stopGroup(sandbox?.child, 2000),
      mail?.stop(),
      model?.stop(),
      shopServer?.stop(),
    ])
    await Promise.all(logFiles.map((f) => f.close()))
    if (temporary) rmSync(userFolder, { recursive: true, force: true })
    if (shopTemp !== undefined) rmSync(shopTemp, { recursive: true, force: true })
  }
  const firstStart = options.firstStart ?? !existsSync(join(userFolder, '.n8n/database.sqlite'))
  let serviceUrl = ''
  try {
    // The shop's database: on n8n's own server in queue mode, else an embedded one.
    const queueServer = options.env?.DB_TYPE === 'postgresdb'
    const startShopServer = async () => {
      if (queueServer) return serverLogin(options.env ?? {})
      // A temporary stack's cluster in a folder of its own that the `postgres` user reaches.
      if (temporary) shopTemp = mkdtempSync(join(tmpdir(), 'paykit-shop-'))
      shopServer = await startPostgres({
        dataDir: join(shopTemp ?? userFolder, 'shop-postgres'),
        port: options.shopPostgresPort ?? (await freePort()),
        log: logFile('shop-postgres').write,
      })
      return loginOf(shopServer)
    }
    const [, shop] = await Promise.all([
      (async () => {
        sandbox = await startSandbox(
          sandboxPort,
          triggerUrls,
          options.sandboxArgs ?? [],
          logFile('sandbox'),
        )
      })(),
      startShopServer()
        .then(ensureShop)
        .then((created) => ensureShopTables(created, `${shopTablesSql()}\n${claimTableSql()}`)),
      (async () => {
        mail = await startMail({
          smtpPort: options.smtpPort ?? (await freePort()),
          webPort: options.mailPort ?? (await freePort()),
          log: logFile('mail').write,
        })
      })(),
      (async () => {
        model = await startScriptedModel({
          script: JSON.parse(readFileSync(AGENT_SCRIPT, 'utf8')) as Script,
          port: options.modelPort ?? (await freePort()),
          log: logFile('model').write,
        })
      })(),
    ])
    if (sandbox === undefined || mail === undefined || model === undefined)
      throw new Error('not started')
    log(
      `paykit-sandbox: ${sandbox.url} (order events signed, sent to every Paykit Trigger: ${triggerUrls.join(', ')})`,
    )
    log(
      `shop database: ${shop.database} on 127.0.0.1:${String(shop.port)} (${queueServer ? "n8n's Postgres server" : `embedded Postgres in ${join(shopTemp ?? userFolder, 'shop-postgres')}`})`,
    )
    log(
      `shop tables: ${tablesOf(shopTablesSql()).join(', ')} (template 2's note Tables) and ${tablesOf(claimTableSql()).join(', ')} (the exactly-once example's note Table), created if missing`,
    )
    log(`mail: SMTP 127.0.0.1:${String(mail.smtpPort)}, read it at ${mail.url}`)
    log(`model: a scripted chat model (OpenAI-compatible, local) at ${model.url}`)
    serviceUrl = (await options.serviceUrl?.(sandbox.url)) ?? sandbox.url
    const version = installPackage(userFolder)
    log(
      `n8n-nodes-paykit ${version}: installed into ${join(userFolder, '.n8n/nodes/node_modules')}`,
    )
    const work = mkdtempSync(join(tmpdir(), 'paykit-import-'))
    try {
      // The credentials when missing only: an import overwrites a user's edits to them.
      const credentials = [
        ...exampleCredentials(serviceUrl),
        ...shopCredentials(shop, mail.smtpPort),
        ...modelCredentials(model.url),
      ]
      const missing = await missingCredentials(
        userFolder,
        options.env ?? {},
        credentials.map((c) => c.id),
      )
      const named = (ids: ReadonlyArray<string>) =>
        credentials
          .filter((c) => ids.includes(c.id))
          .map((c) => `${c.name} (${c.id})`)
          .join(', ')
      if (missing.length > 0) {
        const credentialsFile = join(work, 'credentials.json')
        writeFileSync(
          credentialsFile,
          JSON.stringify(credentials.filter((c) => missing.includes(c.id))),
        )
        await cliOrThrow(await cliEnv(), ['import:credentials', `--input=${credentialsFile}`])
        log(`credentials: ${named(missing)} imported`)
      }
      const kept = credentials.map((c) => c.id).filter((id) => !missing.includes(id))
      if (kept.length > 0) log(`credentials: ${named(kept)} kept as they are`)
    } finally {
      rmSync(work, { recursive: true, force: true })
    }

    // The main process and those beside it boot at once (the CLI above ran the migrations).
    const ready: Array<Promise<void>> = []
    const booted = Date.now()
    const readyIn = (name: string) => () =>
      log(`n8n ${name}: ready in ${((Date.now() - booted) / 1000).toFixed(1)} s`)
    const start = async (name: string, args: ReadonlyArray<string>, port: number) => {
      const env = await cliEnv(port)
      const file = logFile(name)
      const spawned = spawnN8n(name, args, env, onLine, file)
      processes.push({ name, child: spawned.child, url: `http://127.0.0.1:${port}/` })
      if (needsTaskRunner(args, env))
        runners.push(startTaskRunner({ n8nBin: N8N_BIN, env, n8n: spawned.child, log: file.write }))
      return spawned
    }
    const main = await start('main', ['start'], n8nPort)
    log(`n8n ${N8N_VERSION}: starting on ${editorUrl} ...`)
    ready.push(
      waitFor(
        'n8n',
        async () => (await fetch(`${editorUrl}healthz/readiness`)).ok,
        180_000,
        main.exitedEarly,
      ).then(readyIn('main')),
    )
    for (const side of options.beside ?? []) {
      const spawned = await start(side.name, side.args, await freePort())
      log(`n8n ${side.name}: starting (n8n ${side.args.join(' ')}) ...`)
      ready.push(
        waitFor(
          `n8n ${side.name}`,
          () => Promise.resolve(readySides.has(side.name)),
          180_000,
          spawned.exitedEarly,
        ).then(readyIn(side.name)),
      )
    }
    await Promise.all(ready)

    // The owner: POST /rest/owner/setup once (n8n answers 400 when it is set up already).
    const setup = await fetch(`${editorUrl}rest/owner/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'browser-id': BROWSER_ID },
      body: JSON.stringify(OWNER),
    })
    if (!setup.ok && setup.status !== 400)
      throw new Error(`owner setup answered ${setup.status}: ${await setup.text()}`)
    const login = await fetch(`${editorUrl}rest/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'browser-id': BROWSER_ID },
      body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
    })
    if (!login.ok) throw new Error(`login answered ${login.status}: ${await login.text()}`)
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    log(`owner: ${OWNER.email} set up and logged in`)
    const names = readdirSync(logsDir).map((f) => f.replace(/\.log$/, ''))
    log(`logs: ${logsDir}/<name>.log (${names.join(', ')})`)
    const rest = async (path: string, init: RequestInit = {}): Promise<unknown> => {
      const res = await fetch(`${editorUrl}rest${path}`, {
        ...init,
        headers: {
          'content-type': 'application/json',
          'browser-id': BROWSER_ID,
          cookie,
          ...init.headers,
        },
      })
      const text = await res.text()
      if (!res.ok)
        throw new Error(`${init.method ?? 'GET'} /rest${path} answered ${res.status}: ${text}`)
      return text === '' ? undefined : (JSON.parse(text) as unknown)
    }
    // The examples on a new instance only (a kept user folder keeps the user's edits), saved
    // as the editor saves a workflow imported from a file: POST /rest/workflows, with the
    // examples' ids. One n8n CLI boot less than `n8n import:workflow` (about 5 CPU-s a start).
    if (firstStart) {
      const examples = exampleWorkflows()
      for (const { json } of examples) {
        const { active: _active, ...workflow } = json
        await rest('/workflows', { method: 'POST', body: JSON.stringify(workflow) })
      }
      log(`workflows: ${examples.map((w) => w.id).join(', ')} imported`)
    }
    // Publish (activate) as the editor's Publish button does, on a new instance only; then
    // wait until n8n reports each published (n8n 2.41 registers the triggers in the background:
    // an activate answers before the webhook exists). A kept instance's active ones too.
    const published: Array<PublishedWorkflow> = []
    for (const file of options.publish ?? [EXAMPLE_TRIGGER]) {
      const id = exampleWorkflows().find((w) => w.file === file)?.id ?? file
      const workflow = (await rest(`/workflows/${id}`).catch(() => undefined)) as
        | {
            data: {
              versionId: string
              name: string
              active?: boolean
              activeVersionId?: string | null
            }
          }
        | undefined
      if (workflow === undefined) continue // a kept instance where the user deleted it
      if (firstStart)
        await rest(`/workflows/${id}/activate`, {
          method: 'POST',
          body: JSON.stringify({ versionId: workflow.data.versionId }),
        })
      else if (workflow.data.active !== true && (workflow.data.activeVersionId ?? null) === null)
        continue // the user unpublished it: kept so
      published.push({ file, id, name: workflow.data.name })
    }
    const publishing = Date.now()
    await Promise.all(published.map(({ id }) => waitPublished(rest, id)))
    for (const { id } of published) log(`workflow ${id}: published (n8n reports it published)`)
    if (published.length > 0)
      log(
        `${String(published.length)} workflows published in ${((Date.now() - publishing) / 1000).toFixed(1)} s (n8n publishes in the background)`,
      )
    // A kept credential may point at another service URL (another --sandbox-port): said, not changed.
    const kept = (await rest('/credentials/paykit-sandbox?includeData=true').catch(
      () => undefined,
    )) as { data?: { data?: { baseUrl?: unknown } } } | undefined
    const keptUrl = kept?.data?.data?.baseUrl
    if (typeof keptUrl === 'string' && keptUrl !== serviceUrl)
      log(
        `credential Paykit sandbox: its Base URL is ${keptUrl}, the sandbox is at ${serviceUrl} (edit the credential, or start with --fresh)`,
      )
    // The same for the shop's credentials and the ports this start gave their servers.
    for (const [id, name, port] of [
      ['shop-postgres', 'Shop database', shop.port],
      ['shop-smtp', 'Shop mail (captured)', mail.smtpPort],
    ] as const) {
      const keptShop = (await rest(`/credentials/${id}?includeData=true`).catch(
        () => undefined,
      )) as { data?: { data?: { port?: unknown } } } | undefined
      const keptPort = keptShop?.data?.data?.port
      if (keptPort !== undefined && Number(keptPort) !== port)
        log(
          `credential ${name}: its port is ${String(keptPort)}, the server is on ${String(port)} (edit the credential, or start with --fresh)`,
        )
    }
    return {
      editorUrl,
      sandboxUrl: sandbox.url,
      userFolder,
      logsDir,
      cookie,
      triggerUrl,
      triggerUrls,
      published,
      rest,
      cli: async (args) => runN8nCli(await cliEnv(), args),
      processes,
      shop,
      mail,
      model,
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}
