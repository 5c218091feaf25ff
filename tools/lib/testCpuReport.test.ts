import { describe, expect, it } from 'vitest'
import { cpuTable, parseCpuLog } from '@paykit/tools/lib/testCpuReport'

const line = (file: string, own: number, child: number, wall = 1) =>
  JSON.stringify({ file, ownSeconds: own, childSeconds: child, wallSeconds: wall })

describe('the test files that used the most CPU', () => {
  it('adds up the runs of a file in several projects', () => {
    const files = parseCpuLog([line('a.test.ts', 1, 2), '', line('a.test.ts', 0.5, 0)].join('\n'))
    expect(files).toEqual([{ file: 'a.test.ts', ownSeconds: 1.5, childSeconds: 2, wallSeconds: 2 }])
  })

  it('lists the most first, own and children together, with the total of every file', () => {
    const log = [line('small.test.ts', 1, 0), line('n8n.test.ts', 2, 40), line('cpu.test.ts', 9, 0)]
    const table = cpuTable(parseCpuLog(log.join('\n')), 2)
    expect(table[0]).toBe('the 2 test files that used the most CPU (of 3: 52 CPU-s in all)')
    expect(table.slice(2).map((row) => row.split(/\s+/).at(-1))).toEqual([
      'n8n.test.ts',
      'cpu.test.ts',
    ])
    expect(table[2]).toContain('42.0')
  })
})
