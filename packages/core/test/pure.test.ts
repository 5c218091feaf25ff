import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { amountOnlyOrder } from './fixtures.js'

// `@paykit/core/pure` is what the n8n nodes bundle, and n8n's scanner rejects a bundle that
// reads `fetch`, a global timer, `globalThis`, `global`, `process` or `__dirname`. The built
// `dist` is loaded by plain `node`, as a user's program loads it (see dist.test.ts).
const packageRoot = fileURLToPath(new URL('..', import.meta.url))
const run = promisify(execFile)

/** The Node/browser edge: exported by `@paykit/core/client`, never by `@paykit/core/pure`. */
const edge = [
  'createClient',
  'fetchTransport',
  'classifyFetchError',
  'defaultRuntime',
  'defaultSleep',
]

const script = `
import * as pure from '@paykit/core/pure'
import * as core from '@paykit/core/client'

const order = ${JSON.stringify(amountOnlyOrder({ orderCode: 'ORD1', orderStatus: 'PAID' }))}
const seen = []
let now = 1_000_000
const transport = (request) => async () => {
  seen.push({ url: request.url, credential: request.credential, auth: request.headers.authorization })
  const body = request.url.endsWith('/token')
    ? { accessToken: 'tok-1', tokenType: 'Bearer', expiresIn: 3600 }
    : order
  return { _tag: 'Right', right: { status: 200, headers: {}, body: JSON.stringify(body) } }
}
const client = pure.createClientWith({
  baseUrl: 'https://pay.example.test',
  credentials: { clientId: 'c', clientSecret: 's' },
  transport,
  now: () => now,
  sleep: async (ms) => { now += ms },
})
const token = await client.getToken()()
const got = await client.getOrder('ORD1')()
console.log(JSON.stringify({
  pure: Object.keys(pure),
  core: Object.keys(core),
  token,
  status: got._tag === 'Right' ? got.right.orderStatus : got.left,
  seen,
}))
`

describe('@paykit/core/pure (built dist)', () => {
  it('exports createClientWith and not the edge; a client on an injected runtime works', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: packageRoot,
    })
    const out = JSON.parse(stdout) as {
      pure: ReadonlyArray<string>
      core: ReadonlyArray<string>
      token: unknown
      status: unknown
      seen: ReadonlyArray<unknown>
    }
    expect(out.pure).toContain('createClientWith')
    for (const name of edge) expect(out.pure).not.toContain(name)
    // `@paykit/core/client` has the edge; each of its other names is in the pure entry.
    for (const name of edge) expect(out.core).toContain(name)
    for (const name of out.core) if (!edge.includes(name)) expect(out.pure).toContain(name)
    expect(out.token).toEqual({ _tag: 'Right', right: 'tok-1' })
    expect(out.status).toBe('PAID')
    expect(out.seen).toEqual([
      { url: 'https://pay.example.test/token', credential: 'none' },
      {
        url: 'https://pay.example.test/paymentlink/order/ORD1',
        credential: 'paymentLink',
        auth: 'Bearer tok-1',
      },
    ])
  })
})

/** Each match of the scanner's forbidden names in a CommonJS bundle of `entry`, by module. */
const forbiddenIn = async (entry: string): Promise<ReadonlyArray<string>> => {
  const result = await build({
    absWorkingDir: packageRoot,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
  })
  const forbidden =
    /\b(setTimeout|clearTimeout|setInterval|setImmediate|globalThis|global|process|__dirname)\b|\bfetch\(/g
  let module = ''
  const found: Array<string> = []
  for (const line of (result.outputFiles[0]?.text ?? '').split('\n')) {
    // esbuild heads each module's code with a comment naming its file.
    const head = /^\/\/ (\S+\.[cm]?[jt]s)$/.exec(line)
    if (head !== null) module = head[1] ?? ''
    else for (const m of line.matchAll(forbidden)) found.push(`${module}: ${m[0]}`)
  }
  return found
}

describe('a CommonJS bundle of the pure entry (what the n8n nodes ship)', () => {
  it('reads no fetch, global timer, globalThis, global, process or __dirname', async () => {
    expect(await forbiddenIn('src/pure.ts')).toEqual([])
  })

  it('nor does the webhook entry (what the n8n trigger ships)', async () => {
    expect(await forbiddenIn('src/webhook.ts')).toEqual([])
  })

  it('while the full entry does, in its edge modules only (the check finds them)', async () => {
    const found = await forbiddenIn('src/index.ts')
    expect(found.length).toBeGreaterThan(0)
    for (const f of found) expect(f).toMatch(/^src\/edge\/(DefaultRuntime|FetchTransport)\.ts: /)
  })
})
