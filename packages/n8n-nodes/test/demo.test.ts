// @paykit-test own-worker: the Trigger's replay memory (the engine demo)
/**
 * The workflow section of `npm start` (tools/n8n/engine-demo.ts), run as the demo runs it:
 * the built package through the real n8n engine against a `paykit-sandbox` process.
 */
import { describe, expect, it } from 'vitest'
import { n8nEngineFlow } from '@paykit/tools/n8n/engine-demo'

describe('npm start: the n8n engine section', () => {
  it('100 orders become payment links (none again on a re-run), one is paid, its signed webhook reaches the trigger', async () => {
    const lines: Array<string> = []
    const result = await n8nEngineFlow({ log: (line) => lines.push(line) })
    expect(result).toMatchObject({
      orders: 100,
      created: 100,
      failed: 0,
      concurrency: 8,
      rerunCreated: 0,
      rerunAlreadyRequested: 100,
      checkoutStatus: 200,
      triggerItems: 1,
      readBackStatus: 'PAID',
      tamperedStatus: 401,
    })
    expect(result.elapsedMs).toBeLessThan(60_000)
    const output = lines.join('\n')
    expect(output).toMatch(/payment links: 100 created, 0 failed, in \d+\.\d\d s/)
    expect(output).toContain(
      'the same 100 orders again: 0 link requests sent, 100 on Already Requested',
    )
    expect(output).toContain(`Read Order -> ${result.paidOrderCode} PAID`)
  }, 120_000)
})
