// Bundles the browser entry (src/browser/index.ts: the 3DS frame listener) for a page
// without a bundler: dist/browser/paykit-threeds.iife.js, a classic script defining the
// global `PaykitThreeDS`, with fp-ts, io-ts and decimal.js inside it. Apps that bundle
// import `@paykit/core/browser` instead: tsc's plain ES modules (dist/browser/index.js),
// which share the app's copies of those libraries.
// Type-checking is tsc's job (tsconfig.browser.json, built by the root `tsc -b`).
import { build } from 'esbuild'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, relative, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')

// The self-contained ES module of earlier versions: gone (it carried a second copy of
// fp-ts, io-ts and decimal.js into every app that also imported `@paykit/core`).
await rm(resolve(root, 'dist/browser/paykit-threeds.esm.js'), { force: true })
await rm(resolve(root, 'dist/browser/paykit-threeds.esm.js.map'), { force: true })
await build({
  absWorkingDir: root,
  entryPoints: ['src/browser/index.ts'],
  bundle: true,
  platform: 'browser',
  target: 'es2020',
  sourcemap: true,
  minify: true,
  legalComments: 'eof',
  logLevel: 'warning',
  format: 'iife',
  globalName: 'PaykitThreeDS',
  outfile: 'dist/browser/paykit-threeds.iife.js',
})

// esbuild names the libraries' files where the workspace keeps them (node_modules/.pnpm/...
// at the repository root), outside the published package. Name them as the package's own
// node_modules/<library>/... instead; their text is in sourcesContent.
const mapFile = resolve(root, 'dist/browser/paykit-threeds.iife.js.map')
const map = JSON.parse(await readFile(mapFile, 'utf8'))
map.sources = map.sources.map((source, i) => {
  const absolute = resolve(dirname(mapFile), source)
  const marker = absolute.lastIndexOf('/node_modules/')
  const inside =
    marker < 0
      ? absolute
      : resolve(root, 'node_modules', absolute.slice(marker + '/node_modules/'.length))
  if (relative(root, inside).startsWith('..'))
    throw new Error(`source map: ${source} is outside the package`)
  if (inside !== absolute && typeof map.sourcesContent?.[i] !== 'string')
    throw new Error(`source map: ${source} has no sourcesContent`)
  return relative(dirname(mapFile), inside)
})
await writeFile(mapFile, JSON.stringify(map))
console.log('bundled src/browser/index.ts -> dist/browser/paykit-threeds.iife.js')
