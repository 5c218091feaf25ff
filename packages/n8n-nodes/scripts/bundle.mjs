// Builds what n8n loads: each node and credential bundled by esbuild into one CommonJS file
// under dist/ (n8n `require`s community nodes), @paykit/core, fp-ts, io-ts and decimal.js
// inside it, so the published package has no runtime dependency; n8n-workflow stays
// external (n8n resolves it to its own copy). Console calls of bundled libraries (io-ts'
// taggedUnion warning) are dropped: n8n's scanner refuses them. Icons and codex files are
// copied beside the code, as n8n-node build does. Type-checking is tsc's job.
import { build } from 'esbuild'
import { cp, mkdir, rm } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { globSync } from 'node:fs'

const root = resolve(import.meta.dirname, '..')
const entryPoints = [
  'credentials/PaykitApi.credentials.ts',
  'credentials/PaykitWebhookApi.credentials.ts',
  'nodes/Paykit/Paykit.node.ts',
  'nodes/PaykitTrigger/PaykitTrigger.node.ts',
]

await rm(resolve(root, 'dist'), { recursive: true, force: true })
await build({
  absWorkingDir: root,
  entryPoints,
  outdir: 'dist',
  outbase: '.',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  external: ['n8n-workflow'],
  // fp-ts's ES modules tree-shake; its CommonJS build would pull in Task.delay's setTimeout.
  alias: { 'fp-ts/lib': 'fp-ts/es6' },
  drop: ['console'],
  legalComments: 'none',
  logLevel: 'warning',
})
for (const file of globSync(['icons/*.svg', 'nodes/**/*.svg', 'nodes/**/*.node.json'], {
  cwd: root,
})) {
  await mkdir(dirname(resolve(root, 'dist', file)), { recursive: true })
  await cp(resolve(root, file), resolve(root, 'dist', file))
}
console.log(
  `bundled ${entryPoints.length} entry points into dist/ (CommonJS, no runtime dependency)`,
)
