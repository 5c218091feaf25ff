/**
 * `node tools/lib/testCpuReport.ts <log> [count]`: the test files that used the most CPU
 * seconds (the log `testCpu.ts` writes), most first, as a table; `npm test` ends with it.
 */
import { existsSync, readFileSync } from 'node:fs'
import type { FileCpu } from '@paykit/tools/lib/testCpu'

// -------------------------------------------------------------------------------------
// reducers
// -------------------------------------------------------------------------------------

/** The log's lines, one per file (a file run in several projects: its runs added up). */
export const parseCpuLog = (text: string): ReadonlyArray<FileCpu> => {
  const byFile = new Map<string, FileCpu>()
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    const entry = JSON.parse(line) as FileCpu
    const seen = byFile.get(entry.file)
    byFile.set(
      entry.file,
      seen === undefined
        ? entry
        : {
            file: entry.file,
            ownSeconds: seen.ownSeconds + entry.ownSeconds,
            childSeconds: seen.childSeconds + entry.childSeconds,
            wallSeconds: seen.wallSeconds + entry.wallSeconds,
          },
    )
  }
  return [...byFile.values()]
}

/** The `count` files that used the most CPU, as the lines of a table, with the total. */
export const cpuTable = (files: ReadonlyArray<FileCpu>, count: number): ReadonlyArray<string> => {
  const cpu = (f: FileCpu) => f.ownSeconds + f.childSeconds
  const top = [...files].sort((a, b) => cpu(b) - cpu(a)).slice(0, count)
  const total = files.reduce((sum, f) => sum + cpu(f), 0)
  const n = (x: number) => x.toFixed(1).padStart(7)
  return [
    `the ${String(top.length)} test files that used the most CPU (of ${String(files.length)}: ${total.toFixed(0)} CPU-s in all)`,
    `  CPU-s   own   child    wall  file`,
    ...top.map(
      (f) => `${n(cpu(f))} ${n(f.ownSeconds)} ${n(f.childSeconds)} ${n(f.wallSeconds)}  ${f.file}`,
    ),
  ]
}

// -------------------------------------------------------------------------------------
// main
// -------------------------------------------------------------------------------------

if (import.meta.main) {
  const [path, count = '20'] = process.argv.slice(2)
  if (path === undefined || !existsSync(path)) {
    process.stderr.write(
      `usage: node tools/lib/testCpuReport.ts <log> [count] (no log at ${String(path)})\n`,
    )
    process.exit(2)
  }
  for (const line of cpuTable(parseCpuLog(readFileSync(path, 'utf8')), Number(count)))
    process.stdout.write(`${line}\n`)
}
