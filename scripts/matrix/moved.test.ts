// Issue 27 §3: code written against an earlier @paykit/core keeps loading, or the core's
// README says where each name went. Every name an entry exported over the repository's
// history (core-exports-history.json, from exportHistory.ts) is exported by it now (itself
// or a deprecated alias), or is a row of the README's "What moved" table whose "now" entry
// exports it today. The root dropped the webhook functions with no alias (issue 18).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../package-check.js'
import { exportsOf } from './exportHistory.js'

interface Seen {
  readonly first: string
  readonly last: string
}
const history = JSON.parse(
  readFileSync(join(ROOT, 'scripts/matrix/core-exports-history.json'), 'utf8'),
) as Readonly<Record<string, Readonly<Record<string, Seen>>>>

/** The rows of the core README's "What moved" table: name -> earlier entries, now. */
const movedTable = (): ReadonlyMap<string, { earlier: string; now: string }> => {
  const readme = readFileSync(join(ROOT, 'packages/core/README.md'), 'utf8')
  const section = /^### What moved\n([\s\S]*?)\n## /m.exec(readme)?.[1] ?? ''
  const rows = section
    .split('\n')
    .filter((l) => /^\| `/.test(l))
    .map((l) => l.split('|').map((c) => c.trim()))
  return new Map(
    rows.map(([, name = '', earlier = '', now = '']) => [
      name.replace(/`/g, ''),
      { earlier, now: now.replace(/`/g, '') },
    ]),
  )
}

describe("@paykit/core's names over its history", () => {
  const now = exportsOf(join(ROOT, 'packages/core/src'))
  const table = movedTable()

  it('the README has a "What moved" table', () => {
    expect(table.size).toBeGreaterThan(0)
  })

  const gone = Object.entries(history).flatMap(([entry, names]) =>
    Object.keys(names)
      .filter((name) => !(now[entry] ?? []).includes(name))
      .map((name) => ({ entry, name })),
  )

  it('finds the names the root and /pure dropped (the webhook functions, issue 18)', () => {
    expect(gone.filter((g) => g.entry === '@paykit/core').map((g) => g.name)).toEqual(
      expect.arrayContaining(['signWebhook', 'verifyWebhookEvent']),
    )
  })

  it.each(gone)(
    '$entry no longer exports $name: the README says where it is',
    ({ entry, name }) => {
      const row = table.get(name)
      expect(row, `${name} is not in the core README's "What moved" table`).toBeDefined()
      expect(row?.earlier, `the row of ${name} does not name ${entry}`).toContain(`\`${entry}\``)
      expect(now[row?.now ?? ''] ?? [], `${row?.now} does not export ${name}`).toContain(name)
    },
  )

  it('lists only names that did move', () => {
    const moved = new Set(gone.map((g) => g.name))
    expect([...table.keys()].filter((name) => !moved.has(name))).toEqual([])
  })
})
