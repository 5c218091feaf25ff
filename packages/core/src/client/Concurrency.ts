/**
 * Many calls with a bound on how many run at once (for example many payment links), each
 * result kept: one Either per input, in input order, so a failure never hides a success.
 *
 * @since 0.2.0
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as T from 'fp-ts/lib/Task.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'

// -------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------

/**
 * Runs `f` over `inputs` with at most `limit` calls in flight (at least 1) and resolves
 * with every result, `Left` or `Right`, at its input's index. A failed call does not stop
 * the others. `f` should never reject (a `TaskEither` does not); if it does anyway, the
 * rejection becomes a `Left` through `onRejected` (by default the reason itself), so
 * nothing is lost and the Task still resolves.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import type * as TE from 'fp-ts/lib/TaskEither.js'
 * import { traverseWithConcurrency } from '@paykit/core/client'
 * import assert from 'node:assert/strict'
 *
 * let inFlight = 0
 * let most = 0
 * const square =
 *   (n: number): TE.TaskEither<string, number> =>
 *   async () => {
 *     most = Math.max(most, ++inFlight)
 *     await new Promise((resolve) => setTimeout(resolve, 5))
 *     inFlight--
 *     return n < 0 ? E.left(`${n} is negative`) : E.right(n * n)
 *   }
 * const results = await traverseWithConcurrency(2)([1, -2, 3, 4], square)()
 * assert.deepEqual(results, [E.right(1), E.left('-2 is negative'), E.right(9), E.right(16)])
 * assert.equal(most, 2)
 * ```
 *
 * @category combinators
 * @since 0.2.0
 */
export const traverseWithConcurrency =
  (limit: number) =>
  <A, Err, B>(
    inputs: ReadonlyArray<A>,
    f: (a: A, index: number) => TE.TaskEither<Err, B>,
    onRejected: (reason: unknown, index: number) => Err = (reason) => reason as Err,
  ): T.Task<ReadonlyArray<E.Either<Err, B>>> =>
  async () => {
    const results: Array<E.Either<Err, B>> = new Array<E.Either<Err, B>>(inputs.length)
    let next = 0
    const worker = async (): Promise<void> => {
      while (next < inputs.length) {
        const index = next++
        try {
          results[index] = await f(inputs[index] as A, index)()
        } catch (reason) {
          results[index] = E.left(onRejected(reason, index))
        }
      }
    }
    const width = Math.max(1, Math.min(Math.floor(limit) || 1, inputs.length))
    await Promise.all(Array.from({ length: width }, worker))
    return results
  }
