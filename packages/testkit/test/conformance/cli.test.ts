// Conformance (black box): the `paykit-sandbox` command's options and process behaviour.
import { spawn } from 'node:child_process'
import { afterAll, describe, expect, it } from 'vitest'
import { call, cliPath, createCard, expectProblem, startCli, type Cli } from './support.js'

const started: Cli[] = []
const start = async (args: ReadonlyArray<string>): Promise<Cli> => {
  const cli = await startCli(args)
  started.push(cli)
  return cli
}
afterAll(async () => {
  await Promise.all(started.map((c) => c.stop()))
})

const run = (args: ReadonlyArray<string>): Promise<{ code: number | null; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('exit', (code) => resolve({ code, stderr }))
  })

describe('paykit-sandbox options', () => {
  it('--client-id / --client-secret / --api-key replace the defaults', async () => {
    const cli = await start([
      '--client-id',
      'my-id',
      '--client-secret',
      'my-secret',
      '--api-key',
      'my-key',
    ])
    expectProblem(
      await call(cli.url, 'POST', '/token', {
        body: { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' },
      }),
      401,
    )
    const ok = await call(cli.url, 'POST', '/token', {
      body: { clientId: 'my-id', clientSecret: 'my-secret' },
    })
    expect(ok.status).toBe(200)
    expectProblem(
      await call(cli.url, 'POST', '/paymentlink/checkout', {
        bearer: 'sandbox-api-key',
        body: { amount: 1 },
      }),
      401,
    )
    const link = await call(cli.url, 'POST', '/paymentlink/checkout', {
      bearer: 'my-key',
      body: { amount: 1 },
    })
    expect(link.status).toBe(200)
    expect((await createCard(cli.url, ok.json.accessToken, '4242424242424242')).status).toBe(200)
  })

  it('--token-lifetime sets expiresIn, and tokens expire on it', async () => {
    const cli = await start(['--token-lifetime', '60', '--control'])
    const res = await call(cli.url, 'POST', '/token', {
      body: { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' },
    })
    expect(res.json.expiresIn).toBe(60)
    await call(cli.url, 'POST', '/__sandbox/clock', { body: { advanceSeconds: 61 } })
    expectProblem(await createCard(cli.url, res.json.accessToken, '4242424242424242'), 401)
  })

  it('--max-body-bytes: a larger body gets 413, and it keeps serving', async () => {
    const cli = await start(['--max-body-bytes', '200'])
    const res = await call(cli.url, 'POST', '/paymentlink/checkout', {
      bearer: 'sandbox-api-key',
      body: { amount: 1, orderDescription: 'x'.repeat(300) },
    })
    expectProblem(res, 413)
    const small = await call(cli.url, 'POST', '/paymentlink/checkout', {
      bearer: 'sandbox-api-key',
      body: { amount: 1 },
    })
    expect(small.status).toBe(200)
  })

  it('--base-url is used in paymentLinkUrl and authentication.url', async () => {
    const cli = await start(['--base-url', 'https://sandbox.example.com/pk'])
    const link = await call(cli.url, 'POST', '/paymentlink/checkout', {
      bearer: 'sandbox-api-key',
      body: { amount: 1 },
    })
    expect(link.json.paymentLinkUrl).toMatch(/^https:\/\/sandbox\.example\.com\/pk\//)
  })

  it('an unknown option exits 2 with the usage on stderr', async () => {
    const res = await run(['--no-such-option'])
    expect(res.code).toBe(2)
    expect(res.stderr).toMatch(/usage/i)
  })

  it('SIGTERM stops it with exit code 0', async () => {
    const cli = await startCli([])
    const exit = new Promise<number | null>((r) => cli.process.once('exit', (code) => r(code)))
    cli.process.kill('SIGTERM')
    expect(await exit).toBe(0)
  })
})
