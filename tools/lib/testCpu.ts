/**
 * A vitest setup file: the CPU seconds each test file used, its worker's and those of the
 * processes it started and waited for (a stack's n8n, a spawned tsc or npm), written as one
 * JSON line per file to the file named by `PAYKIT_TEST_CPU_LOG` (nothing without it). `npm
 * test` prints the files that used the most (`testCpuReport.ts`), so growth is seen when it
 * happens.
 *
 * Why the children too: most of the suite's CPU is in processes the files start (a real n8n
 * boot is ~30 CPU-s), which the worker's own `process.cpuUsage()` does not count. Linux adds a
 * reaped child's time to its parent's `cutime`/`cstime` (`/proc/self/stat`); children still
 * running when the file ends are not counted, which errs low.
 */
import { appendFileSync, readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { ROOT } from '@paykit/tools/lib/root'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** One test file's line in the log. */
export interface FileCpu {
  /** The file, relative to the repository's root. */
  readonly file: string
  /** CPU seconds: the worker's own, and its reaped children's. */
  readonly ownSeconds: number
  readonly childSeconds: number
  /** Wall seconds from the file's first hook to its last. */
  readonly wallSeconds: number
}

// -------------------------------------------------------------------------------------
// readings
// -------------------------------------------------------------------------------------

/** Clock ticks per second of `/proc` times (`getconf CLK_TCK`: 100 on Linux). */
const TICKS = 100

/** The CPU seconds of this process's reaped children, from `/proc/self/stat` (0 elsewhere). */
export const childCpuSeconds = (): number => {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    // The fields after the command's closing parenthesis; cutime and cstime are fields 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[13]) + Number(fields[14])) / TICKS
  } catch {
    return 0
  }
}

/** This process's own CPU seconds. */
const ownCpuSeconds = (): number => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e6
}

// -------------------------------------------------------------------------------------
// hooks
// -------------------------------------------------------------------------------------

const log = process.env['PAYKIT_TEST_CPU_LOG']
if (log !== undefined && log !== '') {
  let start = { own: 0, children: 0, wall: 0 }
  let filepath: string | undefined
  beforeAll(() => {
    start = { own: ownCpuSeconds(), children: childCpuSeconds(), wall: Date.now() }
  })
  // The file's path, from its first test (a file with no test writes no line).
  beforeEach(({ task }) => {
    filepath ??= task.file.filepath
  })
  afterAll(() => {
    if (filepath === undefined) return
    const line: FileCpu = {
      file: relative(ROOT, filepath),
      ownSeconds: ownCpuSeconds() - start.own,
      childSeconds: childCpuSeconds() - start.children,
      wallSeconds: (Date.now() - start.wall) / 1000,
    }
    appendFileSync(log, `${JSON.stringify(line)}\n`)
  })
}
