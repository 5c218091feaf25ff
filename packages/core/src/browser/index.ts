/**
 * @paykit/core/browser: the 3DS frame listener, the core's browser entry point (no Node
 * API), as plain ES modules that share the app's fp-ts, io-ts and decimal.js. For a page
 * without a bundler, `scripts/bundle.mjs` also makes `dist/browser/paykit-threeds.iife.js`,
 * a classic script defining the global `PaykitThreeDS`.
 *
 * @module @paykit/core/browser
 * @since 0.2.0
 */

// -------------------------------------------------------------------------------------
// 3DS frame listener
// -------------------------------------------------------------------------------------
export * from './FrameListener.js'

// -------------------------------------------------------------------------------------
// frame message codec (spec 6.1)
// -------------------------------------------------------------------------------------
export { FrameMessage } from '../machines/Authentication.js'
