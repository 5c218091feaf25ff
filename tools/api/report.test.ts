// The committed API reports (issue 29 §1): each entry's report is what API Extractor gives
// for the built declarations now, so a change of the public surface shows in review. After
// a change: `pnpm run api`, and commit the reports with it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '@paykit/tools/lib/root'
import { ENTRIES, reportsOf } from '@paykit/tools/api/report'

describe('the packages’ API reports', () => {
  const reports = reportsOf(ENTRIES)

  it('cover every entry with types of @paykit/core and @paykit/testkit', () => {
    expect(ENTRIES.map((e) => e.importPath)).toEqual([
      '@paykit/core',
      '@paykit/core/client',
      '@paykit/core/codecs',
      '@paykit/core/money',
      '@paykit/core/machines',
      '@paykit/core/pure',
      '@paykit/core/webhook',
      '@paykit/core/browser',
      '@paykit/testkit',
      '@paykit/testkit/vitest',
      '@paykit/testkit/n8n',
      '@paykit/testkit/model',
      '@paykit/testkit/msw',
      '@paykit/testkit/simulator',
      '@paykit/testkit/service',
      '@paykit/testkit/nock',
      '@paykit/testkit/sandbox',
      '@paykit/testkit/memory',
      '@paykit/testkit/buyer',
      '@paykit/testkit/arbitraries',
      '@paykit/testkit/properties',
    ])
  })

  it.each(ENTRIES)('$report is up to date (else: pnpm run api)', (entry) => {
    const committed = readFileSync(join(ROOT, entry.report), 'utf8')
    expect(reports.get(entry), `${entry.report} differs: run pnpm run api`).toBe(committed)
  })

  // A removal or rename in a released version keeps a deprecated alias for one minor version
  // (docs/releasing.md): each is listed here with the version that removes it. None
  // before the first release: a name nothing published had is removed, not aliased.
  const DEPRECATED: ReadonlyArray<string> = []

  it.each(ENTRIES)('$importPath deprecates only the listed names', (entry) => {
    const report = reports.get(entry) ?? ''
    const deprecated = [
      ...report.matchAll(
        /^\/\/ [^\n]*@deprecated[^\n]*\n(?:\/\/[^\n]*\n)*export (?:declare )?(?:const|function|type|interface|class|namespace|enum) (\w+)/gm,
      ),
    ].map((m) => m[1])
    expect(deprecated).toEqual(DEPRECATED)
  })
})
