// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

// fp-ts and io-ts are CommonJS without an `exports` map: `fp-ts/function` type-checks
// but fails under Node ESM (ERR_UNSUPPORTED_DIR_IMPORT). Only the root or `lib/*.js` load.
const cjsDeepImports = {
  patterns: [
    {
      regex: '^fp-ts$|^(fp-ts|io-ts)/(?!lib/[A-Za-z]+\\.js$)',
      message:
        "Import 'fp-ts/lib/X.js' (or io-ts's root): Node ESM cannot load 'fp-ts/X' or fp-ts's named root exports.",
    },
  ],
}

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.tools/**', '**/coverage/**', 'docs/api/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
    rules: {
      'no-restricted-imports': ['error', cjsDeepImports],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The testkit's simulator runs with no I/O (in a browser, under a model-based kit): it
    // takes the core's pure entry, not the root with its fetch transport and timers. The rest
    // of its imports is held by .dependency-cruiser.cjs (testkit-simulator-is-pure).
    files: ['packages/testkit/src/simulator/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...cjsDeepImports,
          paths: [
            {
              name: '@paykit/core',
              message: "The simulator imports '@paykit/core/pure' (no fetch, no timers).",
            },
          ],
        },
      ],
    },
  },
)
