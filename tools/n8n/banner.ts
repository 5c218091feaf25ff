/**
 * What `npm run n8n` prints once its stack is up (start.ts): where everything is, the
 * credentials, and the commands that drive every template by hand (docs/n8n/try-it.md says
 * the same at more length). A function of the running stack, so that a test reads the very
 * lines a user sees.
 */
import type { QueueStack } from '@paykit/tools/n8n/queue'
import {
  N8N_VERSION,
  OWNER,
  WEBHOOK_SECRET,
  WORKFLOW_IDS,
  claimTableSql,
  shopTablesSql,
  tablesOf,
  type Stack,
} from '@paykit/tools/n8n/stack'

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** The command that pays an order as the buyer would: a signed `order.paid` to every Paykit Trigger. */
export const payCommand = (sandboxUrl: string, orderCode = '<orderCode>'): string =>
  `curl -X POST ${sandboxUrl}/__sandbox/orders/${orderCode}/pay`

/** The command that sends a recorded event again, freshly signed, to every Paykit Trigger (a replay). */
export const resendCommand = (sandboxUrl: string, eventId = '<eventId>'): string =>
  `curl -X POST ${sandboxUrl}/__sandbox/events/${eventId}/resend`

/** The shop database's `psql` command line. */
export const psqlCommand = (shop: Stack['shop']): string =>
  `PGPASSWORD=${shop.password} psql -h ${shop.host} -p ${String(shop.port)} -U ${shop.user} ${shop.database}`

/**
 * The banner: `stack` as it runs, its n8n data in `userFolder`, `queue` in queue mode.
 */
export const banner = (stack: Stack, userFolder: string, queue?: QueueStack): string => {
  const url = stack.editorUrl
  const sandbox = stack.sandboxUrl
  const mail = stack.mail.url.replace(/\/$/, '')
  const logs = ['sandbox', 'mail', ...stack.processes.map((p) => p.name)]
  logs.push(...(queue === undefined ? ['shop-postgres'] : ['postgres', 'redis']))
  const login = queue?.postgres.n8nEnv
  const width = Math.max(...stack.published.map((w) => w.file.length))
  const executions = stack.published
    .map((w) => `  ${w.file.padEnd(width)}  ${url}workflow/${w.id}/executions`)
    .join('\n')
  const shop = psqlCommand(stack.shop)
  const tables = [...tablesOf(shopTablesSql()), ...tablesOf(claimTableSql())].join(', ')
  return `
n8n ${N8N_VERSION} with n8n-nodes-paykit is running.

  editor   ${url}
  login    ${OWNER.email} / ${OWNER.password}
  sandbox  ${sandbox} (test card 4242 4242 4242 4242, any future expiry, any CVV)
  secret   ${WEBHOOK_SECRET} (the sandbox's webhook signing secret: local only, never a real one)
  mail     ${mail} (every email the workflows send, captured: SMTP 127.0.0.1:${String(stack.mail.smtpPort)})
  mail API curl ${mail}/api/email
  model    ${stack.model.url} (a scripted chat model, local: the sales assistant's, docs/n8n/agent.md)
  shop db  ${shop}
           tables: ${tables}

The sandbox signs every order event and sends it to each Paykit Trigger:
${stack.triggerUrls.map((t) => `  ${t}`).join('\n')}
Pay an order by hand (a signed order.paid to every trigger, as the checkout page sends it):
  ${payCommand(sandbox)}
Send an event again, freshly signed (a replay; its id from curl ${sandbox}/__sandbox/events):
  ${resendCommand(sandbox)}
Every delivery and its answer: curl ${sandbox}/__sandbox/deliveries

Published workflows, each with its executions page:
${executions}
n8n publishes in the background: the stack waited until n8n reported each one published.
After you publish one yourself, poll GET ${url}rest/workflows/<id>/publication-status until
"published" before posting to its webhook.

Try first:
  1. Open ${url}workflow/${WORKFLOW_IDS['orders-to-payment-links.json'] ?? ''} ("a list of orders becomes payment
     links") and click "Execute workflow": three payment links, each with its URL. Execute it
     again: no new link, the three orders go to "Already Requested".
  2. Open ${url}form/sell-with-a-form (template "sell with a form"): choose a product and a
     quantity, give an email; the browser lands on the checkout page. Pay with the test card:
     the receipt reaches ${mail} with nobody touching anything.
  3. Add an invoice and link it (template 2):
       ${shop} -c "INSERT INTO invoices (invoice_number, customer_email, amount) VALUES ('INV-1', 'ana@example.com', 25.50)"
       curl -s -X POST ${url}webhook/invoices-to-links
     then pay it by hand with its order code:
       ${shop} -c "SELECT invoice_number, order_code, status FROM invoices"
       ${payCommand(sandbox)}
     Template 3 marks it paid and mails the receipt; the example ${WORKFLOW_IDS['order-paid-read-back.json'] ?? ''} reads it back.
  4. Or post an order to the published form workflow:
     curl -s -X POST ${url}webhook/paykit-order -H 'content-type: application/json' -d '{"amount": 30}'
  5. Chat with the sales assistant (an AI Agent on the scripted model): open
     ${url}webhook/paykit-sales-assistant/chat and write "what do you sell?", then
     "2 MUG for ana@example.com": a payment link priced from the catalog.
  6. Exactly once across workers (the example "claimed in your own Postgres", its table
     payment_link_claim created): post the same orders twice, one link each:
     curl -s -X POST ${url}webhook/orders-to-links-once -H 'content-type: application/json' -d '{"orders": [{"orderReference": "ORD-1", "amount": 25.5}]}'

Credentials "Paykit sandbox", "Paykit webhook secret", "Shop database", "Shop mail
(captured)" and "Scripted model (local)" are set up for you (imported when missing: your edits to them are kept).
More: docs/n8n/try-it.md.

n8n's data is kept in ${userFolder} (--fresh starts over). The sandbox's
orders, cards and charges are not: each start begins with none, so an order from an earlier
start is unknown to it (404).

Logs of this start: ${stack.logsDir}/<name>.log, name one of
  ${logs.join(', ')}${
    queue === undefined || login === undefined
      ? ''
      : `

Queue mode: Postgres on 127.0.0.1:${String(queue.postgres.port)}, Redis on 127.0.0.1:${String(queue.redis.port)},
${String(queue.workers.length)} workers (${queue.workers.map((w) => `${w.name} pid ${String(w.child.pid)}`).join(', ')}),
the webhook processor at ${queue.webhook.url} (production webhooks: ${queue.webhook.url}webhook/paykit-order).
Postgres login: user ${login.DB_POSTGRESDB_USER}, password ${login.DB_POSTGRESDB_PASSWORD}, database ${login.DB_POSTGRESDB_DATABASE}, port ${String(queue.postgres.port)}:
  PGPASSWORD=${login.DB_POSTGRESDB_PASSWORD} psql -h 127.0.0.1 -p ${String(queue.postgres.port)} -U ${login.DB_POSTGRESDB_USER} ${login.DB_POSTGRESDB_DATABASE}
Backup (while it runs, or not): npm run n8n -- --queue --postgres-port ${String(queue.postgres.port)} --backup <dir>
Restore (stopped): npm run n8n -- --queue --postgres-port ${String(queue.postgres.port)} --restore <dir>`
  }
Ctrl-C stops n8n and the sandbox.`
}
