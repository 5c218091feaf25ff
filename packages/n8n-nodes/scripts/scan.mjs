// n8n's verification scan of this package, without a registry: its CLI only takes published
// names, so this packs the package (`pnpm pack`, dist/ must be built), unpacks it, and runs
// the scanner's own `analyzePackage` on the two legs `scan-community-package` lints:
// the tarball (compiled .js and package.json) and the sources (package.json, nodes/,
// credentials/). Provenance and the registry lookups are not part of it.
//
//   node scripts/scan.mjs                       pack, scan both legs, print, exit 1 on errors
//   node scripts/scan.mjs --json <dir> [glob..] scan one folder, print the result as JSON
//
// Run it as a plain Node process: eslint-plugin-n8n-nodes-base treats every file as
// `Test.node.ts` when NODE_ENV is `test` (as under vitest), so it is cleared here.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import process from 'node:process'

delete process.env.NODE_ENV
const root = resolve(import.meta.dirname, '..')
const { analyzePackage, SOURCE_FILE_PATTERNS } =
  await import('@n8n/scan-community-package/scanner/scanner.mjs')
const TARBALL_PATTERNS = ['**/*.js', 'package.json']

const [mode, dir, ...patterns] = process.argv.slice(2)
if (mode === '--json') {
  const result = await analyzePackage(resolve(dir), patterns.length > 0 ? patterns : undefined)
  process.stdout.write(
    JSON.stringify({ passed: result.passed, message: result.message, details: result.details }),
  )
  process.exit(0)
}

const work = mkdtempSync(join(tmpdir(), 'n8n-nodes-paykit-scan-'))
try {
  const pnpm = /pnpm\.c?js$/.test(process.env.npm_execpath ?? '')
    ? [process.execPath, process.env.npm_execpath]
    : ['pnpm']
  const [command, ...args] = [...pnpm, 'pack', '--pack-destination', work]
  execFileSync(command, args, { cwd: root, stdio: 'ignore' })
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))
  if (tarball === undefined) throw new Error('pnpm pack wrote no tarball')
  const unpacked = join(work, 'package')
  mkdirSync(unpacked)
  execFileSync('tar', ['-xzf', join(work, tarball), '-C', unpacked, '--strip-components=1'])
  let failed = false
  for (const [leg, dirOf, globs] of [
    ['tarball', unpacked, TARBALL_PATTERNS],
    ['sources', root, SOURCE_FILE_PATTERNS],
  ]) {
    const result = await analyzePackage(dirOf, globs)
    failed ||= !result.passed
    process.stdout.write(
      `${result.passed ? 'passed' : 'FAILED'}: n8n scan of the ${leg} (${globs.join(', ')})` +
        `${result.message ? `: ${result.message}` : ''}\n${result.details ?? ''}`,
    )
  }
  process.exitCode = failed ? 1 : 0
} finally {
  rmSync(work, { recursive: true, force: true })
}
