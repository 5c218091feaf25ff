/**
 * The package in a REAL n8n (the full app, pinned 2.41.1, installed into .tools/n8n on
 * first use by tools/n8n/install.sh), installed as n8n installs a community package,
 * against a `paykit-sandbox` process; then the editor in a real browser.
 *
 * - every example workflow runs in n8n: the manual one through n8n's CLI (`execute --id
 *   --rawOutput`), the webhook ones through their production URLs;
 * - the published Paykit Trigger workflow is started by the sandbox's signed `order.paid`
 *   webhook after a buyer pays on the checkout page, seen through `/rest/executions`;
 * - Chromium logs in, opens an example, shows the Paykit node's parameters, runs the workflow
 *   from the editor, and writes the screenshots of packages/n8n-nodes/docs/.
 *
 * Slow by nature (n8n starts in about 30 s; each CLI execution boots n8n again).
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { createClient } from '@paykit/core'
import { FrameMessage } from '@paykit/core/machines'
import { defaultCredentials, testCards } from '@paykit/testkit'
import { authenticateHeadless } from '@paykit/testkit/buyer'
import { postJson } from '@paykit/tools/n8n/batch'
import {
  SCREENSHOTS_DIR,
  WORKFLOW_IDS,
  launchChromium,
  signedInPage,
  payOnCheckoutPage,
  executionRunData,
  executionsOfWorkflow,
  rawOutputOf,
  type ExecutionSummary,
  startStack,
  type Stack,
} from './support.js'

let stack: Stack

beforeAll(async () => {
  stack = await startStack({
    publish: [
      'order-paid-read-back.json',
      'payment-link-from-form.json',
      'charge-3ds-completion.json',
    ],
  })
}, 45 * 60_000) // installs n8n first on a machine without it (about 5-15 min)

afterAll(async () => {
  await stack?.stop()
}, 60_000)

const client = () =>
  createClient({ baseUrl: stack.sandboxUrl, credentials: { ...defaultCredentials } })

const orderOf = async (orderCode: string) => {
  const order = await client().getOrder(orderCode)()
  if (E.isLeft(order)) throw new Error(order.left.message)
  return order.right
}

const executionsOf = (workflowId: string) => executionsOfWorkflow(stack, workflowId)
const runDataOf = (id: string) => executionRunData(stack, id)

describe('n8n 2.41.1 with n8n-nodes-paykit installed as a community package', () => {
  it('loads the package under its own name: n8n describes n8n-nodes-paykit.paykit and .paykitTrigger', async () => {
    const types = (await stack.rest('/node-types', {
      method: 'POST',
      body: JSON.stringify({
        nodeInfos: [
          { name: 'n8n-nodes-paykit.paykit', version: 1 },
          { name: 'n8n-nodes-paykit.paykitTrigger', version: 1 },
        ],
      }),
    })) as {
      data: ReadonlyArray<{ displayName: string; credentials?: ReadonlyArray<{ name: string }> }>
    }
    expect(types.data.map((t) => t.displayName).sort()).toEqual(['Paykit', 'Paykit Trigger'])
    expect(types.data.flatMap((t) => (t.credentials ?? []).map((c) => c.name)).sort()).toEqual([
      'paykitApi', // the Paykit node's
      'paykitApi', // the Trigger's, to confirm unsigned events with the service
      'paykitWebhookApi',
    ])
  })

  it('orders-to-payment-links: `n8n execute --id --rawOutput` creates three links on the sandbox', async () => {
    const result = await stack.cli([
      'execute',
      `--id=${WORKFLOW_IDS['orders-to-payment-links.json']}`,
      '--rawOutput',
    ])
    expect(result.code, result.stderr).toBe(0)
    const run = rawOutputOf(result.stdout) as {
      data: {
        resultData: {
          error?: unknown
          runData: Record<
            string,
            ReadonlyArray<{ data: { main: Array<Array<{ json: Record<string, unknown> }>> } }>
          >
        }
      }
    }
    expect(run.data.resultData.error).toBeUndefined()
    const written = (run.data.resultData.runData['Write Back']?.[0]?.data.main[0] ?? []).map(
      (i) => i.json,
    )
    expect(written.map((o) => o.orderReference)).toEqual(['INV-1001', 'INV-1002', 'INV-1003'])
    for (const o of written) {
      expect(String(o.paymentLinkUrl)).toBe(`${stack.sandboxUrl}/pay/${String(o.orderCode)}`)
      const order = await orderOf(String(o.orderCode))
      expect(order.orderReference).toBe(o.orderReference)
      expect(order.orderStatus).toBe('PENDING')
    }
  }, 180_000)

  it('payment-link-from-form: a POST to the published webhook answers with a new link', async () => {
    const order = { amount: 30, orderReference: 'real-n8n-form-1' }
    const res = await postJson(`${stack.editorUrl}webhook/paykit-order`, order)
    expect(res.status).toBe(200)
    const body = res.json as { orderCode: string; paymentLinkUrl: string }
    expect(body.paymentLinkUrl).toBe(`${stack.sandboxUrl}/pay/${body.orderCode}`)
    expect((await orderOf(body.orderCode)).orderReference).toBe('real-n8n-form-1')
    // Posted again: One Link per Order Reference answers through Already Requested.
    const again = await postJson(`${stack.editorUrl}webhook/paykit-order`, order)
    expect(again.status).toBe(409)
    expect(again.json).toEqual({
      orderReference: 'real-n8n-form-1',
      alreadyRequested: true,
      message: 'A payment link was already requested for this order reference.',
    })
  }, 60_000)

  it('charge-3ds-completion: the frame message posted to the webhook completes the charge', async () => {
    const c = client()
    const card = await c.createPaymentMethod({
      customer: {
        id: 'cus_real',
        name: 'Ana Mora',
        email: 'ana@example.com',
        phoneNumber: '+50688887777',
      },
      card: {
        number: testCards.authentication.number,
        expirationMonth: '11',
        expirationYear: String(new Date().getUTCFullYear() + 2),
        cvv: '321',
        cardHolder: 'ANA MORA',
      },
    })()
    if (E.isLeft(card)) throw new Error(card.left.message)
    const order = { id: 'real-3ds-1', amount: 19.99, description: 'real n8n', name: 'real n8n' }
    const first = await c.charge({ order, cardId: card.right.id })()
    if (E.isLeft(first) || first.right.status !== 'AUTHENTICATION_REQUIRED')
      throw new Error('the first charge did not ask for 3DS')
    const { url, id } = first.right.authentication
    const message = await authenticateHeadless('success')(url, id)()
    if (E.isLeft(message)) throw new Error(message.left.message)
    const res = await fetch(`${stack.editorUrl}webhook/paykit-3ds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        orderId: order.id,
        amount: order.amount,
        cardId: card.right.id,
        frameMessage: FrameMessage.encode(message.right),
      }),
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      status: 'SUCCEEDED',
      order: { reference: order.id, amount: 19.99 },
      error: null,
    })
  }, 60_000)

  it('order-paid-read-back (published): paying on the checkout page starts it through the signed webhook', async () => {
    const link = await client().createPaymentLink({
      amount: 42,
      orderReference: 'real-n8n-paid-1',
    })()
    if (E.isLeft(link)) throw new Error(link.left.message)
    const workflowId = WORKFLOW_IDS['order-paid-read-back.json'] as string
    // Executions already there, and those read since, are not looked at again.
    const checked = new Set((await executionsOf(workflowId)).map((e) => e.id))
    const paid = await payOnCheckoutPage(link.right.paymentLinkUrl)
    expect(paid.status).toBeLessThan(400)
    // The execution of this order's event (the trigger takes every order event the sandbox sends).
    let done: ExecutionSummary | undefined
    let run: Awaited<ReturnType<typeof runDataOf>> | undefined
    for (let i = 0; i < 120 && done === undefined; i++) {
      for (const e of await executionsOf(workflowId)) {
        if (checked.has(e.id) || e.status === 'running' || e.status === 'new') continue
        checked.add(e.id)
        const data = await runDataOf(e.id)
        // Another order's event is not this test's; a run without the event shows its failure.
        const event = data.items('Order Paid')[0] as { data?: { orderCode?: string } } | undefined
        if (event !== undefined && event.data?.orderCode !== link.right.orderCode) continue
        done = e
        run = data
        break
      }
      if (done === undefined) await new Promise((r) => setTimeout(r, 500))
    }
    if (done === undefined || run === undefined)
      throw new Error(
        `no execution of the Paykit Trigger workflow for ${link.right.orderCode} within 60 s`,
      )
    expect(done).toMatchObject({ status: 'success', mode: 'webhook' })
    expect(run.error).toBeUndefined()
    expect(run.items('Order Paid')[0]).toMatchObject({
      type: 'order.paid',
      data: { orderCode: link.right.orderCode },
    })
    expect(run.items('Read Order')[0]).toMatchObject({
      orderCode: link.right.orderCode,
      orderStatus: 'PAID',
      total: 42,
    })
  }, 90_000)

  it('refuses a forged event at the production URL (401) and starts nothing', async () => {
    const res = await fetch(stack.triggerUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'paykit-signature': `t=${Math.floor(Date.now() / 1000)},v1=00`,
      },
      body: JSON.stringify({
        id: 'evt_forged',
        type: 'order.paid',
        createdAt: new Date().toISOString(),
        data: {},
      }),
    })
    expect(res.status).toBe(401)
  }, 30_000)
})

describe('the n8n editor in Chromium', () => {
  it('logs in, shows the Paykit node as a user sees it, runs the workflow and shows its output', async () => {
    mkdirSync(SCREENSHOTS_DIR, { recursive: true })
    const browser = await launchChromium()
    try {
      const page = await signedInPage(browser, stack, { width: 1440, height: 900 })

      await page.goto(`${stack.editorUrl}workflow/${WORKFLOW_IDS['orders-to-payment-links.json']}`)
      const node = page.locator('[data-test-id="canvas-node"]', { hasText: 'Create Payment Links' })
      await node.waitFor()
      await node.dblclick()
      const ndv = page.locator('[data-test-id="ndv"]')
      await ndv.waitFor()
      const parameters = ndv.locator('[data-test-id="node-parameters"]')
      // The panel fills in as the credential and options load (slowly on a busy machine):
      // what it shows is polled until it is all there. Labels are text; the chosen options
      // and values are the inputs' values.
      for (const label of [
        'Credential',
        'Resource',
        'Operation',
        'Order Source',
        'Request Field',
        'One Link per Order Reference',
        'Concurrency',
      ])
        await expect.poll(() => parameters.innerText(), { timeout: 30_000 }).toContain(label)
      // The example's node is version 1.1: One Link per Order Reference is on (a switch:
      // its input's value is always "on", its state is whether it is checked).
      const values = () =>
        parameters
          .locator('input')
          .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value).slice(0, 7))
      await expect
        .poll(values, { timeout: 30_000 })
        .toEqual(['Paykit sandbox', 'Payment Link', 'Create', 'From Input Item', '', 'on', '8'])
      expect(await parameters.locator('input[type="checkbox"]').first().isChecked()).toBe(true)
      await page.screenshot({ path: join(SCREENSHOTS_DIR, 'n8n-paykit-node-parameters.png') })
      await page.keyboard.press('Escape')
      await ndv.waitFor({ state: 'hidden' })

      // The CLI test ran it first: this second run creates no link, the three orders go to
      // Already Requested (the Set node of that name; the Paykit node names its output so).
      await page.locator('[data-test-id="execute-workflow-button"]').click()
      const requested = page
        .locator('[data-test-id="canvas-node"]')
        .filter({ hasText: 'Already Requested', hasNotText: 'Create Payment Links' })
      await expect.poll(() => requested.innerText(), { timeout: 60_000 }).toMatch(/3 items/)
      await requested.dblclick()
      await ndv.waitFor()
      const output = ndv.locator('[data-test-id="output-panel"]')
      await expect.poll(() => output.innerText()).toContain('alreadyRequested')
      const shown = await output.innerText()
      expect(shown).toContain('3 items')
      for (const reference of ['INV-1001', 'INV-1002', 'INV-1003'])
        expect(shown).toContain(reference)
      expect(shown).not.toContain('/pay/')
      await page.screenshot({ path: join(SCREENSHOTS_DIR, 'n8n-paykit-run-output.png') })
    } finally {
      await browser.close()
    }
  }, 240_000)
})
