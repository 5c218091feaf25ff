/**
 * The shop's own database for the templates (their tables of invoices and orders): a
 * database `shop` beside n8n's. In queue mode it is on the stack's Postgres server (a
 * separate database); in regular mode (n8n on SQLite) on an embedded Postgres of its own,
 * kept in `<userFolder>/shop-postgres` (postgres.ts). Its tables are those of template 2's
 * sticky note _Tables_ (`CREATE TABLE IF NOT EXISTS`), created at each start when missing.
 */
import pg from 'pg'
import type { Postgres } from '@paykit/tools/n8n/postgres'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The database's name. */
export const SHOP_DATABASE = 'shop'

/** Where the shop's database is and a client of it (connect it, end it). */
export interface Shop {
  readonly host: string
  readonly port: number
  readonly user: string
  readonly password: string
  readonly database: typeof SHOP_DATABASE
  readonly client: () => pg.Client
}

/** A Postgres server's login (its `postgres` database is there to create others). */
export interface ServerLogin {
  readonly host: string
  readonly port: number
  readonly user: string
  readonly password: string
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** The login of a server the stack started (postgres.ts), from n8n's settings for it. */
export const serverLogin = (env: Readonly<Record<string, string>>): ServerLogin => ({
  host: env.DB_POSTGRESDB_HOST ?? '127.0.0.1',
  port: Number(env.DB_POSTGRESDB_PORT),
  user: env.DB_POSTGRESDB_USER ?? 'postgres',
  password: env.DB_POSTGRESDB_PASSWORD ?? '',
})

/** The same for a started server. */
export const loginOf = (server: Postgres): ServerLogin => serverLogin(server.n8nEnv)

/** Creates the database `shop` on the server unless there; the shop on it. */
export const ensureShop = async (server: ServerLogin): Promise<Shop> => {
  const admin = new pg.Client({ ...server, database: 'postgres' })
  await admin.connect()
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [SHOP_DATABASE])
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE ${SHOP_DATABASE}`)
  } finally {
    await admin.end()
  }
  return {
    ...server,
    database: SHOP_DATABASE,
    client: () => new pg.Client({ ...server, database: SHOP_DATABASE }),
  }
}

/** Runs the tables' SQL (`CREATE TABLE IF NOT EXISTS ...`) in the shop: the tables missing are created. */
export const ensureShopTables = async (shop: Shop, sql: string): Promise<Shop> => {
  const db = shop.client()
  await db.connect()
  try {
    await db.query(sql)
  } finally {
    await db.end()
  }
  return shop
}
