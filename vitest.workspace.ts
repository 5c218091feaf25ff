import { defineConfig } from 'vitest/config'

// The one file that lists the test projects (vitest 5 reads no workspace file by itself).
// Tests that drive the n8n engine load n8n-core (and its isolated-vm expression engine) cold
// in each worker: seconds when both cores are busy, so those projects get a longer limit.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'core', root: 'packages/core', include: ['test/**/*.test.ts'] } },
      {
        test: {
          name: 'testkit',
          root: 'packages/testkit',
          include: ['test/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'n8n-nodes',
          root: 'packages/n8n-nodes',
          include: ['test/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        // README snippets and the sources' @example blocks type-checked and run, and the
        // @example coverage of the public exports; the packed tarballs installed into clean
        // npm and pnpm projects (minutes: they install and compile real projects).
        test: {
          name: 'docs',
          root: 'scripts/docs-check',
          include: ['*.test.ts'],
          testTimeout: 600_000,
        },
      },
    ],
  },
})
