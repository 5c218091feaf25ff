/**
 * The testkit's Node.js floor. nock 15, which the testkit loads, needs Node.js 22: on an
 * older Node it loads, but every later `fetch` of the process fails. `index.ts` and
 * `vitest.ts` import this module first, so that importing `@paykit/testkit` on an older
 * Node throws at once, naming the version needed, before nock is evaluated.
 *
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * The oldest Node.js major version the testkit runs on.
 *
 * @example
 * ```ts
 * import { MIN_NODE_MAJOR } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * // The testkit loaded, so this process runs at least that major version.
 * assert.ok(Number(process.versions.node.split('.')[0]) >= MIN_NODE_MAJOR)
 * assert.equal(MIN_NODE_MAJOR, 22)
 * ```
 *
 * @category constants
 * @since 0.2.0
 */
export const MIN_NODE_MAJOR = 22

// -------------------------------------------------------------------------------------
// checks
// -------------------------------------------------------------------------------------

/**
 * Whether a Node.js version (`process.version`, `v22.3.0` or `22.3.0`) is supported:
 * major at least `MIN_NODE_MAJOR`. A version that cannot be read counts as supported
 * (another runtime reporting something else is not refused).
 *
 * @example
 * ```ts
 * import { isSupportedNodeVersion } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(isSupportedNodeVersion('v24.1.0'), true)
 * assert.equal(isSupportedNodeVersion('22.3.0'), true)
 * assert.equal(isSupportedNodeVersion('v20.19.0'), false)
 * assert.equal(isSupportedNodeVersion('bun'), true) // unreadable: not refused
 * ```
 *
 * @category checks
 * @since 0.2.0
 */
export const isSupportedNodeVersion = (version: string): boolean => {
  const major = /^v?(\d+)\./.exec(version)?.[1]
  return major === undefined || Number(major) >= MIN_NODE_MAJOR
}

/**
 * The message for an unsupported Node.js version:
 * `@paykit/testkit needs Node.js 22 or later (this is v20.19.0)`.
 *
 * @example
 * ```ts
 * import { unsupportedNodeMessage } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * assert.equal(
 *   unsupportedNodeMessage('v20.19.0'),
 *   '@paykit/testkit needs Node.js 22 or later (this is v20.19.0)',
 * )
 * ```
 *
 * @category checks
 * @since 0.2.0
 */
export const unsupportedNodeMessage = (version: string): string =>
  `@paykit/testkit needs Node.js ${MIN_NODE_MAJOR} or later (this is ${version})`

/**
 * Throws an `Error` with `unsupportedNodeMessage` when `version` (default: this
 * process's) is older than `MIN_NODE_MAJOR`.
 *
 * @example
 * ```ts
 * import { assertSupportedNode } from '@paykit/testkit'
 * import assert from 'node:assert/strict'
 *
 * assertSupportedNode() // this process: it passed when the testkit was imported
 * assert.throws(() => assertSupportedNode('v20.19.0'), {
 *   message: '@paykit/testkit needs Node.js 22 or later (this is v20.19.0)',
 * })
 * ```
 *
 * @category checks
 * @since 0.2.0
 */
export const assertSupportedNode = (version: string = globalThis.process?.version ?? ''): void => {
  if (!isSupportedNodeVersion(version)) throw new Error(unsupportedNodeMessage(version))
}

// Evaluated on import, before any module that loads nock.
assertSupportedNode()
