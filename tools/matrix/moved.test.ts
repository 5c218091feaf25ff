// Issue 27 §3: code written against an earlier commit of @paykit/core is told where each
// name went. Every name an entry exported over the repository's history
// (core-exports-history.json, from exportHistory.ts) is exported by it now, or is a row of
// docs/core/layout.md's "What moved" table: a name moved whole (its "now" entry exports it today) or
// renamed (`new` in `entry`: the built entry has `new`, a namespace's member included).
// Nothing was published, so no row has an alias (issue 29 removed them before the release).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '@paykit/tools/lib/root'
import { exportsOf } from '@paykit/tools/matrix/exportHistory'

interface Seen {
  readonly first: string
  readonly last: string
}
const history = JSON.parse(
  readFileSync(join(ROOT, 'tools/matrix/core-exports-history.json'), 'utf8'),
) as Readonly<Record<string, Readonly<Record<string, Seen>>>>

interface Row {
  readonly earlier: string
  /** The entry that has the name now. */
  readonly now: string
  /** The name there, when it was renamed (`Money.multiply`). */
  readonly renamed?: string
}

/** The rows of docs/core/layout.md's "What moved" table: name -> earlier entries, now. */
const movedTable = (): ReadonlyMap<string, Row> => {
  const page = readFileSync(join(ROOT, 'docs/core/layout.md'), 'utf8')
  const section = page.split(/^#+ What moved\n/m)[1]?.split(/^#{1,2} /m)[0] ?? ''
  const rows = section
    .split('\n')
    .filter((l) => /^\| `/.test(l))
    .map((l) => l.split('|').map((c) => c.trim()))
  return new Map(
    rows.map(([, name = '', earlier = '', now = '']): [string, Row] => {
      const renamed = /^`([\w.]+)` in `([^`]+)`$/.exec(now)
      return [
        name.replace(/`/g, ''),
        renamed === null
          ? { earlier, now: now.replace(/`/g, '') }
          : { earlier, now: renamed[2] ?? '', renamed: renamed[1] ?? '' },
      ]
    }),
  )
}

/** The value at a dotted path of the built entry (`Money.multiply`), or undefined. */
const builtValue = async (entry: string, path: string): Promise<unknown> =>
  path
    .split('.')
    .reduce<unknown>(
      (at, key) =>
        typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined,
      await import(entry),
    )

describe("@paykit/core's names over its history", () => {
  const now = exportsOf(join(ROOT, 'packages/core/src'))
  const table = movedTable()

  it('docs/core/layout.md has a "What moved" table', () => {
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

  // Issue 38 moved the root's names into the entries by concept (docs/core/layout.md,
  // "Entries"): a name the root dropped then is in exactly one of them, with no row.
  const concepts = ['client', 'codecs', 'money', 'machines', 'webhook'].map(
    (e) => `@paykit/core/${e}`,
  )
  const toConcept = gone.filter((g) => g.entry === '@paykit/core' && !table.has(g.name))

  it.each(toConcept)('$name left the root for one concept entry', ({ name }) => {
    expect(concepts.filter((e) => (now[e] ?? []).includes(name))).toHaveLength(1)
  })

  it.each(gone.filter((g) => !toConcept.includes(g)))(
    '$entry no longer exports $name: docs/core/layout.md says where it is',
    async ({ entry, name }) => {
      const row = table.get(name)
      expect(row, `${name} is not in docs/core/layout.md's "What moved" table`).toBeDefined()
      expect(row?.earlier, `the row of ${name} does not name ${entry}`).toContain(`\`${entry}\``)
      if (row?.renamed === undefined)
        expect(now[row?.now ?? ''] ?? [], `${row?.now} does not export ${name}`).toContain(name)
      else
        expect(
          typeof (await builtValue(row.now, row.renamed)),
          `${row.now} has no ${row.renamed}`,
        ).toBe('function')
    },
  )

  it('lists only names that did move', () => {
    const moved = new Set(gone.map((g) => g.name))
    expect([...table.keys()].filter((name) => !moved.has(name))).toEqual([])
  })
})
