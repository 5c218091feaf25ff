/**
 * The compatibility matrix (issue 27 §3): the versions of Node, TypeScript, vitest, msw and
 * n8n that a user's project runs the published packages with. Each cell is a clean project
 * installing the packed tarballs (`consumer.ts`); `matrix.test.ts` runs the cells and the
 * "Versions tested" table of docs/versions.md records each one's result.
 *
 * Choices: an axis's values are covered by some cell each, not crossed (24 projects for
 * what 6 show); every cell differs from the workspace's versions somewhere except
 * `workspace`; each package runs only on the Node versions its `engines` accepts, and each
 * package's floor has a cell.
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What a cell checks in its project. */
export type Check =
  /** tsc over a file importing every entry (the packages' `.d.ts` checked, skipLibCheck off). */
  | 'types'
  /** The READMEs' runnable snippets: type-checked with the cell's tsc, run with its Node. */
  | 'snippets'
  /** The READMEs' vitest snippets (`@paykit/testkit/vitest` among them), with its vitest. */
  | 'vitest'
  /** The core alone on its Node: `require` and `import`, a client against a sandbox. */
  | 'core'
  /** The Paykit node from the n8n-nodes-paykit tarball through n8n's engine in-process. */
  | 'n8n'

/** The n8n packages a cell installs (the ones n8n's own release depends on). */
export interface N8nVersions {
  readonly core: string
  readonly workflow: string
  readonly nodesBase: string
}

/** One combination of versions, and what it checks. */
export interface Cell {
  readonly id: string
  /** Why this combination (one line, for the README). */
  readonly why: string
  readonly node: string
  readonly typescript?: string
  readonly vitest?: string
  readonly msw?: string
  readonly n8n?: N8nVersions
  readonly checks: ReadonlyArray<Check>
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/** n8n 2.41.1's own n8n-core, n8n-workflow and n8n-nodes-base: what the repository pins. */
export const N8N_PINNED: N8nVersions = { core: '2.41.1', workflow: '2.41.0', nodesBase: '2.41.1' }

/**
 * What the newest 2.41 patch, n8n 2.41.3, depends on: n8n-core 2.41.2, n8n-workflow 2.41.0,
 * n8n-nodes-base 2.41.2. The registry this project reaches lacks n8n-core 2.41.2 (E404; its
 * latest is 2.41.1) and n8n-nodes-base 2.41.2's @n8n/backend-network 1.15.2 (ETARGET), so
 * this cell's install fails here and its row says so.
 */
export const N8N_LATEST_PATCH: N8nVersions = {
  core: '2.41.2',
  workflow: '2.41.0',
  nodesBase: '2.41.2',
}

/** The cells, in the README's order. */
export const CELLS: ReadonlyArray<Cell> = [
  {
    id: 'workspace',
    why: "the repository's own versions",
    node: '24.21.0',
    typescript: '6.0.3',
    vitest: '5.1.0',
    msw: '2.15.0',
    n8n: N8N_PINNED,
    checks: ['types', 'snippets', 'vitest', 'n8n'],
  },
  {
    id: 'node22-ts5-msw3',
    why: 'the one `npm test` runs: older TypeScript and vitest, newer msw, Node 22',
    node: '22.23.3',
    typescript: '5.9.3',
    vitest: '4.1.12',
    msw: '3.0.5',
    checks: ['types', 'snippets', 'vitest'],
  },
  {
    id: 'newest',
    why: 'the newest of each: TypeScript 7, vitest 5.1.2, msw 3',
    node: '24.21.0',
    typescript: '7.0.2',
    vitest: '5.1.2',
    msw: '3.0.5',
    checks: ['types', 'snippets', 'vitest'],
  },
  {
    id: 'n8n-2.41.3',
    why: "the newest n8n 2.41 patch's own n8n-core and n8n-nodes-base",
    node: '24.21.0',
    n8n: N8N_LATEST_PATCH,
    checks: ['n8n'],
  },
  {
    id: 'testkit-floor',
    why: "the testkit's floor (`engines` >=22.20.0) with msw 2 and vitest 4",
    node: '22.20.0',
    typescript: '5.9.3',
    vitest: '4.1.12',
    msw: '2.15.0',
    checks: ['snippets', 'vitest'],
  },
  {
    id: 'core-node20',
    why: "the core's floor (`engines` ^20.19.0)",
    node: '20.19.0',
    checks: ['core'],
  },
  {
    id: 'core-node22.12',
    why: "the core's floor on Node 22 (`engines` >=22.12.0)",
    node: '22.12.0',
    checks: ['core'],
  },
]

/** The cell `npm test` runs (the matrix project without PAYKIT_MATRIX). */
export const REPRESENTATIVE = 'node22-ts5-msw3'

/** The packages a cell installs, from what it checks. */
export const packagesOf = (cell: Cell): ReadonlyArray<'core' | 'testkit' | 'n8n-nodes'> =>
  cell.checks.includes('n8n')
    ? ['core', 'testkit', 'n8n-nodes']
    : cell.checks.every((c) => c === 'core')
      ? ['core']
      : ['core', 'testkit']

/**
 * The cells `PAYKIT_MATRIX` selects: unset, the representative one; `all`, every cell; else
 * the ids it lists (comma-separated). Throws naming an unknown id.
 */
export const selectCells = (selection: string | undefined): ReadonlyArray<Cell> => {
  if (selection === undefined || selection === '')
    return CELLS.filter((c) => c.id === REPRESENTATIVE)
  if (selection === 'all') return CELLS
  const ids = selection.split(',').map((s) => s.trim())
  const unknown = ids.filter((id) => !CELLS.some((c) => c.id === id))
  if (unknown.length > 0)
    throw new Error(
      `PAYKIT_MATRIX: unknown cell ${unknown.join(', ')} (cells: ${CELLS.map((c) => c.id).join(', ')})`,
    )
  return CELLS.filter((c) => ids.includes(c.id))
}

// -------------------------------------------------------------------------------------
// the README's table
// -------------------------------------------------------------------------------------

/** Where the table sits in docs/versions.md. */
export const TABLE_START = '<!-- matrix:start (tools/matrix: pnpm test:matrix rewrites it) -->'
export const TABLE_END = '<!-- matrix:end -->'

/** A cell's recorded result: `pass`, or `FAIL` and what failed; with the day it ran. */
export interface Recorded {
  readonly result: string
}

const n8nText = (n: N8nVersions | undefined): string =>
  n === undefined ? '-' : `core ${n.core}, nodes-base ${n.nodesBase}`

/** The table's columns for a cell, without its result. */
export const rowOf = (cell: Cell): ReadonlyArray<string> => [
  `\`${cell.id}\``,
  cell.node,
  cell.typescript ?? '-',
  cell.vitest ?? '-',
  cell.msw ?? '-',
  n8nText(cell.n8n),
  packagesOf(cell).join(', '),
  cell.checks.join(', '),
]

const HEADER = [
  'cell',
  'Node',
  'TypeScript',
  'vitest',
  'msw',
  'n8n',
  'packages',
  'checks',
  'result',
]

/** The Markdown table of every cell with its recorded result (`not run` when none). */
export const renderTable = (results: ReadonlyMap<string, string>): string => {
  const lines = [HEADER, HEADER.map(() => '---')].concat(
    CELLS.map((cell) => [...rowOf(cell), results.get(cell.id) ?? 'not run']),
  )
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n')
}

/** The table between the markers of `readme`: each row's cells (header and rule left out). */
export const readTable = (readme: string): ReadonlyArray<ReadonlyArray<string>> => {
  const start = readme.indexOf(TABLE_START)
  const end = readme.indexOf(TABLE_END)
  if (start < 0 || end < start) return []
  return readme
    .slice(start + TABLE_START.length, end)
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) =>
      l
        .replace(/^\|\s*|\s*\|$/g, '')
        .split(/\s*\|\s*/)
        .map((c) => c.trim()),
    )
}

/** `readme` with the table replaced by {@link renderTable} of `results`. */
export const writeTable = (readme: string, results: ReadonlyMap<string, string>): string => {
  const start = readme.indexOf(TABLE_START)
  const end = readme.indexOf(TABLE_END)
  if (start < 0 || end < start) throw new Error(`the README has no ${TABLE_START} ... ${TABLE_END}`)
  return `${readme.slice(0, start + TABLE_START.length)}\n\n${renderTable(results)}\n\n${readme.slice(end)}`
}
