import type { INodeProperties } from 'n8n-workflow'
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../helpers/items'

/**
 * The `Options` collection of an operation: the time limit of each HTTP request and, for
 * an operation safe to run side by side, how many items run at once, then the operation's
 * own `extra` options (link creation: whether an uncertain failure may be sent again).
 */
export const requestOptions = (
  concurrent: boolean,
  extra: ReadonlyArray<INodeProperties>,
): INodeProperties => ({
  displayName: 'Options',
  name: 'options',
  type: 'collection',
  placeholder: 'Add Option',
  default: {},
  options: [
    ...(concurrent
      ? [
          {
            displayName: 'Concurrency',
            name: 'concurrency',
            type: 'number' as const,
            typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
            default: DEFAULT_CONCURRENCY,
            description: `How many items are sent at once (1 to ${MAX_CONCURRENCY}). Output keeps the input order.`,
          },
        ]
      : []),
    ...extra,
    {
      displayName: 'Request Timeout (Seconds)',
      name: 'timeout',
      type: 'number' as const,
      typeOptions: { minValue: 1 },
      default: 30,
      description: 'Time limit of each HTTP request',
    },
  ],
})
