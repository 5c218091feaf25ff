/**
 * The simulator behind MSW (2 or 3): request handlers for every path and method under one base
 * URL (the API and the hosted 3DS and checkout pages), for `setupServer` in Node and
 * `setupWorker` in a browser, and webhook delivery to a handler as on the nock mock. No
 * Node built-in: the same module runs in both (a signed delivery takes its signer from the
 * caller).
 *
 * @since 0.2.0
 */
import { http, type HttpHandler } from 'msw'
import { makeLiveService, type LiveServiceOptions } from '../service/LiveService.js'
import { controlsOf, type ServiceControls } from '../service/ServiceControls.js'
import {
  makeWebhookOutboxWith,
  unsignedWebhook,
  type WebhookOutbox,
  type WebhookOutboxOptions,
  type WebhookSigner,
} from '../service/WebhookOutbox.js'
import { clockOf } from '../simulator/Clock.js'
import type { SimRequest, SimResponse } from '../simulator/Http.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Options of {@link paykitHandlers}: the simulator's options (`baseUrl` is the origin, and
 * optional path prefix, the handlers answer; client id and secret, API key, token
 * lifetime, ...) and the wall clock (`now`).
 *
 * @category model
 * @since 0.2.0
 */
export type PaykitHandlersOptions = LiveServiceOptions

/**
 * Options of {@link PaykitHandlers.webhooks}: the handler, the secret and the clock, as on
 * the nock mock, and `sign`, which a `secret` needs (`signedWebhook` from
 * `@paykit/testkit` in Node; this entry has no HMAC of its own, a browser has no
 * `node:crypto`).
 *
 * @category model
 * @since 0.2.0
 */
export interface MswWebhookOptions extends WebhookOutboxOptions {
  readonly sign?: WebhookSigner
}

/**
 * The handlers and the controls of the fake behind them (the same controls as the nock
 * mock and the sandbox). Control methods throw an `Error` saying why when the simulator
 * refuses (an unknown authentication id or order code, a result already recorded, ...).
 *
 * @category model
 * @since 0.2.0
 */
export interface PaykitHandlers extends ServiceControls {
  /** The MSW request handlers: give them to `setupServer(...)` or `setupWorker(...)`. */
  readonly handlers: ReadonlyArray<HttpHandler>
  /** The base URL the handlers answer on. */
  readonly baseUrl: string
  /**
   * An outbox delivering these handlers' webhook events to `options.handler`, with the
   * nock mock's controls; throws when `options.secret` comes without `options.sign`.
   */
  readonly webhooks: (options: MswWebhookOptions) => WebhookOutbox
  /** Back to the initial state: no tokens, orders, events, faults or request log. */
  readonly reset: () => void
  /** Answers every request held by a `hang` or a latency now, as a dropped connection. */
  readonly release: () => void
}

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * Longest a `hang` holds a request (unless the client gives up first): past any sensible
 * client timeout, yet bounded.
 *
 * @example
 * ```ts
 * import { MSW_HANG_MS } from '@paykit/testkit/msw'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(MSW_HANG_MS, 10 * 60 * 1000)
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const MSW_HANG_MS = 10 * 60 * 1000

/**
 * The page a browser test's web server answers for a navigation to a hosted page (the 3DS
 * frame, the checkout) under `baseUrl` on its own origin, for MSW 2. MSW 2's service worker
 * lets every navigation through to the network, so it never reaches the handlers (MSW 3's
 * worker hands navigations to the handlers: the server never sees them); this shell, loaded
 * in the navigated window (within the worker's scope, so the worker controls it), fetches
 * its own address through the worker and writes the answer in, and sends each form of the
 * page the same way (a form POST is a navigation too). The frame's message then comes from
 * the frame's window and origin, as with the sandbox.
 *
 * @example
 * ```ts
 * import { MSW_PAGE_SHELL } from '@paykit/testkit/msw'
 * import { createServer } from 'node:http'
 * import assert from 'node:assert/strict'
 *
 * // Beside the app and mockServiceWorker.js: every navigation to /paykit/... gets the shell.
 * const server = createServer((req, res) => {
 *   res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
 *   res.end(MSW_PAGE_SHELL)
 * })
 * await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
 * try {
 *   const { port } = server.address() as { port: number }
 *   const page = await fetch(`http://127.0.0.1:${port}/paykit/3ds/auth-1`)
 *   assert.equal(await page.text(), MSW_PAGE_SHELL) // then, in a browser, the frame itself
 * } finally {
 *   server.close()
 * }
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const MSW_PAGE_SHELL = `<!doctype html>
<html><head><meta charset="utf-8"><title>Loading</title></head><body><script>
(() => {
  const show = async (url, init) => {
    const html = await (await fetch(url, init)).text()
    document.open()
    document.write(html)
    document.close()
    // document.open() removed every listener: listen again on the new page.
    document.addEventListener('submit', submit)
  }
  const submit = (event) => {
    const form = event.target
    if (!(form instanceof HTMLFormElement)) return
    event.preventDefault()
    const fields = new URLSearchParams(new FormData(form, event.submitter))
    const url = new URL(form.getAttribute('action') || location.href, location.href)
    if (form.method === 'post') void show(url, { method: 'POST', body: fields })
    else void show(url.pathname + '?' + fields)
  }
  void show(location.href)
})()
</script></body></html>
`

// -------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------

const basePathOf = (url: URL): string => url.pathname.replace(/\/+$/, '')

const headersOf = (request: Request): Record<string, string> => {
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value
  })
  return headers
}

const simRequestOf = async (request: Request): Promise<SimRequest> => {
  const url = new URL(request.url)
  return {
    method: request.method.toUpperCase(),
    path: `${url.pathname}${url.search}`,
    headers: headersOf(request),
    body: request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text(),
  }
}

const responseOf = (
  response: SimResponse,
  body: string | ReadableStream<Uint8Array> = response.body,
): Response =>
  new Response(response.status === 204 || response.status === 304 ? null : body, {
    status: response.status,
    headers: response.headers,
  })

/**
 * A body that sends the first half of `text`'s bytes, then fails (the stream errors, as a
 * connection reset mid-body does): `Faults.truncatedPart`'s cut, without Node's Buffer.
 */
const truncatedStream = (text: string): ReadableStream<Uint8Array> => {
  const bytes = new TextEncoder().encode(text)
  const part = bytes.subarray(
    0,
    Math.min(Math.floor(bytes.length / 2), Math.max(bytes.length - 1, 0)),
  )
  let sent = false
  // The part on the first read, the failure on the next: the client gets the bytes first.
  return new ReadableStream({
    pull(controller) {
      if (sent) controller.error(new TypeError('response truncated: connection reset'))
      else controller.enqueue(part)
      sent = true
    },
  })
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * MSW request handlers answering with the simulator, and the controls to inspect and
 * steer it. Faults act as on a real connection: `connectionReset` is a network error
 * (`Response.error()`), `hang` holds the answer until the client gives up, `truncatedBody`
 * sends half the body and then fails the stream. Requests outside `baseUrl` match no
 * handler: MSW's `onUnhandledRequest` (MSW 2) or `onUnhandledFrame` (MSW 3) decides what
 * happens to them.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { createClient } from '@paykit/core'
 * import { defaultCredentials } from '@paykit/testkit'
 * import { paykitHandlers } from '@paykit/testkit/msw'
 * import { setupServer } from 'msw/node'
 * import assert from 'node:assert/strict'
 *
 * const paykit = paykitHandlers({ baseUrl: 'https://paykit.test' })
 * const server = setupServer(...paykit.handlers)
 * // MSW 2 names the option onUnhandledRequest, MSW 3 onUnhandledFrame: give both.
 * const strict = { onUnhandledRequest: 'error', onUnhandledFrame: 'error' } as const
 * server.listen(strict)
 * try {
 *   const client = createClient({ baseUrl: paykit.baseUrl, credentials: defaultCredentials })
 *   const link = await client.createPaymentLink({ amount: 19.99 })()
 *   assert.ok(E.isRight(link))
 *   paykit.payOrder(link.right.orderCode) // as the buyer on the hosted checkout
 *   const order = await client.getOrder(link.right.orderCode)()
 *   assert.ok(E.isRight(order) && order.right.orderStatus === 'PAID')
 *   assert.deepEqual(paykit.events().map((e) => e.type), ['order.paid'])
 * } finally {
 *   server.close()
 *   paykit.release()
 * }
 * ```
 *
 * @category constructors
 * @since 0.2.0
 */
export const paykitHandlers = (options: PaykitHandlersOptions): PaykitHandlers => {
  const base = new URL(options.baseUrl)
  const root = `${base.origin}${basePathOf(base)}`
  const service = makeLiveService(options)
  const wall = options.now ?? (() => new Date())
  const held = new Set<{
    readonly timer: ReturnType<typeof setTimeout>
    readonly release: () => void
  }>()

  /**
   * Waits `ms`, or until the client aborts or `release()`; true when cut short. A hang's
   * timer does not keep Node alive (`unref`, absent in a browser); a latency's does, so a
   * script awaiting a slow answer does not exit early.
   */
  const wait = (ms: number, signal: AbortSignal, keepAlive: boolean): Promise<boolean> =>
    new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => settle(false), ms),
        release: () => settle(true),
      }
      const settle = (cut: boolean): void => {
        clearTimeout(entry.timer)
        held.delete(entry)
        signal.removeEventListener('abort', entry.release)
        resolve(cut)
      }
      const timer = entry.timer as { unref?: () => void }
      if (!keepAlive) timer.unref?.()
      signal.addEventListener('abort', entry.release, { once: true })
      held.add(entry)
    })

  const answer = async (request: Request): Promise<Response> => {
    const { decision, response } = service.exchange(await simRequestOf(request))
    if (decision.latencyMs > 0 && (await wait(decision.latencyMs, request.signal, true)))
      return Response.error()
    switch (decision.failure?.kind) {
      case 'connectionReset':
        return Response.error()
      case 'hang':
        await wait(MSW_HANG_MS, request.signal, false)
        return Response.error()
      case 'truncatedBody':
        return responseOf(response, truncatedStream(response.body))
      default:
        return responseOf(response)
    }
  }

  return {
    // The base URL itself and everything below it, any method.
    handlers: [
      http.all(root === base.origin ? `${root}/` : root, ({ request }) => answer(request)),
      http.all(`${root}/*`, ({ request }) => answer(request)),
    ],
    baseUrl: options.baseUrl,
    ...controlsOf(service),
    // Signed on the simulator's clock over the handlers' wall clock, as in memory.
    webhooks: ({ sign, ...outbox }) => {
      if (sign === undefined && (outbox.secret ?? '') !== '')
        throw new Error(
          'webhooks: a secret needs sign (signedWebhook from @paykit/testkit in Node)',
        )
      return makeWebhookOutboxWith(sign ?? unsignedWebhook)(service, {
        now: () => clockOf(service.state(), wall()),
        ...outbox,
      })
    },
    reset: service.reset,
    release: () => {
      for (const entry of [...held]) entry.release()
    },
  }
}
