#!/usr/bin/env node
/**
 * `paykit-sandbox`: starts the sandbox server from the command line and prints
 * `listening on http://127.0.0.1:<port>` once it accepts requests. It stops on SIGINT and
 * SIGTERM, and, when a package runner started it (`npx`, `npm exec`, `npm run`,
 * `pnpm exec`) or with `--exit-with-parent`, when its parent process goes away: `npx`
 * runs it under `sh -c`, and a SIGTERM to `npx` ends `npx` and that shell but never
 * reached the sandbox, which went on listening as an orphan.
 *
 * @since 0.2.0
 */
import { parseArgs } from 'node:util'
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'
import { startSandbox, type SandboxOptions } from '../sandbox/startSandbox.js'

const USAGE = `Usage: paykit-sandbox [options]

A local sandbox of the card-payment service (API, 3DS frame, hosted checkout, webhooks).

Options:
  --port <n>              port to listen on (default 4010; 0 picks a free one)
  --host <address>        address to listen on (default 127.0.0.1)
  --base-url <url>        base URL used in hosted-page links (default the bound address)
  --webhook-url <url>     POST order events (order.paid, order.cancelled, order.finalized) here;
                          repeat it to send each event to several URLs (each with its own retries)
  --webhook-secret <s>    sign webhooks with this secret (header Paykit-Signature)
  --webhook-concurrency <n>
                          webhook requests in flight to one URL at most, the others in turn
                          (default: no limit)
  --control               serve the /__sandbox/ control endpoints (off by default), among them
                          POST /__sandbox/events/<id>/resend: that event again, freshly signed
  --client-id <id>        client id accepted by POST /token (default sandbox-client)
  --client-secret <s>     client secret accepted by POST /token (default sandbox-secret)
  --api-key <key>         API key accepted by the payment-link endpoints (default sandbox-api-key)
  --token-lifetime <s>    access-token lifetime in seconds (default 3600)
  --max-body-bytes <n>    largest request body; larger ones get 413 (default 1048576)
  --request-log-size <n>  requests kept by the request log, the latest (default 1000)
  --event-log-size <n>    order events kept, the latest (default 1000)
  --retention <s>         seconds an order (a token) is kept past its expiry; then GET is 404
                          (default 86400)
  --id-offset <n>         added to the number of every id and order code (default 0: evt_000001,
                          OC00001001); a larger one gives other ids than an earlier start did
  --exit-with-parent      stop when the process that started it exits (the default when a
                          package runner started it: npx, npm exec, npm run, pnpm exec);
                          --no-exit-with-parent keeps it running (nohup, a CI step's background)
  -h, --help              show this help
`

const fail = (message: string): never => {
  process.stderr.write(`paykit-sandbox: ${message}\n\n${USAGE}`)
  process.exit(2)
}

const integer = (name: string, value: string | undefined, min: number): number | undefined => {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isSafeInteger(n) || n < min) fail(`--${name} must be an integer >= ${min}`)
  return n
}

/**
 * The size V8's young generation (its new space, both semi-spaces) may grow to, in bytes.
 * Every order and token the sandbox keeps survives a few scavenges, and V8 then doubles
 * the new space up to its own maximum (128 MB on a 64-bit machine with a few GB): the RSS
 * of a long-running sandbox grew by a hundred MB while its live heap stayed at 10 MB.
 * Past 16 MB a larger new space saves no measurable CPU per request.
 */
const YOUNG_GENERATION_BYTES = 16 * 1024 * 1024
const YOUNG_GENERATION_CHECK_MS = 500

/**
 * Keeps the young generation at {@link YOUNG_GENERATION_BYTES}: V8 grows it by its growth
 * factor after a scavenge, so once it has reached the size the factor is 1 (no growth),
 * and back to V8's 2 should it have shrunk (an idle sandbox). Node takes no
 * `--max-semi-space-size` once running; the growth factor is read at every resize. Checked
 * twice a second (a `gc` PerformanceObserver cost more than the check: node builds an
 * entry with deprecated getters for every scavenge).
 */
const capYoungGeneration = (): void => {
  let capped = false
  const check = (): void => {
    const size = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size
    const full = size !== undefined && size >= YOUNG_GENERATION_BYTES
    if (full === capped) return
    capped = full
    setFlagsFromString(`--semi-space-growth-factor=${full ? 1 : 2}`)
  }
  check()
  setInterval(check, YOUNG_GENERATION_CHECK_MS).unref()
}

/** How often the parent is checked: a second (Linux gives no signal when a parent dies). */
const PARENT_CHECK_MS = 1000

/**
 * Whether a package runner started this process: npm, pnpm and yarn set
 * `npm_config_user_agent` for what they run (`npx`, `npm exec`, `npm run`, `pnpm exec`).
 * Such a runner is the sandbox's parent (through `sh -c`), and stopping it must stop the
 * sandbox.
 */
const startedByPackageRunner = (env: NodeJS.ProcessEnv): boolean =>
  typeof env['npm_config_user_agent'] === 'string' && env['npm_config_user_agent'] !== ''

/**
 * Calls `onGone` once the parent process has exited (the process is then re-parented, so
 * `process.ppid` changes). Nothing to watch when it is already an orphan at start.
 */
const watchParent = (onGone: (parent: number) => void): void => {
  const parent = process.ppid
  if (parent <= 1) return
  const timer = setInterval(() => {
    if (process.ppid === parent) return
    clearInterval(timer)
    onGone(parent)
  }, PARENT_CHECK_MS)
  timer.unref()
}

const main = async (): Promise<void> => {
  let parsed
  try {
    parsed = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'base-url': { type: 'string' },
        'webhook-url': { type: 'string', multiple: true },
        'webhook-secret': { type: 'string' },
        'webhook-concurrency': { type: 'string' },
        control: { type: 'boolean' },
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
        'api-key': { type: 'string' },
        'token-lifetime': { type: 'string' },
        'max-body-bytes': { type: 'string' },
        'request-log-size': { type: 'string' },
        'event-log-size': { type: 'string' },
        retention: { type: 'string' },
        'id-offset': { type: 'string' },
        'exit-with-parent': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
      allowNegative: true,
    })
  } catch (e) {
    return fail(e instanceof Error ? e.message : 'invalid arguments')
  }
  const v = parsed.values
  if (v.help === true) {
    process.stdout.write(USAGE)
    return
  }
  const port = integer('port', v.port, 0) ?? 4010
  if (port > 65535) fail('--port must be at most 65535')
  const tokenLifetime = integer('token-lifetime', v['token-lifetime'], 1)
  const maxBodyBytes = integer('max-body-bytes', v['max-body-bytes'], 1)
  const requestLogSize = integer('request-log-size', v['request-log-size'], 1)
  const eventLogSize = integer('event-log-size', v['event-log-size'], 1)
  const retention = integer('retention', v.retention, 0)
  const idOffset = integer('id-offset', v['id-offset'], 0)
  const webhookConcurrency = integer('webhook-concurrency', v['webhook-concurrency'], 1)
  const webhookUrls = v['webhook-url'] ?? []
  for (const url of webhookUrls)
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
      fail(`--webhook-url must be an http or https URL (got ${JSON.stringify(url)})`)
  const options: SandboxOptions = {
    port,
    ...(v.host === undefined ? {} : { host: v.host }),
    ...(v['base-url'] === undefined ? {} : { baseUrl: v['base-url'] }),
    ...(webhookUrls.length === 0 ? {} : { webhookUrl: webhookUrls }),
    ...(v['webhook-secret'] === undefined ? {} : { webhookSecret: v['webhook-secret'] }),
    ...(webhookConcurrency === undefined ? {} : { webhookConcurrency }),
    ...(v.control === true ? { control: true } : {}),
    ...(v['client-id'] === undefined ? {} : { clientId: v['client-id'] }),
    ...(v['client-secret'] === undefined ? {} : { clientSecret: v['client-secret'] }),
    ...(v['api-key'] === undefined ? {} : { apiKey: v['api-key'] }),
    ...(tokenLifetime === undefined ? {} : { tokenLifetimeSeconds: tokenLifetime }),
    ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
    ...(requestLogSize === undefined ? {} : { requestLogSize }),
    ...(eventLogSize === undefined ? {} : { eventLogSize }),
    ...(retention === undefined ? {} : { retentionSeconds: retention }),
    ...(idOffset === undefined ? {} : { idOffset }),
  }
  let sandbox
  try {
    sandbox = await startSandbox(options)
  } catch (e) {
    const code = (e as { readonly code?: unknown }).code
    return fail(
      code === 'EADDRINUSE'
        ? `port ${port} is already in use`
        : `cannot start: ${e instanceof Error ? e.message : String(e)}`,
    )
  }
  const running = sandbox
  capYoungGeneration()
  let stopping = false
  const stop = (): void => {
    if (stopping) return
    stopping = true
    void running.close().then(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  if (v['exit-with-parent'] ?? startedByPackageRunner(process.env))
    watchParent((parent) => {
      process.stderr.write(
        `paykit-sandbox: its parent process (${parent}) exited; stopping (--no-exit-with-parent keeps it running)\n`,
      )
      stop()
    })
  process.stdout.write(`listening on ${running.url}\n`)
}

void main()
