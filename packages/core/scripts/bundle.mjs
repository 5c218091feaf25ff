// Bundles the browser entry (src/browser/index.ts: the 3DS frame listener) for a page
// without a bundler: dist/browser/paykit-threeds.iife.js, a classic script defining the
// global `PaykitThreeDS`, with fp-ts, io-ts and decimal.js inside it. Apps that bundle
// import `@paykit/core/browser` instead: tsc's plain ES modules (dist/browser/index.js),
// which share the app's copies of those libraries.
// Type-checking is tsc's job (tsconfig.browser.json, built by the root `tsc -b`).
import { build } from 'esbuild'
import { rm } from 'node:fs/promises'
import { resolve } from 'node:path'

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
console.log('bundled src/browser/index.ts -> dist/browser/paykit-threeds.iife.js')
