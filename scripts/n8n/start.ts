/**
 * `npm run n8n`: the package in a real n8n on 127.0.0.1, next to a sandbox (see stack.ts).
 * Keeps its n8n data in `.tools/n8n-home` (your edits survive a restart; `--fresh` starts
 * over). Ctrl-C stops everything it started.
 *
 * Options: `--port <n>` (n8n, default 5678), `--sandbox-port <n>` (default 4010), `--fresh`,
 * `--queue` (n8n's queue mode, see queue.ts: Postgres, Redis, workers and a webhook
 * processor; its data in `.tools/n8n-queue-home`), `--workers <n>` (default 2).
 */
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import type * as StackModule from './stack.js'
import type * as QueueModule from './queue.js'

// Node runs the .ts files as they are; the type-only imports above are erased.
const { OWNER, ROOT, WORKFLOW_IDS, N8N_VERSION, startStack } = (await import(
  new URL('./stack.ts', import.meta.url).href
)) as typeof StackModule

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '5678' },
    'sandbox-port': { type: 'string', default: '4010' },
    fresh: { type: 'boolean', default: false },
    queue: { type: 'boolean', default: false },
    workers: { type: 'string', default: '2' },
  },
})
const userFolder = join(ROOT, values.queue ? '.tools/n8n-queue-home' : '.tools/n8n-home')
if (values.fresh && existsSync(userFolder)) rmSync(userFolder, { recursive: true, force: true })

let stack: StackModule.Stack | undefined
let queue: QueueModule.QueueStack | undefined
let stopping = false
const shutdown = async (code: number) => {
  if (stopping) return
  stopping = true
  process.stderr.write('\nstopping n8n and the sandbox ...\n')
  await stack?.stop()
  process.exit(code)
}
process.on('SIGINT', () => void shutdown(0))
process.on('SIGTERM', () => void shutdown(0))

try {
  const options = {
    userFolder,
    n8nPort: Number(values.port),
    sandboxPort: Number(values['sandbox-port']),
    publish: [
      'order-paid-read-back.json',
      'payment-link-from-form.json',
      'charge-3ds-completion.json',
    ],
  }
  if (values.queue) {
    const { startQueueStack } = (await import(
      new URL('./queue.ts', import.meta.url).href
    )) as typeof QueueModule
    queue = await startQueueStack({ ...options, workers: Number(values.workers) })
    stack = queue
  } else stack = await startStack(options)
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  await shutdown(1)
}
if (stack !== undefined) {
  const url = stack.editorUrl
  console.log(`
n8n ${N8N_VERSION} with n8n-nodes-paykit is running.

  editor   ${url}
  login    ${OWNER.email} / ${OWNER.password}
  sandbox  ${stack.sandboxUrl} (test card 4242 4242 4242 4242, any future expiry, any CVV)

Try first:
  1. Open ${url}workflow/${WORKFLOW_IDS['orders-to-payment-links.json']} ("a list of orders becomes payment
     links") and click "Execute workflow": three payment links, each with its URL. Execute it
     again: no new link, the three orders go to "Already Requested".
  2. Open one of those URLs in a browser and pay it with the test card.
  3. Open ${url}workflow/${WORKFLOW_IDS['order-paid-read-back.json']} (published): its Executions tab shows
     the run the signed order.paid webhook started, with the order read back as PAID.
  4. Or post an order to the published form workflow:
     curl -s -X POST ${url}webhook/paykit-order -H 'content-type: application/json' -d '{"amount": 30}'

Credentials "Paykit sandbox" and "Paykit webhook secret" are set up for you.${
    queue === undefined
      ? ''
      : `

Queue mode: Postgres on 127.0.0.1:${queue.postgres.port}, Redis on 127.0.0.1:${queue.redis.port},
${queue.workers.length} workers (${queue.workers.map((w) => `${w.name} pid ${w.child.pid}`).join(', ')}),
the webhook processor at ${queue.webhook.url} (production webhooks: ${queue.webhook.url}webhook/paykit-order).`
  }
Ctrl-C stops n8n and the sandbox.`)
}
