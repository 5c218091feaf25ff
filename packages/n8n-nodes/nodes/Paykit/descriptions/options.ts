import type { INodeProperties } from 'n8n-workflow'

/** The concurrency bound of the operations that may run items side by side. */
export const DEFAULT_CONCURRENCY = 8

/** The most items in flight a user may ask for. */
export const MAX_CONCURRENCY = 64

/**
 * The `Options` collection of an operation: the time limit of each HTTP request and, for
 * operations safe to run side by side, how many items run at once, and for link creation
 * whether an uncertain failure may be sent again.
 */
export const requestOptions = (
  resource: ReadonlyArray<string>,
  operation: ReadonlyArray<string>,
  concurrent: boolean,
): INodeProperties => ({
  displayName: 'Options',
  name: 'options',
  type: 'collection',
  placeholder: 'Add Option',
  displayOptions: { show: { resource: [...resource], operation: [...operation] } },
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
          {
            displayName: 'Retry Uncertain Link Creation',
            name: 'retryUncertain',
            type: 'boolean' as const,
            displayOptions: { show: { '/operation': ['create'] } },
            default: false,
            description:
              'Whether to send a link creation again when it may have reached the service (a timeout, a dropped connection). A repeat can create a second link for the order.',
          },
        ]
      : []),
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
