/**
 * One regular-mode stack (tools/n8n/stack.ts) for the real-n8n files whose subject is not a
 * start: a file whose first line is `// @paykit-test shared-stack: <why>` runs in the project
 * `n8n-nodes-shared-stack` (vitest.workspace.ts), whose files run one after another in one
 * worker that keeps this module's state. The first file's lease starts the stack; each lease
 * publishes the file's example workflows, and its release unpublishes every workflow the file
 * left published, so that the next file finds only its own. A stack start is ~34 CPU-s, most
 * of a short file's cost.
 *
 * Each file still has its own workflows, webhook paths and orders; what it shares is n8n's
 * database and logs, the sandbox, the shop's tables and the mailbox, so a file that counts
 * those from zero, edits a credential, moves the sandbox's clock or whose subject is a start,
 * restart or crash keeps a stack of its own.
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

/** How long the stack outlives a release when no file leases it again. */
const IDLE_MS = 60_000

interface Shared {
  readonly stack: Promise<Stack>
  leased: boolean
  stopping: boolean
  idle: ReturnType<typeof setTimeout> | undefined
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
 * The shared stack with the example workflows `publish` published (by file name), for one
 * file, once the last file's order events are delivered, with the shop's tables and the
 * mailbox as new: its `stop` releases it (the workflows it
 * left published unpublished), and stops it for real when no file leases it again within a
 * minute.
 */
export const leaseSharedStack = async (
  options: { readonly publish: ReadonlyArray<string> } = { publish: [] },
): Promise<Stack> => {
  if (shared?.leased === true) throw new Error('the shared stack is leased by another file')
  if (shared === undefined || shared.stopping)
    shared = {
      stack: startStack({ publish: [], sandboxArgs: SANDBOX_ARGS }),
      leased: false,
      stopping: false,
      idle: undefined,
    }
  clearTimeout(shared.idle)
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
    for (const id of await publishedIds(stack))
      if (!before.has(id)) await stack.rest(`/workflows/${id}/deactivate`, { method: 'POST' })
    current.leased = false
    current.idle = setTimeout(() => {
      current.stopping = true
      void stack.stop().finally(() => {
        if (shared !== current) return
        shared = undefined
        startedFolder = undefined
      })
    }, IDLE_MS)
  }
  return { ...stack, published, stop: release }
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
 * When vitest ends the worker (SIGTERM, then SIGKILL half a second later) before the idle
 * minute is over: every process below it killed at once, and n8n's and Postgres's temporary
 * folders removed by a detached `rm`. Nothing of the stack outlives the run.
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
