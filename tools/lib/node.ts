/**
 * Another Node than this process's: the registry's `node-<platform>-<arch>@<version>`
 * package, installed once into `.tools/node-<version>` (as `tools/toolchain.sh` installs
 * Node 24), for the core's floor test and the version matrix's cells.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '@paykit/tools/lib/root'
import { childEnv, run } from '@paykit/tools/lib/run'

const nodePackage = `node-${process.platform}-${process.arch}`

/**
 * The `node` binary of `version`: this process's when it is that version, else the
 * registry's, installed once into `.tools/node-<version>`.
 */
export const nodeBinary = async (version: string): Promise<string> => {
  if (process.version === `v${version}`) return process.execPath
  const prefix = join(ROOT, '.tools', `node-${version}`)
  const bin = join(prefix, 'node_modules', nodePackage, 'bin', 'node')
  if (existsSync(bin)) return bin
  const r = await run(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-package-lock',
      '--ignore-scripts',
      '--loglevel=error',
      `${nodePackage}@${version}`,
    ],
    { cwd: ROOT, env: childEnv(), timeoutMs: 300_000 },
  )
  if (r.code !== 0 || !existsSync(bin))
    throw new Error(`installing Node ${version} failed:\n${r.stdout}\n${r.stderr}`)
  return bin
}
