import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import {
  MIN_NODE_MAJOR,
  assertSupportedNode,
  isSupportedNodeVersion,
  unsupportedNodeMessage,
} from '../../src/engines/NodeVersion.js'

const run = promisify(execFile)
const dist = fileURLToPath(new URL('../../dist/', import.meta.url))

describe('NodeVersion', () => {
  it('supports Node.js 22 and later, refuses older ones', () => {
    expect(MIN_NODE_MAJOR).toBe(22)
    for (const v of ['v22.0.0', 'v22.12.1', '24.21.0', 'v100.0.0']) {
      expect(isSupportedNodeVersion(v)).toBe(true)
    }
    for (const v of ['v20.19.2', '21.7.3', 'v18.0.0', 'v8.17.0']) {
      expect(isSupportedNodeVersion(v)).toBe(false)
    }
    expect(isSupportedNodeVersion('')).toBe(true) // not Node: nothing to refuse
  })

  it('throws naming the version needed and the version found', () => {
    expect(() => assertSupportedNode('v20.19.2')).toThrow(
      '@paykit/testkit needs Node.js 22 or later (this is v20.19.2)',
    )
    expect(unsupportedNodeMessage('v21.0.0')).toBe(
      '@paykit/testkit needs Node.js 22 or later (this is v21.0.0)',
    )
    expect(() => assertSupportedNode(process.version)).not.toThrow()
  })
})

// The built package under an old Node (the machine's /usr/bin/node is Node 20, or
// PAYKIT_OLD_NODE): importing the root or the vitest entry fails at once with the message,
// before nock is evaluated.
const oldNode = [process.env['PAYKIT_OLD_NODE'], '/usr/bin/node'].find(
  (p): p is string => p !== undefined && p !== '' && existsSync(p),
)
const versionOf = async (node: string): Promise<string> =>
  (await run(node, ['--version'])).stdout.trim()
const oldVersion = oldNode === undefined ? undefined : await versionOf(oldNode)
const isOld = oldVersion !== undefined && !isSupportedNodeVersion(oldVersion)

describe.runIf(isOld && existsSync(`${dist}index.js`))(`the built package on ${oldVersion}`, () => {
  it.each(['index.js', 'vitest/index.js'])(
    'importing dist/%s fails at once, naming Node.js 22',
    async (entry) => {
      const script = `import(${JSON.stringify(`${dist}${entry}`)}).then(
      () => { console.log('loaded'); process.exit(0) },
      (e) => { console.error(e.message); process.exit(3) })`
      const result = await run(oldNode as string, ['-e', script]).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => e,
      )
      expect(result.code).toBe(3)
      expect(result.stderr.trim()).toBe(
        `@paykit/testkit needs Node.js 22 or later (this is ${oldVersion})`,
      )
    },
  )
})
