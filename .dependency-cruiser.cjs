// @ts-check
// The import graph's rules (`pnpm run lint`): no cycle anywhere (the packages' sources and tests,
// the tools package), type-only imports included (tsPreCompilationDeps), no relative path out of
// a package (issue 38), the tools' layers, and the core's layers pointing one way (issue 9):
//   model, machines, signing  pure: codecs, rules, money, reducers, webhook signatures
//   client                    the client over an injected transport, clock and sleep
//   edge, browser             the I/O: fetch, Date.now, setTimeout, the 3DS frame listener
/** @type {import('dependency-cruiser').IConfiguration} */
/* global module */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'A cycle hides which module is the leaf: move the shared part into a leaf module.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-pure-layers-stay-pure',
      severity: 'error',
      comment: "The core's model, machines and signing import neither the client nor the edges.",
      from: { path: '^packages/core/src/(model|machines|signing|internal)/' },
      to: { path: '^packages/core/src/(client|edge|browser)/' },
    },
    {
      name: 'core-client-takes-its-runtime-injected',
      severity: 'error',
      comment:
        'The client runs over an injected runtime: only the entry and the edge reach fetch and timers.',
      from: { path: '^packages/core/src/client/' },
      to: { path: '^packages/core/src/(edge|browser)/' },
    },
    {
      name: 'core-model-never-imports-machines',
      severity: 'error',
      comment:
        'The model holds the codecs and rules, machines/ only the transitions over them: machines read the model, never the reverse (issue 22).',
      from: { path: '^packages/core/src/model/' },
      to: { path: '^packages/core/src/machines/' },
    },
    {
      name: 'core-internal-imports-only-internal',
      severity: 'error',
      comment:
        "internal/ is the bottom of the core: its helpers and the model's fast forms read no layer above it (a fast form takes its members from the codec it decodes).",
      from: { path: '^packages/core/src/internal/' },
      to: { path: '^packages/core/src/', pathNot: '^packages/core/src/internal/' },
    },
    {
      name: 'core-model-imports-no-fast-form',
      severity: 'error',
      comment:
        "A model file is its domain (codecs, rules, constructors): the fast forms of its codecs live in internal/fast* (issue 22). Only validate (model/FieldError) runs the compilers, internal/fastDecode (valid input) and internal/fastErrors (its errors, issue 30), as Effect's Schema runs ParseResult.",
      from: { path: '^packages/core/src/model/' },
      to: {
        path: '^packages/core/src/internal/fast',
        pathNot: '^packages/core/src/internal/fast(Decode|Errors)[.]ts$',
      },
    },
    {
      name: 'core-only-validate-runs-the-fast-decoder',
      severity: 'error',
      from: {
        path: '^packages/core/src/model/',
        pathNot: '^packages/core/src/model/FieldError[.]ts$',
      },
      to: { path: '^packages/core/src/internal/fast(Decode|Errors)[.]ts$' },
    },
    {
      name: 'core-imports-no-other-package',
      severity: 'error',
      comment: 'Dependencies point one way: n8n-nodes -> core <- testkit.',
      from: { path: '^packages/core/' },
      to: { path: '^packages/(testkit|n8n-nodes)/|@paykit/testkit|n8n-nodes-paykit' },
    },
    {
      name: 'n8n-nodes-shared-never-imports-nodes',
      severity: 'error',
      comment: 'shared/ is what the nodes build on: the constants it needs live in shared/.',
      from: { path: '^packages/n8n-nodes/shared/' },
      to: { path: '^packages/n8n-nodes/(nodes|credentials)/' },
    },
    {
      name: 'testkit-simulator-is-pure',
      severity: 'error',
      comment:
        "The testkit's simulator (a pure function over its state, its data beside it) runs with no I/O and in a browser: it imports `@paykit/core/pure`, not the root or `/client` with their fetch transport and timers, no Node built-in (the rule below), and nothing of the testkit outside src/simulator/.",
      from: { path: '^packages/testkit/src/simulator/' },
      to: {
        path: '^@paykit/core(/client)?$|^packages/core/(src|dist)/(index|client)\\.|^packages/testkit/',
        pathNot: '^packages/testkit/src/simulator/',
      },
    },
    {
      // dependency-cruiser resolves `node:stream` to the core module `stream` (a path `^node:`
      // sees only the prefix-only ones, `node:test`), so built-ins are caught by their type.
      name: 'testkit-browser-code-imports-no-node-built-in',
      severity: 'error',
      comment: 'The simulator and `@paykit/testkit/msw` run in a browser: no Node built-in.',
      from: { path: '^packages/testkit/src/(simulator|msw)/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'testkit-msw-runs-in-a-browser',
      severity: 'error',
      comment:
        "`@paykit/testkit/msw` runs in a browser (MSW's setupWorker): no Node built-in, and of the testkit only the simulator and the service shell (no nock, no sandbox).",
      from: { path: '^packages/testkit/src/msw/' },
      to: { path: '^packages/testkit/src/(nock|sandbox|buyer|bin|n8n|vitest|engines)/|^nock$' },
    },
    {
      name: 'testkit-n8n-harness-stands-alone',
      severity: 'error',
      comment:
        'The n8n harness (`@paykit/testkit/n8n`) is its own part: it imports nothing else of the testkit, and nothing else imports it.',
      from: { path: '^packages/testkit/src/n8n/' },
      to: { path: '^packages/testkit/', pathNot: '^packages/testkit/src/n8n/' },
    },
    {
      name: 'testkit-nothing-imports-the-n8n-harness',
      severity: 'error',
      from: { path: '^packages/testkit/src/', pathNot: '^packages/testkit/src/n8n/' },
      to: { path: '^packages/testkit/src/n8n/' },
    },
    {
      name: 'testkit-and-nodes-never-meet',
      severity: 'error',
      from: { path: '^packages/(testkit)/src/' },
      to: { path: '^packages/n8n-nodes/|n8n-nodes-paykit' },
    },
    // The tools package (`@paykit/tools`, tools/README.md): its parts in layers, so that no
    // cycle can form between them (package-check.ts and docs-check/ imported each other):
    //   lib/                           the root, child processes, a free port, Chromium, a proxy
    //   package-check.ts, -suite.ts    what a tarball holds (the packages' tarball tests)
    //   docs-check/                    README snippets, @example blocks, links, installs
    //   api/, matrix/, n8n/, openapi/, release/, demo.ts   the tools themselves
    {
      name: 'tools-lib-is-the-bottom',
      severity: 'error',
      comment:
        "tools/lib/ is what every tool and the packages' tests build on: it imports no other part of the tools and no workspace package.",
      from: { path: '^tools/lib/' },
      to: { path: '^tools/|^packages/|^@paykit/', pathNot: '^tools/lib/' },
    },
    {
      name: 'tools-package-checks-import-only-lib',
      severity: 'error',
      comment:
        'The package checks import only tools/lib/: the docs checks, the matrix and the release build on them, never the reverse.',
      from: { path: '^tools/package-(check|suite)[.]ts$' },
      to: { path: '^tools/', pathNot: '^tools/(lib/|package-check[.]ts$)' },
    },
    {
      name: 'tools-docs-check-imports-no-tool-above-it',
      severity: 'error',
      comment:
        'docs-check/ builds on lib/ and the package checks only; the matrix and the release build on it.',
      from: { path: '^tools/docs-check/' },
      to: { path: '^tools/', pathNot: '^tools/(lib/|docs-check/|package-check[.]ts$)' },
    },
    {
      name: 'packages-never-import-the-tools',
      severity: 'error',
      comment:
        "The tools are the repository's own and never published: a package's sources never import them (its tests may, by name).",
      from: { path: '^packages/[^/]+/(src|nodes|credentials|shared)/' },
      to: { path: '^tools/|^@paykit/tools' },
    },
    {
      name: 'no-relative-path-out-of-its-package',
      severity: 'error',
      comment:
        'A package (packages/<name>/, tools/) reaches another by its name and the entries that package declares (`@paykit/core/internal/tools` for the tools), never by a relative path into its sources, its dist or its node_modules (issue 38).',
      from: { path: '^(packages/[^/]+|tools)/' },
      to: { dependencyTypes: ['local'], pathNot: '^$1/' },
    },
    {
      name: 'tools-import-no-package-test',
      severity: 'error',
      comment: "The tools use the packages' built entries, never their test files.",
      from: { path: '^tools/' },
      to: { path: '^packages/[^/]+/test/' },
    },
  ],
  options: {
    // Built files and installed modules are leaves, not left out: a relative import of
    // another package's dist must still be seen to be refused.
    doNotFollow: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.test.json' },
    enhancedResolveOptions: {
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
}
