/** The Order Event resource: each order event accepted once. */
import { action, resource } from '../Action'
import * as acceptOnce from './acceptOnce.operation'

/** Order Event: its operations, in the order of the Operation list. */
export const orderEvent = resource(
  { name: 'Order Event', value: 'orderEvent', defaultOperation: 'acceptOnce' },
  { acceptOnce: action(acceptOnce) },
)
