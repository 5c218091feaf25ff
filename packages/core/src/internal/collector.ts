/**
 * What an error collector is (see `fastErrors`): a plain function that finds the errors
 * io-ts's `validate` gives for a value at a site, without io-ts's contexts and `Either`s.
 * A leaf module, so that the core's combinators (`codec`) register their collectors
 * without importing the compiler.
 */
import type * as t from 'io-ts'
import type { Site } from './errorSite.js'
import type { Compile } from './fastDecoder.js'
import type { Found } from './fieldErrors.js'
import { fieldErrorMessage, type FieldIssue } from './issue.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Adds to `found` the errors, in order, that the codec's `validate(u, context of site)`
 * gives: none for a value it accepts. `refused` says that the codec's fast decoder has
 * refused `u`, so a collector need not check again what it can then tell (a refinement
 * whose codec accepts `u` was refused by its predicate).
 */
export type Collector = (u: unknown, site: Site, found: Array<Found>, refused?: boolean) => void

/** Compiles a codec into its collector (once: collectors are cached). */
export type CompileCollector = (codec: t.Decoder<unknown, unknown>) => Collector

/**
 * Builds the collector of a codec from the collectors (`collect`) and fast decoders
 * (`decode`) of the codecs it wraps; `own` is the collector that runs the codec's own
 * `validate`, for inputs a collector leaves to io-ts.
 */
export type CollectorBuilder = (
  collect: CompileCollector,
  decode: Compile,
  own: Collector,
) => Collector

// -------------------------------------------------------------------------------------
// registry
// -------------------------------------------------------------------------------------

const builders = new WeakMap<object, CollectorBuilder>()

/** Records how to collect the errors of `codec` (a core combinator); returns `codec`. */
export const withCollector = <T extends object>(codec: T, build: CollectorBuilder): T => {
  builders.set(codec, build)
  return codec
}

/** How to collect the errors of `codec`, if a combinator recorded it. */
export const collectorBuilderOf = (codec: object): CollectorBuilder | undefined =>
  builders.get(codec)

// -------------------------------------------------------------------------------------
// errors
// -------------------------------------------------------------------------------------

// The message of each issue a rule reports: a rule's issue is one object, made once.
const messages = new WeakMap<FieldIssue, string>()

/** The error a core rule reports at `site` for `issue` (`issuedError`'s). */
export const issuedAt = (site: Site, issue: FieldIssue): Found => {
  let message = messages.get(issue)
  if (message === undefined) {
    message = fieldErrorMessage(issue)
    messages.set(issue, message)
  }
  return { path: site.path, viaUnion: site.viaUnion, issue, message }
}
