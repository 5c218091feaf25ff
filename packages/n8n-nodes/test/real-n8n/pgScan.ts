/**
 * Card data in a PostgreSQL cluster, wherever Postgres keeps it: its tables as SQL reads
 * them, its data folder's files and its write-ahead log (WAL). Postgres compresses a large
 * value with pglz (inline in its row, or split into chunks of a TOAST table), so a grep of
 * the files misses it: every compressed value found is decompressed before searching.
 *
 * The WAL is read twice: its records as Postgres decodes them (`pg_walinspect`, shipped
 * with the server: block data and full-page images, holes filled), and its files' pages
 * with their headers removed (segments Postgres recycled but has not yet overwritten).
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import type pg from 'pg'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The card searched for. */
export interface Card {
  readonly number: string
  readonly cvv: string
  readonly expirationMonth: string
  readonly expirationYear: string
}

/** How often each piece of card data occurs in one text. */
export interface CardHits {
  /** The number as it is, or in groups of four split by spaces or dashes. */
  readonly number: number
  /** The CVV where a key names it or the number is within 300 characters. */
  readonly cvv: number
  /** Occurrences of the number with the expiry (month and year) within 300 characters. */
  readonly expiryWithNumber: number
}

/** Where card data was looked for. */
export type Place =
  | 'tables'
  | 'data files, raw'
  | 'data files, decompressed'
  | 'WAL files, raw'
  | 'WAL records'
  | 'WAL, decompressed'

/** Card data found in one place: a row, a file, a WAL record, a decompressed value. */
export interface Finding {
  readonly place: Place
  readonly where: string
  readonly hits: CardHits
}

/** What one scan read, and the card data it found. */
export interface ScanReport {
  readonly findings: ReadonlyArray<Finding>
  /** How much was read in each place (rows, files, records, values). */
  readonly read: Readonly<Record<Place, number>>
}

/** The compression method bits of a compressed datum (`va_tcinfo`'s top two). */
const PGLZ = 0
/** PostgreSQL's page size (`BLCKSZ`), the same for data pages and WAL pages here. */
const PAGE = 8192

// -------------------------------------------------------------------------------------
// pglz
// -------------------------------------------------------------------------------------

let scratch = Buffer.alloc(1 << 16)

/**
 * Decompresses a pglz stream as PostgreSQL's `pglz_decompress` (src/common/pg_lzcompress.c)
 * does: a control byte then eight items, each a literal byte or a 2-3 byte back-reference
 * (length 3-273, offset 1-4095) into what was already written. `undefined` when the stream
 * is corrupt or, with `complete`, when it does not fill `rawSize` exactly and end there.
 * Without `complete`, a stream cut short (a TOAST value missing its last chunks) gives what
 * it decodes to.
 */
export const pglzDecompress = (
  source: Uint8Array,
  rawSize: number,
  complete = true,
): Buffer | undefined => {
  // Most candidates of `compressedDatums` are not streams: one buffer, copied on success.
  if (scratch.length < rawSize) scratch = Buffer.alloc(rawSize)
  const out = scratch
  let sp = 0
  let dp = 0
  decoding: while (sp < source.length && dp < rawSize) {
    let control = source[sp++] as number
    for (let item = 0; item < 8 && sp < source.length && dp < rawSize; item++) {
      if ((control & 1) === 1) {
        if (sp + 2 > source.length) {
          if (complete) return undefined
          break decoding
        }
        const tag = source[sp] as number
        let length = (tag & 0x0f) + 3
        const offset = ((tag & 0xf0) << 4) | (source[sp + 1] as number)
        sp += 2
        if (length === 18) {
          if (sp >= source.length) {
            if (complete) return undefined
            break decoding
          }
          length += source[sp++] as number
        }
        if (offset === 0 || offset > dp) return undefined
        length = Math.min(length, rawSize - dp)
        // Byte by byte: the copy may overlap what it writes (a run repeats itself).
        for (let i = 0; i < length; i++, dp++) out[dp] = out[dp - offset] as number
      } else {
        out[dp++] = source[sp++] as number
      }
      control >>= 1
    }
  }
  if (complete && (dp !== rawSize || sp !== source.length)) return undefined
  return Buffer.from(out.subarray(0, dp))
}

/**
 * Every pglz-compressed datum stored inline in `bytes` (a row, a page, WAL record data),
 * decompressed: at any offset, a 4-byte varlena header marked compressed whose size fits,
 * then `va_tcinfo` (raw size, method pglz), then a stream that decompresses to exactly that
 * raw size. A datum of another method is not recognised (the scan refuses lz4 clusters).
 */
export const compressedDatums = (bytes: Uint8Array): ReadonlyArray<Buffer> => {
  const found: Array<Buffer> = []
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let at = 0; at + 9 <= bytes.length; at++) {
    // VARATT_IS_4B_C on a little-endian machine: the low two bits of the header are 10.
    if (((bytes[at] as number) & 0x03) !== 0x02) continue
    const size = view.getUint32(at, true) >>> 2
    if (size < 9 || at + size > bytes.length) continue
    const tcinfo = view.getUint32(at + 4, true)
    const rawSize = tcinfo & 0x3fffffff
    // pglz keeps its result only when it is smaller than the value, and one control byte
    // and eight back-references of 3 bytes give at most 8 x 273 bytes.
    const stream = size - 8
    if (tcinfo >>> 30 !== PGLZ || rawSize <= stream || rawSize > Math.ceil(stream / 25) * 2184)
      continue
    const value = pglzDecompress(bytes.subarray(at + 8, at + size), rawSize)
    if (value !== undefined) {
      found.push(value)
      at += size - 1
    }
  }
  return found
}

// -------------------------------------------------------------------------------------
// heap pages and TOAST chunks
// -------------------------------------------------------------------------------------

/** The tuples of a heap page's normal line pointers (none when `page` is not a heap page). */
export const pageTuples = (page: Uint8Array): ReadonlyArray<Uint8Array> => {
  if (page.length !== PAGE) return []
  const view = new DataView(page.buffer, page.byteOffset, page.byteLength)
  const lower = view.getUint16(12, true)
  const upper = view.getUint16(14, true)
  const special = view.getUint16(16, true)
  // pd_pagesize_version: the page size in the high byte, layout version 4 in the low one.
  if (view.getUint16(18, true) !== (PAGE | 4)) return []
  if (lower < 24 || lower > upper || upper > special || special > PAGE) return []
  const tuples: Array<Uint8Array> = []
  for (let lp = 24; lp + 4 <= lower; lp += 4) {
    const word = view.getUint32(lp, true)
    const offset = word & 0x7fff
    const flags = (word >>> 15) & 0x03
    const length = word >>> 17
    // LP_NORMAL; a heap tuple's header is 23 bytes.
    if (flags === 1 && length >= 23 && offset + length <= PAGE)
      tuples.push(page.subarray(offset, offset + length))
  }
  return tuples
}

/** A TOAST table's row: the value it is part of, its place in it and its bytes. */
export interface ToastChunk {
  readonly valueId: number
  readonly seq: number
  readonly data: Uint8Array
}

/**
 * The TOAST row `(chunk_id oid, chunk_seq int4, chunk_data bytea)` whose attributes start
 * at `attributes` (the tuple's `t_hoff`), or `undefined` when the bytes are not one.
 */
const toastChunkAt = (bytes: Uint8Array, attributes: number): ToastChunk | undefined => {
  if (attributes + 9 > bytes.length) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const valueId = view.getUint32(attributes, true)
  const seq = view.getInt32(attributes + 4, true)
  const header = bytes[attributes + 8] as number
  let start: number
  let end: number
  if ((header & 0x01) === 0x01) {
    // a 1-byte varlena header: the length (header included) in its top seven bits
    start = attributes + 9
    end = attributes + 8 + (header >>> 1)
  } else if ((header & 0x03) === 0x00) {
    if (attributes + 12 > bytes.length) return undefined
    start = attributes + 12
    end = attributes + 8 + (view.getUint32(attributes + 8, true) >>> 2)
  } else return undefined
  if (seq < 0 || end < start || end > bytes.length) return undefined
  return { valueId, seq, data: bytes.subarray(start, end) }
}

/** The TOAST row of a heap tuple (a page's, or one rebuilt from WAL). */
export const toastChunkOfTuple = (tuple: Uint8Array): ToastChunk | undefined => {
  if (tuple.length < 24) return undefined
  // t_infomask2's low 11 bits: the number of attributes; t_hoff: where they start.
  const natts = ((tuple[18] as number) | ((tuple[19] as number) << 8)) & 0x07ff
  return natts === 3 ? toastChunkAt(tuple, tuple[22] as number) : undefined
}

/**
 * The TOAST row in a heap INSERT record's block data: `xl_heap_header` (t_infomask2,
 * t_infomask, t_hoff: 5 bytes), then the tuple from byte 23 of its header on.
 */
export const toastChunkOfInsert = (data: Uint8Array): ToastChunk | undefined => {
  if (data.length < 5) return undefined
  const natts = ((data[0] as number) | ((data[1] as number) << 8)) & 0x07ff
  const hoff = data[4] as number
  return natts === 3 && hoff >= 23 ? toastChunkAt(data, 5 + hoff - 23) : undefined
}

/**
 * The values of a TOAST table rebuilt from its chunks, wherever they were found: chunks of
 * one value in `seq` order from 0 while they follow on, decompressed when the value was
 * compressed (it then starts with its `va_tcinfo`), as stored otherwise.
 */
export const toastValues = (
  chunks: ReadonlyMap<string, ReadonlyMap<number, Uint8Array>>,
): ReadonlyArray<{ readonly key: string; readonly value: Buffer }> =>
  [...chunks].flatMap(([key, bySeq]) => {
    const parts: Array<Uint8Array> = []
    for (let seq = 0; bySeq.has(seq); seq++) parts.push(bySeq.get(seq) as Uint8Array)
    if (parts.length === 0) return []
    const stored = Buffer.concat(parts)
    const values: Array<{ key: string; value: Buffer }> = [{ key, value: stored }]
    if (stored.length > 4) {
      const tcinfo = stored.readUInt32LE(0)
      const value =
        tcinfo >>> 30 === PGLZ
          ? pglzDecompress(stored.subarray(4), tcinfo & 0x3fffffff, false)
          : undefined
      if (value !== undefined && value.length > 0) values.push({ key, value })
    }
    return values
  })

// -------------------------------------------------------------------------------------
// search
// -------------------------------------------------------------------------------------

/** The number as it is, or in groups of four split by spaces or by dashes. */
const numberIn = (digits: string) => {
  const groups = digits.match(/.{1,4}/g) ?? [digits]
  return new RegExp(`(?<![0-9])(?:${digits}|${groups.join(' ')}|${groups.join('-')})(?![0-9])`, 'g')
}
const exactly = (digits: string, flags = '') => new RegExp(`(?<![0-9])${digits}(?![0-9])`, flags)
/** A key that names a CVV, just before it (`"cvv":"123"`, `cvc=123`, `Security Code: 123`). */
const CVV_KEY = /(?:cvv|cvc|csc|cvn|security.?code)\W{0,12}$/i

/**
 * The card's pieces in `text` (bytes read as latin1: digits are ASCII in UTF-8 too). A CVV
 * counts where a key names it or the number is within 300 characters: four digits alone
 * are any number (an amount, a port, a size).
 */
export const cardHits = (card: Card, text: string): CardHits => {
  const numbers = [...text.matchAll(numberIn(card.number))].map((m) => m.index)
  const nearNumber = (at: number) => numbers.some((n) => Math.abs(n - at) <= 300)
  const month = exactly(card.expirationMonth.padStart(2, '0'))
  const year = new RegExp(
    `(?<![0-9])(?:${card.expirationYear}|${card.expirationYear.slice(-2)})(?![0-9])`,
  )
  const expiryWithNumber = numbers.filter((at) => {
    const near = text.slice(Math.max(0, at - 300), at + card.number.length + 300)
    return month.test(near) && year.test(near)
  }).length
  const cvv = [...text.matchAll(exactly(card.cvv, 'g'))].filter(
    (m) => CVV_KEY.test(text.slice(Math.max(0, m.index - 40), m.index)) || nearNumber(m.index),
  ).length
  return { number: numbers.length, cvv, expiryWithNumber }
}

const anyHit = (h: CardHits) => h.number + h.cvv + h.expiryWithNumber > 0

/** The findings' hits added up per place (every place listed, 0 where none). */
export const hitsPerPlace = (report: ScanReport): Readonly<Record<Place, CardHits>> => {
  const sums = Object.fromEntries(
    Object.keys(report.read).map((p) => [p, { number: 0, cvv: 0, expiryWithNumber: 0 }]),
  ) as Record<Place, { number: number; cvv: number; expiryWithNumber: number }>
  for (const { place, hits } of report.findings) {
    sums[place].number += hits.number
    sums[place].cvv += hits.cvv
    sums[place].expiryWithNumber += hits.expiryWithNumber
  }
  return sums
}

/** Where the scan puts what it read and found. */
interface Findings {
  /**
   * Searches one text or one file's, row's or record's bytes; `decoded`, the same text
   * decoded, is searched too (each piece counted once: the larger count of the two).
   */
  readonly search: (
    place: Place,
    where: string,
    content: string | Uint8Array,
    decoded?: string,
  ) => void
  /** Searches a decompressed value once, however many copies of it were found. */
  readonly value: (place: Place, where: string, value: Uint8Array) => void
  readonly report: () => ScanReport
}

/** A text's decoded form (n8n's execution data: flatted), or `undefined` when it is not one. */
export type Decode = (text: string) => string | undefined

const max = (a: CardHits, b: CardHits): CardHits => ({
  number: Math.max(a.number, b.number),
  cvv: Math.max(a.cvv, b.cvv),
  expiryWithNumber: Math.max(a.expiryWithNumber, b.expiryWithNumber),
})

const findingsOf = (card: Card, decode: Decode): Findings => {
  const findings: Array<Finding> = []
  const read: Record<Place, number> = {
    tables: 0,
    'data files, raw': 0,
    'data files, decompressed': 0,
    'WAL files, raw': 0,
    'WAL records': 0,
    'WAL, decompressed': 0,
  }
  const seen = new Set<string>()
  const search = (place: Place, where: string, content: string | Uint8Array, decoded?: string) => {
    read[place]++
    const text = typeof content === 'string' ? content : Buffer.from(content).toString('latin1')
    const raw = cardHits(card, text)
    const hits = decoded === undefined ? raw : max(raw, cardHits(card, decoded))
    if (anyHit(hits)) findings.push({ place, where, hits })
  }
  return {
    search,
    value: (place, where, value) => {
      const key = `${place}:${createHash('sha1').update(value).digest('hex')}`
      if (seen.has(key)) return
      seen.add(key)
      search(place, where, value, decode(Buffer.from(value).toString('utf8')))
    },
    report: () => ({ findings, read }),
  }
}

// -------------------------------------------------------------------------------------
// the cluster
// -------------------------------------------------------------------------------------

/** Quotes an SQL identifier. */
const ident = (name: string) => `"${name.replace(/"/g, '""')}"`

/**
 * Every row of every table of the connected database (catalogs and TOAST tables too) as
 * SQL reads it: each column as text (and decoded), a bytea column's bytes as they are.
 */
const scanTables = async (db: pg.Client, found: Findings, decode: Decode): Promise<void> => {
  const tables = await db.query<{ oid: number; schema: string; name: string }>(
    `SELECT c.oid, n.nspname AS schema, c.relname AS name FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'm', 't')`,
  )
  for (const { oid, schema, name } of tables.rows) {
    const columns = await db.query<{ name: string; bytea: boolean }>(
      `SELECT attname AS name, atttypid = 'bytea'::regtype AS bytea FROM pg_attribute
        WHERE attrelid = $1 AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
      [oid],
    )
    if (columns.rows.length === 0) continue
    const select = columns.rows
      .map((c, i) => `${ident(c.name)}${c.bytea ? '' : '::text'} AS c${String(i)}`)
      .join(', ')
    const rows = await db.query<Record<string, string | Buffer | null>>(
      `SELECT ${select} FROM ${ident(schema)}.${ident(name)}`,
    )
    rows.rows.forEach((row, i) => {
      const texts = columns.rows.map((_, j) => {
        const value = row[`c${String(j)}`]
        if (value === null || value === undefined) return ''
        return Buffer.isBuffer(value) ? value.toString('latin1') : value
      })
      const decoded = texts.map((text) => decode(text) ?? text)
      found.search(
        'tables',
        `${schema}.${name} row ${String(i)}`,
        texts.join('\t'),
        decoded.join('\t'),
      )
    })
  }
}

/** Every file under `dir`, with its path. */
const filesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path, { throwIfNoEntry: false })?.isFile() === true)

/**
 * The connected database's relations by file, `<database oid>/<file node>`: their names
 * (a TOAST table's as its table's) and whether they are TOAST tables.
 */
type Relations = ReadonlyMap<string, { readonly name: string; readonly toast: boolean }>

/** A file or a WAL block's relation, by name when it is one of the database's. */
const named = (relations: Relations, relation: string) => {
  const known = relations.get(relation)
  return known === undefined ? relation : `${relation} (${known.name})`
}

/** `<toast relation file node>:<chunk_id>` -> chunks by seq. */
type ToastChunks = Map<string, Map<number, Uint8Array>>

const addChunk = (chunks: ToastChunks, relation: string, chunk: ToastChunk | undefined) => {
  if (chunk === undefined) return
  const key = `${relation}:${String(chunk.valueId)}`
  const bySeq = chunks.get(key) ?? new Map<number, Uint8Array>()
  bySeq.set(chunk.seq, chunk.data)
  chunks.set(key, bySeq)
}

/**
 * The data folder's files but the WAL: each file raw, the compressed datums anywhere in
 * them, and the TOAST tables' values rebuilt from their pages (dead rows included: they
 * stay on their pages until VACUUM, and their bytes until the space is reused).
 */
const scanDataFiles = (dataDir: string, relations: Relations, found: Findings): void => {
  const chunks: ToastChunks = new Map()
  for (const path of filesUnder(dataDir)) {
    if (relative(dataDir, path).startsWith('pg_wal')) continue
    // base/<database oid>/<file node>[.<segment>]; a TOAST table's main fork has no suffix.
    const relation = `${basename(dirname(path))}/${basename(path).replace(/\.\d+$/, '')}`
    const name = `${relative(dataDir, path)}${relations.has(relation) ? ` (${relations.get(relation)?.name ?? ''})` : ''}`
    const bytes = readFileSync(path)
    found.search('data files, raw', name, bytes)
    for (const value of compressedDatums(bytes))
      found.value('data files, decompressed', name, value)
    if (relations.get(relation)?.toast !== true) continue
    for (let page = 0; page + PAGE <= bytes.length; page += PAGE)
      for (const tuple of pageTuples(bytes.subarray(page, page + PAGE)))
        addChunk(chunks, relation, toastChunkOfTuple(tuple))
  }
  for (const { key, value } of toastValues(chunks))
    found.value('data files, decompressed', `TOAST value ${named(relations, key)}`, value)
}

/**
 * A WAL segment's pages with their headers removed, one stream per run of pages that carry
 * the cluster's page magic: a datum that goes on across a page boundary is whole again,
 * also in a segment Postgres recycled (its old pages stay until written again).
 */
const walStreams = (bytes: Uint8Array, magic: number): ReadonlyArray<Buffer> => {
  const streams: Array<Buffer> = []
  let run: Array<Uint8Array> = []
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let page = 0; page + PAGE <= bytes.length; page += PAGE) {
    if (view.getUint16(page, true) !== magic) {
      if (run.length > 0) streams.push(Buffer.concat(run))
      run = []
      continue
    }
    // XLP_LONG_HEADER (a segment's first page): 40 bytes, 24 otherwise.
    const header = (view.getUint16(page + 2, true) & 0x0002) !== 0 ? 40 : 24
    run.push(bytes.subarray(page + header, page + PAGE))
  }
  if (run.length > 0) streams.push(Buffer.concat(run))
  return streams
}

/**
 * The WAL: every record's block data and full-page image as Postgres decodes them, its
 * files raw (what a grep sees) and the datums compressed in their de-paged streams.
 */
const scanWal = async (
  db: pg.Client,
  walDir: string,
  schema: string,
  relations: Relations,
  found: Findings,
): Promise<void> => {
  const segments = readdirSync(walDir)
    .filter((name) => /^[0-9A-F]{24}$/.test(name))
    .sort()
  const first = segments[0]
  if (first === undefined) throw new Error(`no WAL segment in ${walDir}`)
  // Postgres's own decoding of every record from the oldest segment kept to the last one.
  const range = await db.query<{ start: string; end: string }>(
    `SELECT '0/0'::pg_lsn + (pg_split_walfile_name($1)).segment_number *
            (SELECT setting::numeric FROM pg_settings WHERE name = 'wal_segment_size') AS start,
            pg_current_wal_flush_lsn() AS end`,
    [first],
  )
  const { start, end } = range.rows[0] as { start: string; end: string }
  const blocks = await db.query<{
    lsn: string
    relation: string
    record: string
    data: Buffer | null
    image: Buffer | null
  }>(
    `SELECT start_lsn::text AS lsn, reldatabase || '/' || relfilenode AS relation,
            resource_manager || ' ' || record_type AS record,
            block_data AS data, block_fpi_data AS image
       FROM ${ident(schema)}.pg_get_wal_block_info($1, $2, true)
      WHERE relforknumber = 0 AND (block_data IS NOT NULL OR block_fpi_data IS NOT NULL)`,
    [start, end],
  )
  const chunks: ToastChunks = new Map()
  for (const { lsn, relation, record, data, image } of blocks.rows) {
    const where = `${lsn} ${record} ${named(relations, relation)}`
    for (const [bytes, what] of [
      [data, 'data'],
      [image, 'page image'],
    ] as const) {
      if (bytes === null) continue
      found.search('WAL records', `${where} ${what}`, bytes)
      for (const value of compressedDatums(bytes))
        found.value('WAL, decompressed', `${where} ${what}`, value)
    }
    if (relations.get(relation)?.toast !== true) continue
    if (data !== null && record.startsWith('Heap INSERT'))
      addChunk(chunks, relation, toastChunkOfInsert(data))
    if (image !== null)
      for (const tuple of pageTuples(image)) addChunk(chunks, relation, toastChunkOfTuple(tuple))
  }
  for (const { key, value } of toastValues(chunks))
    found.value('WAL, decompressed', `TOAST value ${named(relations, key)}`, value)
  const magic = readFileSync(join(walDir, first)).readUInt16LE(0)
  for (const name of segments) {
    const bytes = readFileSync(join(walDir, name))
    found.search('WAL files, raw', name, bytes)
    for (const stream of walStreams(bytes, magic))
      for (const value of compressedDatums(stream))
        found.value('WAL, decompressed', `${name} (de-paged)`, value)
  }
}

/**
 * Scans the cluster that `db` (a superuser's connection) is on for `card`: the connected
 * database's tables, the data folder's files (after a CHECKPOINT, so that they hold what
 * Postgres has in memory) and the WAL (before it: a checkpoint may recycle segments).
 * Text values (columns, decompressed values) are searched as they are and as `decode` gives
 * them. Installs `pg_walinspect` (in a schema of its own, `paykit_scan`) when missing.
 * Refuses a cluster that compresses with lz4 (values it could not decompress).
 */
export const scanCluster = async (
  db: pg.Client,
  card: Card,
  decode: Decode = () => undefined,
): Promise<ScanReport> => {
  const setting = async (name: string) =>
    (await db.query<{ setting: string }>(`SELECT current_setting($1) AS setting`, [name])).rows[0]
      ?.setting ?? ''
  for (const name of ['default_toast_compression', 'wal_compression']) {
    const value = await setting(name)
    if (!['pglz', 'off'].includes(value))
      throw new Error(`${name} is ${value}: this scan decompresses pglz only`)
  }
  const dataDir = await setting('data_directory')
  await db.query('CREATE SCHEMA IF NOT EXISTS paykit_scan')
  await db.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect SCHEMA paykit_scan')
  // Where it is (another schema when it was there before).
  const schema = (
    await db.query<{ schema: string }>(
      `SELECT n.nspname AS schema FROM pg_extension e
         JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_walinspect'`,
    )
  ).rows[0]?.schema as string
  const files = await db.query<{ relation: string; name: string; toast: boolean }>(
    `SELECT (SELECT oid FROM pg_database WHERE datname = current_database()) || '/' ||
            pg_relation_filenode(c.oid) AS relation,
            COALESCE((SELECT t.relname || ' (TOAST)' FROM pg_class t
                       WHERE t.reltoastrelid = c.oid), n.nspname || '.' || c.relname) AS name,
            c.relkind = 't' AS toast
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE pg_relation_filenode(c.oid) IS NOT NULL`,
  )
  const relations: Relations = new Map(files.rows.map((r) => [r.relation, r]))
  const found = findingsOf(card, decode)
  await scanTables(db, found, decode)
  await scanWal(db, join(dataDir, 'pg_wal'), schema, relations, found)
  await db.query('CHECKPOINT')
  scanDataFiles(dataDir, relations, found)
  return found.report()
}
