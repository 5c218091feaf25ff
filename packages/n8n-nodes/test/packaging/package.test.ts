// @paykit-test own-worker: the packed nodes required into this process
/**
 * The published package as n8n gets it: `pnpm pack` of packages/n8n-nodes (run
 * `pnpm --filter n8n-nodes-paykit run bundle` first), unpacked into a temporary folder, then
 *
 * - its file list and package.json checked against n8n's community-node rules;
 * - installed as n8n installs a community package (dev, peer and optional dependencies
 *   removed; only n8n's own n8n-workflow resolvable) and every node and credential loaded;
 * - scanned with n8n's verification scanner (`analyzePackage` of
 *   @n8n/scan-community-package): the tarball leg (compiled `.js` and package.json) and the
 *   source leg (package.json, nodes/, credentials/), as `scan-community-package` does.
 */
import { execFileSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { publishedMetadataProblems } from '@paykit/tools/package-check'

const packageDir = resolve(import.meta.dirname, '../..')
const require = createRequire(import.meta.url)

interface Manifest {
  readonly name: string
  readonly version: string
  readonly description?: string
  readonly license?: string
  readonly homepage?: string
  readonly keywords?: ReadonlyArray<string>
  readonly author?: { readonly name?: string; readonly email?: string }
  readonly files?: ReadonlyArray<string>
  readonly private?: boolean
  readonly scripts?: Readonly<Record<string, string>>
  readonly dependencies?: Readonly<Record<string, string>>
  readonly devDependencies?: Readonly<Record<string, string>>
  readonly peerDependencies?: Readonly<Record<string, string>>
  readonly optionalDependencies?: Readonly<Record<string, string>>
  readonly n8n?: {
    readonly n8nNodesApiVersion?: number
    readonly strict?: boolean
    readonly nodes?: ReadonlyArray<string>
    readonly credentials?: ReadonlyArray<string>
  }
}

interface ScanResult {
  readonly passed: boolean
  readonly message?: string
  readonly details?: string
}

/**
 * `analyzePackage` of n8n's scanner, in a Node process of its own (scripts/scan.mjs): under
 * vitest NODE_ENV is `test`, which puts eslint-plugin-n8n-nodes-base in its own test mode.
 */
const scan = (dir: string, patterns: ReadonlyArray<string>): ScanResult => {
  const env = { ...process.env }
  delete env['NODE_ENV']
  const out = execFileSync(
    process.execPath,
    [join(packageDir, 'scripts/scan.mjs'), '--json', dir, ...patterns],
    { encoding: 'utf8', env, maxBuffer: 16 * 1024 * 1024 },
  )
  return JSON.parse(out) as ScanResult
}

const filesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort()

let work: string
let unpacked: string
let manifest: Manifest

beforeAll(() => {
  if (!existsSync(join(packageDir, 'dist')))
    throw new Error('dist/ is missing: run `pnpm --filter n8n-nodes-paykit run bundle` first')
  work = mkdtempSync(join(tmpdir(), 'n8n-nodes-paykit-pack-'))
  // the pnpm running this (npm_execpath), else the one on PATH
  const pnpm = process.env['npm_execpath']?.match(/pnpm\.c?js$/)
    ? [process.execPath, process.env['npm_execpath']]
    : ['pnpm']
  const [command = 'pnpm', ...args] = [...pnpm, 'pack', '--pack-destination', work]
  const out = execFileSync(command, args, { cwd: packageDir, encoding: 'utf8' })
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))
  if (tarball === undefined) throw new Error(`pnpm pack wrote no tarball:\n${out}`)
  unpacked = join(work, 'package')
  mkdirSync(unpacked, { recursive: true })
  execFileSync('tar', ['-xzf', join(work, tarball), '-C', unpacked, '--strip-components=1'])
  manifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as Manifest
}, 120_000)

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true })
})

describe('the packed n8n-nodes-paykit', () => {
  it('holds only dist/, README, LICENSE, package.json and (once versioned) CHANGELOG', () => {
    const files = filesUnder(unpacked)
    const stray = files.filter(
      (f) => !/^(dist\/.+|README\.md|CHANGELOG\.md|LICENSE(\.md)?|package\.json)$/.test(f),
    )
    expect(stray).toEqual([])
    expect(files).toContain('README.md')
    expect(files.some((f) => /^LICENSE(\.md)?$/.test(f))).toBe(true)
    expect(files.filter((f) => f.endsWith('.map') || f.endsWith('.ts'))).toEqual([])
  })

  it('has the package.json n8n asks of a community node', () => {
    expect(manifest.name).toMatch(/^(@[a-z0-9-~][a-z0-9-._~]*\/)?n8n-nodes-[a-z0-9-._~]+$/)
    expect(manifest.private).toBeUndefined()
    expect(manifest.keywords).toContain('n8n-community-node-package')
    expect(manifest.description).toMatch(/\S/)
    expect(manifest.author?.name).toMatch(/\S/)
    expect(manifest.author?.email).toMatch(/^[^@\s]+@[^@\s]+$/)
    expect(manifest.files).toEqual(['dist', 'CHANGELOG.md'])
    expect(manifest.dependencies ?? {}).toEqual({})
    expect(manifest.optionalDependencies ?? {}).toEqual({})
    expect(manifest.peerDependencies).toEqual({ 'n8n-workflow': '*' })
    expect(publishedMetadataProblems(manifest, 'n8n-nodes')).toEqual([])
    const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare']
    expect(Object.keys(manifest.scripts ?? {}).filter((s) => lifecycle.includes(s))).toEqual([])
    expect(manifest.n8n?.n8nNodesApiVersion).toBe(1)
    expect(manifest.n8n?.nodes).toEqual([
      'dist/nodes/Paykit/Paykit.node.js',
      'dist/nodes/PaykitTrigger/PaykitTrigger.node.js',
    ])
    expect(manifest.n8n?.credentials).toEqual([
      'dist/credentials/PaykitApi.credentials.js',
      'dist/credentials/PaykitWebhookApi.credentials.js',
    ])
    for (const file of [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])])
      expect(existsSync(join(unpacked, file)), file).toBe(true)
  })

  it('requires nothing but n8n-workflow and Node built-ins', () => {
    const builtins = new Set(require('node:module').builtinModules as ReadonlyArray<string>)
    const external = filesUnder(join(unpacked, 'dist'))
      .filter((f) => f.endsWith('.js'))
      .flatMap((f) =>
        [
          ...readFileSync(join(unpacked, 'dist', f), 'utf8').matchAll(/\brequire\("([^"]+)"\)/g),
        ].map((m) => `${f}: ${m[1]}`),
      )
      .filter((entry) => {
        const specifier = entry.slice(entry.indexOf(': ') + 2)
        return (
          specifier !== 'n8n-workflow' &&
          !specifier.startsWith('node:') &&
          !builtins.has(specifier) &&
          !specifier.startsWith('.')
        )
      })
    expect(external).toEqual([])
  })

  it('loads as n8n installs it: nodes, credentials, their icons and codex files', () => {
    // as in <N8N_USER_FOLDER>/.n8n/nodes/node_modules/<name>: n8n removes these before
    // `npm install` there, so nothing is left to install
    const nodesFolder = join(work, 'n8n', 'node_modules')
    const home = join(nodesFolder, manifest.name)
    cpSync(unpacked, home, { recursive: true })
    const {
      devDependencies: _dev,
      peerDependencies: _peer,
      optionalDependencies: _optional,
      ...installed
    } = manifest
    writeFileSync(join(home, 'package.json'), JSON.stringify(installed, null, 2))
    expect(installed.dependencies ?? {}).toEqual({})
    // `require('n8n-workflow')` resolves to n8n's own copy
    const n8nWorkflow = dirname(require.resolve('n8n-workflow/package.json'))
    symlinkSync(n8nWorkflow, join(nodesFolder, 'n8n-workflow'), 'dir')
    const load = createRequire(join(home, 'package.json'))

    const iconFiles = (owner: string, icon: unknown): ReadonlyArray<string> => {
      const paths =
        typeof icon === 'string' ? [icon] : Object.values((icon ?? {}) as Record<string, string>)
      expect(paths.length, `${owner} has an icon`).toBeGreaterThan(0)
      return paths.map((p) => join(dirname(owner), p.replace(/^file:/, '')))
    }

    for (const file of manifest.n8n?.nodes ?? []) {
      const exported = load(`./${file}`) as Record<
        string,
        new () => { description: Record<string, unknown> }
      >
      const [NodeClass] = Object.values(exported)
      if (NodeClass === undefined) throw new Error(`${file} exports no node class`)
      const description = new NodeClass().description
      for (const icon of iconFiles(join(home, file), description['icon']))
        expect(readFileSync(icon, 'utf8'), icon).toMatch(/^<svg[\s\S]*<\/svg>\s*$/)
      const codexFile = join(home, file.replace(/\.js$/, '.json'))
      const codex = JSON.parse(readFileSync(codexFile, 'utf8')) as Record<string, unknown>
      expect(codex['node']).toBe(`${manifest.name}.${String(description['name'])}`)
      expect(codex['categories']).toEqual(expect.arrayContaining([expect.any(String)]))
    }
    for (const file of manifest.n8n?.credentials ?? []) {
      const exported = load(`./${file}`) as Record<string, new () => Record<string, unknown>>
      const [CredentialClass] = Object.values(exported)
      if (CredentialClass === undefined) throw new Error(`${file} exports no credential class`)
      const credential = new CredentialClass()
      expect(credential['name'], file).toMatch(/Api$/)
      for (const icon of iconFiles(join(home, file), credential['icon']))
        expect(existsSync(icon), icon).toBe(true)
    }
  })

  it("passes n8n's verification scanner on the tarball (compiled .js and package.json)", () => {
    const result = scan(unpacked, ['**/*.js', 'package.json'])
    expect(result.details ?? result.message ?? '').toBe('')
    expect(result.passed).toBe(true)
  }, 120_000)

  it("passes n8n's verification scanner on the sources (package.json, nodes/, credentials/)", () => {
    const result = scan(packageDir, ['package.json', '{nodes,credentials}/**/*.{js,ts,json}'])
    expect(result.details ?? result.message ?? '').toBe('')
    expect(result.passed).toBe(true)
  }, 120_000)
})
