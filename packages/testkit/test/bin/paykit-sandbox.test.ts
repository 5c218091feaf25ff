// Issue 18, part 4: `npx paykit-sandbox` then SIGTERM to the npx process left the sandbox
// running. npx runs the bin under `sh -c`; the signal ends npx and that shell, never the
// sandbox. The built command now stops when its parent goes away if a package runner
// started it (or with --exit-with-parent), and --no-exit-with-parent keeps it running.
import { spawn, type ChildProcess } from 'node:child_process'
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, describe, expect, it } from 'vitest'

const PACKAGE = fileURLToPath(new URL('../..', import.meta.url))
const BIN = join(PACKAGE, 'dist/bin/paykit-sandbox.js')

const started: Array<number> = []
const children: Array<ChildProcess> = []
const folders: Array<string> = []

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

afterEach(() => {
  for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL')
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true })
})

/** The node processes whose command line names a file under `dir` (Linux's /proc). */
const processesUnder = (dir: string): Array<number> =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
        return /(^|\/)node$/.test(argv[0] ?? '') && argv.some((a) => a.startsWith(dir))
      } catch {
        return false
      }
    })
    .map(Number)

/** Lines of a stream, as they come. */
const lines = (child: ChildProcess, stream: 'stdout' | 'stderr'): Array<string> => {
  const out: Array<string> = []
  let buffer = ''
  child[stream]?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString()
    const parts = buffer.split('\n')
    buffer = parts.pop() ?? ''
    out.push(...parts)
  })
  return out
}

const until = async <A>(what: string, f: () => A | undefined, ms = 15_000): Promise<A> => {
  const end = Date.now() + ms
  for (;;) {
    const a = f()
    if (a !== undefined) return a
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Whether something answers HTTP at `url`. */
const listening = async (url: string): Promise<boolean> => {
  try {
    await fetch(`${url}/paymentlink/order/none`, { signal: AbortSignal.timeout(2000) })
    return true
  } catch {
    return false
  }
}

/**
 * `node -e` as a middle process that starts the sandbox (printing its pid, then passing on
 * its output): the sandbox's parent, which the tests then kill.
 */
const throughParent = (
  args: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv,
): { readonly parent: ChildProcess; readonly out: Array<string>; readonly err: Array<string> } => {
  const script = `
    const { spawn } = require('node:child_process')
    const child = spawn(process.execPath, ${JSON.stringify([BIN, ...args])}, { stdio: ['ignore', 'inherit', 'inherit'] })
    console.log('pid ' + child.pid)
    setInterval(() => {}, 1000)`
  const parent = spawn(process.execPath, ['-e', script], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(parent)
  return { parent, out: lines(parent, 'stdout'), err: lines(parent, 'stderr') }
}

/** The environment without any package runner's variables. */
const plainEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')))

/** Starts through a middle process, waits until it listens: its pid, URL and output. */
const startThroughParent = async (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv) => {
  const run = throughParent(['--port', '0', ...args], env)
  const pid = Number(
    await until('the pid', () => run.out.find((l) => l.startsWith('pid '))?.slice(4)),
  )
  started.push(pid)
  const url = await until('listening', () =>
    run.out.find((l) => l.startsWith('listening on '))?.slice('listening on '.length),
  )
  return { ...run, pid, url }
}

describe('paykit-sandbox when its parent goes away', () => {
  it('under npx: SIGTERM to the npx process stops the sandbox too', async () => {
    // A project where @paykit/testkit is installed (its bin linked as npm links it).
    const project = mkdtempSync(join(tmpdir(), 'paykit-npx-'))
    folders.push(project)
    writeFileSync(join(project, 'package.json'), '{ "name": "npx-user", "private": true }')
    mkdirSync(join(project, 'node_modules', '@paykit'), { recursive: true })
    mkdirSync(join(project, 'node_modules', '.bin'))
    symlinkSync(PACKAGE, join(project, 'node_modules', '@paykit', 'testkit'), 'dir')
    symlinkSync(
      '../@paykit/testkit/dist/bin/paykit-sandbox.js',
      join(project, 'node_modules', '.bin', 'paykit-sandbox'),
    )
    chmodSync(BIN, 0o755) // as npm's bin-links does on install (tsc writes it 0644)
    const npx = spawn('npx', ['--no-install', 'paykit-sandbox', '--port', '0'], {
      cwd: project,
      env: plainEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    children.push(npx)
    const spawnError = new Promise<Error>((resolve) => npx.once('error', resolve))
    const out = lines(npx, 'stdout')
    const err = lines(npx, 'stderr')
    const url = await Promise.race([
      until('listening', () =>
        out.find((l) => l.startsWith('listening on '))?.slice('listening on '.length),
      ).catch((e: unknown) => {
        throw new Error(`${String(e)}; npx printed: ${[...out, ...err].join('\n')}`)
      }),
      spawnError.then((e) => {
        throw new Error(`npx did not start (npm must be installed): ${e.message}`)
      }),
    ])
    const sandbox = processesUnder(project)
    expect(sandbox).toHaveLength(1)
    started.push(...sandbox)
    expect(await listening(url)).toBe(true)
    npx.kill('SIGTERM')
    await until('npx to exit', () => npx.exitCode ?? npx.signalCode ?? undefined)
    const exited = await until(
      'the sandbox to exit',
      () => (sandbox.some(alive) ? undefined : true),
      10_000,
    ).catch(() => false)
    expect(exited, `stderr: ${err.join('\n')}`).toBe(true)
    expect(err.some((l) => /its parent process \(\d+\) exited; stopping/.test(l))).toBe(true)
    expect(await listening(url)).toBe(false)
  })

  it('started by a package runner (npm_config_user_agent) it exits when its parent is killed', async () => {
    const run = await startThroughParent([], {
      ...plainEnv(),
      npm_config_user_agent: 'npm/11 node/v24 linux x64',
    })
    run.parent.kill('SIGKILL')
    await until('the sandbox to exit', () => (alive(run.pid) ? undefined : true), 10_000)
    expect(await listening(run.url)).toBe(false)
  })

  it('with --exit-with-parent it exits too, whoever started it', async () => {
    const run = await startThroughParent(['--exit-with-parent'], plainEnv())
    run.parent.kill('SIGKILL')
    await until('the sandbox to exit', () => (alive(run.pid) ? undefined : true), 10_000)
  })

  it('with --no-exit-with-parent (and by default outside a package runner) it keeps running', async () => {
    const flagged = await startThroughParent(['--no-exit-with-parent'], {
      ...plainEnv(),
      npm_config_user_agent: 'npm/11 node/v24 linux x64',
    })
    const plain = await startThroughParent([], plainEnv())
    flagged.parent.kill('SIGKILL')
    plain.parent.kill('SIGKILL')
    // Three parent checks' time: it would have stopped by now.
    await new Promise((r) => setTimeout(r, 3000))
    expect(alive(flagged.pid)).toBe(true)
    expect(alive(plain.pid)).toBe(true)
    expect(await listening(flagged.url)).toBe(true)
    expect(await listening(plain.url)).toBe(true)
  })
})
