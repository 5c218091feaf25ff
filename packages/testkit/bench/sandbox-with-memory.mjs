// The sandbox CLI (`paykit-sandbox`, built; `SANDBOX_BIN` for another build) run as it is,
// answering `'memory'` messages on its IPC channel with the process's memory: RSS as it
// stands, then, after a full GC (run with --expose-gc), the live heap, the heap V8 holds
// and the memory outside the heap (Buffers, strings of native code). For links.mjs.
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const bin = process.env.SANDBOX_BIN ?? join(here, '..', 'dist', 'bin', 'paykit-sandbox.js')

process.on('message', (message) => {
  if (message !== 'memory') return
  const rss = process.memoryUsage.rss()
  globalThis.gc?.()
  const m = process.memoryUsage()
  process.send?.({ rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external })
})
// The CLI reads its options from process.argv, as when run directly.
await import(pathToFileURL(bin).href)
