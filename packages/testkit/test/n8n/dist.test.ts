// @paykit-test own-worker: n8n's engine in this process
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { BASE_NODES_FROM } from './fixtures.js'

// The built dist under plain Node ESM, as users load it (`pnpm exec tsc -b` first).
const PACKAGE = fileURLToPath(new URL('../../', import.meta.url))

const node = async (script: string): Promise<string> => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', script],
    { cwd: PACKAGE, env: { ...process.env, N8N_LOG_LEVEL: 'silent' } },
  )
  return stdout.trim()
}

describe('the built package', () => {
  it('removes the temporary N8N_USER_FOLDER it made when the process exits', async () => {
    const folder = await node(`
      import { loadN8n } from '@paykit/testkit/n8n'
      delete process.env.N8N_USER_FOLDER
      loadN8n()
      console.log(process.env.N8N_USER_FOLDER)
    `)
    expect(folder).toMatch(/paykit-n8n-/)
    expect(existsSync(folder)).toBe(false)
  })

  it('runs a workflow from @paykit/testkit/n8n under Node ESM', async () => {
    const out = await node(`
      import { runWorkflow, baseNodeTypes } from '@paykit/testkit/n8n'
      const result = await runWorkflow({
        nodeTypes: baseNodeTypes(['Set', 'NoOp'], { from: ${JSON.stringify(BASE_NODES_FROM)} }),
        input: [{ json: { x: 20 } }],
        workflow: {
          nodes: [
            { name: 'Set', type: 'n8n-nodes-base.set', parameters: { mode: 'raw', jsonOutput: '={{ JSON.stringify({ y: $json.x + 1 }) }}' } },
            { name: 'Done', type: 'n8n-nodes-base.noOp', parameters: {} },
          ],
          connections: { Set: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
        },
      })
      console.log(JSON.stringify(result.nodes.Done))
    `)
    expect(JSON.parse(out)).toEqual([[{ json: { y: 21 }, pairedItem: { item: 0 } }]])
  }, 60_000) // a cold process loads n8n-core and its isolated-vm engine: seconds on 2 busy cores

  it('keeps the harness and n8n out of the root entry', async () => {
    const out = await node(`
      import { registerHooks } from 'node:module'
      const loaded = []
      registerHooks({
        resolve: (specifier, context, next) => {
          const resolved = next(specifier, context)
          loaded.push(resolved.url)
          return resolved
        },
      })
      await import('@paykit/testkit')
      console.log(JSON.stringify(loaded.filter((url) => /n8n/.test(url))))
    `)
    expect(JSON.parse(out)).toEqual([])
  }, 30_000)
})
