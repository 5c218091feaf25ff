import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

// fp-ts and io-ts are CommonJS without an `exports` map: a deep import such as
// `fp-ts/function` passes tsc and vitest but fails under plain Node ESM. So the built
// `dist` is loaded here by plain `node`, as a user's program loads it.
const packageRoot = fileURLToPath(new URL('..', import.meta.url))
const run = promisify(execFile)

const publicApi = [
  'TokenRequest',
  'AccessToken',
  'PaymentMethodRequest',
  'PaymentMethod',
  'ChargeRequest',
  'chargeRequestFor',
  'ChargeResponse',
  'FrameMessage',
  'PaymentLinkRequest',
  'PaymentLinkResponse',
  'OrderDetails',
  'ValidationProblem',
  'ServerProblem',
  'validate',
]

const script = `
import * as root from '@paykit/core'
import * as codecs from '@paykit/core/codecs'
import * as machines from '@paykit/core/machines'
const core = { ...root, ...codecs, ...machines }
const missing = ${JSON.stringify(publicApi)}.filter((name) => !(name in core))
const bad = core.validate(core.PaymentLinkRequest)({ lineItems: [{ quantity: 0 }] })
console.log(JSON.stringify({ missing, bad }))
`

describe('built dist under plain Node ESM', () => {
  it('loads from the package root and its entries and exports the public API', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: packageRoot,
    })
    const out = JSON.parse(stdout) as {
      missing: ReadonlyArray<string>
      bad: { _tag: string; left: ReadonlyArray<{ path: string }> }
    }
    expect(out.missing).toEqual([])
    expect(out.bad._tag).toBe('Left')
    expect(out.bad.left.map((e) => e.path)).toContain('lineItems[0].quantity')
  })
})
