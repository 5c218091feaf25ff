/**
 * Running the model: stories drawn by fast-check, each played in a fresh world and ended
 * by the "eventually" step; on failure, the shrunk story as numbered steps with the seed
 * and path that replay it. With no test runner (`checkModel`, `assertModel`) or in vitest
 * through `@fast-check/vitest` (`storyArbitrary` + `runStory`).
 *
 * @since 0.1.0
 */
import fc from 'fast-check'
import { steps, eventually, type Step } from './Commands.js'
import type { MakeIntegration } from './Integration.js'
import { builtInInvariants, type Invariant } from './Invariants.js'
import { InvariantBroken, openWorld, type ServiceKind, type World } from './World.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Options of a model run: the integration (required) and, optionally, the user's own
 * invariants (checked after the built-in ones), the fake (`memory` by default), the
 * number of shop orders (2), the longest story (25 steps), the number of runs (100), and
 * `seed` and `path` to replay a failure.
 *
 * @category model
 * @since 0.1.0
 */
export interface ModelOptions {
  readonly integration: MakeIntegration
  readonly invariants?: ReadonlyArray<Invariant>
  readonly service?: ServiceKind
  readonly orders?: number
  readonly maxSteps?: number
  readonly numRuns?: number
  readonly seed?: number
  readonly path?: string
}

/**
 * The outcome of a model run. On failure: the broken invariant, what is wrong, the shrunk
 * story (numbered in `text`) and the `seed` and `path` that replay it.
 *
 * @category model
 * @since 0.1.0
 */
export interface ModelReport {
  readonly ok: boolean
  readonly numRuns: number
  readonly seed: number
  readonly path: string | undefined
  readonly invariant: string | undefined
  readonly problem: string | undefined
  readonly story: ReadonlyArray<string>
  /** The report as printed: the problem, the numbered story, how to replay it. */
  readonly text: string
}

/**
 * The error `assertModel` throws: its message is the report's text.
 *
 * @example
 * ```ts
 * import { ModelFailure, assertModel, type MakeIntegration } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * // an integration that believes every order paid
 * const optimist: MakeIntegration = () => ({
 *   payOrder: async () => undefined,
 *   createLink: async () => undefined,
 *   handleWebhook: async () => ({ status: 200 }),
 *   reconcile: async () => undefined,
 *   view: () => [{ reference: 'o1', status: 'PAID', timesPaid: 1 }],
 *   log: () => [],
 * })
 * const failure = await assertModel({ integration: optimist, numRuns: 10 }).catch((e: unknown) => e)
 * assert.ok(failure instanceof ModelFailure)
 * assert.equal(failure.report.invariant, "the integration's view agrees with the service")
 * assert.equal(failure.message, failure.report.text)
 * ```
 *
 * @category model
 * @since 0.1.0
 */
export class ModelFailure extends Error {
  override readonly name = 'ModelFailure'
  constructor(readonly report: ModelReport) {
    super(report.text)
  }
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const worldOptions = (options: ModelOptions) => ({
  integration: options.integration,
  invariants: [...builtInInvariants, ...(options.invariants ?? [])],
  service: options.service ?? 'memory',
  orders: options.orders ?? 2,
})

const referencesOf = (options: Pick<ModelOptions, 'orders'>): ReadonlyArray<string> =>
  Array.from({ length: options.orders ?? 2 }, (_, i) => `o${i + 1}`)

/**
 * The stories of a model: sequences of up to `maxSteps` steps (25 by default).
 *
 * @example
 * ```ts
 * import fc from 'fast-check'
 * import { storyArbitrary } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * const stories = storyArbitrary({ maxSteps: 4 })
 * const [story] = fc.sample(stories, { numRuns: 1, seed: 7 })
 * assert.ok(story !== undefined && [...story].length <= 4)
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const storyArbitrary = (
  options: Pick<ModelOptions, 'orders' | 'maxSteps'> = {},
): fc.Arbitrary<Iterable<Step>> =>
  // An array, not fc.commands: its shrinker never drops the last command, which would
  // leave an irrelevant trailing step in the printed story.
  fc.array(fc.oneof(...steps(referencesOf(options))), {
    maxLength: options.maxSteps ?? 25,
    size: 'max',
  })

/**
 * Plays one story in a fresh world, then the "eventually" step; rejects with an
 * `InvariantBroken` whose message is the numbered story. The predicate to give
 * `@fast-check/vitest`'s `test.prop([storyArbitrary()])`.
 *
 * @example
 * ```ts
 * import { runStory, payOrder, type MakeIntegration } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * // an integration that records a payment it never made
 * const liar: MakeIntegration = () => ({
 *   payOrder: async () => undefined,
 *   createLink: async () => undefined,
 *   handleWebhook: async () => ({ status: 200 }),
 *   reconcile: async () => undefined,
 *   view: () => [{ reference: 'o1', status: 'PAID', timesPaid: 1 }],
 *   log: () => [],
 * })
 * await assert.rejects(runStory({ integration: liar })([payOrder('o1', 'success')]), {
 *   name: 'InvariantBroken',
 *   message: /the integration has order o1 PAID, the service has not been paid for it/,
 * })
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const runStory =
  (options: ModelOptions) =>
  async (story: Iterable<Step>): Promise<void> => {
    const world = await openWorld(worldOptions(options))
    try {
      await fc.asyncModelRun(() => ({ model: {}, real: world }), story)
      await eventually(world)
    } finally {
      await world.close()
    }
  }

const textOf = (
  failure: InvariantBroken | undefined,
  error: unknown,
  seed: number,
  path: string | undefined,
): string => {
  const head =
    failure === undefined
      ? `the story threw: ${error instanceof Error ? error.message : String(error)}`
      : failure.message
  return `Model-based test failed. Invariant broken: ${head}\nReplay: { seed: ${seed}, path: ${JSON.stringify(path ?? '')} }`
}

/**
 * Runs `numRuns` stories (100 by default) with no test runner and reports; a failing
 * story is shrunk to the shortest that still fails.
 *
 * @example
 * ```ts
 * import { checkModel, type MakeIntegration } from '@paykit/testkit/model'
 * import assert from 'node:assert/strict'
 *
 * // an integration that logs the card it is given
 * const leaky: MakeIntegration = () => {
 *   const lines: Array<string> = []
 *   return {
 *     payOrder: async (order, card) => void lines.push(`paying ${order.reference} with ${card.number}`),
 *     createLink: async () => undefined,
 *     handleWebhook: async () => ({ status: 200 }),
 *     reconcile: async () => undefined,
 *     view: () => [],
 *     log: () => lines,
 *   }
 * }
 * const report = await checkModel({ integration: leaky, numRuns: 50, seed: 42 })
 * assert.equal(report.ok, false)
 * assert.equal(report.invariant, 'no secret or card datum logged')
 * assert.equal(report.story.length, 1) // shrunk: one payment is enough
 * assert.match(report.text, /1\. the buyer pays order o\d with a card/)
 * assert.match(report.text, /Replay: \{ seed: 42, path: "[\d:]+" \}/)
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const checkModel = async (options: ModelOptions): Promise<ModelReport> => {
  const property = fc.asyncProperty(storyArbitrary(options), runStory(options))
  const details = await fc.check(property, {
    numRuns: options.numRuns ?? 100,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.path === undefined ? {} : { path: options.path }),
  })
  if (!details.failed)
    return {
      ok: true,
      numRuns: details.numRuns,
      seed: details.seed,
      path: undefined,
      invariant: undefined,
      problem: undefined,
      story: [],
      text: `${details.numRuns} stories, every invariant held (seed ${details.seed})`,
    }
  const error = details.errorInstance
  const broken = error instanceof InvariantBroken ? error : undefined
  const path = details.counterexamplePath ?? undefined
  return {
    ok: false,
    numRuns: details.numRuns,
    seed: details.seed,
    path,
    invariant: broken?.invariant,
    problem: broken?.problem,
    story: broken?.story ?? [],
    text: textOf(broken, error, details.seed, path),
  }
}

/**
 * `checkModel` that throws a `ModelFailure` (its message the report's text) when an
 * invariant breaks.
 *
 * @example
 * ```ts
 * import { assertModel, type MakeIntegration } from '@paykit/testkit/model'
 *
 * // an integration that does nothing is never wrong about anything
 * const idle: MakeIntegration = () => ({
 *   payOrder: async () => undefined,
 *   createLink: async () => undefined,
 *   handleWebhook: async () => ({ status: 200 }),
 *   reconcile: async () => undefined,
 *   view: () => [],
 *   log: () => [],
 * })
 * await assertModel({ integration: idle, numRuns: 20 })
 * ```
 *
 * @category constructors
 * @since 0.1.0
 */
export const assertModel = async (options: ModelOptions): Promise<ModelReport> => {
  const report = await checkModel(options)
  if (!report.ok) throw new ModelFailure(report)
  return report
}

export type { World }
