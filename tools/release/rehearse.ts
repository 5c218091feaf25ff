/**
 * The release rehearsal (`pnpm release:rehearse`): what the release workflow does, on this
 * machine, against a local registry, without touching the checkout.
 *
 * 1. Copies the built workspace (manifests, `.changeset/`, each published package without its
 *    `node_modules`) into a temporary git repository; only there is `publishConfig.provenance`
 *    dropped (npm makes a provenance statement only inside a CI with an OIDC identity, and
 *    `publishConfig` wins over every environment variable).
 * 2. `changeset version` there: new versions, a `CHANGELOG.md` per package.
 * 3. Starts Verdaccio on 127.0.0.1 (storage in the temporary folder; other packages proxied
 *    from the npm registry) and runs `changeset publish` with no git identity, then
 *    `changeset tag` with one (the recovery docs/releasing.md gives).
 * 4. Installs the three packages by name with npm and with pnpm in fresh consumer projects and
 *    runs a snippet of each: the core's client against the testkit's sandbox, the testkit's
 *    arbitraries judged by the core, the nodes loaded by n8n's own package loader; and the
 *    nodes installed into an n8n nodes folder the way n8n's community-package service does.
 *
 * Run `pnpm run build` first. The report goes to stdout; the exit code says whether it passed.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { childEnv, run, type RunResult } from '@paykit/tools/lib/run'
import { ROOT } from '@paykit/tools/lib/root'
import { freePort } from '@paykit/tools/lib/freePort'

// ─── The packages ──────────────────────────────────────────────────────────────────────────

/** The published packages by folder under `packages/`. */
export const PUBLISHED = {
  core: '@paykit/core',
  testkit: '@paykit/testkit',
  'n8n-nodes': 'n8n-nodes-paykit',
} as const

/** A folder under `packages/` of a published package. */
export type PackageDir = keyof typeof PUBLISHED

const DIRS = Object.keys(PUBLISHED) as ReadonlyArray<PackageDir>

// ─── The report ────────────────────────────────────────────────────────────────────────────

/** One step of the rehearsal: what was done, how long it took, what it gave. */
export interface Step {
  readonly step: string
  readonly ms: number
  readonly detail: string
}

/** What a rehearsal did and saw. */
export interface Rehearsal {
  /** The version each package got from `changeset version`, by package name. */
  readonly versions: Readonly<Record<string, string>>
  /** The files of each tarball as the local registry serves it, by package name. */
  readonly tarballs: Readonly<Record<string, ReadonlyArray<string>>>
  /** What `changeset publish` printed about tags, and the tags it left. */
  readonly publishTagLine: string
  readonly tagsAfterPublish: ReadonlyArray<string>
  /** The tags after a second `changeset publish`, still with no git identity. */
  readonly tagsAfterRepublish: ReadonlyArray<string>
  /** The tags after `changeset tag` run with a git identity. */
  readonly tagsAfterTag: ReadonlyArray<string>
  /** Each snippet's output (one JSON line), by `<client>:<snippet>`. */
  readonly snippets: Readonly<Record<string, string>>
  readonly steps: ReadonlyArray<Step>
}

// ─── Helpers ───────────────────────────────────────────────────────────────────────────────

const must = (what: string, r: RunResult): RunResult => {
  if (r.code !== 0)
    throw new Error(
      `${what} failed (exit ${String(r.code)}):\n${r.stdout}\n${r.stderr}`.slice(0, 8000),
    )
  return r
}

/** Git with no identity at all: no global or system config, no identity variables. */
const noIdentityEnv = (home: string): NodeJS.ProcessEnv => {
  const env = Object.fromEntries(
    Object.entries(childEnv()).filter(
      ([k]) => !/^GIT_(AUTHOR|COMMITTER)_|^EMAIL$|^GIT_CONFIG/.test(k),
    ),
  )
  return {
    ...env,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
  }
}

const readJson = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>

// ─── The workspace copy ────────────────────────────────────────────────────────────────────

/** The built workspace in `dir`, a git repository with one commit; provenance off. */
const copyWorkspace = async (dir: string, env: NodeJS.ProcessEnv): Promise<void> => {
  for (const f of ['package.json', 'pnpm-workspace.yaml', 'LICENSE'])
    if (existsSync(join(ROOT, f))) cpSync(join(ROOT, f), join(dir, f))
  cpSync(join(ROOT, '.changeset'), join(dir, '.changeset'), { recursive: true })
  for (const d of DIRS) {
    const from = join(ROOT, 'packages', d)
    if (!existsSync(join(from, 'dist')))
      throw new Error(`packages/${d}/dist is missing: run \`pnpm run build\` first`)
    cpSync(from, join(dir, 'packages', d), {
      recursive: true,
      filter: (src) => !src.startsWith(join(from, 'node_modules')),
    })
    const path = join(dir, 'packages', d, 'package.json')
    const manifest = readJson(path)
    // The rehearsal's one change: npm cannot make a provenance statement outside CI.
    writeFileSync(
      path,
      `${JSON.stringify({ ...manifest, publishConfig: { access: 'public' } }, null, 2)}\n`,
    )
  }
  // pnpm publish reads a `workspace:` dependency's version from the package's node_modules:
  // link the copies to each other, as `pnpm install` would, without installing the rest. The
  // tools (never published, a dev dependency of the packages whose tests use them) are the
  // checkout's own.
  const workspaceFolder = (name: string): string | undefined => {
    const d = DIRS.find((x) => PUBLISHED[x] === name)
    if (d !== undefined) return join(dir, 'packages', d)
    return name === '@paykit/tools' ? join(ROOT, 'tools') : undefined
  }
  for (const d of DIRS) {
    const manifest = readJson(join(dir, 'packages', d, 'package.json'))
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies']) {
      const ranges = (manifest[field] ?? {}) as Readonly<Record<string, string>>
      for (const [name, range] of Object.entries(ranges)) {
        const target = workspaceFolder(name)
        if (!range.startsWith('workspace:') || target === undefined) continue
        const link = join(dir, 'packages', d, 'node_modules', name)
        mkdirSync(join(link, '..'), { recursive: true })
        if (!existsSync(link)) symlinkSync(target, link, 'dir')
      }
    }
  }
  // The Changesets CLI and pnpm's workspace resolution need the root's modules, not the packages'.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir')
  writeFileSync(join(dir, '.gitignore'), 'node_modules\n')
  const git = (args: ReadonlyArray<string>) => run('git', args, { cwd: dir, env })
  must('git init', await git(['init', '-q', '-b', 'main']))
  must('git add', await git(['add', '.']))
  must(
    'git commit',
    await git([
      '-c',
      'user.name=Rehearsal',
      '-c',
      'user.email=rehearsal@localhost',
      'commit',
      '-qm',
      'copy',
    ]),
  )
}

// ─── The local registry ────────────────────────────────────────────────────────────────────

/** A started Verdaccio: its URL, a publish token and how to stop it. */
interface Registry {
  readonly url: string
  readonly token: string
  readonly stop: () => Promise<void>
}

const startRegistry = async (dir: string): Promise<Registry> => {
  mkdirSync(dir, { recursive: true })
  const port = await freePort()
  const upstream = (
    await run('npm', ['config', 'get', 'registry'], { cwd: dir, env: childEnv() })
  ).stdout.trim()
  const ours = Object.values(PUBLISHED)
    .map((name) => `  '${name}':\n    access: $all\n    publish: $authenticated\n`)
    .join('')
  writeFileSync(
    join(dir, 'config.yaml'),
    [
      `storage: ${join(dir, 'storage')}`,
      'auth:',
      `  htpasswd:\n    file: ${join(dir, 'htpasswd')}\n    max_users: 1`,
      `uplinks:\n  npmjs:\n    url: ${upstream || 'https://registry.npmjs.org/'}`,
      // Ours are never proxied: a name on the public registry must not shadow the rehearsal's.
      `packages:\n${ours}  '**':\n    access: $all\n    proxy: npmjs`,
      'web:\n  enable: false',
      'log: { type: stdout, format: pretty, level: error }',
      '',
    ].join('\n'),
  )
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules/verdaccio/bin/verdaccio'),
      '--config',
      join(dir, 'config.yaml'),
      '--listen',
      `127.0.0.1:${String(port)}`,
    ],
    { cwd: dir, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
  )
  // Never outlive the rehearsal, even when it is cut short (a test timeout, Ctrl-C).
  const killChild = () => child.kill('SIGTERM')
  process.once('exit', killChild)
  let output = ''
  child.stdout?.on('data', (b: Buffer) => (output += b.toString()))
  child.stderr?.on('data', (b: Buffer) => (output += b.toString()))
  const url = `http://127.0.0.1:${String(port)}/`
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited:\n${output}`)
    const up = await fetch(`${url}-/ping`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) break
    if (Date.now() > deadline) throw new Error(`verdaccio did not answer in 30 s:\n${output}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  const user = await fetch(`${url}-/user/org.couchdb.user:rehearsal`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'rehearsal', password: 'rehearsal-only' }),
  })
  const { token } = (await user.json()) as { readonly token?: string }
  if (token === undefined) throw new Error(`verdaccio gave no token (${String(user.status)})`)
  const stop = () =>
    new Promise<void>((resolve) => {
      process.off('exit', killChild)
      if (child.exitCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  return { url, token, stop }
}

// ─── The consumer snippets ─────────────────────────────────────────────────────────────────

/** The core's client against the testkit's sandbox, over HTTP. */
const CORE_SNIPPET = `
import { createClient, validate } from '@paykit/core'
import { PaymentLinkRequest } from '@paykit/core/codecs'
import { defaultCredentials } from '@paykit/testkit'
import { startSandbox } from '@paykit/testkit/sandbox'
const sandbox = await startSandbox()
try {
  const client = createClient({ baseUrl: sandbox.url, credentials: defaultCredentials })
  const link = await client.createPaymentLink({ amount: 12.5 })()
  if (link._tag !== 'Right') throw new Error(link.left.message)
  const order = await client.getOrder(link.right.orderCode)()
  if (order._tag !== 'Right') throw new Error(order.left.message)
  const bad = validate(PaymentLinkRequest)({ lineItems: [{ sku: 'A', quantity: 0 }] })
  console.log(JSON.stringify({ status: order.right.orderStatus, bad: bad.left.map((e) => e.path) }))
} finally {
  await sandbox.close()
}
`

/** The testkit's arbitraries, each value judged valid by the core. */
const TESTKIT_SNIPPET = `
import fc from 'fast-check'
import { validate } from '@paykit/core'
import { PaymentLinkRequest } from '@paykit/core/codecs'
import { paymentLinkRequest } from '@paykit/testkit/arbitraries'
const values = fc.sample(paymentLinkRequest(), { numRuns: 50, seed: 1 })
const valid = values.filter((v) => validate(PaymentLinkRequest)(v)._tag === 'Right').length
console.log(JSON.stringify({ sampled: values.length, valid }))
`

/** The nodes as n8n loads a community package: n8n-core's PackageDirectoryLoader. */
const n8nSnippet = (packageDir: string): string => `
const { createRequire } = require('node:module')
const n8nCore = createRequire(${JSON.stringify(join(ROOT, 'packages/n8n-nodes/package.json'))})('n8n-core')
const main = async () => {
  const loader = new n8nCore.PackageDirectoryLoader(${JSON.stringify(packageDir)})
  await loader.loadAll()
  console.log(JSON.stringify({
    package: loader.packageName,
    nodes: Object.keys(loader.nodeTypes).sort(),
    credentials: Object.keys(loader.credentialTypes).sort(),
  }))
}
main().catch((e) => { console.error(e); process.exit(1) })
`

const runSnippets = async (
  dir: string,
  client: string,
  snippets: Record<string, string>,
): Promise<void> => {
  writeFileSync(join(dir, 'core.mjs'), CORE_SNIPPET)
  writeFileSync(join(dir, 'testkit.mjs'), TESTKIT_SNIPPET)
  writeFileSync(join(dir, 'n8n.cjs'), n8nSnippet(join(dir, 'node_modules/n8n-nodes-paykit')))
  const results = await Promise.all(
    ['core.mjs', 'testkit.mjs', 'n8n.cjs'].map(async (file) => {
      const r = must(
        `${client} ${file}`,
        await run(process.execPath, [file], { cwd: dir, env: childEnv() }),
      )
      return [
        `${client}:${file.replace(/\..*$/, '')}`,
        r.stdout.trim().split('\n').at(-1) ?? '',
      ] as const
    }),
  )
  for (const [k, v] of results) snippets[k] = v
}

// ─── The rehearsal ─────────────────────────────────────────────────────────────────────────

/** Runs the rehearsal in a new temporary folder (removed after unless `keep`). */
export const rehearse = async (
  options: { readonly log?: (line: string) => void; readonly keep?: boolean } = {},
): Promise<Rehearsal> => {
  const log = options.log ?? (() => undefined)
  const work = mkdtempSync(join(tmpdir(), 'paykit-rehearsal-'))
  const steps: Array<Step> = []
  const step = async <A>(
    name: string,
    f: () => Promise<A>,
    detail: (a: A) => string,
  ): Promise<A> => {
    const started = Date.now()
    const a = await f()
    const s = { step: name, ms: Date.now() - started, detail: detail(a) }
    steps.push(s)
    log(`${s.step} (${(s.ms / 1000).toFixed(1)} s): ${s.detail}`)
    return a
  }
  const home = join(work, 'home')
  const repo = join(work, 'repo')
  mkdirSync(home)
  mkdirSync(repo)
  const gitEnv = noIdentityEnv(home)
  let registry: Registry | undefined
  try {
    await step(
      'copy',
      () => copyWorkspace(repo, gitEnv),
      () => `the built workspace in ${repo}, provenance off`,
    )
    const changeset = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv) =>
      run(process.execPath, [join(ROOT, 'node_modules/@changesets/cli/bin.js'), ...args], {
        cwd: repo,
        env,
      })
    const versions = await step(
      'changeset version',
      async () => {
        must('changeset version', await changeset(['version'], gitEnv))
        return Object.fromEntries(
          DIRS.map((d) => [
            PUBLISHED[d],
            String(readJson(join(repo, 'packages', d, 'package.json'))['version']),
          ]),
        )
      },
      (v) =>
        Object.entries(v)
          .map(([n, x]) => `${n}@${x}`)
          .join(', '),
    )
    registry = await step(
      'registry',
      () => startRegistry(join(work, 'registry')),
      (r) => `Verdaccio at ${r.url}`,
    )
    const { url, token } = registry
    const host = url.replace(/^http:/, '')
    // The maintainer's npm settings stay out: only the local registry and its token.
    const npmrc = join(work, 'npmrc')
    writeFileSync(npmrc, `registry=${url}\n${host}:_authToken=${token}\n`)
    const npmEnv = {
      ...gitEnv,
      npm_config_userconfig: npmrc,
      npm_config_registry: url,
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    }
    // Installs go without the token: Verdaccio checks a token's password hash on every request.
    const anonymousNpmrc = join(work, 'npmrc-install')
    writeFileSync(anonymousNpmrc, `registry=${url}\n`)
    const installEnv = { ...npmEnv, npm_config_userconfig: anonymousNpmrc }
    const published = await step(
      'changeset publish',
      async () => {
        const r = must('changeset publish', await changeset(['publish'], npmEnv))
        const tags = (await run('git', ['tag'], { cwd: repo, env: gitEnv })).stdout
          .split('\n')
          .filter(Boolean)
        // The spinner's last word: with CI=true clack prints "Creating git tags..." on a line of
        // its own first, on a terminal it redraws one line.
        const line =
          stripVTControlCharacters(`${r.stdout}\n${r.stderr}`)
            .split(/[\r\n]/)
            .filter((l) => /git tags/i.test(l))
            .at(-1)
            ?.trim() ?? ''
        return { tags, line }
      },
      (p) => `"${p.line}", tags: [${p.tags.join(', ')}]`,
    )
    const tagsAfterRepublish = await step(
      'changeset publish again',
      async () => {
        must('changeset publish (again)', await changeset(['publish'], npmEnv))
        return (await run('git', ['tag'], { cwd: repo, env: gitEnv })).stdout
          .split('\n')
          .filter(Boolean)
      },
      (t) => `nothing left to publish; tags: [${t.join(', ')}]`,
    )
    const tagsAfterTag = await step(
      'changeset tag',
      async () => {
        const env = {
          ...gitEnv,
          GIT_COMMITTER_NAME: 'Rehearsal',
          GIT_COMMITTER_EMAIL: 'rehearsal@localhost',
        }
        must('changeset tag', await changeset(['tag'], env))
        return (await run('git', ['tag'], { cwd: repo, env })).stdout.split('\n').filter(Boolean)
      },
      (t) => `tags: [${t.join(', ')}]`,
    )
    const tarballs = await step(
      'tarballs',
      async () => {
        const dir = join(work, 'tarballs')
        mkdirSync(dir)
        const out: Record<string, ReadonlyArray<string>> = {}
        for (const name of Object.values(PUBLISHED)) {
          const r = must(
            `npm pack ${name}`,
            await run('npm', ['pack', `${name}@${versions[name] ?? ''}`, '--quiet'], {
              cwd: dir,
              env: installEnv,
            }),
          )
          const tgz = r.stdout.trim().split('\n').at(-1) ?? ''
          const files = must('tar', await run('tar', ['tzf', tgz], { cwd: dir }))
          out[name] = files.stdout
            .split('\n')
            .filter((l) => l !== '' && !l.endsWith('/'))
            .map((l) => l.replace(/^package\//, ''))
            .sort()
        }
        return out
      },
      (t) =>
        Object.entries(t)
          .map(
            ([n, f]) =>
              `${n} ${String(f.length)} files${f.includes('CHANGELOG.md') ? ' with CHANGELOG.md' : ''}`,
          )
          .join(', '),
    )
    const wanted = [
      ...Object.values(PUBLISHED).map((name) => `${name}@${versions[name] ?? ''}`),
      'fp-ts',
      'io-ts',
      'fast-check',
    ]
    const snippets: Record<string, string> = {}
    const consumer = (client: string) => {
      const dir = join(work, `consumer-${client}`)
      mkdirSync(dir)
      writeFileSync(
        join(dir, 'package.json'),
        `${JSON.stringify({ name: `consumer-${client}`, private: true, type: 'module' }, null, 2)}\n`,
      )
      writeFileSync(join(dir, '.npmrc'), `registry=${url}\n`)
      return dir
    }
    await step(
      'npm install',
      async () => {
        const dir = consumer('npm')
        must(
          'npm install',
          await run('npm', ['install', ...wanted], {
            cwd: dir,
            env: installEnv,
            timeoutMs: 180_000,
          }),
        )
        await runSnippets(dir, 'npm', snippets)
      },
      () =>
        `${wanted.join(' ')}; ${['core', 'testkit', 'n8n'].map((s) => snippets[`npm:${s}`]).join(' ')}`,
    )
    await step(
      'pnpm install',
      async () => {
        const dir = consumer('pnpm')
        const store = join(work, 'pnpm-store')
        must(
          'pnpm add',
          await run('pnpm', ['add', ...wanted, '--store-dir', store], {
            cwd: dir,
            env: installEnv,
            timeoutMs: 180_000,
          }),
        )
        await runSnippets(dir, 'pnpm', snippets)
      },
      () => ['core', 'testkit', 'n8n'].map((s) => snippets[`pnpm:${s}`]).join(' '),
    )
    await step(
      'n8n nodes folder',
      async () => {
        // n8n's CommunityPackagesService.downloadPackage: npm pack, untar, drop dev/peer/optional
        // dependencies, npm install with its flags; then its loader.
        const nodes = join(work, 'n8n-nodes', 'node_modules', 'n8n-nodes-paykit')
        mkdirSync(nodes, { recursive: true })
        const name = `n8n-nodes-paykit@${versions['n8n-nodes-paykit'] ?? ''}`
        const tgz = must(
          'npm pack',
          await run('npm', ['pack', name, '--quiet'], {
            cwd: join(work, 'n8n-nodes'),
            env: installEnv,
          }),
        ).stdout.trim()
        must(
          'tar',
          await run('tar', ['-xzf', tgz, '-C', nodes, '--strip-components=1'], {
            cwd: join(work, 'n8n-nodes'),
          }),
        )
        const {
          devDependencies: _d,
          peerDependencies: _p,
          optionalDependencies: _o,
          ...manifest
        } = readJson(join(nodes, 'package.json'))
        writeFileSync(join(nodes, 'package.json'), JSON.stringify(manifest, null, 2))
        const flags = [
          '--audit=false',
          '--fund=false',
          '--bin-links=false',
          '--install-strategy=shallow',
          '--ignore-scripts=true',
          '--package-lock=false',
        ]
        must(
          'npm install (n8n flags)',
          await run('npm', ['install', ...flags], { cwd: nodes, env: installEnv }),
        )
        // Under n8n, n8n-workflow comes from n8n itself; here from the npm consumer's install.
        const env = { ...childEnv(), NODE_PATH: join(work, 'consumer-npm', 'node_modules') }
        writeFileSync(join(work, 'n8n-folder.cjs'), n8nSnippet(nodes))
        const r = must(
          'n8n loader',
          await run(process.execPath, ['n8n-folder.cjs'], { cwd: work, env }),
        )
        snippets['n8n-folder:n8n'] = r.stdout.trim().split('\n').at(-1) ?? ''
      },
      () => snippets['n8n-folder:n8n'] ?? '',
    )
    return {
      versions,
      tarballs,
      publishTagLine: published.line,
      tagsAfterPublish: published.tags,
      tagsAfterRepublish,
      tagsAfterTag,
      snippets,
      steps,
    }
  } finally {
    await registry?.stop()
    if (options.keep !== true) rmSync(work, { recursive: true, force: true })
    else log(`kept ${work}`)
  }
}

// ─── Command line ──────────────────────────────────────────────────────────────────────────

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const keep = process.argv.includes('--keep')
  const started = Date.now()
  rehearse({ log: (l) => console.log(l), keep }).then(
    () =>
      console.log(`release rehearsal passed in ${((Date.now() - started) / 1000).toFixed(0)} s`),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e)
      process.exitCode = 1
    },
  )
}
