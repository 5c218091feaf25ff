/**
 * Order Event → Accept Once: each event id passes the first time and never again, through
 * n8n's own de-duplication store (the helpers of n8n's Remove Duplicates node, "processed
 * in previous executions", kept in n8n's database per node).
 *
 * n8n's store reads and then writes, with no lock, so two executions that check the same
 * id at the same moment could both pass. Inside one n8n process the node therefore runs
 * its checks for one node one after another (a queue per workflow and node), which makes
 * the check-and-record atomic where n8n runs its executions in one process (its default,
 * regular mode). What this does not cover (queue mode's workers) is written in the
 * package README.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow'
import { NodeOperationError } from 'n8n-workflow'
import {
  DEFAULT_HISTORY_SIZE,
  inTurn,
  nodeKey,
  recordProcessed,
  confirmRecorded,
} from '../../helpers/deduplication'
import { redactedNode } from '../../helpers/errors'
import type { OperationDescription, WholeBatch } from '../Action'

// -------------------------------------------------------------------------------------
// description
// -------------------------------------------------------------------------------------

/** Order Event → Accept Once: its entry in the Operation list and its fields. */
export const description: OperationDescription = {
  option: {
    name: 'Accept Once',
    action: 'Accept each order event once',
    description:
      "Pass on each event ID the first time this node sees it and drop it ever after (kept in n8n's database)",
  },
  properties: [
    {
      displayName:
        'Put this right after the Paykit Trigger: an event delivered again (a retry of the service, a replay) then runs the rest of the workflow once, across executions and restarts of n8n.',
      name: 'acceptOnceNotice',
      type: 'notice',
      default: '',
    },
    {
      displayName: 'Event ID',
      name: 'eventId',
      type: 'string',
      required: true,
      default: '={{ $json.id }}',
      description: "The event's ID, as the Paykit Trigger outputs it by default",
      // In the hint: n8n's lint upper-cases "id" and "json" in a description, not the field.
      hint: "The event's field is `id`: {{ $json.id }} after the Paykit Trigger; behind a plain Webhook node the event is the request body: {{ $json.body.id }}",
    },
    {
      displayName: 'Options',
      name: 'options',
      type: 'collection',
      placeholder: 'Add Option',
      default: {},
      options: [
        {
          displayName: 'History Size',
          name: 'historySize',
          type: 'number',
          typeOptions: { minValue: 1 },
          default: DEFAULT_HISTORY_SIZE,
          description:
            'How many event IDs are remembered; past that the oldest are forgotten. The service retries an event for far fewer than this many events.',
        },
      ],
    },
  ],
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const idOf = (ctx: IExecuteFunctions, i: number): string => {
  const value = ctx.getNodeParameter('eventId', i, '') as unknown
  const id = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : ''
  if (id === '')
    throw new NodeOperationError(
      redactedNode(ctx.getNode()),
      'eventId: is required (the Event ID parameter gave nothing for this item)',
      {
        itemIndex: i,
        description:
          "Point Event ID at the event's `id`, as the Paykit Trigger outputs it: {{ $json.id }}",
      },
    )
  return id
}

// -------------------------------------------------------------------------------------
// operation
// -------------------------------------------------------------------------------------

/** Order Event → Accept Once: the input items whose event id is new, in input order. */
const acceptOnce = async (ctx: IExecuteFunctions): Promise<INodeExecutionData[]> => {
  const items = ctx.getInputData()
  const ids = items.map((_, i) => idOf(ctx, i))
  const options = ctx.getNodeParameter('options', 0, {}) as { readonly historySize?: number }
  const historySize = Math.max(1, Math.floor(options.historySize ?? DEFAULT_HISTORY_SIZE))
  const unique = [...new Set(ids)]
  const store = { mode: 'entries', maxEntries: historySize } as const
  const checked = await inTurn(nodeKey(ctx), async () => {
    const answer = await recordProcessed(ctx, unique, store)
    // Another worker's write may have dropped these: a replay would be accepted again.
    await confirmRecorded(ctx, answer.new.map(String), store).catch(() => undefined)
    return answer
  })
  const fresh = new Set(checked.new.map(String))
  const output: INodeExecutionData[] = []
  ids.forEach((id, i) => {
    if (!fresh.delete(id)) return // seen before, or earlier in this batch
    output.push({ json: items[i]?.json ?? ({} as IDataObject), pairedItem: { item: i } })
  })
  return output
}

/** Order Event → Accept Once, over the whole batch; an AI agent never runs it. */
export const operation: WholeBatch = { concurrent: false, toolSafe: false, runBatch: acceptOnce }
