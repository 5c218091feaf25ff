/**
 * `pnpm bench` cannot rot: its smoke run (a few items, one run per figure, no
 * BENCHMARKS.md written) goes through every section against the built packages and must
 * print the machine's core count and the table. The figures themselves are not checked:
 * performance is measured by `pnpm bench`, never by a timed test.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../..', import.meta.url))

/** The smoke run, while it runs. */
let child: ChildProcess | undefined

// A run still going when the test ends (its time limit) is told to stop, and given the time to
// stop the n8n stacks it started (their processes are in groups of their own).
afterAll(async () => {
  const running = child
  if (running === undefined || running.exitCode !== null || running.signalCode !== null) return
  await new Promise<void>((resolve) => {
    running.once('exit', () => resolve())
    running.kill('SIGTERM')
  })
}, 120_000)

const smoke = () =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const run = spawn(process.execPath, ['bench/run.mjs', '--smoke'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child = run
    let out = ''
    let err = ''
    run.stdout.on('data', (d: Buffer) => (out += d.toString()))
    run.stderr.on('data', (d: Buffer) => (err += d.toString()))
    run.on('exit', (code) => resolve({ code, out, err }))
  })

describe('pnpm bench', () => {
  it('its smoke run prints the core count and the table of every section', async () => {
    const { code, out, err } = await smoke()
    expect(code, `${out}\n${err}`).toBe(0)
    expect(out).toMatch(/^machine: \d+ cores/m)
    expect(out).toContain('| figure | value | peer (same run) | ratio | target | verdict |')
    for (const figure of [
      'n8n Paykit node items/s',
      'n8n Paykit node token requests',
      'n8n Paykit node wall / n8n raw request path',
      'client getOrder vs raw fetch, 1 in flight',
      'client getOrder vs raw fetch, 16 in flight',
      'sandbox GET order',
      'sandbox POST checkout',
    ])
      expect(out).toContain(`| ${figure}`)
    // The other packages' benchmarks appear too: their figures, or that they are missing.
    expect(out).toMatch(/\| (validate\(PaymentLinkRequest\)|validation)/)
    expect(out).toMatch(/\| sandbox vs bare node:http/)
    // The sandbox at scale: requests with many orders stored vs one, memory over many links.
    expect(out).toMatch(/^\| sandbox GET order req\/s, \d+ orders stored vs 1 \| \d+ req\/s \|/m)
    expect(out).toMatch(
      /^\| sandbox POST checkout req\/s, \d+ orders stored vs 1 \| \d+ req\/s \|/m,
    )
    expect(out).toMatch(/^\| sandbox RSS, [\d,]+ -> [\d,]+ links .*\| \d+ -> \d+ MB/m)
    expect(out).not.toContain('wrote BENCHMARKS.md')
    // Its queue-mode section boots a queue stack and a regular one (n8n, Postgres, Redis,
    // MailDev): 213 s of a 272 s smoke run at a load average of 12, past the 300 s it had.
  }, 600_000)
})
