import { defineConfig } from 'vitest/config'

// The one file that lists the test projects (vitest 5 reads no workspace file by itself).
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'core', root: 'packages/core', include: ['test/**/*.test.ts'] } },
      { test: { name: 'testkit', root: 'packages/testkit', include: ['test/**/*.test.ts'] } },
      {
        test: { name: 'n8n-nodes', root: 'packages/n8n-nodes', include: ['test/**/*.test.ts'] },
      },
    ],
  },
})
