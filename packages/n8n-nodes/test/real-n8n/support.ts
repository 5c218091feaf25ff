/**
 * What the real-n8n tests share: the stack of `npm run n8n` (tools/n8n/stack.ts: the
 * pinned full n8n, installed on first use, with the packed package installed as a community
 * package, and a sandbox), n8n's own data helpers, and headless Chromium.
 */
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export {
  N8N_DIR,
  N8N_VERSION,
  OWNER,
  WEBHOOK_SECRET,
  WORKFLOW_IDS,
  startStack,
  type CliResult,
  type Stack,
} from '@paykit/tools/n8n/stack'
// Headless Chromium as the testkit's browser tests launch it; the buyer's checkout payment.
export { launchChromium } from '@paykit/tools/lib/chromium'
export { signedInPage } from '@paykit/tools/n8n/editor'
export { payOnCheckoutPage } from '@paykit/testkit/buyer'
import { N8N_DIR, type Stack } from '@paykit/tools/n8n/stack'
import type { LoggedRequest } from '@paykit/testkit/service'

/** The sandbox's request log, oldest first (as long as its `--request-log-size`). */
export const sandboxRequests = async (
  stack: Pick<Stack, 'sandboxUrl'>,
): Promise<ReadonlyArray<LoggedRequest>> =>
  (await (await fetch(`${stack.sandboxUrl}/__sandbox/requests`)).json()) as Array<LoggedRequest>

/**
 * Where the editor screenshots go: this package's `docs/` (the README's pictures) when
 * `PAYKIT_UPDATE_SCREENSHOTS=1`, else one folder in the system's temp that each run
 * overwrites, so that a test run leaves the checkout's tracked files as they were.
 */
export const SCREENSHOTS_DIR: string =
  process.env['PAYKIT_UPDATE_SCREENSHOTS'] === '1'
    ? fileURLToPath(new URL('../../docs/', import.meta.url))
    : join(tmpdir(), 'paykit-screenshots')

/** n8n's own `flatted` (the format of `/rest/executions/<id>` data). */
export const parseFlatted = (text: string): unknown => {
  const require = createRequire(`${N8N_DIR}/node_modules/n8n/package.json`)
  return (require('flatted') as { parse: (text: string) => unknown }).parse(text)
}

/**
 * The JSON `n8n execute --rawOutput` prints, taken from stdout where n8n's log lines
 * surround it: the last top-level `{ ... }` block that parses.
 */
export const rawOutputOf = (stdout: string): Record<string, unknown> => {
  const lines = stdout.split('\n')
  for (let start = lines.length - 1; start >= 0; start--) {
    if (lines[start] !== '{') continue
    const end = lines.indexOf('}', start)
    if (end === -1) continue
    try {
      return JSON.parse(lines.slice(start, end + 1).join('\n')) as Record<string, unknown>
    } catch {
      // not the run data; keep looking
    }
  }
  throw new Error(`no JSON run data in n8n's output:\n${stdout.slice(-4000)}`)
}

/** An execution as n8n's `/rest/executions` lists it. */
export interface ExecutionSummary {
  readonly id: string
  readonly workflowId: string
  readonly status: string
  readonly mode: string
}

/** The executions of a workflow (the newest 100), as n8n lists them. */
export const executionsOfWorkflow = async (
  stack: Pick<Stack, 'rest'>,
  workflowId: string,
): Promise<ReadonlyArray<ExecutionSummary>> => {
  const filter = encodeURIComponent(JSON.stringify({ workflowId }))
  const answer = (await stack.rest(`/executions?filter=${filter}&limit=100`)) as {
    data: { results: ReadonlyArray<ExecutionSummary> }
  }
  return answer.data.results
}

/** The run data of an execution: its error, and node name -> items of an output. */
export const executionRunData = async (stack: Pick<Stack, 'rest'>, id: string) => {
  const answer = (await stack.rest(`/executions/${id}`)) as { data: { data: string } }
  const data = parseFlatted(answer.data.data) as {
    resultData: {
      runData: Record<
        string,
        ReadonlyArray<{ data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> } }>
      >
      error?: unknown
    }
  }
  return {
    error: data.resultData.error,
    /** Whether the node ran at all in this execution. */
    ran: (node: string) => data.resultData.runData[node] !== undefined,
    items: (node: string, output = 0) =>
      (data.resultData.runData[node]?.[0]?.data?.main[output] ?? []).map((i) => i.json),
  }
}

/**
 * Sets `ms` of latency on every `POST /paymentlink/checkout` of the stack's sandbox (so that a
 * worker killed mid-run has link requests in flight); resolves with the sandbox's status.
 */
export const linkLatency = async (stack: Pick<Stack, 'sandboxUrl'>, ms: number): Promise<number> =>
  (
    await fetch(`${stack.sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fault: 'latency', ms, path: '/paymentlink/checkout' }),
    })
  ).status

/** Clears every fault and latency of the stack's sandbox. */
export const clearFaults = async (stack: Pick<Stack, 'sandboxUrl'>): Promise<void> => {
  await fetch(`${stack.sandboxUrl}/__sandbox/faults`, { method: 'DELETE' })
}
