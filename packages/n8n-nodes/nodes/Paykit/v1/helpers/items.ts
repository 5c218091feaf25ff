/**
 * Running one operation over a node's input items: every item read and validated by the
 * core before any request, then sent with a bound on how many are in flight (one at a
 * time for charges and cards), output in input order with `pairedItem`. With Continue On
 * Fail a failed item becomes an error item and the others go on; without it, nothing is
 * sent when an item is invalid, no new item starts after a failure, and the first
 * failure is thrown.
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { Client, PaykitError } from '@paykit/core/pure'
import { traverseWithConcurrency } from '@paykit/core/pure'
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow'
import { NodeOperationError } from 'n8n-workflow'
import { executionClient } from '../../../../shared/client'
import type { ItemError } from './errors'
import { errorJson, redactedNode, toNodeError } from './errors'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The concurrency bound of the operations that may run items side by side. */
export const DEFAULT_CONCURRENCY = 8

/** The most items in flight a user may ask for. */
export const MAX_CONCURRENCY = 64

/**
 * An operation of the node. `prepare` reads item `itemIndex`'s parameters and validates
 * them with the core (no request); `send` makes the calls and gives the output JSON.
 * `concurrent` says whether items may run side by side (never for a charge or a card);
 * `toolSafe` whether an AI agent may run it as a tool (nothing that moves money or takes
 * card data).
 */
export interface Operation<A> {
  readonly concurrent: boolean
  readonly toolSafe: boolean
  readonly prepare: (ctx: IExecuteFunctions, itemIndex: number) => E.Either<PaykitError, A>
  readonly send: (
    client: Client,
    input: A,
    signal: AbortSignal | undefined,
  ) => TE.TaskEither<PaykitError, IDataObject>
  /** Work after every item was sent, before the output is given; it never fails the run. */
  readonly finish?: (ctx: IExecuteFunctions) => Promise<void>
}

interface Failure {
  readonly error: ItemError
  readonly cause?: PaykitError
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const SKIPPED = Symbol('skipped after a failure')

interface RequestSettings {
  readonly concurrency?: number
  readonly timeout?: number
}

const boundOf = (requested: unknown): number => {
  const n =
    typeof requested === 'number' && Number.isFinite(requested)
      ? Math.floor(requested)
      : DEFAULT_CONCURRENCY
  return Math.min(MAX_CONCURRENCY, Math.max(1, n))
}

// -------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------

/** Runs `operation` over the input items of `ctx` and gives the node's output items. */
export const runOperation = async <A>(
  ctx: IExecuteFunctions,
  operation: Operation<A>,
): Promise<INodeExecutionData[]> => {
  const items = ctx.getInputData()
  const node = ctx.getNode()
  const continueOnFail = ctx.continueOnFail()

  const prepared: ReadonlyArray<E.Either<Failure, A>> = items.map((_, i) => {
    try {
      return E.mapLeft((cause: PaykitError) => ({ error: toNodeError(node, cause, i), cause }))(
        operation.prepare(ctx, i),
      )
    } catch (thrown) {
      // Rebuilt on the redacted node: n8n's own errors carry the node's parameters.
      const error = new NodeOperationError(redactedNode(node), (thrown as Error).message, {
        itemIndex: i,
        ...(thrown instanceof NodeOperationError && thrown.description
          ? { description: thrown.description }
          : {}),
      })
      return E.left({ error })
    }
  })
  if (!continueOnFail) {
    const invalid = prepared.find(E.isLeft)
    if (invalid !== undefined) throw invalid.left.error
  }
  if (prepared.every(E.isLeft)) return prepared.map((p, i) => errorItem(p, i))

  const settings = ctx.getNodeParameter('options', 0, {}) as RequestSettings
  const limit = operation.concurrent ? boundOf(settings.concurrency) : 1
  const timeoutMs = Math.max(1, settings.timeout ?? 30) * 1000
  const { client, credentialFailure } = await executionClient(ctx, timeoutMs)
  const signal = ctx.getExecutionCancelSignal()

  let stopped = false
  const results = await traverseWithConcurrency(limit)(
    prepared,
    (input, i): TE.TaskEither<Failure | typeof SKIPPED, IDataObject> =>
      async () => {
        if (E.isLeft(input)) return input
        if (stopped) return E.left(SKIPPED)
        const result = await operation.send(client, input.right, signal)()
        if (E.isRight(result)) return result
        if (!continueOnFail) stopped = true
        const cause = result.left
        return E.left({ error: toNodeError(node, cause, i, credentialFailure()), cause })
      },
    // A send that throws (n8n's de-duplication store failing) fails its item only.
    (reason, i) => {
      if (!continueOnFail) stopped = true
      const message = reason instanceof Error ? reason.message : String(reason)
      return { error: new NodeOperationError(redactedNode(node), message, { itemIndex: i }) }
    },
  )()
  await operation.finish?.(ctx).catch(() => undefined)

  if (!continueOnFail) {
    const failed = results.find((r): r is E.Left<Failure> => E.isLeft(r) && r.left !== SKIPPED)
    if (failed !== undefined) throw failed.left.error
  }
  return results.map((result, i) =>
    E.isRight(result)
      ? { json: result.right, pairedItem: { item: i } }
      : errorItem(result as E.Left<Failure>, i),
  )
}

const errorItem = (
  failure: E.Left<Failure> | E.Either<Failure, unknown>,
  i: number,
): INodeExecutionData => {
  const { error, cause } = (failure as E.Left<Failure>).left
  return { json: errorJson(error, cause), pairedItem: { item: i } }
}
