// The compatibility matrix (issue 27 §3): each selected cell of cells.ts as a clean project
// that installs the packed tarballs, its checks run with the cell's Node. PAYKIT_MATRIX
// selects the cells: unset (npm test) the representative one, `all` (pnpm test:matrix) every
// cell, or ids separated by commas (CI's matrix: one job per cell). docs/versions.md's
// "Versions tested" table records each cell's result: with PAYKIT_MATRIX_RECORD=1
// (pnpm test:matrix) this rewrites the rows of the cells it ran; otherwise it checks that the
// row of each cell it ran says what the run found.
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { format } from 'prettier'
import { afterAll, describe, expect, it } from 'vitest'
import { defaultCredentials } from '@paykit/testkit'
import { startSandbox } from '@paykit/testkit/sandbox'
import { nodeBinary } from '@paykit/tools/lib/node'
import { ROOT } from '@paykit/tools/lib/root'
import { CELLS, readTable, selectCells, writeTable, type Cell } from '@paykit/tools/matrix/cells'
import {
  checkCore,
  checkN8n,
  checkSnippets,
  checkTypes,
  installProject,
  packFor,
  packsFolder,
  type CheckResult,
} from '@paykit/tools/matrix/consumer'

const README = join(ROOT, 'docs/versions.md')
const cells = selectCells(process.env['PAYKIT_MATRIX'])
const record = process.env['PAYKIT_MATRIX_RECORD'] === '1'
const packs = packsFolder()
const projects: Array<string> = []
const results = new Map<string, string>()

afterAll(async () => {
  for (const dir of [packs, ...projects]) rmSync(dir, { recursive: true, force: true })
  if (record && results.size > 0) {
    const recorded = new Map(readTable(readFileSync(README, 'utf8')).map((r) => [r[0], r.at(-1)]))
    const merged = new Map(
      CELLS.map((c) => [c.id, results.get(c.id) ?? recorded.get(`\`${c.id}\``) ?? 'not run']),
    )
    const text = writeTable(readFileSync(README, 'utf8'), merged)
    writeFileSync(README, await format(text, { parser: 'markdown', filepath: README }))
  }
}, 120_000)

/** What the README's result column says for a run: `pass` or `FAIL (checks)`, and the day. */
const summary = (checks: ReadonlyArray<CheckResult>): string => {
  const failed = checks.filter((c) => !c.ok).map((c) => c.check)
  const day = new Date().toISOString().slice(0, 10)
  return failed.length === 0 ? `pass (${day})` : `FAIL: ${failed.join(', ')} (${day})`
}

const runCell = async (cell: Cell): Promise<ReadonlyArray<CheckResult>> => {
  const node = await nodeBinary(cell.node)
  const tarballs = await packFor([cell], packs)
  const { dir, result: install } = await installProject(cell, tarballs)
  projects.push(dir)
  if (!install.ok) return [install]
  // The type check and the snippets side by side: they read the project, never write it.
  const [types, snippets] = await Promise.all([
    cell.checks.includes('types') ? checkTypes(cell, dir, node).then((r) => [r]) : [],
    cell.checks.includes('snippets') || cell.checks.includes('vitest')
      ? checkSnippets(cell, dir, node)
      : [],
  ])
  const out: Array<CheckResult> = [install, ...types, ...snippets]
  if (cell.checks.includes('core')) {
    const sandbox = await startSandbox()
    try {
      out.push(await checkCore(dir, node, { url: sandbox.url, ...defaultCredentials }))
    } finally {
      await sandbox.close()
    }
  }
  if (cell.checks.includes('n8n')) out.push(await checkN8n(dir, node))
  return out
}

describe.each(cells)('the matrix cell $id (Node $node)', (cell) => {
  it(`installs the tarballs and passes ${cell.checks.join(', ')}`, async () => {
    const checks = await runCell(cell)
    results.set(cell.id, summary(checks))
    console.log(
      `matrix ${cell.id}: ${checks.map((c) => `${c.check} ${c.ok ? 'ok' : 'FAILED'} ${c.ms} ms (${c.detail.split('\n')[0] ?? ''})`).join('; ')}`,
    )
    expect(
      checks.filter((c) => !c.ok).map((c) => `${c.check}: ${c.detail}`),
      `cell ${cell.id}`,
    ).toEqual([])
    if (!record) {
      // The README says this cell passes (checked here; pnpm test:matrix writes it).
      const row = readTable(readFileSync(README, 'utf8')).find((r) => r[0] === `\`${cell.id}\``)
      expect(row?.at(-1), `the README's row of ${cell.id}`).toMatch(/^pass \(\d{4}-\d\d-\d\d\)$/)
    }
  })
})
