/**
 * One regular-mode stack (tools/n8n/stack.ts) for the real-n8n suites whose subject is not a
 * start, a restart or a crash: `sharedStack.test.ts` runs them one after another. The first
 * lease starts the stack; each lease waits until the last suite's order events are delivered,
 * empties the shop's tables and the mailbox and publishes the suite's example workflows; each
 * release unpublishes every workflow the suite left published. A stack start is ~34 CPU-s.
 *
 * What carries over from suite to suite: n8n's database, executions and logs, the credentials'
 * tokens, and the sandbox with its orders and its clock. A suite that needs those new (one that
 * counts executions from zero, edits a credential, puts a proxy in front of the sandbox) or
 * whose subject is a start, a restart or a crash keeps a stack of its own.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { spawn } from 'node:child_process'
import { ensureShopTables } from '@paykit/tools/n8n/shop'
import {
  claimTableSql,
  publishExample,
  shopTablesSql,
  startStack,
  tablesOf,
  waitPublished,
  type PublishedWorkflow,
  type Stack,
} from '@paykit/tools/n8n/stack'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

interface Shared {
  readonly stack: Promise<Stack>
  leased: boolean
}

let shared: Shared | undefined
/** The running stack's user folder (removed with it). */
let startedFolder: string | undefined

// -------------------------------------------------------------------------------------
// leases
// -------------------------------------------------------------------------------------

/** The sandbox options of every file that leases it (template 2's test reads 100,000 requests back). */
const SANDBOX_ARGS = ['--request-log-size', '100000']

/**
 * The shop as a new stack has it: its tables emptied and the notes' rows (settings, catalog)
 * written again, and the mailbox emptied, so that a file counts its own sales and mails.
 */
const resetShop = async (stack: Stack): Promise<void> => {
  const sql = `${shopTablesSql()}\n${claimTableSql()}`
  const db = stack.shop.client()
  await db.connect()
  try {
    await db.query(`TRUNCATE ${tablesOf(sql).join(', ')} RESTART IDENTITY CASCADE`)
  } finally {
    await db.end()
  }
  await ensureShopTables(stack.shop, sql)
  await stack.mail.clear()
}

/** How long the sandbox's deliveries must stay unchanged, none waiting to retry, to be done. */
const QUIET_MS = 1_500

/**
 * Resolves once the sandbox has no order event left to deliver: the last file's events, sent
 * to triggers it had published (or had not), would otherwise reach the next file's (a late
 * `order.paid` started the example's trigger for an order of another file).
 */
const deliveriesDone = async (stack: Stack, timeoutMs = 60_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  let last = -1
  let since = Date.now()
  for (;;) {
    const deliveries = (await (
      await fetch(`${stack.sandboxUrl}/__sandbox/deliveries`)
    ).json()) as ReadonlyArray<{ eventId: string; url: string; willRetry: boolean }>
    const latest = new Map<string, boolean>()
    for (const d of deliveries) latest.set(`${d.eventId} ${d.url}`, d.willRetry)
    const retrying = [...latest.values()].some(Boolean)
    if (deliveries.length !== last || retrying) {
      last = deliveries.length
      since = Date.now()
    } else if (Date.now() - since >= QUIET_MS) return
    if (Date.now() > deadline)
      throw new Error(`the sandbox still delivers order events after ${timeoutMs / 1000} s`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** The ids of the workflows n8n has published. */
const publishedIds = async (stack: Stack): Promise<ReadonlyArray<string>> => {
  const answer = (await stack.rest('/workflows')) as {
    data: ReadonlyArray<{ id: string; active?: boolean }>
  }
  return answer.data.filter((w) => w.active === true).map((w) => w.id)
}

/**
 * The shared stack for one suite, once the last suite's order events are delivered, with the
 * shop's tables and the mailbox as new and the example workflows `publish` published (by file
 * name): its `stop` releases it, the workflows the suite left published unpublished.
 */
export const leaseSharedStack = async (
  options: { readonly publish: ReadonlyArray<string> } = { publish: [] },
): Promise<Stack> => {
  if (shared?.leased === true) throw new Error('the shared stack is leased by another suite')
  shared ??= { stack: startStack({ publish: [], sandboxArgs: SANDBOX_ARGS }), leased: false }
  shared.leased = true
  const current = shared
  const stack = await current.stack
  startedFolder = stack.userFolder
  await deliveriesDone(stack)
  await resetShop(stack)
  const before = new Set(await publishedIds(stack))
  const published: Array<PublishedWorkflow> = []
  for (const file of options.publish) {
    const workflow = await publishExample(stack.rest, file, true)
    if (workflow !== undefined) published.push(workflow)
  }
  await Promise.all(published.map(({ id }) => waitPublished(stack.rest, id)))
  const release = async () => {
    try {
      for (const id of await publishedIds(stack))
        if (!before.has(id)) await stack.rest(`/workflows/${id}/deactivate`, { method: 'POST' })
    } finally {
      current.leased = false
    }
  }
  return { ...stack, published, stop: release }
}

/** Stops the shared stack, if one was started (at the end of `sharedStack.test.ts`). */
export const stopSharedStack = async (): Promise<void> => {
  const current = shared
  if (current === undefined) return
  const stack = await current.stack.catch(() => undefined)
  await stack?.stop()
  shared = undefined
  startedFolder = undefined
}

// -------------------------------------------------------------------------------------
// the worker's end
// -------------------------------------------------------------------------------------

/** The processes below this one (the stack's, detached into groups of their own). */
const descendants = (): ReadonlyArray<{ pid: number; args: Array<string> }> => {
  const parent = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry)
    if (!Number.isInteger(pid)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      parent.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {
      // gone meanwhile
    }
  }
  const below = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p))
      if (p === process.pid) return true
    return false
  }
  return [...parent.keys()].filter(below).map((pid) => {
    let args: Array<string> = []
    try {
      args = readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8').split('\0')
    } catch {
      // gone meanwhile
    }
    return { pid, args }
  })
}

/**
 * When the worker ends before `stopSharedStack` (a suite's hook timed out; vitest sends
 * SIGTERM, then SIGKILL half a second later): every process below it killed at once, and n8n's
 * and Postgres's temporary folders removed by a detached `rm`. Nothing of the stack outlives
 * the run.
 */
const killNow = () => {
  if (shared === undefined) return
  const folders = new Set<string>(startedFolder === undefined ? [] : [startedFolder])
  for (const { pid, args } of descendants()) {
    const dataDir = args.includes('-D') ? args[args.indexOf('-D') + 1] : undefined
    // The cluster's folder is in one of its own (paykit-shop-*, or paykit-postgres-data-* as root).
    if (dataDir !== undefined && basename(dirname(dataDir)).startsWith('paykit-'))
      folders.add(dirname(dataDir))
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // gone meanwhile
    }
  }
  if (folders.size > 0)
    spawn('rm', ['-rf', ...folders], { detached: true, stdio: 'ignore' }).unref()
  shared = undefined
}

process.once('exit', killNow)
process.once('SIGTERM', () => {
  killNow()
  process.exit(143)
})
