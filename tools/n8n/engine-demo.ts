/**
 * The workflow section of `npm start`: example workflows of `n8n-nodes-paykit` run through
 * the real n8n engine in-process (`@paykit/testkit/n8n`: n8n-core's `WorkflowExecute`),
 * with the BUILT package (`packages/n8n-nodes/dist`, CommonJS, as n8n loads it), against a
 * `paykit-sandbox` process over HTTP:
 *
 * 1. `orders-to-payment-links.json`, its Orders node given 100 orders: 100 payment links,
 *    created by the Paykit node with its concurrency; the same run again creates none (One
 *    Link per Order Reference: each order goes to Already Requested);
 * 2. one of them paid on its hosted checkout page (an HTTP form POST, as a buyer does);
 * 3. the signed `order.paid` webhook the sandbox sent is handed to the Paykit Trigger of
 *    `order-paid-read-back.json` (its signature checked), and that workflow reads the order
 *    back as PAID; a tampered copy of the same event is refused.
 *
 * `tools/demo.ts` calls {@link n8nEngineFlow}; `packages/n8n-nodes/test/demo.test.ts`
 * runs the same function, so the main job is tested.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { spawnSandbox, startWebhookReceiver } from '@paykit/testkit/sandbox'
import { payOnCheckoutPage } from '@paykit/testkit/buyer'
import {
  baseNodeTypes,
  disposeExpressionEngine,
  runWebhook,
  runWorkflow,
  type WorkflowJson,
} from '@paykit/testkit/n8n'
import { sandboxCredentials } from '@paykit/tools/n8n/credentials'

// The package by its name, as a user's n8n has it (a dev dependency of the tools).
const require = createRequire(import.meta.url)
const nodesPackage = `${dirname(require.resolve('n8n-nodes-paykit/package.json'))}/`

/** The node type names the example workflows use. */
const PAYKIT = 'n8n-nodes-paykit.paykit'
const PAYKIT_TRIGGER = 'n8n-nodes-paykit.paykitTrigger'
const WEBHOOK_SECRET = 'demo-n8n-webhook-secret'

/** What the section did, for a test to check. */
export interface EngineDemoResult {
  readonly orders: number
  readonly created: number
  readonly failed: number
  readonly concurrency: number
  readonly elapsedMs: number
  /** Links the second run of the same orders created, and the orders it sent to Already Requested. */
  readonly rerunCreated: number
  readonly rerunAlreadyRequested: number
  readonly paidOrderCode: string
  readonly checkoutStatus: number
  readonly triggerItems: number
  readonly readBackStatus: unknown
  readonly tamperedStatus: number
}

export interface EngineDemoOptions {
  /** How many orders become payment links (default 100). */
  readonly orders?: number
  /** Where the progress lines go (default `console.log`). */
  readonly log?: (line: string) => void
}

/** The built package, as n8n `require`s it. */
const dist = () => ({
  Paykit: (
    require('n8n-nodes-paykit/dist/nodes/Paykit/Paykit.node.js') as { Paykit: new () => object }
  ).Paykit,
  PaykitTrigger: (
    require('n8n-nodes-paykit/dist/nodes/PaykitTrigger/PaykitTrigger.node.js') as {
      PaykitTrigger: new () => object
    }
  ).PaykitTrigger,
  PaykitApi: (
    require('n8n-nodes-paykit/dist/credentials/PaykitApi.credentials.js') as {
      PaykitApi: new () => object
    }
  ).PaykitApi,
  PaykitWebhookApi: (
    require('n8n-nodes-paykit/dist/credentials/PaykitWebhookApi.credentials.js') as {
      PaykitWebhookApi: new () => object
    }
  ).PaykitWebhookApi,
})

const example = (name: string): WorkflowJson =>
  JSON.parse(
    readFileSync(new URL(`examples/${name}`, `file://${nodesPackage}`), 'utf8'),
  ) as WorkflowJson

/** `n` orders as a shop would list them: amounts and catalogue line items, mixed. */
export const demoOrders = (n: number): ReadonlyArray<Record<string, unknown>> =>
  Array.from({ length: n }, (_, i) => {
    const orderReference = `DEMO-${String(i + 1).padStart(4, '0')}`
    return i % 3 === 2
      ? { orderReference, lineItems: [{ sku: 'MUG-LOGO', quantity: 1 + (i % 4) }] }
      : { orderReference, orderName: `Order ${i + 1}`, amount: 10 + (i % 50) + 0.25 }
  })

/**
 * Runs the section against its own sandbox process and prints its progress.
 */
export const n8nEngineFlow = async (options: EngineDemoOptions = {}): Promise<EngineDemoResult> => {
  const log = options.log ?? ((line: string) => console.log(line))
  const count = options.orders ?? 100
  const pkg = dist()
  const nodeTypes = {
    [PAYKIT]: new pkg.Paykit(),
    [PAYKIT_TRIGGER]: new pkg.PaykitTrigger(),
    ...baseNodeTypes(['ManualTrigger', 'Set', 'SplitOut'], { from: nodesPackage }),
  } as Parameters<typeof runWorkflow>[0]['nodeTypes']
  const credentialTypes = [new pkg.PaykitApi(), new pkg.PaykitWebhookApi()] as NonNullable<
    Parameters<typeof runWorkflow>[0]['credentialTypes']
  >
  const receiver = await startWebhookReceiver({ path: '/webhook/paykit' })
  const sandbox = await spawnSandbox({
    // --control: its request log counts the link requests a re-run sends.
    args: ['--webhook-url', receiver.url, '--webhook-secret', WEBHOOK_SECRET, '--control'],
    stderr: 'inherit',
  })
  log(`paykit-sandbox (for n8n): listening on ${sandbox.url}, webhooks signed to ${receiver.url}`)
  // The credentials the examples name (ids `paykit-sandbox`, `paykit-webhook`).
  const credentials = sandboxCredentials({ baseUrl: sandbox.url, signingSecret: WEBHOOK_SECRET })
  const linkRequests = async (): Promise<number> => {
    const log = (await (await fetch(`${sandbox.url}/__sandbox/requests`)).json()) as ReadonlyArray<{
      method: string
      path: string
    }>
    return log.filter((r) => r.method === 'POST' && r.path === '/paymentlink/checkout').length
  }
  try {
    // 1. orders -> payment links
    const workflow = example('orders-to-payment-links.json')
    const orders = demoOrders(count)
    const withOrders: WorkflowJson = {
      ...workflow,
      nodes: workflow.nodes.map((node) =>
        node.name === 'Orders'
          ? { ...node, parameters: { ...node.parameters, jsonOutput: JSON.stringify({ orders }) } }
          : node,
      ),
    }
    const createNode = withOrders.nodes.find((n) => n.type === PAYKIT)
    const concurrency = Number(
      (createNode?.parameters.options as { concurrency?: number } | undefined)?.concurrency ?? 8,
    )
    log(
      `workflow "${workflow.name ?? ''}": ${count} orders -> Paykit node (Payment Link -> Create, concurrency ${concurrency}) ...`,
    )
    const started = performance.now()
    const result = await runWorkflow({
      workflow: withOrders,
      nodeTypes,
      credentialTypes,
      credentials,
    })
    const elapsedMs = performance.now() - started
    if (result.error !== undefined) throw new Error(`the workflow failed: ${result.error.message}`)
    const written = (result.nodes['Write Back']?.[0] ?? []).map((i) => i.json)
    const created = written.filter((o) => String(o.paymentLinkUrl ?? '').includes('/pay/')).length
    const failed = count - created
    log(
      `payment links: ${created} created, ${failed} failed, in ${(elapsedMs / 1000).toFixed(2)} s (${String(result.preAuthenticationRuns)} token request)`,
    )
    const first = written[0]
    log(`  first: ${String(first?.orderReference)} -> ${String(first?.paymentLinkUrl)}`)
    const sentBefore = await linkRequests()
    const rerun = await runWorkflow({
      workflow: withOrders,
      nodeTypes,
      credentialTypes,
      credentials,
    })
    if (rerun.error !== undefined) throw new Error(`the re-run failed: ${rerun.error.message}`)
    const rerunCreated = (await linkRequests()) - sentBefore
    const rerunAlreadyRequested = rerun.nodes['Already Requested']?.[0]?.length ?? 0
    log(
      `the same ${count} orders again: ${rerunCreated} link requests sent, ${rerunAlreadyRequested} on Already Requested (One Link per Order Reference)`,
    )

    // 2. pay one on its checkout page
    const chosen = written[Math.min(41, written.length - 1)]
    if (chosen === undefined) throw new Error('no payment link was created')
    const paidOrderCode = String(chosen.orderCode)
    const checkout = await payOnCheckoutPage(String(chosen.paymentLinkUrl))
    log(
      `checkout page: ${String(chosen.orderReference)} (${paidOrderCode}) paid with a test card, the page answered ${checkout.status}`,
    )

    // 3. the signed order.paid webhook reaches the Paykit Trigger
    const event = await receiver
      .waitFor((r) => r.body.includes(paidOrderCode))
      .catch(() => {
        throw new Error(`no order.paid webhook for ${paidOrderCode}`)
      })
    const headers = Object.fromEntries(
      Object.entries(event.headers).map(([k, v]) => [
        k,
        Array.isArray(v) ? v.join(', ') : String(v),
      ]),
    )
    log(
      `webhook: the sandbox POSTed order.paid, Paykit-Signature ${(headers['paykit-signature'] ?? '').slice(0, 24)}...`,
    )
    const readBack = example('order-paid-read-back.json')
    const trigger = readBack.nodes.find((n) => n.type === PAYKIT_TRIGGER)
    if (trigger === undefined) throw new Error('order-paid-read-back.json has no Paykit Trigger')
    const deliver = (rawBody: Buffer) =>
      runWebhook({
        nodeType: new pkg.PaykitTrigger() as Parameters<typeof runWebhook>[0]['nodeType'],
        type: PAYKIT_TRIGGER,
        parameters: trigger.parameters,
        nodeCredentials: trigger.credentials ?? {},
        credentialTypes: [new pkg.PaykitWebhookApi()] as NonNullable<
          Parameters<typeof runWebhook>[0]['credentialTypes']
        >,
        credentials,
        request: {
          method: 'POST',
          headers,
          body: JSON.parse(rawBody.toString('utf8')) as unknown,
          rawBody,
        },
      })
    const received = await deliver(event.rawBody)
    const emitted = received.workflowData?.[0] ?? []
    log(
      `Paykit Trigger: signature verified, ${emitted.length} item (${String(emitted[0]?.json.type)} for ${String((emitted[0]?.json.data as { orderCode?: string } | undefined)?.orderCode)})`,
    )
    const tampered = await deliver(
      Buffer.from(event.rawBody.toString('utf8').replace(/"total":\s*[\d.]+/, '"total":0.01')),
    )
    log(
      `Paykit Trigger: the same event with its total changed -> ${tampered.response.statusCode}, ${tampered.workflowData === undefined ? 'no run' : 'a run?!'}`,
    )
    const read = await runWorkflow({
      workflow: readBack,
      nodeTypes,
      credentialTypes,
      credentials,
      input: emitted.map((i) => ({ json: i.json })),
    })
    if (read.error !== undefined)
      throw new Error(`order-paid-read-back failed: ${read.error.message}`)
    const order = read.nodes['Read Order']?.[0]?.[0]?.json ?? {}
    log(
      `workflow "${readBack.name ?? ''}": Read Order -> ${String(order.orderCode)} ${String(order.orderStatus)}, total ${String(order.total)}, authorization ${String((order.payment as { authorizationCode?: string } | null | undefined)?.authorizationCode)}`,
    )
    return {
      orders: count,
      created,
      failed,
      concurrency,
      elapsedMs,
      rerunCreated,
      rerunAlreadyRequested,
      paidOrderCode,
      checkoutStatus: checkout.status,
      triggerItems: emitted.length,
      readBackStatus: order.orderStatus,
      tamperedStatus: tampered.response.statusCode,
    }
  } finally {
    await sandbox.stop()
    await receiver.close()
    await disposeExpressionEngine()
  }
}
