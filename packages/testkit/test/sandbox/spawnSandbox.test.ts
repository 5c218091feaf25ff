import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { SANDBOX_BIN, spawnSandbox, type SandboxProcess } from '../../src/sandbox/spawnSandbox.js'

describe('spawnSandbox', () => {
  const running: Array<SandboxProcess> = []
  afterEach(async () => {
    for (const sandbox of running.splice(0)) await sandbox.stop()
  })

  it('runs the built CLI', () => {
    expect(existsSync(SANDBOX_BIN)).toBe(true)
  })

  it('resolves with the URL the CLI prints, on a free port, and stops it', async () => {
    const sandbox = await spawnSandbox({ args: ['--control'] })
    running.push(sandbox)
    expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`)
    expect(sandbox.port).toBeGreaterThan(0)
    const res = await fetch(`${sandbox.url}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceSeconds: 60 }),
    })
    expect(res.status).toBe(200)
    await sandbox.stop()
    expect(sandbox.child.exitCode !== null || sandbox.child.signalCode !== null).toBe(true)
  })

  it('rejects, with what it printed, when the CLI exits before listening', async () => {
    await expect(spawnSandbox({ args: ['--nope'] })).rejects.toThrow(
      /exited \(2\) before listening:.*--nope/s,
    )
  })

  it('kills a script that does not listen in time', async () => {
    const silent = join(tmpdir(), `paykit-silent-${process.pid}.mjs`)
    writeFileSync(silent, 'setInterval(() => {}, 1000)\n')
    await expect(spawnSandbox({ bin: silent, timeoutMs: 300 })).rejects.toThrow(
      /did not start in time/,
    )
  })
})
