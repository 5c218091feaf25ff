/**
 * The repository root, for the tools that read or run something of the workspace. A leaf of
 * the tools (the package checks, the docs checks, the matrix and the release all read it).
 */
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
