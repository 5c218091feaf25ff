/**
 * Loading the real n8n engine (`n8n-core` + `n8n-workflow`, optional peer dependencies)
 * into this process, once, and the process-wide settings the harness makes there.
 *
 * Both packages are CommonJS. `n8n-workflow`'s ESM build does not load under Node ESM
 * (extensionless imports), and a second copy would break `instanceof` checks inside the
 * engine, so both are `require`d: `n8n-core` from this package, `n8n-workflow` from
 * `n8n-core`'s own location (the copy the engine uses).
 *
 * @since 0.2.0
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type * as Core from 'n8n-core'
import type * as NW from 'n8n-workflow'
import { memoryDeduplicator } from './Deduplication.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The loaded engine: `n8n-core`, `n8n-workflow`, and a `require` that resolves from
 * `n8n-core`'s location (for its own dependencies, such as `@n8n/di`).
 *
 * @category model
 * @since 0.2.0
 */
export interface N8nRuntime {
  readonly core: typeof Core
  readonly workflow: typeof NW
  readonly require: NodeJS.Require
}

/**
 * How expressions (`={{ ... }}`) are evaluated. `'vm'` is what n8n's server uses (an
 * isolated-vm sandbox; `N8N_EXPRESSION_ENGINE` defaults to `vm`); `'legacy'` is the
 * in-process evaluator the engine falls back to when no engine was started.
 *
 * @category model
 * @since 0.2.0
 */
export type ExpressionEngine = 'vm' | 'legacy'

/**
 * Loopback ranges the harness adds to n8n's SSRF allow-list when SSRF protection is on.
 *
 * @example
 * ```ts
 * import { LOOPBACK_IP_RANGES } from '@paykit/testkit/n8n'
 * import assert from 'node:assert/strict'
 *
 * // allowed through n8n's SSRF protection (when on), so a local sandbox is reachable
 * assert.deepEqual(LOOPBACK_IP_RANGES, ['127.0.0.0/8', '::1/128'])
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const LOOPBACK_IP_RANGES: ReadonlyArray<string> = ['127.0.0.0/8', '::1/128']

// -------------------------------------------------------------------------------------
// loading
// -------------------------------------------------------------------------------------

let loaded: N8nRuntime | undefined

interface SsrfConfig {
  enabled: boolean
  allowedIpRanges: Array<string>
  allowedHostnames: Array<string>
}

/**
 * n8n's SSRF protection (`N8N_SSRF_PROTECTION_ENABLED`, off by default in n8n 2.41) blocks
 * 127.0.0.0/8 and ::1 when on. The service reads its config once, when it is first built,
 * so the loopback ranges are added to the config singleton before any request.
 */
const allowLoopback = (fromCore: NodeJS.Require): void => {
  const { Container } = fromCore('@n8n/di') as {
    Container: { get: <T>(type: abstract new (...args: never) => T) => T }
  }
  const { SsrfProtectionConfig } = fromCore('@n8n/config') as {
    SsrfProtectionConfig: abstract new (...args: never) => SsrfConfig
  }
  const config = Container.get(SsrfProtectionConfig)
  if (!config.enabled) return
  for (const range of LOOPBACK_IP_RANGES)
    if (!config.allowedIpRanges.includes(range)) config.allowedIpRanges.push(range)
  if (!config.allowedHostnames.includes('localhost')) config.allowedHostnames.push('localhost')
}

/**
 * n8n's de-duplication helpers need a store, which n8n's server gives from its database;
 * in-process the helpers would throw, so an in-memory one is installed unless one is.
 */
const installDeduplicator = (core: typeof Core): void => {
  try {
    core.DataDeduplicationService.getInstance()
  } catch {
    void core.DataDeduplicationService.init(memoryDeduplicator())
  }
}

/**
 * Loads the engine once per process. Sets `N8N_USER_FOLDER` to a new temporary folder
 * first when it is unset (n8n writes an encryption key there; the folder is removed when
 * the process exits) and `N8N_LOG_LEVEL` to
 * `silent` when unset (n8n's server log), lets requests to loopback through n8n's
 * SSRF protection when that is on, and gives n8n's de-duplication helpers (Remove
 * Duplicates, Paykit's Accept Once) an in-memory store (`memoryDeduplicator`).
 *
 * @example
 * ```ts
 * import { loadN8n } from '@paykit/testkit/n8n'
 * import assert from 'node:assert/strict'
 *
 * const n8n = loadN8n() // once per process: later calls give the same copy
 * assert.equal(loadN8n(), n8n)
 * assert.equal(typeof n8n.core.WorkflowExecute, 'function')
 * assert.equal(typeof n8n.workflow.Workflow, 'function')
 * assert.ok(process.env['N8N_USER_FOLDER']) // a temporary folder unless you set one
 * ```
 *
 * @category loading
 * @since 0.2.0
 */
export const loadN8n = (): N8nRuntime => {
  if (loaded !== undefined) return loaded
  if (process.env['N8N_USER_FOLDER'] === undefined || process.env['N8N_USER_FOLDER'] === '') {
    const folder = mkdtempSync(join(tmpdir(), 'paykit-n8n-'))
    process.env['N8N_USER_FOLDER'] = folder
    // Ours, so ours to remove: one per test process would otherwise pile up in the tmpdir.
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }))
  }
  // n8n's server log (node errors are logged there too) stays quiet unless asked for.
  process.env['N8N_LOG_LEVEL'] ??= 'silent'
  const require = createRequire(import.meta.url)
  let corePath: string
  try {
    corePath = require.resolve('n8n-core')
  } catch (cause) {
    throw new Error(
      '@paykit/testkit/n8n needs the optional peer dependencies n8n-core and n8n-workflow (>=2.41.0 <3): install them as devDependencies.',
      { cause },
    )
  }
  const core = require(corePath) as typeof Core
  const fromCore = createRequire(corePath)
  const workflow = fromCore('n8n-workflow') as typeof NW
  allowLoopback(fromCore)
  installDeduplicator(core)
  loaded = { core, workflow, require: fromCore }
  return loaded
}

// -------------------------------------------------------------------------------------
// expression engine
// -------------------------------------------------------------------------------------

let vmStarted: Promise<void> | undefined

/**
 * Selects the expression engine for the next runs (a process-wide setting of n8n's
 * `Expression` class). `'vm'` starts n8n's isolated-vm evaluator once, with the defaults
 * of n8n's `ExpressionEngineConfig` (pool of 1, 5 s timeout, 128 MB); it loads
 * isolated-vm's prebuilt binary, so no native build is needed.
 *
 * @example
 * ```ts
 * import { activeExpressionEngine, useExpressionEngine } from '@paykit/testkit/n8n'
 * import assert from 'node:assert/strict'
 *
 * await useExpressionEngine('legacy') // for every later run, until changed
 * assert.equal(activeExpressionEngine(), 'legacy')
 * await useExpressionEngine('vm') // n8n's server default (isolated-vm), started once
 * assert.equal(activeExpressionEngine(), 'vm')
 * ```
 *
 * @category expression engine
 * @since 0.2.0
 */
export const useExpressionEngine = async (engine: ExpressionEngine): Promise<void> => {
  const { Expression } = loadN8n().workflow
  if (engine === 'vm') {
    vmStarted ??= Expression.initExpressionEngine({
      engine: 'vm',
      poolSize: 1,
      maxCodeCacheSize: 1024,
      bridgeTimeout: 5000,
      bridgeMemoryLimit: 128,
    }).catch((cause: unknown) => {
      vmStarted = undefined
      throw new Error(
        "n8n's 'vm' expression engine did not start (isolated-vm could not load here): pass expressionEngine: 'legacy'.",
        { cause },
      )
    })
    await vmStarted
  }
  Expression.setExpressionEngine(engine)
}

/**
 * The engine that evaluates expressions now: `'vm'` only when the vm evaluator started and
 * is selected.
 *
 * @example
 * ```ts
 * import { activeExpressionEngine, useExpressionEngine } from '@paykit/testkit/n8n'
 * import assert from 'node:assert/strict'
 *
 * // A run selects its `expressionEngine` ('vm' by default) for the whole process.
 * await useExpressionEngine('legacy')
 * assert.equal(activeExpressionEngine(), 'legacy')
 * ```
 *
 * @category expression engine
 * @since 0.2.0
 */
export const activeExpressionEngine = (): string =>
  loadN8n().workflow.Expression.getActiveImplementation()

/**
 * Stops the vm evaluator, if started (its isolates do not keep the process alive, so this
 * is optional), and selects `'legacy'`.
 *
 * @example
 * ```ts
 * import { activeExpressionEngine, disposeExpressionEngine, useExpressionEngine } from '@paykit/testkit/n8n'
 * import assert from 'node:assert/strict'
 *
 * await useExpressionEngine('vm')
 * await disposeExpressionEngine() // optional: e.g. in a global teardown
 * assert.equal(activeExpressionEngine(), 'legacy')
 * ```
 *
 * @category expression engine
 * @since 0.2.0
 */
export const disposeExpressionEngine = async (): Promise<void> => {
  if (loaded === undefined) return
  const { Expression } = loaded.workflow
  vmStarted = undefined
  await Expression.disposeExpressionEngine()
  Expression.setExpressionEngine('legacy')
}
