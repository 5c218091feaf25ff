/**
 * What the repository's own tools (`@paykit/tools`: the OpenAPI generator and its contract
 * test) read of the core beyond its public entries: the URL codec and the introspection the
 * combinators record (issue 38). The entry `@paykit/core/internal/tools` is declared for
 * them alone: no API report, no semver promise. It re-exports the same modules the codecs
 * were made with, so the WeakMaps read here are the ones the codecs wrote.
 */

// -------------------------------------------------------------------------------------
// codecs
// -------------------------------------------------------------------------------------

export { HttpUrl } from './codec.js'

// -------------------------------------------------------------------------------------
// introspection
// -------------------------------------------------------------------------------------

export { baseOf } from './expected.js'
export { schemaHintOf } from './schemaHint.js'
