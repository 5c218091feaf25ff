// The matrix's definition held to what it claims (no install: milliseconds): each cell runs
// the packages only on Node versions their `engines` accept, the core's and the testkit's
// floors have a cell, the README's table lists every cell with its versions and a recorded
// result, CI runs one job per cell, and `npm test`'s cell differs from the workspace's
// versions on every axis.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import semver from 'semver'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { ROOT } from '@paykit/tools/lib/root'
import {
  CELLS,
  N8N_LATEST_PATCH,
  N8N_PINNED,
  packagesOf,
  readTable,
  renderTable,
  REPRESENTATIVE,
  rowOf,
  selectCells,
  writeTable,
  TABLE_END,
  TABLE_START,
} from '@paykit/tools/matrix/cells'

const enginesOf = (name: string): string =>
  (
    JSON.parse(readFileSync(join(ROOT, 'packages', name, 'package.json'), 'utf8')) as {
      readonly engines: { readonly node: string }
    }
  ).engines.node

/** The lowest version of each `||` part of a range: `^20.19.0 || >=22.12.0` -> 20.19.0, 22.12.0. */
const floorsOf = (range: string): ReadonlyArray<string> =>
  range.split('||').map((part) => semver.minVersion(part.trim())?.version ?? part)

describe('the matrix cells', () => {
  it('have unique ids', () => {
    expect(new Set(CELLS.map((c) => c.id)).size).toBe(CELLS.length)
  })

  it.each(CELLS)('$id: its Node is one every package it installs accepts (engines)', (cell) => {
    for (const name of packagesOf(cell))
      expect(semver.satisfies(cell.node, enginesOf(name)), `${name} on Node ${cell.node}`).toBe(
        true,
      )
  })

  it.each(['core', 'testkit'])("%s: each floor of its engines is a cell's Node", (name) => {
    const nodes = CELLS.filter((c) => packagesOf(c).includes(name as 'core')).map((c) => c.node)
    for (const floor of floorsOf(enginesOf(name)))
      expect(nodes, `${name} ${floor}`).toContain(floor)
  })

  it('cover Node 20, 22 and 24, TypeScript 5, 6 and 7, vitest 4 and 5, msw 2 and 3, two n8n', () => {
    const majors = (pick: (c: (typeof CELLS)[number]) => string | undefined) =>
      [
        ...new Set(
          CELLS.map(pick)
            .filter((v) => v !== undefined)
            .map((v) => semver.major(v)),
        ),
      ].sort((a, b) => a - b)
    expect(majors((c) => c.node)).toEqual([20, 22, 24])
    expect(majors((c) => c.typescript)).toEqual([5, 6, 7])
    expect(majors((c) => c.vitest)).toEqual([4, 5])
    expect(majors((c) => c.msw)).toEqual([2, 3])
    expect(CELLS.map((c) => c.n8n).filter((n) => n !== undefined)).toEqual([
      N8N_PINNED,
      N8N_LATEST_PATCH,
    ])
  })

  it("npm test's cell differs from the workspace's versions on every axis it has", () => {
    const [cell] = selectCells(undefined)
    const workspace = CELLS.find((c) => c.id === 'workspace')
    expect(cell?.id).toBe(REPRESENTATIVE)
    for (const axis of ['node', 'typescript', 'vitest', 'msw'] as const)
      expect(cell?.[axis], axis).not.toBe(workspace?.[axis])
  })

  it('selects by PAYKIT_MATRIX, and names an unknown cell', () => {
    expect(selectCells('all')).toEqual(CELLS)
    expect(selectCells('newest,workspace').map((c) => c.id)).toEqual(['workspace', 'newest'])
    expect(() => selectCells('nope')).toThrow(/unknown cell nope/)
  })
})

describe("docs/versions.md's Versions tested table", () => {
  const readme = readFileSync(join(ROOT, 'docs/versions.md'), 'utf8')
  const rows = readTable(readme)

  it('lists every cell, in order, with its versions, packages and checks', () => {
    expect(rows.map((r) => r.slice(0, -1))).toEqual(CELLS.map((c) => [...rowOf(c)]))
  })

  it("records each cell's result and the day it ran", () => {
    for (const row of rows)
      expect(row.at(-1), row[0]).toMatch(/^(pass|FAIL: [\w, ]+) \(\d{4}-\d\d-\d\d\)$/)
  })

  it('is rewritten between its markers only', () => {
    const text = `before\n${TABLE_START}\nold\n${TABLE_END}\nafter\n`
    const results = new Map([['workspace', 'pass (2026-11-28)']])
    expect(writeTable(text, results)).toBe(
      `before\n${TABLE_START}\n\n${renderTable(results)}\n\n${TABLE_END}\nafter\n`,
    )
    expect(readTable(writeTable(text, results))[0]?.at(-1)).toBe('pass (2026-11-28)')
  })
})

describe('CI', () => {
  it('runs one job per cell with pnpm test:matrix', () => {
    const ci = parse(readFileSync(join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as {
      readonly jobs: Readonly<
        Record<
          string,
          {
            readonly strategy?: { readonly matrix?: { readonly cell?: ReadonlyArray<string> } }
            readonly steps?: ReadonlyArray<{
              readonly run?: string
              readonly env?: Readonly<Record<string, string>>
            }>
          }
        >
      >
    }
    const job = ci.jobs['matrix']
    expect(job?.strategy?.matrix?.cell).toEqual(CELLS.map((c) => c.id))
    const step = job?.steps?.find((s) => s.run === 'pnpm test:matrix')
    expect(step?.env?.['PAYKIT_MATRIX']).toBe('${{ matrix.cell }}')
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
        readonly scripts: Readonly<Record<string, string>>
      }
    ).scripts
    expect(scripts['test:matrix']).toContain('--project matrix')
  })
})
