/**
 * @paykit/core/browser: the 3DS frame listener, the core's browser entry point (no Node
 * API). Bundled by `scripts/bundle.mjs` as ESM and as the `PaykitThreeDS` global.
 *
 * @since 0.1.0
 */

// -------------------------------------------------------------------------------------
// 3DS frame listener
// -------------------------------------------------------------------------------------
export * from './FrameListener.js'

// -------------------------------------------------------------------------------------
// frame message codec (spec 6.1)
// -------------------------------------------------------------------------------------
export { FrameMessage } from '../machines/Authentication.js'
