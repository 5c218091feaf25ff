// n8n's community-node lint on what this package ships: `n8n-node lint` with its checks, run
// on the shipped sources only. `n8n-node lint` itself lints every `*.ts` under the package,
// tests included, with the rules for node code (no `node:http`, no `process`, ...) and takes
// no paths; n8n's verification scanner lints the same selection as here
// (`SOURCE_FILE_PATTERNS` of @n8n/scan-community-package: package.json, nodes/, credentials/),
// plus `shared/`, which the bundles include.
//
// Like `n8n-node lint` in strict mode, it first checks that eslint.config.mjs is n8n's
// template unchanged. It uses the ESLint that @n8n/node-cli depends on.
//
// Usage: node scripts/lint.mjs [--fix]
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, resolve } from 'node:path'
import process from 'node:process'

const root = resolve(import.meta.dirname, '..')
const SHIPPED = ['package.json', 'credentials', 'nodes', 'shared']

const nodeCliConfig = createRequire(import.meta.url).resolve('@n8n/node-cli/eslint')
const fromNodeCli = createRequire(nodeCliConfig)
const { ESLint } = fromNodeCli('eslint')

const normalised = (text) => text.replace(/\s+/g, ' ').trim()
const template = resolve(
  dirname(nodeCliConfig),
  '../template/templates/shared/default/eslint.config.mjs',
)
const [expected, actual] = await Promise.all([
  readFile(template, 'utf8'),
  readFile(resolve(root, 'eslint.config.mjs'), 'utf8'),
])
if (normalised(expected) !== normalised(actual)) {
  process.stderr.write(
    `eslint.config.mjs differs from n8n's template (strict mode). Expected:\n${expected}\n`,
  )
  process.exit(1)
}

const eslint = new ESLint({ cwd: root, fix: process.argv.includes('--fix') })
const results = await eslint.lintFiles(SHIPPED.map((p) => resolve(root, p)))
if (process.argv.includes('--fix')) await ESLint.outputFixes(results)
const formatter = await eslint.loadFormatter('stylish')
const output = await formatter.format(results)
if (output !== '') process.stdout.write(`${output}\n`)
const errors = results.reduce((n, r) => n + r.errorCount, 0)
const warnings = results.reduce((n, r) => n + r.warningCount, 0)
process.stdout.write(
  `n8n community-node lint: ${results.length} files, ${errors} errors, ${warnings} warnings\n`,
)
process.exit(errors > 0 ? 1 : 0)
