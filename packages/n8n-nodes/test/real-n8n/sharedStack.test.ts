/**
 * The real-n8n suites whose subject is not a start, a restart or a crash, on one regular-mode
 * stack (sharedStack.ts), one after another: each `*.suite.ts` leases the stack in its
 * `beforeAll` and releases it in its `afterAll`, and keeps its own workflows, webhook paths
 * and orders. One file, so that one worker runs them all: vitest keeps a worker's modules
 * from one file to the next only while the next file queued is of the same project.
 *
 * One suite alone: `pnpm exec vitest run --config vitest.workspace.ts
 * packages/n8n-nodes/test/real-n8n/sharedStack.test.ts -t templates-form`.
 */
import { afterAll, describe } from 'vitest'
import { stopSharedStack } from './sharedStack.js'

// Each suite's hooks belong to its describe: imported inside it, they run with it.
describe('templates-form', async () => {
  await import('./templates-form.suite.js')
})
describe('templates', async () => {
  await import('./templates.suite.js')
})
describe('n8n', async () => {
  await import('./n8n.suite.js')
})
describe('templatesAgent', async () => {
  await import('./templatesAgent.suite.js')
})
describe('compat charge-v1', async () => {
  await import('../compat/real-n8n/charge-v1.suite.js')
})

afterAll(async () => {
  await stopSharedStack()
}, 60_000)
