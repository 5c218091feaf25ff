// openapi.yaml is what the generator writes today (drift fails), and a real OpenAPI linter
// (redocly, its recommended rules and redocly.yaml) finds no error in it; the linter also
// checks every example, the simulator's real answers, against its schema.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { OPENAPI_PATH, renderOpenApi } from '@paykit/tools/openapi/generate'
import { ROOT } from '@paykit/tools/lib/root'

const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js')

describe('openapi.yaml', () => {
  it('is what tools/openapi/generate.ts writes (run it after changing a codec)', async () => {
    expect(readFileSync(OPENAPI_PATH, 'utf8')).toBe(await renderOpenApi())
  })

  it('covers every endpoint of the service (docs/service.md section 4), both credentials and the order webhook', () => {
    const doc = parse(readFileSync(OPENAPI_PATH, 'utf8'))
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(operations).toEqual([
      'POST /token',
      'POST /paymentmethods',
      'POST /charges',
      'POST /paymentlink/checkout',
      'GET /paymentlink/order/{orderCode}',
    ])
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['accessToken', 'apiKey'])
    expect(Object.keys(doc.webhooks)).toEqual(['orderEvent'])
    expect(doc.components.schemas.FrameMessage.required).toContain('AuthenticationId')
  })

  it('lints with 0 errors and 0 warnings (redocly lint)', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [REDOCLY, 'lint', OPENAPI_PATH, '--format=json'],
      { cwd: ROOT },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }))
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number }
      problems: ReadonlyArray<{ message: string }>
    }
    expect(report.problems.map((p) => p.message)).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
  }, 60_000)
})
