import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/startSandbox.js'
import { defaultCredentials } from '../../src/simulator/TestCards.js'

let sandbox: Sandbox | undefined
const sockets: Array<Socket> = []
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy()
  await sandbox?.close()
  sandbox = undefined
})

const start = async (options: SandboxOptions): Promise<Sandbox> => {
  sandbox = await startSandbox({ expirySweepMs: 0, ...options })
  return sandbox
}

/** A raw connection: what it receives, and when it closed. */
const raw = (port: number) => {
  const socket = connect(port, '127.0.0.1')
  sockets.push(socket)
  let received = ''
  let closed = false
  socket.on('data', (d: Buffer) => (received += d.toString('utf8')))
  socket.on('close', () => (closed = true))
  socket.on('error', () => undefined)
  return {
    socket,
    received: () => received,
    closed: () => closed,
    connected: new Promise<void>((resolve) => socket.once('connect', () => resolve())),
  }
}

const waitFor = async (check: () => boolean, ms: number): Promise<boolean> => {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (check()) return true
    await new Promise((r) => setTimeout(r, 10))
  }
  return check()
}

describe('sandbox limits on real sockets', () => {
  it('answers 413 as soon as a chunked body passes the limit, before the body ends, and closes', async () => {
    const s = await start({ maxBodyBytes: 1024 })
    const c = raw(s.port)
    await c.connected
    c.socket.write(
      `POST /paymentlink/checkout HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nauthorization: Bearer ${defaultCredentials.apiKey}\r\ntransfer-encoding: chunked\r\n\r\n`,
    )
    const chunk = 'a'.repeat(600)
    for (let i = 0; i < 2; i++) c.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)
    // The body never ends (no last chunk): the answer must arrive anyway.
    expect(await waitFor(() => c.received().startsWith('HTTP/1.1 413'), 5000)).toBe(true)
    expect(c.received()).toContain('"status":413')
    expect(await waitFor(c.closed, 5000)).toBe(true)
  })

  it('a client that sends all of a large body before reading (as a proxy does) gets the 413, not a reset', async () => {
    const s = await start({ maxBodyBytes: 1024 })
    const body = 'a'.repeat(4 * 1024 * 1024)
    // Several at once: a reset is a race between the close and the client's last writes.
    const tries = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const c = raw(s.port)
        let reset = ''
        c.socket.on('error', (e: NodeJS.ErrnoException) => (reset = e.code ?? e.message))
        await c.connected
        c.socket.write(
          `POST /paymentlink/checkout HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nauthorization: Bearer ${defaultCredentials.apiKey}\r\ncontent-length: ${body.length}\r\n\r\n`,
        )
        c.socket.write(body)
        await waitFor(() => c.received().includes('"status":413') || reset !== '', 10_000)
        return { received: c.received().slice(0, 12), reset }
      }),
    )
    expect(tries).toEqual(tries.map(() => ({ received: 'HTTP/1.1 413', reset: '' })))
  })

  it('a client sending half of its headers gets 408 (and the socket closed) within the timeout', async () => {
    const s = await start({ headersTimeoutMs: 300, requestTimeoutMs: 600 })
    const c = raw(s.port)
    await c.connected
    const t0 = Date.now()
    c.socket.write('GET /paymentlink/order/OC1 HTTP/1.1\r\nhost: x\r\n')
    expect(await waitFor(c.closed, 5000)).toBe(true)
    expect(c.received()).toMatch(/^HTTP\/1\.1 408/)
    expect(Date.now() - t0).toBeLessThan(3000)
    // The sandbox goes on serving.
    const res = await fetch(`${s.url}/paymentlink/order/OC1`, {
      headers: { authorization: `Bearer ${defaultCredentials.apiKey}` },
    })
    expect(res.status).toBe(404)
  })

  it('keeps `requestLogSize` requests and never logs the webhook secret', async () => {
    const s = await start({
      requestLogSize: 2,
      webhookUrl: 'http://127.0.0.1:9/hooks',
      webhookSecret: 'whsec-sandbox-1',
    })
    for (const path of ['/a', '/b?secret=whsec-sandbox-1', '/whsec-sandbox-1'])
      await (await fetch(`${s.url}${path}`)).text()
    expect(s.requests().map((r) => r.status)).toEqual([404, 404])
    expect(JSON.stringify(s.requests())).not.toContain('whsec-sandbox-1')
  })
})
