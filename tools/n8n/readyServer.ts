/**
 * A server started until a line of its output says it is ready (redis.ts, postgres.ts): in
 * its own process group (`detached`), its stdout and stderr read line by line and kept for
 * the error when it fails to start. Plain erasable TypeScript with only `node:` imports, so
 * Node runs it as it is.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'

export interface ReadyServer {
  readonly child: ChildProcess
  /** Resolves on the first line holding `readyLine`; rejects on a spawn error or an exit. */
  readonly ready: Promise<void>
  /** Sends `stopSignal` and waits for the exit (nothing when it has exited). */
  readonly stop: () => Promise<void>
}

/** Spawns `command` with `args`; `name` is the one of its "exited" error. */
export const startReadyServer = (options: {
  readonly name: string
  readonly command: string
  readonly args: ReadonlyArray<string>
  /** The user that runs it (`uid`, `gid`), when not this process's. */
  readonly runAs?: { readonly uid?: number; readonly gid?: number }
  readonly readyLine: string
  readonly stopSignal: NodeJS.Signals
  readonly log?: ((line: string) => void) | undefined
}): ReadyServer => {
  const child = spawn(options.command, options.args, {
    ...options.runAs,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill(options.stopSignal)
    await exited
  }
  const ready = new Promise<void>((resolve, reject) => {
    const lines: Array<string> = []
    child.once('error', reject)
    child.once('exit', (code) =>
      reject(new Error(`${options.name} exited (${String(code)}):\n${lines.join('\n')}`)),
    )
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on('line', (line) => {
        lines.push(line)
        options.log?.(line)
        if (line.includes(options.readyLine)) resolve()
      })
  })
  return { child, ready, stop }
}
