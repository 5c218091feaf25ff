// The service a benchmark talks to, in its own process (started by support.mjs
// `startService`): the testkit sandbox (built dist) with `setLatency(ms)` when ms > 0,
// behind a counting proxy. Answers `stats` and `reset` over IPC; `stats` also gives the CPU
// time this process (sandbox and proxy) spent since the last reset, in ms.
// The sandbox module is imported by path: the package root also loads nock, whose
// interceptors would then sit in every outgoing request of this process (the proxy's).
import { startSandbox } from '../packages/testkit/dist/sandbox/startSandbox.js'
import { startCountingProxy } from '@paykit/tools/lib/countingProxy'

const latencyMs = Number(process.argv[2] ?? 0)
const sandbox = await startSandbox({ expirySweepMs: 0 })
if (latencyMs > 0) sandbox.setLatency(latencyMs)
const proxy = await startCountingProxy(sandbox.url)

let cpuAtReset = process.cpuUsage()
process.on('message', ({ id, command }) => {
  if (command === 'stats') {
    const cpu = process.cpuUsage(cpuAtReset)
    process.send({ id, result: { ...proxy.stats(), cpuMs: (cpu.user + cpu.system) / 1000 } })
  } else if (command === 'reset') {
    proxy.reset()
    cpuAtReset = process.cpuUsage()
    process.send({ id, result: true })
  }
})
const stop = async () => {
  await proxy.close()
  await sandbox.close()
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('disconnect', stop)
process.send({ ready: { url: proxy.url, sandboxUrl: sandbox.url } })
