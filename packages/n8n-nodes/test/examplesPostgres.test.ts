/**
 * examples/orders-to-links-claimed-in-postgres.json through the real n8n engine, with n8n's
 * own Postgres node against a real Postgres (tools/n8n/postgres.ts) and the sandbox over
 * HTTP: each order is claimed in the shop's table before its link is requested, so a
 * re-run, or two runs at once, request no second link. (The same workflow survives a
 * queue-mode worker killed mid-run: test/real-n8n/queueCrash.test.ts.)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ICredentialType, IDataObject } from 'n8n-workflow'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '@paykit/testkit/sandbox'
import type { WorkflowJson } from '@paykit/testkit/n8n'
import { baseNodeTypes, runWorkflow } from '@paykit/testkit/n8n'
import { freePort } from '@paykit/tools/lib/freePort'
import { sandboxCredentials } from '@paykit/tools/n8n/credentials'
import { startPostgres, type Postgres } from '@paykit/tools/n8n/postgres'
import { dist, nodeTypes, useSandbox } from './support.js'

const EXAMPLE = 'orders-to-links-claimed-in-postgres.json'
const example = JSON.parse(
  readFileSync(new URL(`../examples/${EXAMPLE}`, import.meta.url), 'utf8'),
) as WorkflowJson

/** The claim table as the example's note gives it (taken from the note itself). */
const claimTable = (): string => {
  const note = (example.nodes as ReadonlyArray<{ name: string; parameters: IDataObject }>).find(
    (n) => n.name === 'Table',
  )
  const sql = /```sql\n([\s\S]*?)```/.exec(String(note?.parameters.content))?.[1]
  if (sql === undefined) throw new Error(`${EXAMPLE}: the Table note holds no SQL block`)
  return sql
}

const require = createRequire(join(fileURLToPath(new URL('..', import.meta.url)), 'package.json'))
const postgresCredential = (): ICredentialType => {
  const file = require.resolve('n8n-nodes-base/dist/credentials/Postgres.credentials.js')
  const { Postgres: Credential } = require(file) as { Postgres: new () => ICredentialType }
  return new Credential()
}

let sandbox: Sandbox
let postgres: Postgres
let shop: pg.Client
let folder: string
let login: { host: string; port: number; user: string; password: string }

beforeAll(async () => {
  sandbox = await useSandbox()
  folder = mkdtempSync(join(tmpdir(), 'paykit-claim-example-'))
  postgres = await startPostgres({ dataDir: join(folder, 'postgres'), port: await freePort() })
  const env = postgres.n8nEnv
  login = {
    host: '127.0.0.1',
    port: postgres.port,
    user: env.DB_POSTGRESDB_USER ?? '',
    password: env.DB_POSTGRESDB_PASSWORD ?? '',
  }
  const admin = postgres.client()
  await admin.connect()
  await admin.query('CREATE DATABASE shop')
  await admin.end()
  shop = new pg.Client({ ...login, database: 'shop' })
  await shop.connect()
  await shop.query(claimTable())
}, 180_000)

afterAll(async () => {
  await shop?.end()
  await postgres?.stop()
  await sandbox?.close()
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true })
}, 60_000)

/** Posts `orders` to the example's webhook, as n8n's Webhook node hands the body on. */
const post = (orders: ReadonlyArray<IDataObject>) =>
  runWorkflow({
    workflow: example,
    nodeTypes: { ...nodeTypes(), ...baseNodeTypes(['Postgres', 'StickyNote']) },
    credentialTypes: [new dist.credential.PaykitApi(), postgresCredential()],
    credentials: {
      ...sandboxCredentials({ baseUrl: sandbox.url }),
      'shop-postgres': {
        type: 'postgres',
        name: 'Shop database',
        data: { ...login, database: 'shop', ssl: 'disable', sshTunnel: false, maxConnections: 5 },
      },
    },
    input: [{ json: { headers: {}, params: {}, query: {}, body: { orders } } }],
  })

const claims = async (prefix: string) =>
  (
    await shop.query<{ order_reference: string; status: string; order_code: string | null }>(
      'SELECT order_reference, status, order_code FROM payment_link_claim WHERE order_reference LIKE $1 ORDER BY order_reference',
      [`${prefix}%`],
    )
  ).rows

const linksFor = (prefix: string) =>
  Object.values(sandbox.state().orders).filter((o) =>
    String(o.orderReference ?? '').startsWith(prefix),
  )

describe(`examples/${EXAMPLE}`, () => {
  it('claims each order, creates its link and records the order code; a re-run requests none', async () => {
    const orders = [
      { orderReference: 'A-1', amount: 25.5 },
      { orderReference: 'A-2', amount: 10 },
      { orderReference: 'A-3', lineItems: [{ sku: 'MUG-LOGO', quantity: 2 }] },
    ]
    const first = await post(orders)
    expect(first.error).toBeUndefined()
    const rows = await claims('A-')
    expect(rows.map((r) => [r.order_reference, r.status])).toEqual([
      ['A-1', 'linked'],
      ['A-2', 'linked'],
      ['A-3', 'linked'],
    ])
    const links = linksFor('A-')
    expect(links).toHaveLength(3)
    expect(rows.map((r) => r.order_code).sort()).toEqual(links.map((l) => l.orderCode).sort())

    const again = await post(orders)
    expect(again.error).toBeUndefined()
    expect(linksFor('A-')).toHaveLength(3)
    expect(again.nodes['Create Payment Links']).toBeUndefined()
  }, 60_000)

  it('two runs at once with overlapping orders: each order linked once', async () => {
    const batch = (from: number) =>
      Array.from({ length: 20 }, (_, i) => ({
        orderReference: `B-${String(from + i).padStart(3, '0')}`,
        amount: 12,
      }))
    const results = await Promise.all([post(batch(0)), post(batch(10)), post(batch(0))])
    expect(results.map((r) => r.error)).toEqual([undefined, undefined, undefined])
    const perReference = new Map<string, number>()
    for (const o of linksFor('B-'))
      perReference.set(
        String(o.orderReference),
        (perReference.get(String(o.orderReference)) ?? 0) + 1,
      )
    expect(perReference.size).toBe(30)
    expect([...perReference.values()].every((n) => n === 1)).toBe(true)
    expect((await claims('B-')).every((r) => r.status === 'linked')).toBe(true)
  }, 60_000)

  it('an order without an orderReference is skipped (nothing to claim), the others linked', async () => {
    const result = await post([{ amount: 5 }, { orderReference: 'C-1', amount: 5 }])
    expect(result.error).toBeUndefined()
    expect(linksFor('C-')).toHaveLength(1)
    expect(await claims('C-')).toEqual([
      expect.objectContaining({ order_reference: 'C-1', status: 'linked' }),
    ])
  }, 60_000)
})
