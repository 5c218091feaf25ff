import type { INodeProperties } from 'n8n-workflow'

const forAcceptOnce = { show: { resource: ['orderEvent'], operation: ['acceptOnce'] } }

/** The most event ids Accept Once remembers, by default (n8n's Remove Duplicates' default). */
export const DEFAULT_HISTORY_SIZE = 10_000

/** Operations of the Order Event resource. */
export const orderEventOperations: INodeProperties = {
  displayName: 'Operation',
  name: 'operation',
  type: 'options',
  noDataExpression: true,
  displayOptions: { show: { resource: ['orderEvent'] } },
  options: [
    {
      name: 'Accept Once',
      value: 'acceptOnce',
      action: 'Accept each order event once',
      description:
        "Pass on each event ID the first time this node sees it and drop it ever after (kept in n8n's database)",
    },
  ],
  default: 'acceptOnce',
}

/** Fields of the Order Event operations. */
export const orderEventFields: ReadonlyArray<INodeProperties> = [
  {
    displayName:
      'Put this right after the Paykit Trigger: an event delivered again (a retry of the service, a replay) then runs the rest of the workflow once, across executions and restarts of n8n.',
    name: 'acceptOnceNotice',
    type: 'notice',
    displayOptions: forAcceptOnce,
    default: '',
  },
  {
    displayName: 'Event ID',
    name: 'eventId',
    type: 'string',
    required: true,
    displayOptions: forAcceptOnce,
    default: '={{ $json.id }}',
    description: "The event's ID; the Paykit Trigger's output has it in `ID`",
  },
  {
    displayName: 'Options',
    name: 'options',
    type: 'collection',
    placeholder: 'Add Option',
    displayOptions: forAcceptOnce,
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
]
