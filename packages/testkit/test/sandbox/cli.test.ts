import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { verifyWebhookEvent } from '@paykit/core/webhook'
import { afterEach, describe, expect, it } from 'vitest'
import { startWebhookReceiver } from '../../src/sandbox/startWebhookReceiver.js'
import { clientOf } from './httpSuite.js'

// The command as users run it: the built dist (`pnpm exec tsc -b` first).
const BIN = fileURLToPath(new URL('../../dist/bin/paykit-sandbox.js', import.meta.url))

const run = (args: ReadonlyArray<string>): ChildProcess =>
  spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })

const firstLine = (child: ChildProcess): Promise<string> =>
  new Promise((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const end = out.indexOf('\n')
      if (end >= 0) resolve(out.slice(0, end))
    })
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing a line`)))
  })

const exitOf = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode)
    else child.once('exit', (code) => resolve(code))
  })

const collect = async (
  child: ChildProcess,
): Promise<{ code: number | null; out: string; err: string }> => {
  let out = ''
  let err = ''
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const code = await exitOf(child)
  return { code, out, err }
}

describe('paykit-sandbox command', () => {
  const children: Array<ChildProcess> = []
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
  })

  it('is built', () => {
    expect(existsSync(BIN), `${BIN} missing: run pnpm exec tsc -b`).toBe(true)
  })

  it('prints exactly "listening on http://127.0.0.1:<port>", serves, and stops on SIGTERM', async () => {
    const child = run(['--port', '0', '--client-id', 'cli-id', '--client-secret', 'cli-secret'])
    children.push(child)
    const line = await firstLine(child)
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/)
    const url = line.slice('listening on '.length)
    const res = await clientOf(url).post('/token', {
      clientId: 'cli-id',
      clientSecret: 'cli-secret',
    })
    expect(res.status).toBe(200)
    child.kill('SIGTERM')
    expect(await exitOf(child)).toBe(0)
  })

  it('stops on SIGINT and serves control endpoints with --control', async () => {
    const child = run(['--port', '0', '--control'])
    children.push(child)
    const url = (await firstLine(child)).slice('listening on '.length)
    expect((await clientOf(url).post('/__sandbox/reset', {})).status).toBe(200)
    child.kill('SIGINT')
    expect(await exitOf(child)).toBe(0)
  })

  it('delivers signed webhooks with --webhook-url and --webhook-secret', async () => {
    const receiver = await startWebhookReceiver({ path: '/hook', answer: () => 200 })
    const received = receiver.received
    try {
      const hook = receiver.url
      const child = run([
        '--port',
        '0',
        '--control',
        '--webhook-url',
        hook,
        '--webhook-secret',
        'cli-whsec',
      ])
      children.push(child)
      const url = (await firstLine(child)).slice('listening on '.length)
      const api = clientOf(url)
      const link = await api.link()
      expect((await api.post(`/__sandbox/orders/${link.orderCode}/cancel`, {})).status).toBe(200)
      await expect.poll(() => received.length, { timeout: 5000 }).toBe(1)
      const [hit] = received
      const event = verifyWebhookEvent({
        secret: 'cli-whsec',
        body: hit?.body ?? '',
        header:
          typeof hit?.headers['paykit-signature'] === 'string'
            ? hit.headers['paykit-signature']
            : undefined,
        now: new Date(),
      })
      expect(E.isRight(event) && event.right.type).toBe('order.cancelled')
      child.kill('SIGTERM')
      expect(await exitOf(child)).toBe(0)
    } finally {
      await receiver.close()
    }
  })

  it('numbers its ids from --id-offset: a restart beside a kept database gives new ones', async () => {
    const child = run(['--port', '0', '--control', '--id-offset', '5000'])
    children.push(child)
    const url = (await firstLine(child)).slice('listening on '.length)
    const api = clientOf(url)
    const link = await api.link()
    expect(link.orderCode).toBe('OC00006001')
    expect((await api.post(`/__sandbox/orders/${link.orderCode}/cancel`, {})).status).toBe(200)
    const events = (await (await api.get('/__sandbox/events')).json()) as Array<{ id: string }>
    expect(events.map((e) => e.id)).toEqual(['evt_005001'])
    child.kill('SIGTERM')
    expect(await exitOf(child)).toBe(0)
  })

  it('prints its usage with --help', async () => {
    const { code, out } = await collect(run(['--help']))
    expect(code).toBe(0)
    expect(out).toContain('Usage: paykit-sandbox')
    for (const flag of [
      '--port',
      '--host',
      '--webhook-url',
      '--webhook-secret',
      '--control',
      '--api-key',
    ])
      expect(out).toContain(flag)
  })

  it.each([
    [['--port', 'abc'], '--port'],
    [['--nope'], 'nope'],
    [['--webhook-url', 'http://127.0.0.1:9/ok', '--webhook-url', 'not a url'], '--webhook-url'],
    [['--webhook-url', 'ftp://127.0.0.1/hook'], '--webhook-url'],
    [['--id-offset', '-1'], '--id-offset'],
  ])('refuses %j with exit code 2 naming the option', async (args, name) => {
    const { code, err } = await collect(run(args))
    expect(code).toBe(2)
    expect(err).toContain(name)
  })
})
