/** The Charge resource: a saved card charged, and the charge completed after 3DS. */
import { action, resource } from '../Action'
import * as completeAfter3ds from './completeAfter3ds.operation'
import * as create from './create.operation'

/** Charge: its operations, in the order of the Operation list. */
export const charge = resource(
  { name: 'Charge', value: 'charge', defaultOperation: 'create' },
  {
    create: action(create),
    completeAfter3ds: action(completeAfter3ds),
  },
)
