/**
 * A free TCP port on 127.0.0.1: the one helper for it, imported by name
 * (`@paykit/tools/lib/freePort`) by the n8n stack, the Prism proxy, the release rehearsal,
 * the packages' tests and bench/http.mjs. Plain erasable TypeScript with only `node:`
 * imports, so Node runs it as it is.
 *
 * The port is drawn at random below the kernel's ephemeral range, not asked of the kernel
 * (`listen(0)`): a port from that range can be taken, between this check and the server's
 * own bind, as the source port of any outgoing connection, and the real-n8n tests open
 * thousands of them (a fresh-clone run lost a stack to "n8n Task Broker's port 33453 is
 * already in use").
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'

/** Where ports are drawn: above the well-known and common service ports, below the ephemeral range. */
const LOWEST = 20_000

/** The first port of the kernel's ephemeral range (Linux's default when it cannot be read). */
const ephemeralStart = (): number => {
  try {
    const [first] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number)
    return first !== undefined && Number.isInteger(first) && first > LOWEST + 1_000 ? first : 32_768
  } catch {
    return 32_768
  }
}

/** Ports this process has handed out: never the same one twice. */
const handedOut = new Set<number>()

/** Whether a server can listen on `port` of 127.0.0.1 now. */
const canListen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })

/** The kernel's choice (`listen(0)`), when no drawn port is free. */
const anyPort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/** A free TCP port on 127.0.0.1, below the ephemeral range and not handed out before. */
export const freePort = async (): Promise<number> => {
  const end = ephemeralStart()
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (end - LOWEST))
    if (handedOut.has(port)) continue
    if (await canListen(port)) {
      handedOut.add(port)
      return port
    }
  }
  return anyPort()
}
