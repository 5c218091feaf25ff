/** The Payment Method resource: a card registered with the service. */
import { action, resource } from '../Action'
import * as create from './create.operation'

/** Payment Method: its operations, in the order of the Operation list. */
export const paymentMethod = resource(
  { name: 'Payment Method', value: 'paymentMethod', defaultOperation: 'create' },
  { create: action(create) },
)
