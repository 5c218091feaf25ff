/**
 * The testkit's Node.js floor. nock 15, which the testkit loads, needs Node.js 22: on an
 * older Node it loads, but every later `fetch` of the process fails. `index.ts` and
 * `vitest.ts` import this module first, so that importing `@paykit/testkit` on an older
 * Node throws at once, naming the version needed, before nock is evaluated.
 *
 * @since 0.1.0
 */

// -------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------

/**
 * The oldest Node.js major version the testkit runs on.
 *
 * @category constants
 * @since 0.1.0
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
 * @category checks
 * @since 0.1.0
 */
export const isSupportedNodeVersion = (version: string): boolean => {
  const major = /^v?(\d+)\./.exec(version)?.[1]
  return major === undefined || Number(major) >= MIN_NODE_MAJOR
}

/**
 * The message for an unsupported Node.js version:
 * `@paykit/testkit needs Node.js 22 or later (this is v20.19.0)`.
 *
 * @category checks
 * @since 0.1.0
 */
export const unsupportedNodeMessage = (version: string): string =>
  `@paykit/testkit needs Node.js ${MIN_NODE_MAJOR} or later (this is ${version})`

/**
 * Throws an `Error` with `unsupportedNodeMessage` when `version` (default: this
 * process's) is older than `MIN_NODE_MAJOR`.
 *
 * @category checks
 * @since 0.1.0
 */
export const assertSupportedNode = (version: string = globalThis.process?.version ?? ''): void => {
  if (!isSupportedNodeVersion(version)) throw new Error(unsupportedNodeMessage(version))
}

// Evaluated on import, before any module that loads nock.
assertSupportedNode()
