/**
 * A Charge → Create node saved at type version 1, in a REAL n8n (`n8n start`, the pinned
 * 2.41.1 with the packed package installed as a community package, tools/n8n/stack.ts):
 * the saved workflow (fixtures/v1/charge-create-from-webhook.json) is created and published
 * through n8n's REST API, a 3DS charge is posted to its webhook, and the step wired to the
 * node's one output runs and answers. Slow by nature (n8n starts in about 30 s).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testCards } from '@paykit/testkit'
import { postJson, publishWorkflow } from '@paykit/tools/n8n/batch'
import {
  executionRunData,
  executionsOfWorkflow,
  startStack,
  type Stack,
} from '../../real-n8n/support.js'
import { saved, savedCard } from '../support.js'

let stack: Stack

beforeAll(async () => {
  stack = await startStack({ publish: [] })
}, 45 * 60_000) // installs n8n first on a machine without it (about 5-15 min)

afterAll(async () => {
  await stack?.stop()
}, 60_000)

describe('n8n start: a workflow saved with the Paykit node at version 1', () => {
  it('Charge → Create keeps one output: a 3DS charge reaches the next step, which answers the webhook', async () => {
    const { id: _fixtureId, ...workflow } = saved(1, 'charge-create-from-webhook')
    const workflowId = await publishWorkflow(stack, workflow, [stack.editorUrl])
    const cardId = await savedCard({ url: stack.sandboxUrl }, testCards.authentication)

    const answer = await postJson(`${stack.editorUrl}webhook/compat-charge-v1`, {
      orderId: 'n8n-start-v1-3ds',
      amount: 14.5,
      cardId,
    })
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual([
      expect.objectContaining({
        status: 'AUTHENTICATION_REQUIRED',
        authentication: expect.objectContaining({ url: expect.stringContaining('http') }),
      }),
    ])

    const [execution] = await executionsOfWorkflow(stack, workflowId)
    expect(execution?.status).toBe('success')
    const run = await executionRunData(stack, String(execution?.id))
    expect(run.ran('Next Step')).toBe(true)
    expect(run.items('Charge').map((i) => i.status)).toEqual(['AUTHENTICATION_REQUIRED'])
  }, 120_000)
})
