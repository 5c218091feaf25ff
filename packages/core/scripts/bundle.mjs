// Bundles the browser entry (src/browser/index.ts: the 3DS frame listener) for the
// browser with esbuild, fp-ts, io-ts and decimal.js included, into dist/browser/:
//   paykit-threeds.esm.js   ES module (`import { openAuthenticationFrame } from ...`)
//   paykit-threeds.iife.js  classic script defining the global `PaykitThreeDS`
// Type-checking is tsc's job (tsconfig.browser.json, built by the root `tsc -b`).
import { build } from 'esbuild'
import { resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')

const common = {
  absWorkingDir: root,
  entryPoints: ['src/browser/index.ts'],
  bundle: true,
  platform: 'browser',
  target: 'es2020',
  sourcemap: true,
  minify: true,
  legalComments: 'eof',
  logLevel: 'warning',
}

await Promise.all([
  build({ ...common, format: 'esm', outfile: 'dist/browser/paykit-threeds.esm.js' }),
  build({
    ...common,
    format: 'iife',
    globalName: 'PaykitThreeDS',
    outfile: 'dist/browser/paykit-threeds.iife.js',
  }),
])
console.log('bundled src/browser/index.ts -> dist/browser/paykit-threeds.{esm,iife}.js')
