// Lets plain Node run a TypeScript script made of several modules: their relative imports
// say `./x.js`, as tsc wants, and Node's type stripping does not map that to `./x.ts`.
//   node --import ./scripts/lib/tsImports.mjs scripts/openapi/generate.ts
import { registerHooks } from 'node:module'

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context)
    } catch (error) {
      if (!specifier.startsWith('.') || !specifier.endsWith('.js')) throw error
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context)
    }
  },
})
