/**
 * A merchant's webhook endpoint for tests and demos: an HTTP server on 127.0.0.1 that keeps
 * every request it receives (headers and raw body) and answers with a chosen status.
 *
 * @since 0.2.0
 */
import { Buffer } from 'node:buffer'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A request the receiver got: its path, headers and body (raw, and as UTF-8 text).
 *
 * @category model
 * @since 0.2.0
 */
export interface CapturedWebhook {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly rawBody: Buffer
  readonly body: string
}

/**
 * Options of `startWebhookReceiver`.
 *
 * @category model
 * @since 0.2.0
 */
export interface WebhookReceiverOptions {
  /** The path of `url` (default `/webhooks`); a request to any path is kept. */
  readonly path?: string
  /** The port (default 0: a free one). */
  readonly port?: number
  /** The status to answer the `n`-th request with (`n` from 1; default 204). */
  readonly answer?: (webhook: CapturedWebhook, n: number) => number
}

/**
 * A running receiver.
 *
 * @category model
 * @since 0.2.0
 */
export interface WebhookReceiver {
  /** Where to send webhooks: `http://127.0.0.1:<port><path>`. */
  readonly url: string
  readonly port: number
  /** Every request so far, in arrival order (the same array, growing). */
  readonly received: ReadonlyArray<CapturedWebhook>
  /** The first request (kept or to come) that `matches`; rejects after `timeoutMs` (5 s). */
  readonly waitFor: (
    matches?: (webhook: CapturedWebhook) => boolean,
    timeoutMs?: number,
  ) => Promise<CapturedWebhook>
  readonly close: () => Promise<void>
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Starts a webhook receiver on 127.0.0.1.
 *
 * @example
 * ```ts
 * import { defaultCredentials } from '@paykit/testkit'
 * import { startSandbox, startWebhookReceiver } from '@paykit/testkit/sandbox'
 * import assert from 'node:assert/strict'
 *
 * const receiver = await startWebhookReceiver()
 * const sandbox = await startSandbox({ webhookUrl: receiver.url, webhookSecret: 'whsec' })
 * try {
 *   const link = await fetch(`${sandbox.url}/paymentlink/checkout`, {
 *     method: 'POST',
 *     headers: {
 *       authorization: `Bearer ${defaultCredentials.apiKey}`,
 *       'content-type': 'application/json',
 *     },
 *     body: JSON.stringify({ amount: 9.5 }),
 *   }).then((r) => r.json() as Promise<{ orderCode: string }>)
 *   sandbox.payOrder(link.orderCode)
 *   const paid = await receiver.waitFor((w) => w.body.includes(link.orderCode))
 *   assert.equal(JSON.parse(paid.body).type, 'order.paid')
 *   assert.equal(typeof paid.headers['paykit-signature'], 'string')
 * } finally {
 *   await sandbox.close()
 *   await receiver.close()
 * }
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const startWebhookReceiver = async (
  options: WebhookReceiverOptions = {},
): Promise<WebhookReceiver> => {
  const received: Array<CapturedWebhook> = []
  const waiting = new Set<(webhook: CapturedWebhook) => void>()
  const answer = options.answer ?? (() => 204)
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks)
      const webhook = {
        path: req.url ?? '/',
        headers: req.headers,
        rawBody,
        body: rawBody.toString('utf8'),
      }
      received.push(webhook)
      res.writeHead(answer(webhook, received.length)).end()
      for (const notify of [...waiting]) notify(webhook)
    })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const waitFor = (
    matches: (webhook: CapturedWebhook) => boolean = () => true,
    timeoutMs = 5_000,
  ): Promise<CapturedWebhook> => {
    const kept = received.find(matches)
    if (kept !== undefined) return Promise.resolve(kept)
    return new Promise((resolve, reject) => {
      const notify = (webhook: CapturedWebhook): void => {
        if (!matches(webhook)) return
        clearTimeout(timer)
        waiting.delete(notify)
        resolve(webhook)
      }
      const timer = setTimeout(() => {
        waiting.delete(notify)
        reject(new Error(`no matching webhook within ${timeoutMs} ms (${received.length} kept)`))
      }, timeoutMs)
      waiting.add(notify)
    })
  }
  return {
    url: `http://127.0.0.1:${port}${options.path ?? '/webhooks'}`,
    port,
    received,
    waitFor,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
