/**
 * One Link per Order Reference, Payment Link → Create's claim (on by default from version
 * 1.1): the service cannot look a link up by `orderReference`, so a re-run of an execution
 * (n8n's retry of a crashed or failed one, the user's) would create a second link for every
 * order it had done. Each reference is recorded in n8n's de-duplication store
 * (`helpers/deduplication`) just BEFORE its request: a crash between the record and the
 * request leaves that order without a link, never with two. A reference recorded before
 * comes out on the Already Requested output; a creation the service refused (nothing
 * created) is forgotten so a corrected run can create it; one whose outcome is unknown
 * stays recorded.
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { PaykitError } from '@paykit/core/pure'
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow'
import type { ReferenceMemory } from '../../helpers/deduplication'
import { DEFAULT_HISTORY_SIZE, referenceMemory } from '../../helpers/deduplication'
import type { Outputs } from '../Action'
import { outputsShown } from '../Action'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The claim of one item: the reference to record, in the run's memory, and Create Again. */
export interface Claim {
  readonly memory: ReferenceMemory
  readonly reference: string
  readonly again: boolean
}

// -------------------------------------------------------------------------------------
// claims
// -------------------------------------------------------------------------------------

/** One memory per node run: `prepare` sees each item, the run's claims go together. */
const memories = new WeakMap<IExecuteFunctions, ReferenceMemory>()

const memoryOf = (ctx: IExecuteFunctions): ReferenceMemory => {
  const known = memories.get(ctx)
  if (known !== undefined) return known
  const size = ctx.getNodeParameter('options.referenceHistorySize', 0, DEFAULT_HISTORY_SIZE)
  const memory = referenceMemory(ctx, Math.max(1, Math.floor(Number(size) || DEFAULT_HISTORY_SIZE)))
  memories.set(ctx, memory)
  return memory
}

/** The claim of item `i` on `orderReference`, when One Link per Order Reference is on. */
export const claimOf = (
  ctx: IExecuteFunctions,
  i: number,
  orderReference: string | undefined,
): Claim | undefined => {
  if (ctx.getNodeParameter('oneLinkPerReference', 0, false) !== true) return undefined
  if (orderReference === undefined || orderReference === '') return undefined
  const again = ctx.getNodeParameter('options.createAgain', i, false) === true
  return { memory: memoryOf(ctx), reference: orderReference, again }
}

/**
 * `create` under `claim`: recorded first, then sent; forgotten again when the service
 * refused it (nothing was created), confirmed otherwise. A reference recorded before gives
 * `{ orderReference, alreadyRequested: true }` and sends nothing.
 */
export const createOnce =
  (
    claim: Claim,
    create: TE.TaskEither<PaykitError, IDataObject>,
  ): TE.TaskEither<PaykitError, IDataObject> =>
  async () => {
    const { memory, reference, again } = claim
    const fresh = await memory.claim(reference, again).catch((reason: unknown) => {
      throw new Error(
        `Could not record the order reference in n8n's de-duplication store, so nothing was sent: ${reason instanceof Error ? reason.message : String(reason)}`,
      )
    })
    if (!fresh) return E.right({ orderReference: reference, alreadyRequested: true })
    const result = await create()
    // If forgetting fails the reference stays recorded: the safe side (no second link).
    if (E.isLeft(result) && !result.left.outcomeUnknown)
      await memory.release(reference).catch(() => undefined)
    // Another worker's write of n8n's row may have dropped the record meanwhile: it is
    // checked (and made again) beside the next items; the run's end waits for the checks.
    else memory.confirm(reference)
    return result
  }

/** Waits for the run's record checks (the end of the node's run). */
export const settleClaims = async (ctx: IExecuteFunctions): Promise<void> => {
  await memories.get(ctx)?.settle()
}

// -------------------------------------------------------------------------------------
// outputs
// -------------------------------------------------------------------------------------

/** Created and Already Requested, when One Link per Order Reference is on. */
export const outputs: Outputs = {
  field: 'oneLinkPerReference',
  is: true,
  names: ['Created', 'Already Requested'],
}

/**
 * Link creation items: created links (and error items of Continue On Fail) on Created,
 * the items whose order reference an earlier run requested on Already Requested.
 */
const byAlreadyRequested = (items: ReadonlyArray<INodeExecutionData>): INodeExecutionData[][] => [
  items.filter((item) => item.json.alreadyRequested !== true),
  items.filter((item) => item.json.alreadyRequested === true),
]

/**
 * The items on Created and Already Requested when One Link per Order Reference is on. An
 * AI agent reads the first output only: there it gets the Already Requested items too.
 */
export const route = (
  ctx: IExecuteFunctions,
  items: INodeExecutionData[],
): INodeExecutionData[][] =>
  outputsShown(outputs)(ctx.getNodeParameter(outputs.field, 0, false)) && !ctx.isToolExecution()
    ? byAlreadyRequested(items)
    : [items]
