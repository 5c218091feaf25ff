// @paykit-test own-worker: MSW's module (the major under test)
// The MSW major these tests drive the handlers with: 2 in the testkit project, 3 in
// testkit-msw3 (vitest.workspace.ts resolves `msw` to the msw3 devDependency there). Without
// this check a broken alias would run MSW 2 twice and say nothing.
import { HttpHandler } from 'msw'
import manifest from 'msw/package.json' with { type: 'json' }
import { describe, expect, it } from 'vitest'
import { paykitHandlers } from '../../src/msw/index.js'

const major = process.env['PAYKIT_MSW'] === 'msw3' ? 3 : 2

describe(`@paykit/testkit/msw on MSW ${major}`, () => {
  it(`resolves msw to ${major}.x`, () => {
    expect(manifest.version.split('.')[0]).toBe(String(major))
  })

  it("builds its handlers with that msw's http (they are its HttpHandler)", () => {
    const { handlers } = paykitHandlers({ baseUrl: 'https://version.paykit.test' })
    expect(handlers.length).toBeGreaterThan(0)
    for (const handler of handlers) expect(handler).toBeInstanceOf(HttpHandler)
  })
})
