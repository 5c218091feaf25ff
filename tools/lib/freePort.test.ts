import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { freePort } from '@paykit/tools/lib/freePort'

const ephemeralStart = Number(
  readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
)

const listen = (port: number): Promise<() => Promise<void>> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () =>
      resolve(() => new Promise((done) => server.close(() => done()))),
    )
  })

describe('freePort', () => {
  it('gives ports below the ephemeral range, never the same one twice, that a server can listen on', async () => {
    const ports = []
    for (let i = 0; i < 40; i++) ports.push(await freePort())
    expect(new Set(ports).size).toBe(40)
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000)
      // An outgoing connection's source port comes from the ephemeral range: never these.
      expect(port).toBeLessThan(ephemeralStart)
    }
    const closers = await Promise.all(ports.map(listen))
    await Promise.all(closers.map((close) => close()))
  })
})
