/**
 * What a published tarball may hold, and the helpers that pack a workspace package and read
 * its tarball. Used by `packages/{core,testkit}/test/package.test.ts` and the clean-project
 * install test (`tools/docs-check/install.test.ts`).
 *
 * Choice: source maps are shipped, so `src` is shipped with them (every `sources` entry of
 * every map resolves inside the tarball, and go-to-definition lands on the TypeScript);
 * `.tsbuildinfo`, tests and anything else are not.
 *
 * Also what every published package.json says about where it comes from
 * ({@link publishedMetadataProblems}), checked on the three tarballs.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, normalize } from 'node:path'
import { ROOT } from '@paykit/tools/lib/root'
import { childEnv, run } from '@paykit/tools/lib/run'

/** Paths (inside `package/`) a tarball may hold. */
export const ALLOWED: ReadonlyArray<RegExp> = [
  /^package\.json$/,
  /^README\.md$/,
  /^CHANGELOG\.md$/,
  /^LICENSE(\.md|\.txt)?$/,
  /^dist\/.+\.(js|d\.ts|js\.map|d\.ts\.map)$/,
  /^src\/.+\.ts$/,
]

/** Paths that never belong in a tarball, even when {@link ALLOWED} would take them. */
export const FORBIDDEN: ReadonlyArray<RegExp> = [
  /\.tsbuildinfo$/,
  /(^|\/)(test|tests|__tests__)\//,
  /\.(test|spec)\.[cm]?[jt]s(\.map)?$/,
]

/** Packs `packages/<name>` with `pnpm pack` into a new temporary folder; the .tgz path. */
export const pack = async (name: string, destination?: string): Promise<string> => {
  const dest = destination ?? mkdtempSync(join(tmpdir(), `paykit-pack-${name}-`))
  const r = await run('pnpm', ['pack', '--pack-destination', dest], {
    cwd: join(ROOT, 'packages', name),
    env: childEnv(),
  })
  if (r.code !== 0) throw new Error(`pnpm pack ${name} failed:\n${r.stdout}\n${r.stderr}`)
  const tgz = r.stdout
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.endsWith('.tgz'))
  if (tgz === undefined) throw new Error(`pnpm pack ${name}: no .tgz in its output:\n${r.stdout}`)
  return tgz.startsWith('/') ? tgz : join(dest, tgz)
}

/** Unpacks a tarball into a new temporary folder; the `package/` folder in it. */
export const unpack = async (tgz: string): Promise<string> => {
  const dir = mkdtempSync(join(tmpdir(), 'paykit-unpack-'))
  const r = await run('tar', ['xzf', tgz, '-C', dir], { cwd: dir })
  if (r.code !== 0) throw new Error(`tar xzf ${tgz} failed: ${r.stderr}`)
  return join(dir, 'package')
}

/** The file list of a tarball, without the leading `package/`, sorted. */
export const tarballFiles = async (tgz: string): Promise<ReadonlyArray<string>> => {
  const r = await run('tar', ['tzf', tgz], { cwd: tmpdir() })
  if (r.code !== 0) throw new Error(`tar tzf ${tgz} failed: ${r.stderr}`)
  return r.stdout
    .split('\n')
    .filter((l) => l !== '' && !l.endsWith('/'))
    .map((l) => l.replace(/^package\//, ''))
    .sort()
}

/** Files outside the allowed list, or forbidden. */
export const disallowedFiles = (files: ReadonlyArray<string>): ReadonlyArray<string> =>
  files.filter((f) => !ALLOWED.some((a) => a.test(f)) || FORBIDDEN.some((x) => x.test(f)))

const SOURCE_MAPPING_URL = /^\/\/# sourceMappingURL=(\S+)\s*$/m

/**
 * Dangling references in an unpacked package: a `sourceMappingURL` whose map is missing, a
 * map `sources` entry that is neither in the package nor inlined (`sourcesContent`), a
 * `main`/`types`/`exports`/`bin` target that is missing.
 */
export const danglingReferences = (
  packageDir: string,
  files: ReadonlyArray<string>,
): ReadonlyArray<string> => {
  const problems: Array<string> = []
  for (const f of files.filter((x) => /\.(js|d\.ts)$/.test(x))) {
    const m = SOURCE_MAPPING_URL.exec(readFileSync(join(packageDir, f), 'utf8'))
    if (m?.[1] !== undefined && !m[1].startsWith('data:')) {
      const map = normalize(join(dirname(f), m[1]))
      if (!files.includes(map))
        problems.push(`${f}: sourceMappingURL ${m[1]} is not in the package`)
    }
  }
  for (const f of files.filter((x) => x.endsWith('.map'))) {
    const map = JSON.parse(readFileSync(join(packageDir, f), 'utf8')) as {
      readonly sources?: ReadonlyArray<string>
      readonly sourcesContent?: ReadonlyArray<string | null>
      readonly sourceRoot?: string
    }
    ;(map.sources ?? []).forEach((source, i) => {
      if (typeof map.sourcesContent?.[i] === 'string') return
      const target = normalize(join(dirname(f), map.sourceRoot ?? '', source))
      if (!files.includes(target)) problems.push(`${f}: source ${source} is not in the package`)
    })
  }
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as Record<
    string,
    unknown
  >
  const targets: Array<string> = []
  const collect = (v: unknown): void => {
    if (typeof v === 'string') targets.push(v)
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(collect)
  }
  collect(manifest['main'])
  collect(manifest['types'])
  collect(manifest['exports'])
  collect(manifest['bin'])
  for (const t of targets) {
    const path = normalize(t)
    if (!existsSync(join(packageDir, path))) problems.push(`package.json points at ${t}, missing`)
  }
  return problems
}

/**
 * Source map entries that point outside the package (a workspace path such as the
 * repository's `node_modules/.pnpm`), each as `<map>: <source>`: a user's debugger would look
 * for them outside `node_modules/<package>`.
 */
export const sourcesOutsidePackage = (
  packageDir: string,
  files: ReadonlyArray<string>,
): ReadonlyArray<string> =>
  files
    .filter((f) => f.endsWith('.map'))
    .flatMap((f) => {
      const map = JSON.parse(readFileSync(join(packageDir, f), 'utf8')) as {
        readonly sources?: ReadonlyArray<string>
        readonly sourceRoot?: string
      }
      return (map.sources ?? [])
        .filter((source) =>
          normalize(join(dirname(f), map.sourceRoot ?? '', source)).startsWith('..'),
        )
        .map((source) => `${f}: ${source}`)
    })

/** The repository every published package names (npm's provenance checks it against the workflow's). */
export const REPOSITORY_URL = 'git+https://github.com/paykit/paykit.git'

const nonBlank = (v: unknown): boolean => typeof v === 'string' && v.trim() !== ''

/**
 * What a packed package.json lacks to be published with provenance from
 * `packages/<directory>`: `repository` (this repository, with `directory`), `bugs`,
 * `homepage`, `license`, `author`, `keywords`, `files`, `publishConfig` `{ access: public,
 * provenance: true }`, not private, and no `workspace:` range left. Empty when all is there.
 */
export const publishedMetadataProblems = (
  packageJson: object,
  directory: string,
): ReadonlyArray<string> => {
  const manifest = packageJson as Readonly<Record<string, unknown>>
  const field = (name: string): Readonly<Record<string, unknown>> => {
    const v = manifest[name]
    return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {}
  }
  const checks: ReadonlyArray<readonly [boolean, string]> = [
    [field('repository')['type'] === 'git', 'repository.type is not git'],
    [field('repository')['url'] === REPOSITORY_URL, `repository.url is not ${REPOSITORY_URL}`],
    [
      field('repository')['directory'] === `packages/${directory}`,
      `repository.directory is not packages/${directory}`,
    ],
    [
      /^https:\/\/github\.com\/paykit\/paykit\/issues$/.test(String(field('bugs')['url'])),
      "bugs.url is not the repository's issues",
    ],
    [
      String(manifest['homepage']).startsWith(
        `https://github.com/paykit/paykit/tree/main/packages/${directory}`,
      ),
      `homepage is not packages/${directory} in the repository`,
    ],
    [manifest['license'] === 'MIT', 'license is not MIT'],
    [nonBlank(field('author')['name']), 'author.name is missing'],
    [
      Array.isArray(manifest['keywords']) && manifest['keywords'].length > 0,
      'keywords are missing',
    ],
    [Array.isArray(manifest['files']) && manifest['files'].length > 0, 'files is missing'],
    [field('publishConfig')['access'] === 'public', 'publishConfig.access is not public'],
    [field('publishConfig')['provenance'] === true, 'publishConfig.provenance is not true'],
    [manifest['private'] === undefined, 'private is set'],
    [nonBlank(manifest['version']), 'version is missing'],
    [!JSON.stringify(manifest).includes('"workspace:'), 'a workspace: range is left'],
  ]
  return checks.filter(([ok]) => !ok).map(([, problem]) => problem)
}
