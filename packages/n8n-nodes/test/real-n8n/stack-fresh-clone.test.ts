/**
 * `npm run n8n` and `npm run n8n -- --queue` from a fresh clone: `git clone` of this checkout
 * into a temporary folder, no `node_modules`, no build. The clone's own steps run (pnpm
 * install, the build, `tools/n8n/install.sh`); only the full n8n is this checkout's, linked
 * as the clone's `.tools/n8n` (install.sh finds it installed, as on a second run), so the test
 * takes minutes, not the quarter of an hour of n8n's install.
 *
 * Each command runs as a user runs it: the banner, the editor answering, each process's log
 * file, then Ctrl-C (SIGINT to the command's process group) stops everything it started.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { createConnection } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '@paykit/tools/lib/freePort'
import { ROOT } from '@paykit/tools/lib/root'
import { ensureN8n } from '@paykit/tools/n8n/stack'

const work = mkdtempSync(join(tmpdir(), 'paykit-fresh-clone-'))
// Within the reach of the `postgres` user (as root): queue mode's cluster stays in the clone.
chmodSync(work, 0o755)
const clone = join(work, 'paykit')
const running: Array<ChildProcess> = []

const report = (line: string) => process.stderr.write(`fresh clone: ${line}\n`)

beforeAll(() => {
  ensureN8n() // this checkout's, installed once (waits for npm test's background install)
  const cloned = spawnSync('git', ['clone', '--quiet', ROOT, clone], { encoding: 'utf8' })
  if (cloned.status !== 0) throw new Error(`git clone failed: ${cloned.stderr}`)
  expect(existsSync(join(clone, 'node_modules'))).toBe(false)
  mkdirSync(join(clone, '.tools'))
  symlinkSync(join(ROOT, '.tools/n8n'), join(clone, '.tools/n8n'))
}, 45 * 60_000)

afterAll(async () => {
  for (const child of running) await interrupt(child)
  rmSync(work, { recursive: true, force: true })
}, 120_000)

/** The environment of a user's shell: none of pnpm's or vitest's own variables. */
const userEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(npm_|PNPM_|VITEST|NODE_OPTIONS$|NODE_ENV$|TEST$)/i.test(name),
    ),
  )

interface Command {
  readonly child: ChildProcess
  /** Everything it printed so far, stdout and stderr. */
  readonly output: () => string
  readonly exited: Promise<number | null>
}

/** `npm run n8n -- <args>` in the clone, in its own process group (a terminal's job). */
const npmRunN8n = (args: ReadonlyArray<string>): Command => {
  const child = spawn('npm', ['run', 'n8n', '--', ...args], {
    cwd: clone,
    env: userEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  running.push(child)
  let output = ''
  child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')))
  child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  return { child, output: () => output, exited }
}

/** Ctrl-C: SIGINT to the command's process group; resolves once the command has exited. */
const interrupt = async (child: ChildProcess): Promise<void> => {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  process.kill(-child.pid, 'SIGINT')
  await exited
}

/** Resolves once `text` is in the output; rejects when the command exits first or in time. */
const waitForOutput = async (command: Command, text: string, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  while (!command.output().includes(text)) {
    if (command.child.exitCode !== null)
      throw new Error(`exited (${String(command.child.exitCode)}):\n${command.output()}`)
    if (Date.now() > deadline)
      throw new Error(`not seen in ${timeoutMs / 1000} s: ${text}\n${command.output()}`)
    await new Promise((r) => setTimeout(r, 500))
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })

/** The processes whose command line names the clone (n8n's, the sandbox, the command's). */
const processesOfTheClone = (): ReadonlyArray<string> =>
  readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid) && Number(pid) !== process.pid)
    .flatMap((pid) => {
      try {
        const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
        return line.includes(clone) ? [`${pid}: ${line}`] : []
      } catch {
        return [] // gone meanwhile
      }
    })

/**
 * Runs `npm run n8n -- <args>` until its banner, checks the editor and the log files, then
 * stops it with Ctrl-C: everything it started has stopped, its ports are free.
 */
const runAndStop = async (
  args: ReadonlyArray<string>,
  home: string,
  logs: ReadonlyArray<string>,
) => {
  const [port, sandboxPort, postgresPort, smtpPort, mailPort, modelPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ]
  const started = Date.now()
  const command = npmRunN8n([
    ...args,
    '--port',
    String(port),
    '--sandbox-port',
    String(sandboxPort),
    '--postgres-port',
    String(postgresPort),
    '--smtp-port',
    String(smtpPort),
    '--mail-port',
    String(mailPort),
    '--model-port',
    String(modelPort),
  ])
  await waitForOutput(command, 'with n8n-nodes-paykit is running.', 15 * 60_000)
  await waitForOutput(command, 'Ctrl-C stops n8n and the sandbox.', 5_000)
  report(
    `npm run n8n -- ${args.join(' ')}: banner after ${((Date.now() - started) / 1000).toFixed(0)} s`,
  )
  const output = command.output()
  expect(output).not.toContain('ERR_MODULE_NOT_FOUND')
  expect(output).toContain(`editor   http://127.0.0.1:${String(port)}/`)
  expect(output).toContain(`model    http://127.0.0.1:${String(modelPort)}/v1`)

  const editor = await fetch(`http://127.0.0.1:${String(port)}/`)
  expect(editor.status).toBe(200)
  expect(await editor.text()).toContain('n8n')
  expect((await fetch(`http://127.0.0.1:${String(sandboxPort)}/__sandbox/events`)).status).toBe(200)

  const logsDir = join(clone, home, 'logs')
  expect(output).toContain(`Logs of this start: ${logsDir}/<name>.log`)
  for (const name of logs) {
    const file = join(logsDir, `${name}.log`)
    expect(existsSync(file), file).toBe(true)
    expect(readFileSync(file, 'utf8').trim(), file).not.toBe('')
  }

  const stopping = Date.now()
  await interrupt(command.child)
  expect(command.output()).toContain('stopping n8n and the sandbox')
  const redisPort = /Redis on 127\.0\.0\.1:(\d+)/.exec(output)?.[1]
  if (args.includes('--queue')) expect(redisPort).toMatch(/^\d+$/)
  const ports = args.includes('--queue')
    ? [port, sandboxPort, postgresPort, Number(redisPort)]
    : [port, sandboxPort]
  // Everything gone within 30 s of Ctrl-C (npm may exit while start.ts still stops them).
  const left = async () => [
    ...processesOfTheClone(),
    ...(
      await Promise.all(ports.map(async (p) => ((await listening(p)) ? [`port ${String(p)}`] : [])))
    ).flat(),
  ]
  let remaining = await left()
  while (remaining.length > 0 && Date.now() - stopping < 30_000) {
    await new Promise((r) => setTimeout(r, 250))
    remaining = await left()
  }
  expect(remaining).toEqual([])
  report(`everything stopped ${((Date.now() - stopping) / 1000).toFixed(1)} s after Ctrl-C`)
  return output
}

describe('npm run n8n from a fresh clone (no node_modules, no build)', () => {
  it(
    'installs, builds, starts n8n and the sandbox, and stops them on Ctrl-C',
    async () => {
      const output = await runAndStop([], '.tools/n8n-home', ['main', 'sandbox'])
      expect(output).toContain('installing dependencies')
      expect(output).toContain('built')
      expect(existsSync(join(clone, 'packages/testkit/dist/bin/paykit-sandbox.js'))).toBe(true)
    },
    20 * 60_000,
  )

  it(
    'npm run n8n -- --queue starts Postgres, Redis, a worker and the webhook processor, and stops them',
    async () => {
      const output = await runAndStop(['--queue', '--workers', '1'], '.tools/n8n-queue-home', [
        'main',
        'worker-1',
        'webhook',
        'sandbox',
        'postgres',
        'redis',
      ])
      expect(output).toContain('Postgres login: user postgres, password paykit-n8n, database n8n')
    },
    10 * 60_000,
  )
})
