/**
 * A free TCP port on 127.0.0.1. Shared by scripts/n8n/stack.ts (which re-exports it),
 * scripts/openapi/prismProxy.ts and bench/http.mjs (imported as .ts by Node). Plain
 * erasable TypeScript with only `node:` imports, so Node runs it as it is.
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
