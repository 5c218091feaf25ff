/**
 * A free TCP port on 127.0.0.1: the one helper for it, imported by name
 * (`@paykit/tools/lib/freePort`) by the n8n stack, the Prism proxy, the release rehearsal,
 * the packages' tests and bench/http.mjs. Plain erasable TypeScript with only `node:`
 * imports, so Node runs it as it is.
 */
import { createServer } from 'node:net'

/** A free TCP port on 127.0.0.1. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
